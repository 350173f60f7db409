"""The question box: Enter sends, Shift+Enter breaks the line, Tab leaves, Up recalls.

The same box serves the single view and the split view, so the keys mean the
same everywhere (as in the chat clients people know). People who write long,
multi-line questions can turn "Enter sends" off in Settings: then Enter breaks
the line and Ctrl+Enter sends. Ctrl+Enter sends either way.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

RECALLED = 50
"""Questions the Up arrow can bring back."""

_ALT = Qt.KeyboardModifier.AltModifier
_META = Qt.KeyboardModifier.MetaModifier
_CTRL = Qt.KeyboardModifier.ControlModifier
_SHIFT = Qt.KeyboardModifier.ShiftModifier

_LIVE: weakref.WeakSet[QuestionEdit] = weakref.WeakSet()


def apply_enter_sends(enter_sends: bool) -> None:
    """Apply Settings' "Enter sends" to every question box now (no restart)."""
    for edit in list(_LIVE):
        if shiboken6.isValid(edit):  # a closed window's box may outlive its C++ side
            edit.set_enter_sends(enter_sends)


class QuestionEdit(QPlainTextEdit):
    """A few lines of plain text that send on Enter."""

    submitted = Signal()
    """Enter (or Ctrl+Enter) was pressed: send what is in the box."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)  # Tab moves on to Send; a question has no tabs
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        # Fusion draws no focus frame around a text area: on the dark theme nothing
        # showed where typing would go. The palette's highlight follows the theme.
        self.setStyleSheet(
            "QuestionEdit { border: 1px solid palette(mid); border-radius: 3px; padding: 2px; }"
            " QuestionEdit:focus { border: 2px solid palette(highlight); padding: 1px; }"
        )
        self._asked: list[str] = []
        self._position: int | None = None
        self._draft = ""
        self._prompt = ""
        from desktop.settings import AppSettings

        self._enter_sends = AppSettings().enter_sends
        _LIVE.add(self)

    @property
    def enter_sends(self) -> bool:
        """True: Enter sends and Shift+Enter breaks the line; False: the other way round."""
        return self._enter_sends

    def set_enter_sends(self, enter_sends: bool) -> None:
        """Switch what a plain Enter does, and say so in the hint."""
        self._enter_sends = enter_sends
        self._show_hint()

    def set_prompt(self, prompt: str) -> None:
        """The placeholder's prompt; the keys that send are added after it."""
        self._prompt = prompt
        self._show_hint()

    def _show_hint(self) -> None:
        keys = (
            self.tr("Enter to send, Shift+Enter for a new line")
            if self._enter_sends
            else self.tr("Ctrl+Enter to send, Enter for a new line")
        )
        self.setPlaceholderText(f"{self._prompt} ({keys})" if self._prompt else keys)

    # the QLineEdit-like API the split view and tests use
    def text(self) -> str:
        """The question as typed."""
        return self.toPlainText()

    def setText(self, text: str) -> None:
        """Replace the question, cursor at the end."""
        self.setPlainText(text)
        self.moveCursor(QTextCursor.MoveOperation.End)

    def remember(self, question: str) -> None:
        """Keep an asked question for the Up arrow."""
        question = question.strip()
        if question and (not self._asked or self._asked[-1] != question):
            self._asked.append(question)
            del self._asked[:-RECALLED]
        self._position = None

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter sends (or breaks the line, per Settings), Up and Down walk the asked questions."""
        key, modifiers = event.key(), event.modifiers()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if modifiers & (_ALT | _META):
                pass  # reserved by window managers and input methods
            elif modifiers & _CTRL:
                self.submitted.emit()
            elif modifiers & _SHIFT or not self._enter_sends:
                self.insertPlainText("\n")
            else:
                self.submitted.emit()
            event.accept()
            return
        plain = not modifiers & ~Qt.KeyboardModifier.KeypadModifier
        if plain and key == Qt.Key.Key_Up and self._on_first_line() and self._recall(-1):
            event.accept()
            return
        if plain and key == Qt.Key.Key_Down and self._on_last_line() and self._recall(+1):
            event.accept()
            return
        super().keyPressEvent(event)

    def _on_first_line(self) -> bool:
        cursor = self.textCursor()
        return not cursor.movePosition(QTextCursor.MoveOperation.Up)

    def _on_last_line(self) -> bool:
        cursor = self.textCursor()
        return not cursor.movePosition(QTextCursor.MoveOperation.Down)

    def _recall(self, step: int) -> bool:
        """Show the previous (-1) or next (+1) asked question; False when there is none."""
        if not self._asked:
            return False
        if self._position is None:
            if step > 0 or self.toPlainText().strip():
                return False  # never overwrite a question being typed
            self._draft = self.toPlainText()
            position = len(self._asked) - 1
        else:
            position = self._position + step
        if position < 0:
            return True  # at the oldest: stay
        if position >= len(self._asked):
            self._position = None
            self.setText(self._draft)
            return True
        self._position = position
        self.setText(self._asked[position])
        return True
