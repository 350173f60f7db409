"""The reference client's nine tools, unchanged, against the embedded platform.

Each test is named after the tool it exercises (``test_<tool>__<check>``) and runs
as hong, park and cho in both quirk modes; expected facts come from ground truth.
The tools are the reference's ``@beta_tool`` objects, called through the SDK's
``BetaFunctionTool.call`` exactly as its tool runner would.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from conformance_facts import (
    EPOCH_DAY_NEAR_DATE,
    HR_RULE_DOC_NO,
    NO_MATCH_QUESTION,
    Facts,
    leaked,
)

if TYPE_CHECKING:
    from types import ModuleType

    from conftest import ConformanceStack

NOT_LISTED = "규정 목록에 없습니다"
NO_VERSION = "유효한 버전이 없습니다"


@pytest.fixture(scope="module")
def ref_tools(reference: ModuleType, conformance: ConformanceStack) -> dict[str, dict[str, Any]]:
    """``ref_tools[persona][tool_name]``: the reference tools bound to each persona."""
    from regdemo_agent.client import Caller, OntulClient
    from regdemo_agent.tools.registry import build_tools

    client = OntulClient(base_url=conformance.ontul_url)
    out: dict[str, dict[str, Any]] = {}
    for name, record in conformance.truth["personas"].items():
        if record.get("is_admin") or not record.get("active", True):
            continue
        client.register_password(name, str(record["password"]))
        caller = Caller(
            user_id=name,
            emp_no=str(record["emp_no"]),
            dept=str(record["dept"]),
            clearance=str(record.get("clearance") or "none"),
        )
        out[name] = {t.name: t for t in build_tools(client, caller)}
    return out


@pytest.fixture
def facts(conformance: ConformanceStack) -> Facts:
    """Ground-truth facts of the running stack."""
    return Facts(conformance.truth)


def call(tools: dict[str, dict[str, Any]], persona: str, name: str, **args: Any) -> str:
    """Call one reference tool as ``persona`` and return its text."""
    result = tools[persona][name].call(args)
    assert isinstance(result, str), f"{name} returned {type(result).__name__}"
    return result


def clean(text: str, facts: Facts, persona: str) -> str:
    """Assert the text shows no canary of ``persona`` and no epoch day as a date."""
    assert not leaked(text, facts, persona), f"{persona} was shown {leaked(text, facts, persona)}"
    assert not EPOCH_DAY_NEAR_DATE.search(text), f"epoch day rendered as a date: {text[:300]}"
    return text


def header_of(text: str, doc_no: str, version: int) -> re.Pattern[str]:
    """A search hit's header ``[HR-REG-003 제3차 ... 시행 2025-03-15]``."""
    return re.compile(rf"\[{re.escape(doc_no)} 제{version}차 [^\]]*시행 \d{{4}}-\d{{2}}-\d{{2}}\]")


# -- search_regulations --------------------------------------------------------


def test_search_regulations__today(ref_tools: Any, facts: Facts, persona: str) -> None:
    text = clean(
        call(ref_tools, persona, "search_regulations", question="육아휴직 기간"), facts, persona
    )
    doc_no = facts.childcare["doc_no"]
    assert header_of(text, doc_no, facts.current_version).search(text), text[:500]
    assert f"[{doc_no} 제{facts.next_version}차" not in text  # approved, not yet in force
    assert f"시행 {facts.current_from}" in text


def test_search_regulations__past_date(ref_tools: Any, facts: Facts, persona: str) -> None:
    text = clean(
        call(ref_tools, persona, "search_regulations", question="육아휴직 기간",
             as_of=facts.past_date),
        facts, persona,
    )  # fmt: skip
    doc_no = facts.childcare["doc_no"]
    assert header_of(text, doc_no, facts.old_version).search(text), text[:500]
    assert f"[{doc_no} 제{facts.current_version}차" not in text


def test_search_regulations__restricted(ref_tools: Any, facts: Facts, persona: str) -> None:
    restricted = facts.truth["restricted"]["doc_no"]

    def seen(name: str) -> str:
        return clean(
            call(ref_tools, name, "search_regulations", question="징계 양정기준"), facts, name
        )

    assert f"[{restricted} " in seen(facts.control), "positive control: cho finds the guideline"
    if persona != facts.control:
        assert restricted not in seen(persona)


def test_search_regulations__no_lexical_match(
    ref_tools: Any, facts: Facts, persona: str, conformance: ConformanceStack
) -> None:
    text = call(ref_tools, persona, "search_regulations", question=NO_MATCH_QUESTION)
    clean(text, facts, persona)
    if conformance.quirks == "real":
        assert text == "해당하는 규정을 찾지 못했습니다."


# -- get_effective_version -----------------------------------------------------


def _version_of(text: str) -> int | None:
    found = re.search(r"제(\d+)차 개정", text)
    return int(found.group(1)) if found else None


def test_get_effective_version__today(ref_tools: Any, facts: Facts, persona: str) -> None:
    doc_no = facts.childcare["doc_no"]
    text = clean(call(ref_tools, persona, "get_effective_version", doc_no=doc_no), facts, persona)
    assert _version_of(text) == facts.current_version, text
    assert f"시행 {facts.current_from}" in text
    assert str(facts.childcare["current_stated"]) in text  # the stated date is surfaced


def test_get_effective_version__past_date(ref_tools: Any, facts: Facts, persona: str) -> None:
    doc_no = facts.childcare["doc_no"]
    text = call(ref_tools, persona, "get_effective_version", doc_no=doc_no, as_of=facts.past_date)
    assert _version_of(clean(text, facts, persona)) == facts.old_version, text


def test_get_effective_version__last_day_of_a_version(
    ref_tools: Any, facts: Facts, persona: str
) -> None:
    doc_no = facts.childcare["doc_no"]
    last = call(ref_tools, persona, "get_effective_version", doc_no=doc_no,
                as_of=facts.old_last_day)  # fmt: skip
    first = call(ref_tools, persona, "get_effective_version", doc_no=doc_no,
                 as_of=facts.current_from)  # fmt: skip
    assert _version_of(last) == facts.old_version, last
    assert _version_of(first) == facts.current_version, first


def test_get_effective_version__restricted(ref_tools: Any, facts: Facts, persona: str) -> None:
    restricted = facts.truth["restricted"]["doc_no"]

    def seen(name: str) -> str:
        return clean(call(ref_tools, name, "get_effective_version", doc_no=restricted), facts, name)

    control = seen(facts.control)
    assert _version_of(control) is not None, f"positive control: {control}"
    if persona != facts.control:
        assert NO_VERSION in seen(persona)


# -- trace_authority -----------------------------------------------------------


def test_trace_authority__two_levels(ref_tools: Any, facts: Facts, persona: str) -> None:
    chain = facts.truth["authority"]["chain"]
    text = clean(call(ref_tools, persona, "trace_authority", doc_no=chain[0]), facts, persona)
    assert len(chain) >= 3
    for parent in chain[1:]:
        assert f"└ {parent} " in text, text


def test_trace_authority__restricted(ref_tools: Any, facts: Facts, persona: str) -> None:
    restricted = facts.truth["restricted"]

    def seen(name: str) -> str:
        text = call(ref_tools, name, "trace_authority", doc_no=restricted["doc_no"])
        return clean(text, facts, name)

    control = seen(facts.control)
    assert f"└ {restricted['parent_doc_no']} " in control, f"positive control: {control}"
    if persona != facts.control:
        text = seen(persona)
        assert NOT_LISTED in text and restricted["parent_doc_no"] not in text, text


# -- impact_of_change ----------------------------------------------------------


def test_impact_of_change__three_dependents(ref_tools: Any, facts: Facts, persona: str) -> None:
    impact = facts.truth["impact"]
    text = clean(call(ref_tools, persona, "impact_of_change", doc_no=impact["doc_no"]),
                 facts, persona)  # fmt: skip
    found = re.match(r"(\d+)건이 영향을 받습니다", text)
    assert found and int(found.group(1)) >= 3, text
    for doc_no in impact["direct"]:
        assert f"  {doc_no} " in text, text


def test_impact_of_change__restricted(ref_tools: Any, facts: Facts, persona: str) -> None:
    restricted = facts.truth["restricted"]["doc_no"]

    def seen(name: str) -> str:
        text = clean(call(ref_tools, name, "impact_of_change", doc_no=HR_RULE_DOC_NO), facts, name)
        assert "건이 영향을 받습니다" in text, text
        return text

    control = seen(facts.control)
    assert f"  {restricted} " in control, f"positive control: {control}"
    if persona != facts.control:
        assert restricted not in seen(persona)


# -- query_hr ------------------------------------------------------------------


def _table(text: str) -> list[dict[str, str]]:
    lines = [line for line in text.splitlines() if line and not line.startswith("… 외")]
    assert lines and not lines[0].startswith("조회"), text
    head = lines[0].split(" | ")
    return [dict(zip(head, line.split(" | "), strict=False)) for line in lines[1:]]


def test_query_hr__row_filters(ref_tools: Any, facts: Facts, persona: str) -> None:
    sql = (
        "SELECT 부서, count(DISTINCT 사번) AS 인원 FROM semantic.hr.leave_balance "
        "GROUP BY 부서 ORDER BY 부서"
    )
    rows = _table(clean(call(ref_tools, persona, "query_hr", question_sql=sql), facts, persona))
    by_dept = {r["부서"]: int(r["인원"]) for r in rows}
    if persona == "hong":
        assert by_dept == {"DEV": 1}, by_dept
    elif persona == "park":
        assert set(by_dept) == {"DEV"} and by_dept["DEV"] > 1, by_dept
    else:
        assert len(by_dept) > 1 and "HR" in by_dept, by_dept


def test_query_hr__real_columns(ref_tools: Any, facts: Facts, persona: str) -> None:
    emp_no = facts.persona("hong")["emp_no"]
    sql = (
        "SELECT 사번, 성명, 부서, 휴가종류, 부여일수_ERP, 사용일수 FROM semantic.hr.leave_balance "
        f"WHERE 사번 = '{emp_no}' AND 휴가종류 = '육아휴직'"
    )
    rows = _table(clean(call(ref_tools, persona, "query_hr", question_sql=sql), facts, persona))
    assert [int(float(r["사용일수"])) for r in rows] == [facts.truth["demo_employee"]["used"]]
    sql = "SELECT 사번, 성명, 부서, 직급 FROM semantic.hr.employees"
    own = _table(call(ref_tools, persona, "query_hr", question_sql=sql))
    assert facts.persona(persona)["emp_no"] in {r["사번"] for r in own}


def test_query_hr__denied_and_masked_columns(ref_tools: Any, facts: Facts, persona: str) -> None:
    denied = call(ref_tools, persona, "query_hr",
                  question_sql="SELECT 사번, 주민등록번호 FROM semantic.hr.employees")  # fmt: skip
    assert denied.startswith("조회 실패"), denied
    text = call(ref_tools, persona, "query_hr",
                question_sql="SELECT 사번, 연락처 FROM semantic.hr.employees")  # fmt: skip
    clean(text, facts, persona)
    assert _table(text), text


# -- pending_revision ----------------------------------------------------------


def test_pending_revision__one_document(ref_tools: Any, facts: Facts, persona: str) -> None:
    doc_no = facts.childcare["doc_no"]
    text = clean(call(ref_tools, persona, "pending_revision", doc_no=doc_no), facts, persona)
    assert f"[{doc_no} 제{facts.next_version}차 개정 — APPROVED]" in text, text
    assert f"[{doc_no} 제{facts.draft_version}차 개정 — DRAFT]" in text, text
    assert f"예정 시행일 {facts.childcare['next_effective']}" in text, text


def test_pending_revision__all(ref_tools: Any, facts: Facts, persona: str) -> None:
    text = clean(call(ref_tools, persona, "pending_revision"), facts, persona)
    doc_no = facts.childcare["doc_no"]
    assert f"[{doc_no} 제{facts.next_version}차 개정 — APPROVED]" in text, text
    assert "문서번호" not in text  # no literal column names as values
    for entry in facts.truth.get("pending") or []:
        line = f"[{entry['doc_no']} 제{entry['version']}차 개정 — {entry['stage']}]"
        if entry.get("restricted") and not facts.sees_restricted(persona):
            assert f"[{entry['doc_no']} " not in text, line
        else:
            assert line in text, line  # REJECTED revisions stay listed


# -- describe_regulation -------------------------------------------------------


def test_describe_regulation__versions(ref_tools: Any, facts: Facts, persona: str) -> None:
    cc = facts.childcare
    text = clean(call(ref_tools, persona, "describe_regulation", doc_no=cc["doc_no"]),
                 facts, persona)  # fmt: skip
    assert text.startswith(f"{cc['doc_no']} {cc['title']}"), text
    assert f"제{facts.current_version}차 [APPROVED] 시행 {facts.current_from}" in text, text
    assert f"제{facts.old_version}차 [" in text


def test_describe_regulation__restricted(ref_tools: Any, facts: Facts, persona: str) -> None:
    restricted = facts.truth["restricted"]["doc_no"]

    def seen(name: str) -> str:
        return clean(call(ref_tools, name, "describe_regulation", doc_no=restricted), facts, name)

    control = seen(facts.control)
    assert control.startswith(restricted), f"positive control: {control}"
    if persona != facts.control:
        assert NOT_LISTED in seen(persona)


# -- related_regulations -------------------------------------------------------


def test_related_regulations__graph(ref_tools: Any, facts: Facts, persona: str) -> None:
    chain = facts.truth["authority"]["chain"]
    text = clean(call(ref_tools, persona, "related_regulations", doc_no=chain[0], depth=2),
                 facts, persona)  # fmt: skip
    for parent in chain[1:3]:
        assert re.search(rf"^{re.escape(parent)} ", text, re.MULTILINE), text


def test_related_regulations__restricted(ref_tools: Any, facts: Facts, persona: str) -> None:
    restricted = facts.truth["restricted"]

    def seen(name: str) -> str:
        text = call(ref_tools, name, "related_regulations", doc_no=restricted["doc_no"])
        return clean(text, facts, name)

    control = seen(facts.control)
    assert restricted["parent_doc_no"] in control, f"positive control: {control}"
    if persona != facts.control:
        assert NOT_LISTED in seen(persona)


# -- request_regulation_revision -----------------------------------------------


def test_request_regulation_revision__write_and_replay(
    ref_tools: Any, facts: Facts, persona: str, conformance: ConformanceStack
) -> None:
    doc_no, version = facts.write_target(persona)
    args = {"doc_no": doc_no, "version": version, "reason": "conformance: 개정 필요성 검토 요청"}
    first = call(ref_tools, persona, "request_regulation_revision", **args)
    second = call(ref_tools, persona, "request_regulation_revision", **args)
    assert "개정 요청을 접수했습니다" in first, first
    assert "개정 요청을 접수했습니다" in second, second
    rows = conformance.ledger(doc_no, version)
    assert len(rows) == 1, rows  # the second call replayed the first request
    assert rows[0][0] == persona
