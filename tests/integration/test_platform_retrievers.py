"""Retrievers over real HTTP: hybrid search in force on as_of, graph walks, policy."""

from __future__ import annotations

import sqlite3
from datetime import date
from typing import TYPE_CHECKING, Any

import pytest

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
    past = records(invoke(ontul_server, token_of("hong"), SEARCH,
                          {"q": "육아휴직 기간", "as_of": "2025-01-10"}))
    assert {h["version"] for h in past if h["doc_no"] == cc["doc_no"]} == {2}
    now = records(invoke(ontul_server, token_of("hong"), SEARCH, {"q": "육아휴직 기간"}))
    current = [h for h in now if h["doc_no"] == cc["doc_no"]]
    assert current and {h["version"] for h in current} == {3}
    assert current[0]["effective_from"] == cc["current_effective"]
    assert current[0]["stated_from"] == cc["current_stated"]
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
    cho = records(invoke(ontul_server, token_of("cho"), TRACE, {"doc_id": r["doc_no"]}))
    assert cho[0] == {**cho[0], "depth": 0, "doc_no": r["doc_no"]}
    assert r["parent_doc_no"] in {x["doc_no"] for x in cho}
    for persona in ("hong", "park"):
        assert invoke(ontul_server, token_of(persona), TRACE, {"doc_id": r["doc_no"]})["rows"] == []


def test_authority_chain_depth(
    ontul_server: OntulServer, token_of: Callable[[str], str], ground_truth: dict[str, Any]
) -> None:
    a = ground_truth["authority"]
    rows = records(invoke(ontul_server, token_of("hong"), TRACE, {"doc_id": a["doc_no"]}))
    assert [x["doc_no"] for x in rows] == a["chain"]
    assert [x["depth"] for x in rows] == list(range(len(a["chain"])))


def test_impact_analysis(
    ontul_server: OntulServer, token_of: Callable[[str], str], ground_truth: dict[str, Any]
) -> None:
    imp = ground_truth["impact"]
    rows = records(invoke(ontul_server, token_of("cho"), IMPACT, {"doc_id": imp["doc_no"]}))
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
        rows = records(invoke(server, token, TRACE, {"doc_id": chain[0]}))
        assert [x["doc_no"] for x in rows] == chain
        down = records(invoke(server, token, IMPACT, {"doc_id": chain[0]}))
        assert len({x["doc_no"] for x in down}) == len(down)
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        (SEARCH, {"args": {}}, 400),
        (SEARCH, {"args": {"q": 5}}, 400),
        (SEARCH, {"args": {"q": "x", "as_of": "yesterday"}}, 400),
        (SEARCH, {"args": {"q": "x", "k": "5"}}, 400),
        (TRACE, {"args": {}}, 400),
        ("/api/v1/retrievers/semantic.rag.nope/invoke", {"args": {}}, 404),
    ],
)
def test_bad_retriever_input(
    ontul_server: OntulServer, token_of: Callable[[str], str],
    path: str, body: dict[str, Any], status: int,
) -> None:
    resp = call(ontul_server.url, token_of("hong"), path, body)
    assert resp.status_code == status
    assert resp.json()["error"]
