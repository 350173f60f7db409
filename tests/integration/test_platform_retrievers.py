"""Retrievers over real HTTP: hybrid search in force on as_of, graph walks, policy."""

from __future__ import annotations

import sqlite3
from datetime import date
from typing import TYPE_CHECKING, Any

import pytest

from embedded.ontul.dates import epoch_day
from embedded.ontul.testing import call, copy_database, login, persona_password

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from embedded.ontul.server import OntulServer

SEARCH = "/api/v1/retrievers/semantic.rag.regulation_search/invoke"
TRACE = "/api/v1/retrievers/semantic.rag.authority_trace/invoke"
IMPACT = "/api/v1/retrievers/semantic.rag.impact_analysis/invoke"


def invoke(server: OntulServer, token: str, path: str, args: dict[str, Any]) -> dict[str, Any]:
    resp = call(server.url, token, path, {"args": args})
    assert resp.status_code == 200, resp.text
    return dict(resp.json())


def records(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(zip(data["columns"], row, strict=True)) for row in data["rows"]]


def test_restricted_document_search(
    ontul_server: OntulServer, token_of: Callable[[str], str], ground_truth: dict[str, Any]
) -> None:
    doc = ground_truth["restricted"]["doc_no"]
    args = {"q": "징계 양정기준", "k": 10}
    cho = records(invoke(ontul_server, token_of("cho"), SEARCH, args))
    assert doc in {r["doc_no"] for r in cho}
    for persona in ("hong", "park"):
        hits = records(invoke(ontul_server, token_of(persona), SEARCH, args))
        assert all(h["doc_no"] not in ground_truth["restricted"]["doc_nos"] for h in hits)


def test_version_in_force_on_as_of(
    ontul_server: OntulServer, token_of: Callable[[str], str], ground_truth: dict[str, Any]
) -> None:
    cc = ground_truth["childcare"]
    past = records(
        invoke(
            ontul_server, token_of("hong"), SEARCH, {"q": "육아휴직 기간", "as_of": "2025-01-10"}
        )
    )
    assert {h["version"] for h in past if h["doc_no"] == cc["doc_no"]} == {2}
    now = records(invoke(ontul_server, token_of("hong"), SEARCH, {"q": "육아휴직 기간"}))
    current = [h for h in now if h["doc_no"] == cc["doc_no"]]
    assert current and {h["version"] for h in current} == {3}
    # DATE columns arrive as epoch days, as from the real engine
    assert current[0]["effective_from"] == epoch_day(cc["current_effective"])
    assert current[0]["stated_from"] == epoch_day(cc["current_stated"])
    assert current[0]["date_mismatch"] == 1


def test_non_citable_never_returned(
    ontul_server: OntulServer, token_of: Callable[[str], str], ground_truth: dict[str, Any]
) -> None:
    minutes = set(ground_truth["minutes"]["doc_nos"])
    for q in ("육아휴직 회의", "회의록 논의", "연차휴가 이월 논의"):
        hits = records(invoke(ontul_server, token_of("cho"), SEARCH, {"q": q, "k": 20}))
        assert not minutes & {h["doc_no"] for h in hits}


def test_prose_redacted_for_general(
    ontul_server: OntulServer, token_of: Callable[[str], str], ground_truth: dict[str, Any]
) -> None:
    notice = ground_truth["notice"]
    args = {"q": "연말정산 담당자 연락처 문의", "k": 20}
    cho = " ".join(h["body"] for h in records(invoke(ontul_server, token_of("cho"), SEARCH, args)))
    assert notice["phone"] in cho
    hong_hits = records(invoke(ontul_server, token_of("hong"), SEARCH, args))
    assert notice["doc_no"] in {h["doc_no"] for h in hong_hits}
    text = " ".join(h["body"] for h in hong_hits)
    assert notice["phone"] not in text and notice["national_id"] not in text
    assert notice["phone_redacted"] in text


def test_nothing_matches_is_empty(
    ontul_server: OntulServer, token_of: Callable[[str], str]
) -> None:
    data = invoke(ontul_server, token_of("hong"), SEARCH, {"q": "zzqxv"})
    assert data["rowCount"] == 0 and data["rows"] == []


def test_authority_trace_policy(
    ontul_server: OntulServer, token_of: Callable[[str], str], ground_truth: dict[str, Any]
) -> None:
    r = ground_truth["restricted"]
    ids = ground_truth["doc_ids"]
    cho = records(invoke(ontul_server, token_of("cho"), TRACE, {"doc_id": ids[r["doc_no"]]}))
    assert cho[0] == {**cho[0], "depth": 0, "doc_no": r["doc_no"]}
    assert r["parent_doc_no"] in {x["doc_no"] for x in cho}
    for persona in ("hong", "park"):
        assert (
            invoke(ontul_server, token_of(persona), TRACE, {"doc_id": ids[r["doc_no"]]})["rows"]
            == []
        )


def test_authority_chain_depth(
    ontul_server: OntulServer, token_of: Callable[[str], str], ground_truth: dict[str, Any]
) -> None:
    a = ground_truth["authority"]
    rows = records(
        invoke(
            ontul_server, token_of("hong"), TRACE, {"doc_id": ground_truth["doc_ids"][a["doc_no"]]}
        )
    )
    assert [x["doc_no"] for x in rows] == a["chain"]
    assert [x["depth"] for x in rows] == list(range(len(a["chain"])))


def test_impact_analysis(
    ontul_server: OntulServer, token_of: Callable[[str], str], ground_truth: dict[str, Any]
) -> None:
    imp = ground_truth["impact"]
    rows = records(
        invoke(
            ontul_server,
            token_of("cho"),
            IMPACT,
            {"doc_id": ground_truth["doc_ids"][imp["doc_no"]]},
        )
    )
    assert {x["doc_no"] for x in rows if x["depth"] > 0} == set(imp["dependents"])
    assert len(imp["direct"]) >= 3


def test_graph_walk_is_cycle_safe(
    demo_database: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    from embedded.ontul.server import OntulServer

    db = copy_database(demo_database[0], tmp_path)
    chain = demo_database[1]["authority"]["chain"]
    conn = sqlite3.connect(db)
    conn.execute("INSERT INTO regulation_links VALUES (?, ?)", (chain[-1], chain[0]))
    conn.commit()
    conn.close()
    server = OntulServer(db, today=date.today()).start()
    try:
        token = login(server.url, "cho", persona_password("cho"))
        rows = records(
            invoke(server, token, TRACE, {"doc_id": demo_database[1]["doc_ids"][chain[0]]})
        )
        assert [x["doc_no"] for x in rows] == chain
        down = records(
            invoke(server, token, IMPACT, {"doc_id": demo_database[1]["doc_ids"][chain[0]]})
        )
        assert len({x["doc_no"] for x in down}) == len(down)
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        (SEARCH, {"args": {}}, 400),
        (SEARCH, {"args": {"q": 5}}, 400),
        (SEARCH, {"args": {"q": "x", "as_of": "yesterday"}}, 400),
        (TRACE, {"args": {"doc_id": "HR-REG-003"}}, 400),
        (SEARCH, {"args": {"q": "x", "k": "5"}}, 400),
        (TRACE, {"args": {}}, 400),
        ("/api/v1/retrievers/semantic.rag.nope/invoke", {"args": {}}, 404),
    ],
)
def test_bad_retriever_input(
    ontul_server: OntulServer,
    token_of: Callable[[str], str],
    path: str,
    body: dict[str, Any],
    status: int,
) -> None:
    resp = call(ontul_server.url, token_of("hong"), path, body)
    assert resp.status_code == status
    assert resp.json()["error"]


def test_hidden_rows_never_influence_ranking(
    ontul_server: OntulServer,
    token_of: Callable[[str], str],
    demo_database: tuple[Path, dict[str, Any]],
    tmp_path: Path,
) -> None:
    """Many more restricted chunks full of the query's terms: cho's ranking moves,
    hong's (who cannot see them) stays identical to the last digit."""
    from embedded.ontul.server import OntulServer

    truth = demo_database[1]
    restricted = truth["restricted"]["doc_nos"]
    db = copy_database(demo_database[0], tmp_path)
    conn = sqlite3.connect(db)
    top = conn.execute("SELECT max(chunk_id) FROM regulation_chunks").fetchone()[0]
    marks = ",".join("?" for _ in restricted)
    for i in range(1, 31):
        conn.execute(
            "INSERT INTO regulation_chunks SELECT chunk_id + ?, doc_no, version, article_no, "
            "article_title, body || ' 징계 양정 육아휴직 기간 연차휴가', "
            f"body_redacted FROM regulation_chunks WHERE doc_no IN ({marks}) AND chunk_id <= ?",
            (i * top, *restricted, top),
        )
    conn.commit()
    conn.close()
    stuffed = OntulServer(db, today=date.today()).start()
    try:
        queries = ["징계 양정기준", "육아휴직 기간", "연차휴가 이월 기간"]
        args = [{"q": q, "k": 20} for q in queries]
        cho_before = [invoke(ontul_server, token_of("cho"), SEARCH, a)["rows"] for a in args]
        cho_token = login(stuffed.url, "cho", persona_password("cho", truth))
        cho_after = [invoke(stuffed, cho_token, SEARCH, a)["rows"] for a in args]
        assert cho_before != cho_after  # the extra rows matter to someone who sees them
        hong_token = login(stuffed.url, "hong", persona_password("hong", truth))
        for a in args:
            before = invoke(ontul_server, token_of("hong"), SEARCH, a)["rows"]
            assert before
            assert invoke(stuffed, hong_token, SEARCH, a)["rows"] == before, a["q"]
        # and the raw BM25 scores of hong's candidates, not just the fused ranks
        from embedded.ontul.auth import UserStore
        from embedded.ontul.retrievers import SEARCH as SEARCH_FQN
        from embedded.ontul.retrievers import _candidates

        for server in (ontul_server, stuffed):
            hong = UserStore(server.db_path).get("hong")
            assert hong is not None
            decision = server.ctx.engine.decide(hong, "data:SelectTable", SEARCH_FQN)
            cands = _candidates(server.ctx, decision, server.today, None)
            rows, scores = server.ctx.index.lexical_scores(queries[0], cands)
            chunk_ids = server.ctx.index.chunk_ids[rows].tolist()
            if server is ontul_server:
                expected = dict(zip(chunk_ids, scores.tolist(), strict=True))
                assert expected
            else:
                assert dict(zip(chunk_ids, scores.tolist(), strict=True)) == expected
    finally:
        stuffed.stop()


def test_graph_retrievers_take_the_integer_doc_id(
    ontul_server: OntulServer, token_of: Callable[[str], str], ground_truth: dict[str, Any]
) -> None:
    """As in the real deployment: doc_id is doc_index's integer; its digit string is accepted."""
    a = ground_truth["authority"]
    doc_id = ground_truth["doc_ids"][a["doc_no"]]
    as_int = records(invoke(ontul_server, token_of("hong"), TRACE, {"doc_id": doc_id}))
    as_text = records(invoke(ontul_server, token_of("hong"), TRACE, {"doc_id": str(doc_id)}))
    assert as_int == as_text and [x["doc_no"] for x in as_int] == a["chain"]
    assert {"depth", "doc_no", "title", "owner_dept"} <= set(as_int[0])


def test_quirks_mode_reproduces_the_empty_match_failure(
    demo_database: tuple[Path, dict[str, Any]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ONTUL_QUIRKS=real: a search with no lexical match fails as the real engine does."""
    from embedded.ontul.server import OntulServer

    monkeypatch.setenv("ONTUL_QUIRKS", "real")
    server = OntulServer(copy_database(demo_database[0], tmp_path), today=date.today()).start()
    try:
        token = login(server.url, "hong", persona_password("hong", demo_database[1]))
        miss = call(server.url, token, SEARCH, {"args": {"q": "zzqxv"}})
        assert miss.status_code == 400
        assert 'SQL parse error: Encountered "WHERE"' in miss.json()["error"]
        hit = invoke(server, token, SEARCH, {"q": "육아휴직 기간"})
        assert hit["rowCount"] > 0
    finally:
        server.stop()
