"""Streamed text belongs to a step (a model call): narration and answer are told apart by it."""

from __future__ import annotations

import json

from agent_core.events import (
    AnswerDelta,
    AnswerFinished,
    ModelCallFinished,
    ModelRetry,
    Narration,
    ThinkingDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnStarted,
    Usage,
    event_to_dict,
)
from agent_core.record import TurnRecord, event_from_dict


def _two_step_turn() -> list[object]:
    return [
        TurnStarted("t1", "hong", "q", "scripted"),
        ThinkingDelta("plan", step=1),
        AnswerDelta("Let me ", step=1),
        AnswerDelta("check. ", step=1),
        ModelCallFinished(1, "m", "tool_use", Usage(model_calls=1)),
        Narration("Let me check. ", step=1),
        ToolCallStarted("c1", "search_regulations", {"question": "q"}, "allow"),
        ToolCallFinished("c1", "search_regulations", "ok", 1.0, 1, "1 row", "{}"),
        AnswerDelta("15 days.", step=2),
        ModelCallFinished(2, "m", "end_turn", Usage(model_calls=1)),
        AnswerFinished("15 days."),
    ]


def test_each_step_streams_its_own_text() -> None:
    record = TurnRecord()
    events = _two_step_turn()
    for event in events[:4]:
        record.apply(event)  # type: ignore[arg-type]
    assert (record.answer, record.answer_step) == ("Let me check. ", 1)
    for event in events[4:9]:
        record.apply(event)  # type: ignore[arg-type]
    assert record.narration == ["Let me check. "] and record.narration_steps == [1]
    assert (record.answer, record.answer_step) == ("15 days.", 2)
    for event in events[9:]:
        record.apply(event)  # type: ignore[arg-type]
    assert record.to_dict()["answer"] == "15 days."
    assert record.calls[0].step == 1


def test_a_step_without_narration_does_not_leak_into_the_next() -> None:
    # whitespace before a tool call is not narration (no Narration event), and
    # still never becomes the start of the next step's answer
    record = TurnRecord()
    record.apply(AnswerDelta("\n\n", step=1))
    record.apply(ModelCallFinished(1, "m", "tool_use", Usage(model_calls=1)))
    record.apply(AnswerDelta("The answer.", step=2))
    assert record.answer == "The answer."
    assert record.narration == []


def test_a_discarded_attempt_keeps_its_step() -> None:
    record = TurnRecord()
    record.apply(AnswerDelta("partial that ", step=1))
    record.apply(ModelRetry(2, 5, 0.0, "stream_broken", "the stream broke", discard=True))
    record.apply(AnswerDelta("The answer.", step=1))
    assert (record.answer, record.answer_step) == ("The answer.", 1)


def test_steps_survive_the_dict_round_trip() -> None:
    events = _two_step_turn()
    stored = json.loads(json.dumps([event_to_dict(e) for e in events]))  # type: ignore[arg-type]
    assert [d.get("step") for d in stored if d["kind"] == "answer_delta"] == [1, 1, 2]
    again = [event_from_dict(d) for d in stored]
    assert again == events
    live = TurnRecord.from_events(events).to_dict()  # type: ignore[arg-type]
    assert TurnRecord.from_dicts(stored).to_dict() == live


def test_a_narration_stored_without_a_step_closes_the_step_that_streamed() -> None:
    record = TurnRecord.from_dicts(
        [
            {"kind": "answer_delta", "text": "Let me check. ", "step": 1},
            {"kind": "narration", "text": "Let me check. "},
        ]
    )
    assert record.narration == ["Let me check. "] and record.narration_steps == [1]
    assert record.answer == ""
