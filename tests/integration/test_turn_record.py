"""One fold: the turn record built from real turns, and from stored event dicts."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from agent_core.approval import ApprovalDecision
from agent_core.cancel import CancelToken
from agent_core.events import (
    AnswerDelta,
    AnswerFinished,
    ModelCallFinished,
    ModelRetry,
    Narration,
    ToolCallFinished,
    ToolCallStarted,
    TurnCancelled,
    TurnStarted,
    event_to_dict,
)
from agent_core.record import TurnRecord
from agent_core.scenarios import persona_password
from agent_core.session import PersonaSession

if TYPE_CHECKING:
    from tests.integration.conftest import Stack


def _turn(stack: Stack, persona: str, question: str) -> list[Any]:
    session = PersonaSession.login(
        stack.endpoints, persona, persona_password(stack.truth, persona), audit=False
    )
    try:
        return list(
            session.run_turn(
                question,
                approver=lambda _: ApprovalDecision(False, "test denies"),
                cancel=CancelToken(),
            )
        )
    finally:
        session.close()


def test_record_of_a_real_turn_matches_its_events(stack: Stack) -> None:
    events = _turn(stack, "hong", "나 육아휴직 며칠 남았어?")
    record = TurnRecord.from_events(events)
    started = [e for e in events if isinstance(e, ToolCallStarted)]
    finished = {e.call_id: e for e in events if isinstance(e, ToolCallFinished)}
    assert record.status == "answered" and record.persona == "hong"
    assert record.answer == next(e.text for e in events if isinstance(e, AnswerFinished))
    assert [c.call_id for c in record.calls] == [e.call_id for e in started]
    for call in record.calls:
        event = finished[call.call_id]
        assert (call.status, call.row_count, call.result) == (
            event.status,
            event.row_count,
            event.result,
        )
        # the structured payload travels beside the framed text; nothing parses it back
        assert dict(call.payload) and json.dumps(dict(call.payload), ensure_ascii=False) in (
            call.result
        )
    assert str(stack.truth["demo_employee"]["remaining"]) in record.answer
    # text streamed before tool calls is narration, never the start of the answer
    assert all(not record.answer.startswith(text) for text in record.narration if text.strip())


def test_streamed_text_carries_its_model_call(stack: Stack) -> None:
    events = _turn(stack, "hong", "나 육아휴직 며칠 남았어?")
    calls = [e for e in events if isinstance(e, ModelCallFinished)]
    assert len(calls) >= 2  # narration with a tool call, then the answer
    for position, event in enumerate(events):
        if isinstance(event, AnswerDelta):
            ends = next(e for e in events[position:] if isinstance(e, ModelCallFinished))
            assert event.step == ends.call_index
        if isinstance(event, Narration):
            before = [e for e in events[:position] if isinstance(e, ModelCallFinished)][-1]
            assert (event.step, before.stop_reason) == (before.call_index, "tool_use")
            streamed = "".join(
                e.text for e in events if isinstance(e, AnswerDelta) and e.step == event.step
            )
            assert streamed == event.text
    last = calls[-1].call_index
    answer = "".join(e.text for e in events if isinstance(e, AnswerDelta) and e.step == last)
    assert answer == next(e.text for e in events if isinstance(e, AnswerFinished))


def test_stored_event_dicts_fold_to_the_same_record(stack: Stack) -> None:
    events = _turn(stack, "cho", "20090001 사번 직원 육아휴직 얼마나 썼어?")
    live = TurnRecord.from_events(events).to_dict()
    stored = json.loads(json.dumps([event_to_dict(e) for e in events], ensure_ascii=False))
    again = TurnRecord.from_dicts(stored).to_dict()
    assert again == live
    assert again["tool_calls"] and again["tool_calls"][0]["payload"]


def test_narration_retry_discard_and_cancel_fold_by_rule() -> None:
    record = TurnRecord()
    record.apply(TurnStarted("t1", "hong", "q", "offline"))
    record.apply(AnswerDelta("Let me check. ", step=1))
    assert record.apply(Narration("Let me check. ", step=1)) == ("narration", 0)
    assert record.answer == ""
    record.apply(ToolCallStarted("c1", "search_regulations", {"question": "q"}, "allow"))
    record.apply(AnswerDelta("partial that broke", step=2))
    record.apply(ModelRetry(2, 3, 0.0, "stream_broken", "the stream broke", discard=True))
    assert record.answer == ""  # the abandoned attempt's text is gone
    assert record.apply(TurnCancelled()) == ("status", None)
    assert record.status == "cancelled"
    assert record.calls[0].status == "interrupted"
    assert record.to_dict()["answer"] == ""
