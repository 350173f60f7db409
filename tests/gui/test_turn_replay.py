"""Saved turns come back through the same fold as live ones, older history rows included."""

from __future__ import annotations

from typing import Any

from gui_scripts import ScriptedSession, approval_turn, scripted_turn

from agent_core.approval import ApprovalDecision
from desktop.history_store import SavedTurn
from desktop.persona_pane import PersonaPane
from desktop.tool_call_model import ROLE_QUESTION, ROLE_STATUS_TEXT

OLD_ROW_EVENTS = [  # as an older version wrote them: no turn_started, no payload, no step
    {
        "kind": "tool_call_started",
        "call_id": "c1",
        "tool": "query_hr",
        "arguments": {"question_sql": "SELECT 1"},
        "decision": "allow",
    },
    {"kind": "some_event_of_an_older_version", "call_id": "c1"},
    {
        "kind": "tool_call_finished",
        "call_id": "c1",
        "tool": "query_hr",
        "status": "ok",
        "duration_ms": 12.0,
        "row_count": 3,
        "preview": "3 rows",
        "result": '<tool-data tool="query_hr">\n{"rows": []}\n</tool-data>',
        "truncated": False,
        "injection_suspected": False,
        "error": None,
        "removed_field": 1,
    },
    {"kind": "tool_call_started", "call_id": "c2", "tool": "search_regulations",
     "arguments": {"query": "육아"}, "decision": "allow"},
    {
        "kind": "answer_finished",
        "text": "HR-REG-003 제3차 기준 8일 남았습니다.",
        "citations": [{"doc_no": "HR-REG-003", "version": 3, "effective_from": "2025-03-15"}],
    },
]  # fmt: skip


def _saved(turn_id: int, events: list[dict[str, Any]], status: str, answer: str = "") -> SavedTurn:
    return SavedTurn(turn_id, "hong", f"질문 {turn_id}", answer, events, 0.0, 1500.0, status, 7)


def test_rows_of_older_versions_replay_with_their_calls_answers_and_ends(qtbot: Any) -> None:
    pane = PersonaPane("hong")
    qtbot.addWidget(pane)
    pane.show_conversation(
        7,
        [
            _saved(1, OLD_ROW_EVENTS, "answered", "HR-REG-003 제3차 기준 8일 남았습니다."),
            _saved(2, [], "answered", "이벤트를 남기기 전의 답"),  # before events were kept
            _saved(3, OLD_ROW_EVENTS[:1], "failed"),  # saved without its final event
        ],
    )
    first, second, _ = pane.turns
    assert [t.status for t in pane.turns] == ["answered", "answered", "failed"]
    assert first.answer.startswith("HR-REG-003") and second.answer == "이벤트를 남기기 전의 답"
    assert (
        first.row_counts() == {"query_hr": 3, "search_regulations": 0}
        and first.turn_id == 1
        and first.saved
    )
    assert [c.status for c in pane.tools.calls] == ["ok", "interrupted", "interrupted"]
    assert pane.tools.index(2).data(ROLE_STATUS_TEXT) == "interrupted: the turn failed"
    assert pane.tools.index(2).data(ROLE_QUESTION) == "질문 3"
    answers = [r for r in pane.transcript.rows if r.kind == "assistant"]
    assert [c.doc_no for c in answers[0].citations] == ["HR-REG-003"]
    assert answers[1].text == "이벤트를 남기기 전의 답"
    assert pane.tools.calls[0] is first.record.calls[0]  # the list shows the record itself
    # the failed row without its failure event still says how it ended
    assert pane.transcript.rows[-1].kind == "notice"
    assert pane.transcript.rows[-1].text == "The turn failed."


def test_history_keeps_the_folded_events_and_they_replay_to_the_same_record(qtbot: Any) -> None:
    saved: list[Any] = []
    pane = PersonaPane("hong")
    qtbot.addWidget(pane)
    pane.set_session(ScriptedSession("hong", lambda q: approval_turn()))
    pane.approval_handler = lambda p, request: p.answer_approval(
        request.call_id, ApprovalDecision(True, "ok")
    )

    def saver(result: Any, done: Any) -> None:
        saved.append(result.events)
        done(None)

    pane.saver = saver
    with qtbot.waitSignal(pane.turn_finished, timeout=10000) as finished:
        assert pane.ask("HR-REG-003 제3차 개정 요청해줘")
    live = finished.args[0]
    [events] = saved
    kinds = [e["kind"] for e in events]
    assert "answer_delta" not in kinds  # history keeps the answer, not its pieces
    assert kinds.count("approval_resolved") == 1 and kinds[-1] == "answer_finished"
    assert live.record.calls[0].approved is True and live.record.calls[0].status == "ok"

    again = PersonaPane("hong")
    qtbot.addWidget(again)
    again.show_conversation(1, [_saved(1, events, "answered", live.answer)])
    replayed = again.turns[0].record
    assert [c.to_dict() for c in replayed.calls] == [c.to_dict() for c in live.record.calls]
    assert replayed.answer == live.answer and replayed.status == "answered"


def test_the_last_turn_keeps_no_streamed_pieces(qtbot: Any) -> None:
    pane = PersonaPane("hong")
    qtbot.addWidget(pane)
    pane.set_session(ScriptedSession("hong", lambda q: scripted_turn()))
    with qtbot.waitSignal(pane.turn_finished, timeout=10000) as finished:
        assert pane.ask("육아휴직 며칠 남았어?")
    record = finished.args[0].record
    assert record.events and all(e.kind != "answer_delta" for e in record.events)
    assert "8일" in record.answer and record.status == "answered"
