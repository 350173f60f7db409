"""Conversations as in the chat clients people know: list, new chat, search, restore,
copy, regenerate, edit and resend; stopped or failed turns are never taken for answers."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from gui_scripts import ANSWER, ScriptedSession, scripted_turn
from PySide6.QtWidgets import QApplication, QMessageBox

if TYPE_CHECKING:
    from pathlib import Path

    import pytest


def _ask(qtbot: Any, window: Any, pane: Any, question: str) -> Any:
    window.question_edit.setPlainText(question)
    with qtbot.waitSignal(pane.turn_finished, timeout=10000) as done:
        assert window.send()
    return done.args[0]


def _stop_mid_answer(qtbot: Any, window: Any, pane: Any, question: str, gate: Any) -> Any:
    window.question_edit.setPlainText(question)
    assert window.send()
    qtbot.waitUntil(lambda: bool(pane.tools.calls) and pane.tools.calls[-1].status == "ok")
    with qtbot.waitSignal(pane.turn_finished, timeout=10000) as done:
        pane.stop()
    return done.args[0]


def test_a_stopped_answer_is_never_sent_back_to_the_model(qtbot: Any, window_factory: Any) -> None:
    from agent_core.events import AnswerDelta, TurnCancelled, TurnStarted

    def half_answer(approver: Any, cancel: Any) -> Any:
        yield TurnStarted("t9", "hong", "q", "scripted")
        yield AnswerDelta("육아휴직은 ")  # part of an answer, then the person stops it
        cancel.wait(10)
        yield TurnCancelled()

    window = window_factory()
    session = ScriptedSession(
        "hong", lambda q: half_answer if q == "멈출 질문" else scripted_turn()
    )
    pane = window.add_session(session)
    _ask(qtbot, window, pane, "첫 질문")
    window.question_edit.setPlainText("멈출 질문")
    assert window.send()
    qtbot.waitUntil(lambda: pane.transcript.rows[-1].kind == "assistant")
    with qtbot.waitSignal(pane.turn_finished, timeout=10000) as stopped:
        pane.stop()
    assert stopped.args[0].status == "cancelled"
    _ask(qtbot, window, pane, "셋째 질문")
    assert session.histories[-1] == [("첫 질문", ANSWER)]


def test_conversations_are_listed_restored_searched_renamed_and_deleted(
    qtbot: Any, window_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = window_factory()
    pane = window.add_session(ScriptedSession("hong", lambda q: scripted_turn()))
    _ask(qtbot, window, pane, "육아휴직 며칠 남았어?")
    _ask(qtbot, window, pane, "그럼 언제까지 써야 해?")
    first = pane.conversation_id
    assert first is not None
    window.new_chat()
    assert pane.transcript.rowCount() == 0 and pane.conversation_id is None
    _ask(qtbot, window, pane, "출장 숙박비 한도는?")
    assert pane.conversation_id not in (None, first)
    assert window.sidebar.titles() == ["출장 숙박비 한도는?", "육아휴직 며칠 남았어?"]

    window.open_conversation(first)  # the sidebar's click
    assert [r.text for r in pane.transcript.rows if r.kind == "user"] == [
        "육아휴직 며칠 남았어?",
        "그럼 언제까지 써야 해?",
    ]
    assert [pane.tools.question_at(n) for n in range(pane.tools.rowCount())] == [
        "육아휴직 며칠 남았어?",
        "그럼 언제까지 써야 해?",
    ]  # each question's calls grouped under it
    answers = [r for r in pane.transcript.rows if r.kind == "assistant"]
    assert [c.doc_no for c in answers[0].citations] == ["HR-REG-003"]  # citations restored
    _ask(qtbot, window, pane, "하나 더")  # continues the opened conversation
    assert pane.conversation_id == first
    assert len(window.history.conversation_turns(first)) == 3

    window.sidebar.search.setText("숙박비")
    window.sidebar._search_now()
    assert window.sidebar.titles() == ["출장 숙박비 한도는?"]
    window.sidebar.search.setText("언제")  # two syllables: found without FTS's trigrams
    window.sidebar._search_now()
    assert window.sidebar.titles() == ["육아휴직 며칠 남았어?"]
    window.sidebar.search.setText("남았습니다")  # in the answers: each conversation once
    window.sidebar._search_now()
    assert window.sidebar.titles() == ["육아휴직 며칠 남았어?", "출장 숙박비 한도는?"]
    window.sidebar.search.clear()
    window.sidebar._search_now()

    window._rename_conversation(first, "육아휴직 상담")
    assert "육아휴직 상담" in window.sidebar.titles()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    window._delete_conversation(first)
    assert window.sidebar.titles() == ["출장 숙박비 한도는?"]
    assert pane.transcript.rowCount() == 0  # it was in view: a new chat now
    assert window.history.conversation_turns(first) == []


def test_after_a_restart_the_last_conversation_comes_back_with_its_real_ends(
    qtbot: Any, window_factory: Any
) -> None:
    gate = threading.Event()
    first = window_factory()
    pane = first.add_session(
        ScriptedSession("hong", lambda q: scripted_turn(gate=gate if q == "멈춤" else None))
    )
    _ask(qtbot, first, pane, "육아휴직 며칠 남았어?")
    _stop_mid_answer(qtbot, first, pane, "멈춤", gate)
    first.close()

    second = window_factory()
    again = second.add_session(ScriptedSession("hong", lambda q: scripted_turn()))
    kinds = [(r.kind, r.text) for r in again.transcript.rows]
    assert kinds[0] == ("user", "육아휴직 며칠 남았어?")
    assert kinds[1][0] == "assistant" and "8일" in kinds[1][1]
    assert kinds[2] == ("user", "멈춤")
    assert kinds[3] == ("notice", "Stopped.")  # not "(cancelled)", not an answer
    assert [t.status for t in again.turns] == ["answered", "cancelled"]
    assert len(again.tools.calls) == 2 and again.tools.question_at(1) == "멈춤"
    table = again.tool_panel.table  # a question's first call has room for the question
    assert table.rowHeight(1) > table.verticalHeader().defaultSectionSize()
    assert all(r.footer.endswith(" s") for r in again.transcript.rows if r.kind != "user")


def test_regenerate_and_edit_and_resend_replace_turns(qtbot: Any, window_factory: Any) -> None:
    window = window_factory()
    session = ScriptedSession("hong", lambda q: scripted_turn())
    pane = window.add_session(session)
    _ask(qtbot, window, pane, "첫 질문")
    _ask(qtbot, window, pane, "둘째 질문")
    conversation = pane.conversation_id
    with qtbot.waitSignal(pane.turn_finished, timeout=10000):
        assert pane.regenerate()
    assert session.questions[-1] == "둘째 질문"
    assert session.histories[-1] == [("첫 질문", ANSWER)]
    store = window.history
    assert [t.question for t in store.conversation_turns(conversation)] == ["첫 질문", "둘째 질문"]
    assert [r.text for r in pane.transcript.rows if r.kind == "user"] == ["첫 질문", "둘째 질문"]

    pane.edit_requested.emit("첫 질문", 0)  # the context menu's "Edit and resend…"
    assert window.question_edit.toPlainText() == "첫 질문"
    _ask(qtbot, window, pane, "고친 첫 질문")
    assert session.histories[-1] == []
    assert [t.question for t in store.conversation_turns(conversation)] == ["고친 첫 질문"]
    assert [r.text for r in pane.transcript.rows if r.kind == "user"] == ["고친 첫 질문"]


def test_a_message_can_be_copied_and_opened_as_selectable_text(
    qtbot: Any, window_factory: Any
) -> None:
    from PySide6.QtWidgets import QTextBrowser

    window = window_factory()
    pane = window.add_session(ScriptedSession("hong", lambda q: scripted_turn()))
    _ask(qtbot, window, pane, "질문")
    pane.chat.copy_row(1)
    assert QApplication.clipboard().text() == pane.displayed_text()
    pane.chat.copy_row(1, markdown=True)
    assert QApplication.clipboard().text() == ANSWER
    pane.chat.edit(pane.transcript.index(1))
    editor = pane.chat.indexWidget(pane.transcript.index(1))
    editors = pane.chat.findChildren(QTextBrowser)
    assert editors or editor is not None
    assert editors[0].isReadOnly() and "8일" in editors[0].toPlainText()


def test_the_conversation_is_exported_whole(
    qtbot: Any, window_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QFileDialog

    window = window_factory()
    pane = window.add_session(ScriptedSession("hong", lambda q: scripted_turn()))
    _ask(qtbot, window, pane, "첫 질문")
    _ask(qtbot, window, pane, "둘째 질문")
    target = tmp_path / "chat.md"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.export_current()
    text = target.read_text("utf-8")
    assert "첫 질문" in text and "둘째 질문" in text and text.count("8일") >= 2


def test_a_stopped_split_pane_is_marked_and_left_out_of_the_comparison(
    qtbot: Any, window_factory: Any
) -> None:
    gate = threading.Event()
    window = window_factory()
    window.add_session(ScriptedSession("hong", lambda q: scripted_turn("hong", gate=gate)))
    window.add_session(ScriptedSession("cho", lambda q: scripted_turn("cho")))
    window.toggle_split(True)
    view = window.split_view
    hong = next(s for s in view.split_panes if s.pane.persona == "hong")
    with qtbot.waitSignal(view.all_finished, timeout=10000):
        assert view.ask_all("육아휴직?")
        qtbot.waitUntil(lambda: not view.panes[1].running or not view.panes[0].running)
        hong.pane.stop()
    assert hong.outcome.isVisibleTo(hong) and hong.outcome.text() == "stopped"
    text = view.strip.text()
    assert "Not compared" in text and "hong (stopped)" in text
    assert "same figures" not in text
