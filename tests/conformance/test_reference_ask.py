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

from typing import TYPE_CHECKING

import pytest
from conformance_facts import Facts, leaked
from conformance_suggestions import NON_ANSWERS, Suggestion, cases, expect

from agent_core.config import OFFLINE_MODEL_NAME

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from types import ModuleType

    from conftest import ConformanceStack


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


@pytest.mark.parametrize(("suggestion", "lang"), cases())
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
    problems = expect(facts, suggestion.key, persona, answer)
    assert not problems, f"{problems}; tools {called}; answer: {answer}"
