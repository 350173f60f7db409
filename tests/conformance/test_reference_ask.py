"""The reference client's ``ask()`` loop against the offline model and the platform.

``ask()`` drives the SDK's own ``beta.messages.tool_runner`` (message threads,
``thinking``, ``output_config``) with the reference's system prompt and prose
tool results. It runs unchanged: only ``ANTHROPIC_BASE_URL`` points at the
offline model. The questions are the six example questions RegDesk's GUI offers
on an empty chat (desktop/persona_pane.py, in English and in Korean as
resources/translations/regdesk_ko.ts words them), as hong, park and cho; the
expected facts come from ground truth.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest
from conformance_facts import (
    HR_RULE_DOC_NO,
    Facts,
    days_pattern,
    leaked,
    lodging_cap_pattern,
    version_pattern,
)

from agent_core.config import OFFLINE_MODEL_NAME

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from types import ModuleType

    from conftest import ConformanceStack

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


def _cases() -> list[Any]:
    return [
        pytest.param(s, lang, id=f"{s.key}-{lang}") for s in SUGGESTIONS for lang in ("ko", "en")
    ]


@pytest.fixture(scope="module")
def ask(
    reference: ModuleType, conformance: ConformanceStack
) -> Iterator[Callable[[str, str], tuple[str, list[str]]]]:
    """``ask(persona, question)`` → (answer, tools called), through the reference's loop."""
    patch = pytest.MonkeyPatch()
    patch.setenv("ANTHROPIC_BASE_URL", conformance.model_url)
    patch.setenv("ANTHROPIC_API_KEY", "dummy")
    patch.setenv("AGENT_MODEL", OFFLINE_MODEL_NAME)
    patch.setenv("AGENT_TIMEOUT", "60")
    patch.setenv("AGENT_RETRIES", "0")
    from regdemo_agent import agent
    from regdemo_agent.client import Caller, OntulClient

    patch.setattr(agent, "MODEL", OFFLINE_MODEL_NAME)  # read at import; the import may be older
    client = OntulClient(base_url=conformance.ontul_url)
    callers = {}
    for name in ("hong", "park", "cho"):
        record = conformance.truth["personas"][name]
        client.register_password(name, str(record["password"]))
        callers[name] = Caller(
            user_id=name, emp_no=str(record["emp_no"]), dept=str(record["dept"]),
            clearance=str(record.get("clearance") or "none"),
        )  # fmt: skip

    def run(persona: str, question: str) -> tuple[str, list[str]]:
        called: list[str] = []
        answer = agent.ask(question, callers[persona], client, called=called)
        return answer, called

    yield run
    patch.undo()


def _expect(facts: Facts, key: str, persona: str, answer: str) -> list[str]:
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
        else:  # another person's rows are visible: hong's balance is not the asker's
            wrong = rf"{emp['used']}\s*(일|days?)\s*=\s*{emp['remaining']}\s*(일|days?)"
            need(not re.search(wrong, answer), "hong's balance presented as the asker's")
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


@pytest.mark.parametrize(("suggestion", "lang"), _cases())
def test_ask__suggestion(
    ask: Callable[[str, str], tuple[str, list[str]]],
    conformance: ConformanceStack,
    persona: str,
    suggestion: Suggestion,
    lang: str,
) -> None:
    facts = Facts(conformance.truth)
    question = suggestion.ko if lang == "ko" else suggestion.en
    answer, called = ask(persona, question)
    assert called, f"no tool was called; answer: {answer!r}"
    assert answer and not any(n in answer for n in NON_ANSWERS), answer
    assert not leaked(answer, facts, persona), leaked(answer, facts, persona)
    problems = _expect(facts, suggestion.key, persona, answer)
    assert not problems, f"{problems}; tools {called}; answer: {answer}"
