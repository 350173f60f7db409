"""The GUI's six example questions and what an answer to each must say.

Shared by the reference client's ``ask()`` loop and RegDesk's own turns. The
questions are those desktop/persona_pane.py offers on an empty chat, in English
and in Korean as resources/translations/regdesk_ko.ts words them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from conformance_facts import (
    HR_RULE_DOC_NO,
    Facts,
    days_pattern,
    lodging_cap_pattern,
    version_pattern,
)

NON_ANSWERS = ("I could not find a question", "No response was returned", "The request was refused")


@dataclass(frozen=True)
class Suggestion:
    """One example question of the GUI, in both languages."""

    key: str
    en: str
    ko: str


SUGGESTIONS = (
    Suggestion(
        "remaining", "How many days of childcare leave do I have left?", "나 육아휴직 며칠 남았어?"
    ),
    Suggestion(
        "version_today",
        "Which version of the childcare support rule is in force today?",
        "육아지원규정은 지금 몇 차가 시행 중이야?",
    ),
    Suggestion(
        "lodging_seoul", "What is the lodging limit for a business trip to Seoul?",
        "서울 출장 숙박비 한도가 얼마야?",
    ),
    Suggestion(
        "derived_from_hr_rule", "Which regulations derive from the HR rule?",
        "인사규칙을 근거로 만든 규정은 뭐가 있어?",
    ),
    Suggestion(
        "pending_annual_leave", "Are any revisions pending for the annual leave regulation?",
        "연차휴가 규정에 개정 예정인 게 있어?",
    ),
    Suggestion(
        "department_childcare", "How much childcare leave has my department used?",
        "우리 부서 육아휴직 얼마나 썼어?",
    ),
)  # fmt: skip


def cases() -> list[Any]:
    return [
        pytest.param(s, lang, id=f"{s.key}-{lang}") for s in SUGGESTIONS for lang in ("ko", "en")
    ]


def expect(facts: Facts, key: str, persona: str, answer: str) -> list[str]:
    """What is wrong with ``answer`` to suggestion ``key`` asked by ``persona``."""
    problems: list[str] = []

    def need(ok: bool, what: str) -> None:
        if not ok:
            problems.append(what)

    truth = facts.truth
    emp = truth["demo_employee"]
    if key == "remaining":
        if persona == "hong":
            need(
                bool(days_pattern(emp["remaining"]).search(answer)), f"{emp['remaining']} days left"
            )
            need(not days_pattern(emp["wrong_remaining"]).search(answer), "no 15-day arithmetic")
        else:
            # Several people's rows are visible and the reference's prompt does not
            # say who is asking: hong's balance must not be the answer's lead.
            lead = re.split(r"(?<=[.!?。])\s|\n", answer.strip(), maxsplit=1)[0]
            need(not days_pattern(emp["remaining"]).search(lead), "hong's balance as the answer")
    elif key == "version_today":
        need(bool(version_pattern(facts.current_version).search(answer)), "current version")
        need(facts.current_from in answer, "current effective date")
        need(str(facts.childcare["next_effective"]) in answer, "the approved next version's date")
    elif key == "lodging_seoul":
        expense = truth["expense"]
        need(expense["doc_no"] in answer, "lodging guideline cited")
        need(bool(lodging_cap_pattern(expense["cap_per_night"]).search(answer)), "cap per night")
    elif key == "derived_from_hr_rule":
        restricted = truth["restricted"]["doc_no"]
        need(HR_RULE_DOC_NO in answer, "HR-REG-001 named")
        if facts.sees_restricted(persona):
            need(restricted in answer, "cho sees the restricted guideline")
        else:
            need(restricted not in answer, "restricted guideline hidden")
    elif key == "pending_annual_leave":
        need(truth["authority"]["chain"][1] in answer, "the annual leave regulation named")
    elif key == "department_childcare":
        dev = truth["hr"]["dev_childcare_emp_nos"]
        if persona == "hong":
            need(emp["emp_no"] in answer, "hong's own row")
            need(dev[1] not in answer, "no colleague's row")
        elif persona == "park":
            need(dev[0] in answer and dev[-1] in answer, "DEV rows")
    return problems
