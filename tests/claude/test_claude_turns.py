"""RegDesk against Claude's real behaviour, replayed by a scripted Messages server over HTTP.

Each test scripts what the Messages API answers (the wire format, errors and
headers as Anthropic sends them) and checks what RegDesk does with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from agent_core.approval import approve_all
from agent_core.cancel import CancelToken
from agent_core.events import (
    AnswerDelta,
    AnswerFinished,
    ModelCallFinished,
    ModelRetry,
    Narration,
    Thinking,
    ThinkingDelta,
    ToolCallStarted,
    TurnFailed,
)
from agent_core.session import PersonaSession
from tests.claude.scripted_server import (
    Broken,
    Error,
    Reply,
    cut_tool_use,
    text,
    thinking,
    tool_use,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from agent_core.config import Endpoints
    from agent_core.events import AgentEvent
    from tests.claude.scripted_server import ScriptedMessages

QUESTION = "육아휴직 며칠까지 쓸 수 있어?"
SEARCH = tool_use("search_regulations", {"question": "육아휴직 기간"}, "toolu_search1")
ANSWER = "육아휴직은 최대 1년입니다. (HR-REG-003 제3차)"


def _session(endpoints: Endpoints, user: str = "hong", **kwargs: Any) -> PersonaSession:
    from embedded.ontul.testing import persona_password

    return PersonaSession.login(
        endpoints, user, persona_password(user, endpoints.ground_truth or {}), audit=False, **kwargs
    )


def _ask(
    endpoints: Endpoints, question: str = QUESTION, history: list[tuple[str, str]] | None = None
) -> list[AgentEvent]:
    session = _session(endpoints)
    try:
        return list(
            session.run_turn(question, approver=approve_all, cancel=CancelToken(), history=history)
        )
    finally:
        session.close()


def _streamed(events: list[AgentEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, AnswerDelta))


# --- models ------------------------------------------------------------------------------
def test_default_model_is_the_newest_sonnet_the_endpoint_lists(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude().script(Reply([text(ANSWER)]))
    events = _ask(endpoints_for(server))
    assert isinstance(events[-1], AnswerFinished), events[-1]
    assert server.requests[0]["model"] == "claude-sonnet-5-5"
    assert events[0].model == "claude-sonnet-5-5"  # type: ignore[union-attr]
    assert server.model_list_calls == 1


def test_endpoint_without_a_model_list_uses_the_configured_or_fallback_name(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude(models=None).script(Reply([text(ANSWER)]), Reply([text(ANSWER)]))
    assert isinstance(_ask(endpoints_for(server, model="llama3.1:8b"))[-1], AnswerFinished)
    assert server.requests[0]["model"] == "llama3.1:8b"
    assert isinstance(_ask(endpoints_for(server))[-1], AnswerFinished)
    assert server.requests[1]["model"] == "claude-sonnet-5-5"  # resources/models.json
    # capabilities it does not list are not sent: no thinking settings, still cached prefix
    assert "thinking" not in server.requests[0]


def test_retired_model_404_says_choose_another_with_settings_one_click_away(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude()
    events = _ask(endpoints_for(server, model="claude-sonnet-4-5"))
    failed = events[-1]
    assert isinstance(failed, TurnFailed), failed
    assert "model claude-sonnet-4-5 is not available — choose another" in failed.message
    assert failed.action == "settings"
    assert failed.request_id and failed.request_id.startswith("req_")
    assert len(server.requests) == 1  # a 404 is not retried


# --- retries and broken streams ----------------------------------------------------------
def test_529_overloaded_and_429_retry_after_are_retried(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude().script(
        Error(529, "overloaded_error", "Overloaded"),
        Error(
            429,
            "rate_limit_error",
            "Number of requests has exceeded your rate limit",
            headers={"retry-after": "0"},
        ),
        Reply([text(ANSWER)]),
    )
    events = _ask(endpoints_for(server))
    retries = [e for e in events if isinstance(e, ModelRetry)]
    assert [r.reason for r in retries] == ["overloaded", "rate_limited"]
    assert retries[1].delay_s == 0.0  # retry-after honoured
    assert all(r.request_id for r in retries)
    assert isinstance(events[-1], AnswerFinished) and events[-1].text == ANSWER
    assert len(server.requests) == 3


def test_dropped_stream_is_retried_from_the_start_and_the_partial_text_discarded(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    partial = Reply([text("이 답은 중간에 끊깁니다 " * 6)])
    server = claude().script(Broken(partial, after=5), Reply([text(ANSWER)]))
    events = _ask(endpoints_for(server))
    retry = next(e for e in events if isinstance(e, ModelRetry))
    assert retry.reason == "stream_broken" and retry.discard
    before = events[: events.index(retry)]
    assert _streamed(before)  # something had streamed
    finished = events[-1]
    assert isinstance(finished, AnswerFinished) and finished.text == ANSWER
    assert "끊깁니다" not in finished.text


def test_sse_error_event_mid_stream_is_retried_and_never_kept(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    partial = Reply([text("부분 답변 " * 10)])
    server = claude().script(
        Broken(partial, after=6, how="sse_error"), Reply([text(ANSWER)]), Reply([text("둘째 답")])
    )
    endpoints = endpoints_for(server)
    events = _ask(endpoints)
    retry = next(e for e in events if isinstance(e, ModelRetry))
    assert retry.reason == "overloaded" and retry.discard
    assert "{" not in retry.message  # words, not a dict repr
    assert isinstance(events[-1], AnswerFinished) and events[-1].text == ANSWER
    # the next turn's history holds the final answer only, never the partial text
    _ask(endpoints, "그럼 다음은?", history=[(QUESTION, events[-1].text)])
    sent = str(server.requests[-1]["messages"])
    assert "부분 답변" not in sent and ANSWER in sent


def test_errors_in_words_with_the_request_id(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    cases = [
        (Error(401, "authentication_error", "invalid x-api-key"), "API key was rejected", "auth"),
        (
            Error(
                429,
                "rate_limit_error",
                "monthly spend cap",
                error_code="enforced_spend_limit_reached",
            ),
            "spend limit",
            "model",
        ),
        (
            Error(
                400,
                "invalid_request_error",
                "messages.1.content.0.text: text content blocks must be non-empty",
            ),
            "rejected the request as invalid: messages.1",
            "model",
        ),
    ]
    for error, words, kind in cases:
        server = claude().script(error)
        failed = _ask(endpoints_for(server))[-1]
        assert isinstance(failed, TurnFailed), failed
        assert words in failed.message and failed.failure == kind
        assert failed.request_id and failed.request_id.startswith("req_")
        assert "{'" not in failed.message
        assert len(server.requests) == 1  # none of these is retried


def test_overloaded_every_time_fails_after_the_retries_in_words(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude().script(*[Error(529, "overloaded_error", "Overloaded")] * 5)
    events = _ask(endpoints_for(server))
    failed = events[-1]
    assert isinstance(failed, TurnFailed)
    assert failed.message.startswith("the model is overloaded: Overloaded")
    assert "gave up after 5 attempts" in failed.message
    assert sum(isinstance(e, ModelRetry) for e in events) == 4


# --- stop reasons ------------------------------------------------------------------------
def test_tool_use_cut_by_max_tokens_is_never_run_and_sent_again_with_more_room(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    cut = cut_tool_use("search_regulations", '{"question": "육아휴직", "as_of": "2024-0')
    server = claude().script(
        Reply([text("찾아볼게요."), cut], stop_reason="max_tokens"),
        Reply(
            [
                text("찾아볼게요."),
                tool_use("search_regulations", {"question": "육아휴직", "as_of": "2024-01-01"}),
            ],
            stop_reason="tool_use",
        ),
        Reply([text(ANSWER)]),
    )
    events = _ask(endpoints_for(server))
    calls = [e for e in events if isinstance(e, ToolCallStarted)]
    assert [c.arguments for c in calls] == [{"question": "육아휴직", "as_of": "2024-01-01"}]
    retry = next(e for e in events if isinstance(e, ModelRetry))
    assert retry.reason == "max_tokens" and retry.discard
    assert server.requests[1]["max_tokens"] == 2 * server.requests[0]["max_tokens"]
    assert isinstance(events[-1], AnswerFinished)


def test_tool_use_cut_at_the_ceiling_fails_clearly_and_runs_nothing(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    cut = cut_tool_use("query_hr", '{"question_sql": "SELECT 사번 FROM')
    server = claude().script(*[Reply([cut], stop_reason="max_tokens")] * 4)
    events = _ask(endpoints_for(server, max_tokens=64000))
    failed = events[-1]
    assert isinstance(failed, TurnFailed)
    assert "cut off" in failed.message and "nothing was run" in failed.message
    assert not any(isinstance(e, ToolCallStarted) for e in events)


def test_truncated_text_is_marked_cut_off(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude().script(
        Reply([text("육아휴직은 최대 1년이며, 분할 사용은")], stop_reason="max_tokens")
    )
    finished = _ask(endpoints_for(server))[-1]
    assert isinstance(finished, AnswerFinished)
    assert finished.cut_off and finished.stop_reason == "max_tokens"


def test_refusal_fails_the_turn_with_the_explanation(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude().script(
        Reply(
            [text("I can't help")],
            stop_reason="refusal",
            stop_details={
                "type": "refusal",
                "category": "cyber",
                "explanation": "This looks like malware.",
            },
        )
    )
    events = _ask(endpoints_for(server))
    failed = events[-1]
    assert isinstance(failed, TurnFailed) and failed.failure == "refused"
    assert "This looks like malware." in failed.message
    assert not any(isinstance(e, AnswerFinished) for e in events)


def test_pause_turn_sends_the_content_back_and_continues(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude().script(
        Reply([thinking("검색 중"), text("잠시만요.")], stop_reason="pause_turn"),
        Reply([text(ANSWER)]),
    )
    events = _ask(endpoints_for(server))
    assert isinstance(events[-1], AnswerFinished) and events[-1].text == ANSWER
    resent = server.requests[1]["messages"][-1]
    assert resent["role"] == "assistant"
    assert resent["content"][0] == {
        "type": "thinking",
        "thinking": "검색 중",
        "signature": "sig-abc123",
    }


def test_empty_end_turn_after_tool_results_gets_one_nudge_then_fails(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude().script(
        Reply([SEARCH], stop_reason="tool_use"), Reply([], output_tokens=2), Reply([text(ANSWER)])
    )
    events = _ask(endpoints_for(server))
    assert isinstance(events[-1], AnswerFinished) and events[-1].text == ANSWER
    nudge = server.requests[2]["messages"][-1]["content"]
    assert nudge[0]["type"] == "tool_result" and nudge[-1]["type"] == "text"
    server2 = claude().script(Reply([], output_tokens=2), Reply([text("")], output_tokens=2))
    failed = _ask(endpoints_for(server2))[-1]
    assert isinstance(failed, TurnFailed) and "empty answer twice" in failed.message


def test_empty_text_blocks_are_dropped_and_thinking_goes_back_unchanged(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude().script(
        Reply(
            [
                thinking("규정을 찾아야 한다", "sig-XYZ"),
                text(""),
                {"type": "redacted_thinking", "data": "EncRypted=="},
                SEARCH,
            ],
            stop_reason="tool_use",
        ),
        Reply([text(ANSWER)]),
    )
    events = _ask(endpoints_for(server))
    assert isinstance(events[-1], AnswerFinished)
    back = server.requests[1]["messages"][1]["content"]
    assert back[0] == {"type": "thinking", "thinking": "규정을 찾아야 한다", "signature": "sig-XYZ"}
    assert back[1] == {"type": "redacted_thinking", "data": "EncRypted=="}
    assert [b["type"] for b in back] == ["thinking", "redacted_thinking", "tool_use"]


# --- thinking, output budget, caching and usage ------------------------------------------
def test_adaptive_thinking_summaries_stream_apart_from_the_answer(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude().script(
        Reply([thinking("육아휴직 규정을 검색하겠습니다."), SEARCH], stop_reason="tool_use"),
        Reply([thinking("제3차가 현행이다."), text(ANSWER)]),
    )
    events = _ask(endpoints_for(server, effort="medium"))
    request = server.requests[0]
    assert request["thinking"] == {"type": "adaptive", "display": "summarized"}
    assert request["output_config"] == {"effort": "medium"}
    assert request["max_tokens"] >= 16000
    summaries = [e.text for e in events if isinstance(e, Thinking)]
    assert summaries == ["육아휴직 규정을 검색하겠습니다.", "제3차가 현행이다."]
    assert any(isinstance(e, ThinkingDelta) for e in events)
    finished = events[-1]
    assert isinstance(finished, AnswerFinished) and finished.text == ANSWER
    assert "검색하겠습니다" not in _streamed(events)
    assert not any(isinstance(e, Narration) for e in events)


def test_static_prefix_is_cached_and_usage_is_reported_per_call_and_turn(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude().script(
        Reply([SEARCH], stop_reason="tool_use"),
        Reply(
            [tool_use("get_effective_version", {"doc_no": "HR-REG-003"})], stop_reason="tool_use"
        ),
        Reply([text(ANSWER)]),
    )
    events = _ask(endpoints_for(server))
    first = server.requests[0]
    assert first["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert "Today is" not in first["system"][0]["text"]
    assert first["system"][1]["text"].startswith("Today is")
    assert first["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    calls = [e for e in events if isinstance(e, ModelCallFinished)]
    assert len(calls) == 3
    assert calls[0].usage.cache_creation_input_tokens > 0
    later = [c.usage for c in calls[1:]]
    read = sum(u.cache_read_input_tokens for u in later)
    assert read / sum(u.total_input_tokens for u in later) >= 0.8, later
    assert all(
        u.cache_read_input_tokens >= calls[0].usage.cache_creation_input_tokens for u in later
    )
    finished = events[-1]
    assert isinstance(finished, AnswerFinished) and finished.usage is not None
    assert finished.usage.model_calls == 3
    total_read = sum(c.usage.cache_read_input_tokens for c in calls)
    assert finished.usage.cache_read_input_tokens == total_read
    assert finished.usage.cost_usd is not None and finished.usage.cost_usd > 0


@pytest.mark.parametrize(
    ("status", "kind"),
    [(500, "api_error"), (503, "api_error"), (408, "timeout_error"), (409, "conflict_error")],
)
def test_server_errors_the_sdk_retries_are_retried(
    claude: Callable[..., ScriptedMessages],
    endpoints_for: Callable[..., Endpoints],
    status: int,
    kind: str,
) -> None:
    server = claude().script(Error(status, kind, "Internal server error"), Reply([text(ANSWER)]))
    events = _ask(endpoints_for(server))
    assert [e.reason for e in events if isinstance(e, ModelRetry)] == ["server_error"]
    assert isinstance(events[-1], AnswerFinished)


def test_x_should_retry_false_is_obeyed(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude().script(
        Error(503, "api_error", "do not retry", headers={"x-should-retry": "false"})
    )
    assert isinstance(_ask(endpoints_for(server))[-1], TurnFailed)
    assert len(server.requests) == 1


def test_unreachable_endpoint_is_retried_then_fails_with_network(
    ontul_server: Any, ground_truth: dict[str, Any]
) -> None:
    import socket

    from agent_core.config import Endpoints

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nothing listens there
    endpoints = Endpoints(
        ontul_server.url,
        f"http://127.0.0.1:{port}",
        "sk-ant-test",
        "claude-sonnet-5-5",
        ground_truth=ground_truth,
    )
    events = _ask(endpoints)
    failed = events[-1]
    assert isinstance(failed, TurnFailed) and failed.failure == "network"
    assert "gave up after 5 attempts" in failed.message
    assert [e.reason for e in events if isinstance(e, ModelRetry)] == ["connection"] * 4


def test_an_8k_token_answer_arrives_whole_within_the_default_budget(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    long_answer = "HR-REG-003 제3차에 따른 설명입니다. " * 1200  # about 8,000 tokens
    server = claude().script(Reply([text(long_answer)], chunk=64))
    finished = _ask(endpoints_for(server))[-1]
    assert isinstance(finished, AnswerFinished)
    assert finished.text == long_answer and not finished.cut_off
    assert server.requests[0]["max_tokens"] == 16000


def test_context_window_exceeded_text_is_cut_off_and_no_sampling_params_are_sent(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude().script(
        Reply([text("긴 답변의 앞부분")], stop_reason="model_context_window_exceeded")
    )
    finished = _ask(endpoints_for(server))[-1]
    assert isinstance(finished, AnswerFinished) and finished.cut_off
    sent = server.requests[0]
    assert not {"temperature", "top_p", "top_k", "tool_choice"} & set(sent)


def test_stop_during_a_retry_wait_ends_the_turn_at_once(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    import threading

    from agent_core.events import TurnCancelled

    server = claude().script(
        Error(529, "overloaded_error", "Overloaded", headers={"retry-after": "30"}),
        Reply([text(ANSWER)]),
    )
    session = _session(endpoints_for(server))
    cancel = CancelToken()
    events: list[AgentEvent] = []

    def run() -> None:
        for event in session.run_turn(QUESTION, approver=approve_all, cancel=cancel):
            events.append(event)
            if isinstance(event, ModelRetry):
                cancel.cancel()  # the person presses Stop while RegDesk waits 30 s

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(10)
    session.close()
    assert not worker.is_alive(), "the turn still waited out retry-after after Stop"
    retry = next(e for e in events if isinstance(e, ModelRetry))
    assert retry.delay_s == 30.0
    assert isinstance(events[-1], TurnCancelled)
    assert len(server.requests) == 1


def test_an_endpoint_that_rejects_thinking_or_caching_degrades_quietly(
    claude: Callable[..., ScriptedMessages], endpoints_for: Callable[..., Endpoints]
) -> None:
    server = claude().script(
        Error(400, "invalid_request_error", "thinking: Extra inputs are not permitted"),
        Error(
            400, "invalid_request_error", "system.0.cache_control: Extra inputs are not permitted"
        ),
        Reply([text(ANSWER)]),
    )
    events = _ask(endpoints_for(server))
    assert isinstance(events[-1], AnswerFinished) and events[-1].text == ANSWER
    assert "thinking" in server.requests[0]
    assert "thinking" not in server.requests[1] and "cache_control" in str(server.requests[1])
    assert "cache_control" not in str(server.requests[2])
    assert not any(isinstance(e, ModelRetry) for e in events)  # quiet: no retry shown
