"""The same conformance checks through RegDesk's own nine tools (agent_core.tools).

Each test is named after the tool it exercises (``test_<tool>__<check>``) and runs
as hong, park and cho in both quirk modes. A restricted document must read as
"nothing you may see" (status empty), never as an error.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest
from conformance_facts import EPOCH_DAY_NEAR_DATE, HR_RULE_DOC_NO, NO_MATCH_QUESTION, Facts, leaked

from agent_core.platform_client import PlatformClient
from agent_core.tools import ToolResult, build_tools

if TYPE_CHECKING:
    from collections.abc import Iterator

    from conftest import ConformanceStack

    from agent_core.tools import Tool

ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@pytest.fixture(scope="module")
def rd_tools(conformance: ConformanceStack) -> Iterator[dict[str, dict[str, Tool]]]:
    """``rd_tools[persona][tool_name]``: RegDesk's tools, logged in as each persona."""
    clients = []
    out: dict[str, dict[str, Tool]] = {}
    for name in ("hong", "park", "cho"):
        client = PlatformClient(conformance.ontul_url, name, conformance.password(name))
        client.login()
        clients.append(client)
        out[name] = build_tools(client, name)
    yield out
    for client in clients:
        client.close()


@pytest.fixture
def facts(conformance: ConformanceStack) -> Facts:
    """Ground-truth facts of the running stack."""
    return Facts(conformance.truth)


def run(
    tools: dict[str, dict[str, Tool]], persona: str, name: str, facts: Facts, **args: Any
) -> ToolResult:
    """Run one RegDesk tool as ``persona``; check it leaked nothing and shows ISO dates."""
    result = tools[persona][name].run(args)
    text = json.dumps(result.payload, ensure_ascii=False)
    assert not leaked(text, facts, persona), f"{persona} was shown {leaked(text, facts, persona)}"
    assert not EPOCH_DAY_NEAR_DATE.search(text), text[:300]
    for key, value in _dated(result.payload):
        assert value is None or (isinstance(value, str) and ISO.match(value)), (key, value)
    return result


def _dated(value: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    """Every (key, value) whose key names a date, anywhere in a payload."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k.endswith(("_from", "_to")) or k in ("as_of",):
                yield k, v
            else:
                yield from _dated(v, k)
    elif isinstance(value, list):
        for item in value:
            yield from _dated(item, key)


def ok(result: ToolResult) -> dict[str, Any]:
    """The payload of a result that is neither empty nor an error."""
    assert result.status == "ok", result.payload
    return result.payload


def empty(result: ToolResult) -> dict[str, Any]:
    """The payload of an empty result: "not available to you", never an error."""
    assert result.status == "empty", result.payload
    return result.payload


def doc_nos(rows: list[dict[str, Any]]) -> list[str]:
    """The doc_no of every row."""
    return [str(r.get("doc_no")) for r in rows]


# -- search_regulations --------------------------------------------------------


def test_search_regulations__today(rd_tools: Any, facts: Facts, persona: str) -> None:
    hits = ok(run(rd_tools, persona, "search_regulations", facts, question="육아휴직 기간"))["hits"]
    doc_no = facts.childcare["doc_no"]
    mine = [h for h in hits if h["doc_no"] == doc_no]
    assert mine and {h["version"] for h in mine} == {facts.current_version}, hits
    assert {h["effective_from"] for h in mine} == {facts.current_from}


def test_search_regulations__past_date(rd_tools: Any, facts: Facts, persona: str) -> None:
    payload = ok(run(rd_tools, persona, "search_regulations", facts, question="육아휴직 기간",
                     as_of=facts.past_date))  # fmt: skip
    mine = [h for h in payload["hits"] if h["doc_no"] == facts.childcare["doc_no"]]
    assert mine and {h["version"] for h in mine} == {facts.old_version}, payload
    assert payload["as_of"] == facts.past_date


def test_search_regulations__restricted(rd_tools: Any, facts: Facts, persona: str) -> None:
    restricted = facts.truth["restricted"]["doc_no"]

    def seen(name: str) -> list[str]:
        result = run(rd_tools, name, "search_regulations", facts, question="징계 양정기준")
        assert result.status != "error", result.payload
        return doc_nos(result.payload["hits"])

    assert restricted in seen(facts.control), "positive control: cho finds the guideline"
    if persona != facts.control:
        assert restricted not in seen(persona)


def test_search_regulations__no_lexical_match(rd_tools: Any, facts: Facts, persona: str) -> None:
    empty(run(rd_tools, persona, "search_regulations", facts, question=NO_MATCH_QUESTION))


# -- get_effective_version -----------------------------------------------------


def _version(rd_tools: Any, facts: Facts, persona: str, doc_no: str, **args: Any) -> Any:
    result = run(rd_tools, persona, "get_effective_version", facts, doc_no=doc_no, **args)
    assert result.status != "error", result.payload
    return result.payload["version"]


def test_get_effective_version__today(rd_tools: Any, facts: Facts, persona: str) -> None:
    version = _version(rd_tools, facts, persona, facts.childcare["doc_no"])
    assert version and version["version"] == facts.current_version, version
    assert version["effective_from"] == facts.current_from
    assert version["stated_from"] == facts.childcare["current_stated"]
    assert version["date_mismatch"] is True


def test_get_effective_version__past_date(rd_tools: Any, facts: Facts, persona: str) -> None:
    version = _version(rd_tools, facts, persona, facts.childcare["doc_no"], as_of=facts.past_date)
    assert version and version["version"] == facts.old_version, version


def test_get_effective_version__last_day_of_a_version(
    rd_tools: Any, facts: Facts, persona: str
) -> None:
    doc_no = facts.childcare["doc_no"]
    last = _version(rd_tools, facts, persona, doc_no, as_of=facts.old_last_day)
    first = _version(rd_tools, facts, persona, doc_no, as_of=facts.current_from)
    assert last and last["version"] == facts.old_version, last
    assert first and first["version"] == facts.current_version, first


def test_get_effective_version__restricted(rd_tools: Any, facts: Facts, persona: str) -> None:
    restricted = facts.truth["restricted"]["doc_no"]
    control = run(rd_tools, facts.control, "get_effective_version", facts, doc_no=restricted)
    assert ok(control)["version"], f"positive control: {control.payload}"
    if persona != facts.control:
        result = run(rd_tools, persona, "get_effective_version", facts, doc_no=restricted)
        assert empty(result)["version"] is None


# -- trace_authority -----------------------------------------------------------


def test_trace_authority__two_levels(rd_tools: Any, facts: Facts, persona: str) -> None:
    chain = facts.truth["authority"]["chain"]
    rows = ok(run(rd_tools, persona, "trace_authority", facts, doc_no=chain[0]))["chain"]
    assert len(chain) >= 3
    assert set(chain[1:]) <= set(doc_nos(rows)), rows
    assert chain[0] not in doc_nos(rows)


def test_trace_authority__restricted(rd_tools: Any, facts: Facts, persona: str) -> None:
    restricted = facts.truth["restricted"]
    control = run(rd_tools, facts.control, "trace_authority", facts, doc_no=restricted["doc_no"])
    assert restricted["parent_doc_no"] in doc_nos(ok(control)["chain"]), control.payload
    if persona != facts.control:
        result = run(rd_tools, persona, "trace_authority", facts, doc_no=restricted["doc_no"])
        assert empty(result)["chain"] == []


def test_trace_authority__quoted_argument(rd_tools: Any, facts: Facts, persona: str) -> None:
    # The doc_no reaches SQL only as a quoted literal: a quote in it matches nothing.
    restricted = facts.truth["restricted"]["doc_no"]
    for doc_no in (
        f"{restricted}' OR '1'='1",
        "x' UNION SELECT doc_id FROM semantic.reg.doc_index --",
    ):
        result = run(rd_tools, persona, "trace_authority", facts, doc_no=doc_no)
        assert empty(result)["chain"] == [], result.payload


# -- impact_of_change ----------------------------------------------------------


def test_impact_of_change__three_dependents(rd_tools: Any, facts: Facts, persona: str) -> None:
    impact = facts.truth["impact"]
    rows = ok(run(rd_tools, persona, "impact_of_change", facts, doc_no=impact["doc_no"]))
    found = doc_nos(rows["dependents"])
    assert len(found) >= 3 and set(impact["direct"]) <= set(found), found


def test_impact_of_change__restricted(rd_tools: Any, facts: Facts, persona: str) -> None:
    restricted = facts.truth["restricted"]["doc_no"]

    def seen(name: str) -> list[str]:
        rows = ok(run(rd_tools, name, "impact_of_change", facts, doc_no=HR_RULE_DOC_NO))
        return doc_nos(rows["dependents"])

    assert restricted in seen(facts.control), "positive control: cho sees the guideline"
    if persona != facts.control:
        assert restricted not in seen(persona)


# -- query_hr ------------------------------------------------------------------


def _query(rd_tools: Any, facts: Facts, persona: str, sql: str) -> list[dict[str, Any]]:
    payload = ok(run(rd_tools, persona, "query_hr", facts, question_sql=sql))
    return [dict(zip(payload["columns"], row, strict=True)) for row in payload["rows"]]


def test_query_hr__row_filters(rd_tools: Any, facts: Facts, persona: str) -> None:
    rows = _query(rd_tools, facts, persona,
                  "SELECT 부서, count(DISTINCT 사번) AS 인원 FROM semantic.hr.leave_balance "
                  "GROUP BY 부서 ORDER BY 부서")  # fmt: skip
    by_dept = {r["부서"]: int(r["인원"]) for r in rows}
    if persona == "hong":
        assert by_dept == {"DEV": 1}, by_dept
    elif persona == "park":
        assert set(by_dept) == {"DEV"} and by_dept["DEV"] > 1, by_dept
    else:
        assert len(by_dept) > 1 and "HR" in by_dept, by_dept


def test_query_hr__real_columns(rd_tools: Any, facts: Facts, persona: str) -> None:
    emp_no = facts.persona("hong")["emp_no"]
    rows = _query(rd_tools, facts, persona,
                  "SELECT 사번, 성명, 부서, 휴가종류, 부여일수_ERP, 사용일수 "
                  f"FROM semantic.hr.leave_balance WHERE 사번 = '{emp_no}' "
                  "AND 휴가종류 = '육아휴직'")  # fmt: skip
    assert [int(r["사용일수"]) for r in rows] == [facts.truth["demo_employee"]["used"]]
    own = _query(rd_tools, facts, persona, "SELECT 사번, 입사일 FROM semantic.hr.employees")
    assert facts.persona(persona)["emp_no"] in {r["사번"] for r in own}
    assert all(ISO.match(str(r["입사일"])) for r in own), own[:3]  # epoch days shown as ISO


def test_query_hr__denied_and_masked_columns(rd_tools: Any, facts: Facts, persona: str) -> None:
    denied = run(rd_tools, persona, "query_hr", facts,
                 question_sql="SELECT 사번, 주민등록번호 FROM semantic.hr.employees")  # fmt: skip
    assert denied.status == "error", denied.payload
    assert _query(rd_tools, facts, persona, "SELECT 사번, 연락처 FROM semantic.hr.employees")


# -- pending_revision ----------------------------------------------------------


def test_pending_revision__one_document(rd_tools: Any, facts: Facts, persona: str) -> None:
    doc_no = facts.childcare["doc_no"]
    rows = ok(run(rd_tools, persona, "pending_revision", facts, doc_no=doc_no))["pending"]
    by_version = {r["version"]: r for r in rows}
    assert by_version[facts.next_version]["status"] == "APPROVED", rows
    assert by_version[facts.next_version]["effective_from"] == facts.childcare["next_effective"]
    assert by_version[facts.draft_version]["status"] == "DRAFT", rows
    assert set(doc_nos(rows)) == {doc_no}


def test_pending_revision__all(rd_tools: Any, facts: Facts, persona: str) -> None:
    rows = ok(run(rd_tools, persona, "pending_revision", facts))["pending"]
    shown = {(r["doc_no"], r["version"]): r["status"] for r in rows}
    for entry in facts.truth.get("pending") or []:
        key = (entry["doc_no"], entry["version"])
        if entry.get("restricted") and not facts.sees_restricted(persona):
            assert key not in shown, key
        else:
            assert shown.get(key) == entry["stage"], (key, shown)  # REJECTED stays listed


# -- describe_regulation -------------------------------------------------------


def test_describe_regulation__versions(rd_tools: Any, facts: Facts, persona: str) -> None:
    cc = facts.childcare
    payload = ok(run(rd_tools, persona, "describe_regulation", facts, doc_no=cc["doc_no"]))
    assert payload["regulation"]["title"] == cc["title"]
    versions = {v["version"]: v for v in payload["versions"]}
    assert versions[facts.current_version]["effective_from"] == facts.current_from
    assert facts.old_version in versions


def test_describe_regulation__restricted(rd_tools: Any, facts: Facts, persona: str) -> None:
    restricted = facts.truth["restricted"]["doc_no"]
    control = run(rd_tools, facts.control, "describe_regulation", facts, doc_no=restricted)
    assert ok(control)["regulation"]["doc_no"] == restricted, "positive control"
    if persona != facts.control:
        result = run(rd_tools, persona, "describe_regulation", facts, doc_no=restricted)
        assert empty(result)["regulation"] is None


# -- related_regulations -------------------------------------------------------


def test_related_regulations__graph(rd_tools: Any, facts: Facts, persona: str) -> None:
    chain = facts.truth["authority"]["chain"]
    rows = ok(run(rd_tools, persona, "related_regulations", facts, doc_no=chain[0], depth=2))
    assert set(chain[1:3]) <= set(doc_nos(rows["related"])), rows


def test_related_regulations__restricted(rd_tools: Any, facts: Facts, persona: str) -> None:
    restricted = facts.truth["restricted"]
    control = run(
        rd_tools, facts.control, "related_regulations", facts, doc_no=restricted["doc_no"]
    )
    assert restricted["parent_doc_no"] in doc_nos(ok(control)["related"]), control.payload
    if persona != facts.control:
        result = run(rd_tools, persona, "related_regulations", facts, doc_no=restricted["doc_no"])
        assert empty(result)["related"] == []


# -- request_regulation_revision -----------------------------------------------


def test_request_regulation_revision__write_and_replay(
    rd_tools: Any, facts: Facts, persona: str, conformance: ConformanceStack
) -> None:
    doc_no, version = facts.write_target(persona)
    args = {"doc_no": doc_no, "version": version, "reason": "conformance: 개정 필요성 검토 요청"}
    first = ok(run(rd_tools, persona, "request_regulation_revision", facts, **args))
    second = ok(run(rd_tools, persona, "request_regulation_revision", facts, **args))
    assert (first["status"], second["status"]) == ("OK", "REPLAYED")
    assert first["idempotency_key"] == second["idempotency_key"]
    rows = conformance.ledger(doc_no, version)
    assert rows == [(persona, first["idempotency_key"])]
