"""From the turn's stream to the rows: merged deltas, one row per step, chips from citations."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gui_scripts import document_anchors

from agent_core.cancel import CancelToken
from agent_core.events import (
    AnswerDelta,
    AnswerFinished,
    Citation,
    Narration,
    ThinkingDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnStarted,
)
from desktop.transcript_model import ROLE_HTML, TranscriptModel, displayed_text

if TYPE_CHECKING:
    from collections.abc import Iterator

    from agent_core.approval import Approver
    from agent_core.events import AgentEvent


def _anchors(model: TranscriptModel, row: int, width: int = 600) -> list[str]:
    from desktop.chat_view import ChatDelegate

    document = ChatDelegate().document(model.index(row), width)  # what the view paints
    return document_anchors(document)


def test_the_worker_merges_a_steps_deltas_and_keeps_the_order() -> None:
    from desktop.turn_worker import TurnWorker

    def turn(approver: Approver, cancel: CancelToken) -> Iterator[AgentEvent]:
        yield TurnStarted("t", "hong", "q", "scripted")
        yield ThinkingDelta("plan ", step=1)
        yield ThinkingDelta("more", step=1)
        for _ in range(200):  # fewer than HIGH_WATER: nobody takes while run() runs here
            yield AnswerDelta("가", step=1)
        yield Narration("가" * 200, step=1)
        yield ToolCallStarted("c1", "query_hr", {"question_sql": "SELECT 1"}, "allow")
        yield ToolCallFinished("c1", "query_hr", "ok", 1.0, 1, "1 row", "{}")
        for _ in range(10):
            yield AnswerDelta("나", step=2)
        yield AnswerDelta("다", step=3)
        yield AnswerFinished("나" * 10)

    worker = TurnWorker(turn, CancelToken())
    worker.run()  # in this thread: every event is queued before anyone takes them
    events, more = worker.take_events()
    assert not more
    assert [(e.kind, getattr(e, "text", None), getattr(e, "step", None)) for e in events] == [
        ("turn_started", None, None),
        ("thinking_delta", "plan more", 1),
        ("answer_delta", "가" * 200, 1),
        ("narration", "가" * 200, 1),
        ("tool_call_started", None, None),
        ("tool_call_finished", None, None),
        ("answer_delta", "나" * 10, 2),
        ("answer_delta", "다", 3),  # another step never merges
        ("answer_finished", "나" * 10, None),
    ]


def test_each_step_streams_its_own_row_and_a_tool_step_becomes_narration(qapp: Any) -> None:
    model = TranscriptModel()
    model.add_question("q")
    model.append_thinking("plan", step=1)
    model.append_delta("Let me ", step=1)
    model.append_delta("check.", step=1)
    model.end_step_as_narration(1, "Let me check.")
    model.append_thinking("again", step=2)
    model.append_delta("15 days.", step=2)
    assert [(r.kind, r.text, r.streaming) for r in model.rows[1:]] == [
        ("thinking", "plan", True),
        ("narration", "Let me check.", False),
        ("thinking", "again", True),
        ("assistant", "15 days.", True),
    ]
    model.finish_answer("15 days.")
    assert model.rows[-1].kind == "assistant" and not model.rows[-1].streaming


def test_a_step_that_said_nothing_before_its_tools_leaves_no_row(qapp: Any) -> None:
    model = TranscriptModel()
    model.add_question("q")
    model.append_delta("\n\n", step=1)  # whitespace: no Narration comes for it
    model.append_delta("The answer.", step=2)
    model.finish_answer("The answer.")
    assert [(r.kind, r.text) for r in model.rows[1:]] == [("assistant", "The answer.")]


def test_chips_come_from_the_answers_citations_only(qapp: Any) -> None:
    model = TranscriptModel()
    text = "HR-REG-003 제2차에서 HR-REG-003 제3차로 바뀌었고, FIN-GDL-001 v2는 참고입니다."
    model.append_delta(text, step=1)
    cited = (Citation("HR-REG-003", 2, None), Citation("HR-REG-003", 3, "2025-03-15"))
    model.finish_answer(text, cited)
    # the uncited document is text; each cited mention links to the version it names
    assert _anchors(model, 0) == ["cite:HR-REG-003:2", "cite:HR-REG-003:3"]


def test_a_streaming_row_shows_what_it_paints_and_links_once_finished(qapp: Any) -> None:
    model = TranscriptModel()
    text = "근거: HR-REG-003 제3차 <b>굵게</b>"
    model.append_delta(text, step=1)
    # while streaming there are no citations yet: the HTML is the plain text painted
    assert "<a " not in model.index(0).data(ROLE_HTML)
    assert displayed_text(model.rows[0]) == text
    assert _anchors(model, 0) == []
    model.finish_answer(text, (Citation("HR-REG-003", 3, None),))
    assert _anchors(model, 0) == ["cite:HR-REG-003:3"]


def test_a_flood_arrives_whole_and_in_order_through_the_controller(qtbot: Any) -> None:
    from desktop.turn_worker import TurnController

    def turn(approver: Approver, cancel: CancelToken) -> Iterator[AgentEvent]:
        yield TurnStarted("t", "hong", "q", "scripted")
        for i in range(3000):  # well past the back-pressure mark, as fast as a thread can
            if i % 100 == 0:
                yield ToolCallStarted(f"c{i}", "query_hr", {"question_sql": "SELECT 1"}, "allow")
            yield AnswerDelta(f"{i} ", step=1 + i // 1000)
        yield AnswerFinished("done")

    controller = TurnController(turn)
    batches: list[list[AgentEvent]] = []
    controller.events_arrived.connect(batches.append)
    with qtbot.waitSignal(controller.finished, timeout=20000):
        controller.start()
    controller.wait()
    events = [e for batch in batches for e in batch]
    for step in (1, 2, 3):
        text = "".join(e.text for e in events if isinstance(e, AnswerDelta) and e.step == step)
        assert text == "".join(f"{i} " for i in range(1000 * (step - 1), 1000 * step))
    calls = [e.call_id for e in events if isinstance(e, ToolCallStarted)]
    assert calls == [f"c{i}" for i in range(0, 3000, 100)]
    # merging never moves text across a tool call: all text before call c{i} is 0..i-1
    streamed = ""
    for event in events:
        if isinstance(event, AnswerDelta):
            streamed += event.text
        elif isinstance(event, ToolCallStarted):
            i = int(event.call_id[1:])
            assert streamed == "".join(f"{n} " for n in range(i)), event.call_id
    assert len(events) < 3000  # merged on the way
    assert events[0].kind == "turn_started" and events[-1].kind == "answer_finished"
