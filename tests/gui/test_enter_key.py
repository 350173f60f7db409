"""Settings' "Enter sends" switch: Enter breaks the line and Ctrl+Enter sends, live."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from desktop.question_edit import QuestionEdit, apply_enter_sends
from desktop.settings import AppSettings

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def _box(qtbot: Any) -> tuple[QuestionEdit, list[str]]:
    box = QuestionEdit()
    qtbot.addWidget(box)
    box.set_prompt("Ask a question")
    sent: list[str] = []
    box.submitted.connect(lambda: sent.append(box.text()))
    return box, sent


def test_enter_sends_by_default_and_ctrl_enter_sends_too(qtbot: Any) -> None:
    box, sent = _box(qtbot)
    assert box.enter_sends and "Enter to send" in box.placeholderText()
    qtbot.keyClicks(box, "a")
    qtbot.keyClick(box, Qt.Key.Key_Return, SHIFT)
    qtbot.keyClicks(box, "b")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    qtbot.keyClick(box, Qt.Key.Key_Return, CTRL)
    assert sent == ["a\nb", "a\nb"]


def test_with_enter_sends_off_enter_breaks_the_line_and_ctrl_enter_sends(qtbot: Any) -> None:
    settings = AppSettings()
    settings.enter_sends = False
    settings.sync()
    box, sent = _box(qtbot)  # a new box reads the saved preference
    assert not box.enter_sends
    assert box.placeholderText() == "Ask a question (Ctrl+Enter to send, Enter for a new line)"
    qtbot.keyClicks(box, "a")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    qtbot.keyClicks(box, "b")
    assert sent == [] and box.text() == "a\nb"
    qtbot.keyClick(box, Qt.Key.Key_Return, CTRL)
    assert sent == ["a\nb"]


def test_the_switch_applies_to_open_boxes_at_once(qtbot: Any) -> None:
    first, sent_first = _box(qtbot)
    second, _ = _box(qtbot)
    apply_enter_sends(False)
    assert not first.enter_sends and not second.enter_sends
    qtbot.keyClicks(first, "x")
    qtbot.keyClick(first, Qt.Key.Key_Return)
    assert sent_first == [] and first.text() == "x\n"
    apply_enter_sends(True)
    qtbot.keyClick(first, Qt.Key.Key_Return)
    assert sent_first == ["x\n"]


def test_settings_dialog_saves_the_switch(qtbot: Any) -> None:
    from desktop.credentials import CredentialStore
    from desktop.settings_dialog import SettingsDialog

    settings = AppSettings()
    dialog = SettingsDialog(settings, CredentialStore(), None)
    qtbot.addWidget(dialog)
    assert dialog.enter_sends_check.isChecked()
    dialog.enter_sends_check.setChecked(False)
    dialog.accept()
    assert AppSettings().enter_sends is False
