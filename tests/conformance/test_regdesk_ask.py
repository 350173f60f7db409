"""RegDesk's own agent turns over the GUI's six example questions, in both quirk modes.

The same expected facts as the reference client's ``ask()`` loop
(conformance_suggestions.py), through RegDesk's session: its system prompt, its
tools, its turn loop, the offline model over HTTP. Writes are denied.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from conformance_facts import Facts, leaked
from conformance_suggestions import NON_ANSWERS, Suggestion, cases, expect

from agent_core.approval import ApprovalDecision
from agent_core.cancel import CancelToken
from agent_core.config import OFFLINE_MODEL_NAME, Endpoints
from agent_core.events import AnswerFinished, ToolCallStarted, event_to_dict
from agent_core.session import PersonaSession

if TYPE_CHECKING:
    from collections.abc import Iterator

    from conftest import ConformanceStack


@pytest.fixture(scope="module")
def sessions(conformance: ConformanceStack) -> Iterator[dict[str, PersonaSession]]:
    """A logged-in RegDesk session per persona."""
    endpoints = Endpoints(
        ontul_url=conformance.ontul_url,
        model_base_url=conformance.model_url,
        api_key="offline",
        model=OFFLINE_MODEL_NAME,
        embedded=True,
        ground_truth=conformance.truth,
    )
    out = {
        name: PersonaSession.login(endpoints, name, conformance.password(name), audit=False)
        for name in ("hong", "park", "cho")
    }
    yield out
    for session in out.values():
        session.close()


@pytest.mark.parametrize(("suggestion", "lang"), cases())
def test_ask__suggestion(
    sessions: dict[str, PersonaSession],
    conformance: ConformanceStack,
    persona: str,
    suggestion: Suggestion,
    lang: str,
) -> None:
    facts = Facts(conformance.truth)
    question = suggestion.ko if lang == "ko" else suggestion.en
    events = list(
        sessions[persona].run_turn(
            question,
            approver=lambda _: ApprovalDecision(False, "conformance run: no writes"),
            cancel=CancelToken(),
        )
    )
    assert isinstance(events[-1], AnswerFinished), events[-1]
    answer = events[-1].text
    called = [e.tool for e in events if isinstance(e, ToolCallStarted)]
    assert called, f"no tool was called; answer: {answer!r}"
    assert answer and not any(n in answer for n in NON_ANSWERS), answer
    blob = "\n".join(json.dumps(event_to_dict(e), ensure_ascii=False) for e in events)
    assert not leaked(blob, facts, persona), leaked(blob, facts, persona)
    problems = expect(facts, suggestion.key, persona, answer)
    assert not problems, f"{problems}; tools {called}; answer: {answer}"
