"""Everyday keyboard conventions and small feedback: what a person notices in the first minute."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gui_scripts import ScriptedSession, scripted_turn
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

if TYPE_CHECKING:
    import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIFT = Qt.KeyboardModifier.ShiftModifier


def _signed_in(window_factory: Any, gate: threading.Event | None = None) -> tuple[Any, Any]:
    window = window_factory()
    pane = window.add_session(ScriptedSession("hong", lambda q: scripted_turn(gate=gate)))
    window.activateWindow()
    window.question_edit.setFocus()
    return window, pane


def test_enter_sends_and_shift_enter_breaks_the_line(qtbot: Any, window_factory: Any) -> None:
    window, pane = _signed_in(window_factory)
    box = window.question_edit
    qtbot.keyClicks(box, "first line")  # QTest types ASCII only
    qtbot.keyClick(box, Qt.Key.Key_Return, SHIFT)
    qtbot.keyClicks(box, "second")
    assert box.toPlainText() == "first line\nsecond" and not pane.running
    with qtbot.waitSignal(pane.turn_finished, timeout=10000):
        qtbot.keyClick(box, Qt.Key.Key_Return)
    assert pane.transcript.rows[0].text == "first line\nsecond"
    assert box.toPlainText() == ""


def test_enter_in_the_split_view_asks_all_and_shift_enter_breaks(
    qtbot: Any, window_factory: Any
) -> None:
    window, _ = _signed_in(window_factory)
    window.add_session(ScriptedSession("cho", lambda q: scripted_turn("cho")))
    window.toggle_split(True)
    view = window.split_view
    qtbot.keyClicks(view.question, "a")
    qtbot.keyClick(view.question, Qt.Key.Key_Return, SHIFT)
    qtbot.keyClicks(view.question, "b")
    assert view.question.text() == "a\nb" and not view.running
    with qtbot.waitSignal(window.split_view.all_finished, timeout=10000):
        qtbot.keyClick(view.question, Qt.Key.Key_Return)
    assert [p.last_result.question for p in view.panes] == ["a\nb", "a\nb"]
    assert "box above" in view.panes[0].suggestions.hint.text()


def test_tab_leaves_the_box_and_up_recalls_the_last_question(
    qtbot: Any, window_factory: Any
) -> None:
    window, pane = _signed_in(window_factory)
    box = window.question_edit
    qtbot.waitUntil(box.hasFocus)
    qtbot.keyClick(box, Qt.Key.Key_Tab)
    assert not box.hasFocus() and "\t" not in box.toPlainText()
    box.setFocus()
    for question in ("첫 질문", "둘째 질문"):
        box.setPlainText(question)
        with qtbot.waitSignal(pane.turn_finished, timeout=10000):
            assert window.send()
    qtbot.keyClick(box, Qt.Key.Key_Up)
    assert box.toPlainText() == "둘째 질문"
    qtbot.keyClick(box, Qt.Key.Key_Up)
    assert box.toPlainText() == "첫 질문"
    qtbot.keyClick(box, Qt.Key.Key_Down)
    qtbot.keyClick(box, Qt.Key.Key_Down)
    assert box.toPlainText() == ""  # back to the (empty) draft
    box.setPlainText("쓰는 중")
    qtbot.keyClick(box, Qt.Key.Key_Up)
    assert box.toPlainText() == "쓰는 중"  # a question being typed is never replaced


def test_ctrl_q_quits(qtbot: Any, window_factory: Any) -> None:
    window, _ = _signed_in(window_factory)
    assert window.isVisible()
    qtbot.keyClick(window.question_edit, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    assert not window.isVisible()


def test_the_window_opens_inside_the_screen(qtbot: Any, window_factory: Any) -> None:
    window = window_factory()
    available = window.screen().availableGeometry()
    assert available.contains(window.frameGeometry()), (window.frameGeometry(), available)


def test_send_with_nobody_signed_in_says_so(qtbot: Any, window_factory: Any) -> None:
    window = window_factory()
    window.question_edit.setPlainText("육아휴직?")
    assert not window.send()
    assert "Nobody is signed in" in window.statusBar().currentMessage()
    assert window.question_edit.toPlainText() == "육아휴직?"  # kept for after signing in


def test_send_is_disabled_while_a_turn_runs_and_the_answer_shows_its_time(
    qtbot: Any, window_factory: Any
) -> None:
    gate = threading.Event()
    window, pane = _signed_in(window_factory, gate)
    window.question_edit.setPlainText("질문")
    assert window.send()
    qtbot.waitUntil(lambda: pane.tools.rowCount() == 1)
    assert not window.send_button.isEnabled()
    assert pane.activity.isVisible() and "Working" in pane.activity.text()
    window.question_edit.setPlainText("또 질문")
    assert not window.send()
    assert "Still answering" in window.statusBar().currentMessage()
    with qtbot.waitSignal(pane.turn_finished, timeout=10000):
        gate.set()
    assert window.send_button.isEnabled()
    footer = pane.transcript.rows[-1].footer
    assert footer.endswith(" s") and footer[0].isdigit(), footer


def test_export_says_where_it_saved_or_that_there_is_nothing(
    qtbot: Any, window_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QFileDialog

    window, pane = _signed_in(window_factory)
    window.export_current()
    assert "Nothing to export" in window.statusBar().currentMessage()
    window.question_edit.setPlainText("질문")
    with qtbot.waitSignal(pane.turn_finished, timeout=10000):
        window.send()
    target = tmp_path / "turn.md"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.export_current()
    assert target.exists()
    assert str(target) in window.statusBar().currentMessage()


def test_the_theme_applies_at_once(qtbot: Any, window_factory: Any) -> None:
    from desktop.theme import apply_theme

    app = QApplication.instance()
    window = window_factory()
    try:
        window.apply_look("dark")
        assert app.palette().color(app.palette().ColorRole.Window).lightness() < 128
        window.apply_look("light")
        assert app.palette().color(app.palette().ColorRole.Window).lightness() > 128
    finally:
        apply_theme(app, "light")


_SETTINGS = """
import sys
from PySide6.QtCore import QSettings
from desktop.app import ensure_app
from desktop.settings import AppSettings
ensure_app([])
settings = AppSettings()
settings.theme = "dark"
settings.sync()
qt_own = QSettings(QSettings.Scope.UserScope, "QtProject")  # what QFileDialog writes
qt_own.setValue("FileDialog/lastVisited", "file:///tmp")
qt_own.sync()
"""


def test_ui_settings_live_in_the_data_dir_when_it_is_set(tmp_path: Path) -> None:
    home, data = tmp_path / "home", tmp_path / "data"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(home), REGDESK_DATA_DIR=str(data), QT_QPA_PLATFORM="offscreen")
    subprocess.run([sys.executable, "-c", _SETTINGS], cwd=ROOT, env=env, check=True, timeout=60)
    assert [p for p in home.rglob("*") if p.is_file()] == []
    written = {p.relative_to(data).as_posix() for p in data.rglob("*") if p.is_file()}
    assert "settings.ini" in written and "QtProject.conf" in written, written


def test_the_empty_tool_panel_hint_fills_the_list_after_a_splitter_move(qtbot: Any) -> None:
    from desktop.tool_call_model import ToolCallModel
    from desktop.tool_call_panel import ToolCallPanel

    panel = ToolCallPanel(ToolCallModel())
    qtbot.addWidget(panel)
    panel.resize(400, 600)
    panel.show()
    qtbot.waitExposed(panel)
    panel.splitter.setSizes([450, 150])  # the panel keeps its size; the list grows
    viewport = panel.table.viewport()
    qtbot.waitUntil(lambda: viewport.height() > 300)
    assert panel.empty_label.isVisible()
    assert panel.empty_label.height() == viewport.height() - 24


def test_the_question_box_shows_focus_in_the_dark_theme(qtbot: Any, window_factory: Any) -> None:
    from PySide6.QtGui import QPalette

    from desktop.theme import apply_theme

    app = QApplication.instance()
    window, _ = _signed_in(window_factory)
    try:
        window.apply_look("dark")
        box = window.question_edit
        box.setFocus()
        qtbot.waitUntil(box.hasFocus)
        highlight = app.palette().color(QPalette.ColorRole.Highlight)
        edge = box.grab().toImage().pixelColor(0, box.height() // 2)
        assert abs(edge.hue() - highlight.hue()) < 12 and edge.saturation() > 80, edge.name()
        window.send_button.setFocus()
        qtbot.waitUntil(lambda: not box.hasFocus())
        edge = box.grab().toImage().pixelColor(0, box.height() // 2)
        assert edge.saturation() < 60, edge.name()  # no highlight without focus
    finally:
        apply_theme(app, "light")


def test_the_tool_detail_takes_room_only_once_a_call_is_selected(
    qtbot: Any, window_factory: Any
) -> None:
    window, pane = _signed_in(window_factory)
    window.question_edit.setPlainText("질문")
    with qtbot.waitSignal(pane.turn_finished, timeout=10000):
        window.send()
    panel = pane.tool_panel
    assert not panel.detail.isVisible()
    assert panel.table.height() > panel.height() * 0.9  # the list has the whole height
    panel.table.selectRow(0)
    assert panel.detail.isVisible() and "query_hr" in panel.detail.toPlainText()
    window.new_chat()
    assert not panel.detail.isVisible()
