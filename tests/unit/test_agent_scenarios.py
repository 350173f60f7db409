"""Scenario runner logic: placeholders and every assertion kind, pass and fail."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from agent_core.scenarios import Case, check_answer, expand, load_cases, persona_password

if TYPE_CHECKING:
    from pathlib import Path

TRUTH: dict[str, Any] = {
    "childcare": {"current_days": 20, "superseded_days": 15, "next_days": 25},
    "canaries": {"hong": ["CANARY-aaaa", "900101-1234567"]},
    "personas": {"hong": {"password": "pw-h"}},
}


def _case(**expect: Any) -> Case:
    return Case("s", "c", "hong", "q", expect)


def test_placeholders_expand_in_strings_lists_and_dicts() -> None:
    out = expand(
        {"contains": ["${childcare.current_days}일"], "n": "${childcare.next_days}"}, TRUTH
    )
    assert out == {"contains": ["20일"], "n": "25"}
    with pytest.raises(KeyError):
        expand("${nope.x}", TRUTH)


def test_public_scenario_files_load_with_their_personas(tmp_path: Path) -> None:
    suite = tmp_path / "s.yaml"
    suite.write_text(
        "suite: t\nas: hong\ncases:\n  - id: a\n    ask: x ${childcare.next_days}\n"
        "  - id: b\n    as: cho\n    ask: y\n    approval: deny\n",
        encoding="utf-8",
    )
    cases = load_cases([suite], TRUTH)
    assert [(c.name, c.persona, c.ask, c.approval) for c in cases] == [
        ("t/a", "hong", "x 25", None),
        ("t/b", "cho", "y", "deny"),
    ]


def test_expectations_for_other_personas_load_expanded(tmp_path: Path) -> None:
    """``expect_by_persona`` (the access matrix's per-persona assertions) comes from the
    one reader, placeholders filled in."""
    suite = tmp_path / "s.yaml"
    suite.write_text(
        "suite: t\ncases:\n  - id: a\n    ask: x\n    expect: {contains: [a]}\n"
        "    expect_by_persona:\n      cho: {contains: ['${childcare.next_days}일']}\n",
        encoding="utf-8",
    )
    (case,) = load_cases([suite], TRUTH)
    assert (case.persona, case.expect) == ("hong", {"contains": ["a"]})
    assert case.expect_by_persona == {"cho": {"contains": ["25일"]}}


@pytest.mark.parametrize(
    ("expect", "answer", "ok"),
    [
        ({"contains": ["20일"]}, "20일입니다", True),
        ({"contains": ["20일"]}, "15일입니다", False),
        ({"not_contains": ["15일"]}, "15일입니다", False),
        ({"contains_any": ["a", "b"]}, "xb", True),
        ({"contains_pattern": "부칙|승인일"}, "승인일 기준", True),
        ({"not_contains_pattern": r"\d{6}-[1-4]\d{6}"}, "900101-1234567", False),
        ({"leads_with": "15일", "among": ["15일", "20일"]}, "15일, 이후 20일", True),
        ({"leads_with": "15일", "among": ["15일", "20일"]}, "20일, 이전 15일", False),
        ({"cites": {"doc_no": "HR-REG-003", "version": 3}}, "HR-REG-003 제3차", True),
        ({"cites": {"doc_no": "HR-REG-003", "version": 3}}, "HR-REG-003 version 3", True),
        ({"cites": {"doc_no": "HR-REG-003", "version": 3}}, "HR-REG-003 제2차", False),
        ({"cites": {"doc_no": "HR-GDL-003"}}, "HR-GDL-003", True),
        ({"says_not_found": True}, "찾을 수 없습니다.", True),
        ({"says_not_found": True}, "I could not find that guideline.", True),
        ({"says_not_found": True}, "20일까지 가능합니다", False),
    ],
)
def test_answer_assertions(expect: dict[str, Any], answer: str, ok: bool) -> None:
    assert (check_answer(_case(**expect), answer, [], [], TRUTH) == []) is ok


def test_tools_and_canaries_and_ledger() -> None:
    case = _case(tools_used=["query_hr"], tools_not_used=["request_regulation_revision"])
    assert check_answer(case, "", ["query_hr"], [], TRUTH) == []
    assert check_answer(case, "", ["request_regulation_revision"], [], TRUTH)
    leak = _case(no_canary_leak=True)
    assert check_answer(leak, "fine", [], [{"result": "clean"}], TRUTH) == []
    assert check_answer(leak, "fine", [], [{"result": "x CANARY-aaaa"}], TRUTH)
    ledger = _case(ledger_rows={"sql": "SELECT 1", "equals": 1})
    assert check_answer(ledger, "", [], [], TRUTH, ledger=lambda sql: 1) == []
    assert check_answer(ledger, "", [], [], TRUTH, ledger=lambda sql: 2)


def test_a_misspelt_expectation_fails_instead_of_checking_nothing() -> None:
    # 'tools' for 'tools_used' once let a case pass with the tool never checked.
    assert check_answer(_case(tools_used=["query_hr"]), "", ["query_hr"], [], TRUTH) == []
    failures = check_answer(_case(tools=["query_hr"]), "", ["query_hr"], [], TRUTH)
    assert failures and "tools" in failures[0]


def test_passwords_come_from_ground_truth() -> None:
    assert persona_password(TRUTH, "hong") == "pw-h"
    with pytest.raises(KeyError):
        persona_password(TRUTH, "park")
