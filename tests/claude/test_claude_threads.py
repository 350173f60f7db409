"""Message threads (beta ``message-threads-2026-08-12``): later calls send only new messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from agent_core.approval import approve_all
from agent_core.cancel import CancelToken
from agent_core.events import AnswerFinished, ModelCallFinished
from agent_core.session import PersonaSession
from tests.claude.scripted_server import THREADS_BETA, Error, Reply, text, tool_use

if TYPE_CHECKING:
    from collections.abc import Callable

    from agent_core.config import Endpoints
    from agent_core.events import AgentEvent
    from tests.claude.scripted_server import ScriptedMessages

QUESTION = "육아휴직 며칠까지 쓸 수 있어?"
ANSWER = "육아휴직은 최대 1년입니다. (HR-REG-003 제3차)"


def _three_calls(server: ScriptedMessages) -> ScriptedMessages:
    return server.script(
        Reply([tool_use("search_regulations", {"question": "육아휴직"})], stop_reason="tool_use"),
        Reply(
            [tool_use("get_effective_version", {"doc_no": "HR-REG-003"})], stop_reason="tool_use"
        ),
        Reply([text(ANSWER)]),
    )


def _ask(endpoints: Endpoints) -> list[AgentEvent]:
    from embedded.ontul.testing import persona_password

    session = PersonaSession.login(
        endpoints, "hong", persona_password("hong", endpoints.ground_truth or {}), audit=False
    )
    try:
        return list(session.run_turn(QUESTION, approver=approve_all, cancel=CancelToken()))
    finally:
        session.close()


@pytest.fixture(autouse=True)
def _threads_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGDESK_THREADS", "on")


def test_later_calls_continue_the_thread_with_only_the_new_messages(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = _three_calls(claude())
    events = _ask(endpoints_for(server))
    assert isinstance(events[-1], AnswerFinished) and events[-1].text == ANSWER
    first, second, third = server.requests
    assert THREADS_BETA in server.headers[0]["anthropic-beta"]
    assert first["thread"] == {"type": "create"} and "system" in first and "tools" in first
    for later in (second, third):
        assert later["thread"]["type"] == "continue"
        assert "system" not in later and "tools" not in later
        assert [m["role"] for m in later["messages"]] == ["user"]
        assert later["messages"][0]["content"][0]["type"] == "tool_result"
    calls = [e for e in events if isinstance(e, ModelCallFinished)]
    assert calls[1].request_bytes < calls[0].request_bytes / 2  # no system, tools or history


def test_a_lost_thread_is_replayed_in_full_under_a_new_one(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude().script(
        Reply([tool_use("search_regulations", {"question": "육아휴직"})], stop_reason="tool_use"),
        Error(404, "not_found_error", "thread not found", error_code="thread_not_found"),
        Reply([text(ANSWER)]),
    )
    events = _ask(endpoints_for(server))
    assert isinstance(events[-1], AnswerFinished)
    replay = server.requests[2]
    assert replay["thread"] == {"type": "create"} and len(replay["messages"]) == 3


def test_an_endpoint_without_threads_degrades_to_the_whole_conversation(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = _three_calls(claude())
    server.thread_support = False
    events = _ask(endpoints_for(server))
    assert isinstance(events[-1], AnswerFinished)
    assert "thread" in server.requests[0]  # tried once
    assert all("thread" not in r for r in server.requests[1:])
    assert len(server.requests[-1]["messages"]) == 5


def test_each_turn_of_a_session_starts_its_own_thread(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    """Nothing of a turn's thread carries over to the next turn of the same session."""
    from embedded.ontul.testing import persona_password

    turns = 3
    replies = []
    for n in range(turns):
        replies += [
            Reply([tool_use("search_regulations", {"question": f"q{n}"})], stop_reason="tool_use"),
            Reply([text(f"A{n} (HR-REG-003 제3차)")]),
        ]
    server = claude().script(*replies)
    endpoints = endpoints_for(server)
    session = PersonaSession.login(
        endpoints, "hong", persona_password("hong", endpoints.ground_truth or {}), audit=False
    )
    try:
        answers = []
        for n in range(turns):
            events = list(session.run_turn(f"q{n}", approver=approve_all, cancel=CancelToken()))
            assert isinstance(events[-1], AnswerFinished)
            answers.append(events[-1].text)
    finally:
        session.close()
    assert answers == [f"A{n} (HR-REG-003 제3차)" for n in range(turns)]
    assert len(server.requests) == 2 * turns  # no rejected continue, no replay
    for n in range(turns):
        first, second = server.requests[2 * n], server.requests[2 * n + 1]
        assert first["thread"] == {"type": "create"}
        asked = first["messages"][-1]["content"]
        assert asked == f"q{n}" or asked[0]["text"] == f"q{n}"  # a new conversation
        assert second["thread"]["type"] == "continue"
        assert [m["role"] for m in second["messages"]] == ["user"]
