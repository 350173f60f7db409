"""Turns run off the GUI thread: stop, close mid-turn, failures, approvals."""

from __future__ import annotations

import threading
from typing import Any

from gui_scripts import ScriptedSession, approval_turn, failing_turn, scripted_turn
from PySide6.QtCore import Qt

from desktop.persona_pane import PersonaPane
from desktop.turn_worker import running_turn_threads


def _pane(qtbot: Any, turn: Any) -> PersonaPane:
    pane = PersonaPane("hong")
    qtbot.addWidget(pane)
    pane.set_session(ScriptedSession("hong", lambda q: turn))
    return pane


def test_turn_runs_in_another_thread_and_streams(qtbot: Any) -> None:
    seen_threads: list[int] = []
    inner = scripted_turn()

    def turn(approver: Any, cancel: Any) -> Any:
        seen_threads.append(threading.get_ident())
        yield from inner(approver, cancel)

    pane = _pane(qtbot, turn)
    with qtbot.waitSignal(pane.turn_finished, timeout=10000) as blocker:
        assert pane.ask("육아휴직 며칠 남았어?")
    assert seen_threads and seen_threads[0] != threading.get_ident()
    result = blocker.args[0]
    assert result.status == "answered"
    assert "8일" in result.answer
    assert result.row_counts() == {"query_hr": 3}
    assert pane.transcript.rows[-1].kind == "assistant"


def test_tool_rows_appear_before_the_answer_row(qtbot: Any) -> None:
    order: list[str] = []
    pane = _pane(qtbot, scripted_turn())
    pane.tools.rowsInserted.connect(lambda *_: order.append("tool"))
    pane.transcript.rowsInserted.connect(
        lambda _p, first, _l: order.append(str(pane.transcript.rows[first].kind))
    )
    with qtbot.waitSignal(pane.turn_finished, timeout=10000):
        pane.ask("질문")
    assert order == ["user", "tool", "assistant"]


def test_stop_mid_turn_cancels_and_ends_the_thread(qtbot: Any) -> None:
    gate = threading.Event()
    pane = _pane(qtbot, scripted_turn(gate=gate))
    pane.ask("질문")
    qtbot.waitUntil(lambda: pane.tools.rowCount() == 1 and pane.tools.calls[0].status == "ok")
    assert pane.running
    with qtbot.waitSignal(pane.turn_finished, timeout=2000) as blocker:
        pane.stop()
    assert blocker.args[0].status == "cancelled"
    assert pane.transcript.rows[-1].kind == "notice"
    assert not pane.running
    assert running_turn_threads() == 0
    gate.set()


def test_an_exception_in_the_turn_becomes_a_failed_turn(qtbot: Any) -> None:
    pane = _pane(qtbot, failing_turn())
    with qtbot.waitSignal(pane.turn_finished, timeout=10000) as blocker:
        pane.ask("질문")
    assert blocker.args[0].status == "failed"
    assert "platform went away" in pane.transcript.rows[-1].text


def test_even_system_exit_in_the_turn_ends_it_as_an_internal_failure(qtbot: Any) -> None:
    """A tool calling sys.exit() left the pane 'running' for good (only Exception was caught)."""

    def exiting(approver: Any, cancel: Any) -> Any:
        raise SystemExit(3)
        yield  # a generator, as run_turn is

    pane = _pane(qtbot, exiting)
    with qtbot.waitSignal(pane.turn_finished, timeout=10000) as blocker:
        pane.ask("질문")
    assert blocker.args[0].status == "failed"
    assert not pane.running
    assert "SystemExit" in pane.transcript.rows[-1].text


def test_closing_the_window_mid_turn_cancels_and_joins(qtbot: Any, window_factory: Any) -> None:
    gate = threading.Event()
    window = window_factory()
    pane = window.add_session(ScriptedSession("hong", lambda q: scripted_turn(gate=gate)))
    results: list[Any] = []
    pane.turn_finished.connect(results.append)
    window.question_edit.setPlainText("질문")
    assert window.send()
    qtbot.waitUntil(lambda: pane.tools.rowCount() == 1)
    assert running_turn_threads() == 1
    window.close()
    assert running_turn_threads() == 0
    assert [r.status for r in results] == ["cancelled"]


def _approval_window(qtbot: Any, window_factory: Any) -> tuple[Any, Any]:
    window = window_factory()
    pane = window.add_session(ScriptedSession("hong", lambda q: approval_turn()))
    window.question_edit.setPlainText("HR-REG-003 제3차 개정 요청해줘")
    window.send()
    qtbot.waitUntil(lambda: bool(window.approval_dialogs))
    return window, pane


def test_approval_dialog_approve_lets_the_write_run(qtbot: Any, window_factory: Any) -> None:
    window, pane = _approval_window(qtbot, window_factory)
    dialog = window.approval_dialogs[0]
    assert dialog.isVisible()
    assert pane.tools.calls[0].status == "awaiting_approval"
    assert dialog.request.idempotency_key == "key-123"
    with qtbot.waitSignal(pane.turn_finished, timeout=10000) as blocker:
        dialog.approve_button.click()
    assert blocker.args[0].answer == "요청했습니다."
    assert pane.tools.calls[0].approved is True
    assert pane.tools.calls[0].status == "ok"


def test_approval_dialog_deny_sends_the_reason(qtbot: Any, window_factory: Any) -> None:
    window, pane = _approval_window(qtbot, window_factory)
    dialog = window.approval_dialogs[0]
    dialog.reason_edit.setText("검토 후 다시")
    with qtbot.waitSignal(pane.turn_finished, timeout=10000) as blocker:
        dialog.deny_button.click()
    assert "검토 후 다시" in blocker.args[0].answer
    assert pane.tools.calls[0].status == "denied"
    assert pane.tools.calls[0].approved is False


def test_stop_while_awaiting_approval_ends_the_turn(qtbot: Any, window_factory: Any) -> None:
    window, pane = _approval_window(qtbot, window_factory)
    with qtbot.waitSignal(pane.turn_finished, timeout=5000):
        window.stop()
    assert running_turn_threads() == 0
    for dialog in list(window.approval_dialogs):
        dialog.reject()


def test_stale_approval_dialog_cannot_approve_the_next_turns_write(
    qtbot: Any, window_factory: Any
) -> None:
    from agent_core.approval import ApprovalDecision

    window = window_factory()
    turns = iter([approval_turn(call_id="w1"), approval_turn(call_id="w2")])
    pane = window.add_session(ScriptedSession("hong", lambda q: next(turns)))
    window.question_edit.setPlainText("HR-REG-003 제3차 개정 요청해줘")
    window.send()
    qtbot.waitUntil(lambda: bool(window.approval_dialogs))
    stale = window.approval_dialogs[0]
    stale_request = stale.request
    with qtbot.waitSignals([pane.turn_finished, stale.finished], timeout=5000):
        window.stop()  # the turn is cancelled: its dialog closes without answering
    assert stale not in window.approval_dialogs
    assert pane.tools.calls[0].approval_reason == "the turn was stopped before anyone answered"

    window.question_edit.setPlainText("다시 요청해줘")
    window.send()
    qtbot.waitUntil(lambda: bool(window.approval_dialogs))
    current = window.approval_dialogs[0]
    assert current.request.call_id == "w2"
    # the stale request's answer arrives late: it must not approve w2
    assert not pane.answer_approval(stale_request.call_id, ApprovalDecision(True, ""))
    current.reason_edit.setText("보류")
    with qtbot.waitSignal(pane.turn_finished, timeout=10000) as blocker:
        current.deny_button.click()
    assert "보류" in blocker.args[0].answer
    write = next(c for c in pane.tools.calls if c.call_id == "w2")
    assert write.approved is False and write.status == "denied"


def test_turn_worker_ignores_an_answer_for_another_call() -> None:
    from agent_core.approval import ApprovalDecision
    from agent_core.cancel import CancelToken
    from desktop.turn_worker import TurnWorker

    worker = TurnWorker(approval_turn(call_id="w2"), CancelToken())
    results: list[bool] = []
    worker.approval_needed.connect(
        lambda request: results.extend(
            [
                worker.answer_approval("w1", ApprovalDecision(True, "")),
                worker.answer_approval(request.call_id, ApprovalDecision(False, "아니요")),
                worker.answer_approval(request.call_id, ApprovalDecision(True, "")),
            ]
        ),
        Qt.ConnectionType.DirectConnection,
    )
    worker.run()  # in this thread: the direct slot answers before the worker waits
    events, _ = worker.take_events()
    resolved = [e for e in events if e.kind == "approval_resolved"]
    assert results == [False, True, False]
    assert [(e.approved, e.reason) for e in resolved] == [(False, "아니요")]
