"""The tool calls of a pane's turns, as a list model over their ``CallRecord`` s.

The record is the model (napari's shape): each row is one
``agent_core.record.CallRecord`` of a ``TurnRecord`` the pane keeps, and this
adapter holds no copy of it. The pane folds an event into the record and hands
the ``Change`` it returned to :meth:`ToolCallModel.apply`, which inserts the
new row or emits ``dataChanged`` for the one row that changed. What a view
shows (status words, badges, the metrics line) comes from custom roles, so
the delegate, the detail view and tests read the same text.

A running call animates (the delegate draws a spinner from ``ROLE_PHASE``; the
status text reads "running", "running.", ...) on a timer that runs only while
a call runs.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, NamedTuple

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import QColor, QGuiApplication, QPalette

if TYPE_CHECKING:
    from agent_core.record import CallRecord, Change, TurnRecord

ROLE_CALL = Qt.ItemDataRole.UserRole + 1
"""The row's ``CallRecord``."""
ROLE_PHASE = Qt.ItemDataRole.UserRole + 2
"""Animation phase (0..PHASES-1) of a running row's spinner."""
ROLE_QUESTION = Qt.ItemDataRole.UserRole + 3
"""The question above a turn's first call ('' on the other rows)."""
ROLE_STATUS_TEXT = Qt.ItemDataRole.UserRole + 4
"""The status in words ("running..", "awaiting approval", "denied", ...)."""
ROLE_METRICS = Qt.ItemDataRole.UserRole + 5
"""Rows and duration, e.g. ``5 rows · 7 ms`` ('' while running)."""
ROLE_BADGES = Qt.ItemDataRole.UserRole + 6
"""``[(text, fill colour)]``: approval, refusal, truncation, suspected injection."""
ROLE_SECOND_LINE = Qt.ItemDataRole.UserRole + 7
"""The row's second line: the error of a failed or refused call, else the arguments."""
ROLE_DECISION = Qt.ItemDataRole.UserRole + 8
"""The runtime's decision (or the person's answer) in words."""

TEXT_ROLES = (
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.AccessibleTextRole,
    ROLE_QUESTION,
    ROLE_STATUS_TEXT,
    ROLE_METRICS,
    ROLE_SECOND_LINE,
    ROLE_DECISION,
)
"""Every role whose value is text a person reads (the leak audit reads them all)."""

PHASES = 12
"""Spinner steps per turn."""

ModelIndex = QModelIndex | QPersistentModelIndex

BADGE_COLORS = {
    "approval": "#ef6c00",
    "approved": "#2e7d32",
    "refused": "#c62828",
    "truncated": "#8d6e00",
    "injection": "#b71c1c",
}
"""Fill colours of the small badges (white text on them reads in both themes)."""

STATUS_COLORS = {
    "ok": "#2e7d32",
    "empty": "#8d6e63",
    "error": "#c62828",
    "denied": "#c62828",
    "interrupted": "#c62828",
    "awaiting_approval": "#ef6c00",
    "running": "#1565c0",
}
"""Status colours readable on the light palette."""

DARK_STATUS_COLORS = {
    "ok": "#81c784",
    "empty": "#bcaaa4",
    "error": "#ef9a9a",
    "denied": "#ef9a9a",
    "interrupted": "#ef9a9a",
    "awaiting_approval": "#ffb74d",
    "running": "#64b5f6",
}
"""Status colours readable on the dark palette."""

LIVE = ("running", "awaiting_approval")
"""Statuses of a call that has not ended."""


def status_color(status: str, palette: QPalette | None = None) -> QColor:
    """The colour of a status, readable on the palette's base colour.

    Args:
        status: A ``CallRecord.status``.
        palette: The palette drawn on (default the application's, which
            ``desktop.theme`` sets to the light or the dark one).
    """
    if palette is None:
        palette = QGuiApplication.palette()
    dark = palette.color(QPalette.ColorRole.Base).lightness() < 128
    return QColor((DARK_STATUS_COLORS if dark else STATUS_COLORS).get(status, "#808080"))


translate = QCoreApplication.translate
"""Literal ``translate("ToolCallModel", "…")`` calls, so pyside6-lupdate finds every string."""


def arguments_summary(call: CallRecord) -> str:
    """The arguments on one line for people: ``value · key: value``.

    The first argument (the question, the SQL, the document number) is shown
    bare; later ones with their name. Whitespace runs collapse.
    """
    parts = []
    for position, (key, value) in enumerate(call.arguments.items()):
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        text = " ".join(str(text).split())
        parts.append(text if position == 0 else f"{key}: {text}")
    return " · ".join(parts)


def badges(call: CallRecord) -> list[tuple[str, str]]:
    """Small badges worth a glance: ``(text, colour)``; a plain read has none."""
    found: list[tuple[str, str]] = []
    if call.approved is True:
        found.append((translate("ToolCallModel", "approved"), BADGE_COLORS["approved"]))
    elif call.approved is False:
        found.append((translate("ToolCallModel", "denied by you"), BADGE_COLORS["refused"]))
    elif call.decision == "approval_required":
        found.append((translate("ToolCallModel", "needs approval"), BADGE_COLORS["approval"]))
    elif call.decision == "deny":
        found.append((translate("ToolCallModel", "refused"), BADGE_COLORS["refused"]))
    if call.truncated:
        found.append((translate("ToolCallModel", "truncated"), BADGE_COLORS["truncated"]))
    if call.injection_suspected:
        found.append((translate("ToolCallModel", "⚠ injection?"), BADGE_COLORS["injection"]))
    return found


def status_text(call: CallRecord, phase: int = 0, turn_status: str = "") -> str:
    """The status in words.

    Args:
        call: The call.
        phase: The spinner's phase (a running call's dots follow it).
        turn_status: How the call's turn stands; an interrupted call says
            whether its turn failed or was stopped.
    """
    if call.status == "running":
        return translate("ToolCallModel", "running") + "." * (phase // 3 % 4)
    if call.status == "interrupted":
        return (
            translate("ToolCallModel", "interrupted: the turn failed")
            if turn_status == "failed"
            else translate("ToolCallModel", "stopped")
        )
    return {
        "awaiting_approval": translate("ToolCallModel", "awaiting approval"),
        "ok": translate("ToolCallModel", "ok"),
        "empty": translate("ToolCallModel", "empty"),
        "error": translate("ToolCallModel", "error"),
        "denied": translate("ToolCallModel", "denied"),
    }.get(call.status, call.status)


def metrics_text(call: CallRecord) -> str:
    """Rows and duration, e.g. ``5 rows · 7 ms`` (empty while running)."""
    parts = []
    if call.row_count is not None:
        parts.append(
            translate("ToolCallModel", "1 row")
            if call.row_count == 1
            else translate("ToolCallModel", "{0} rows").format(call.row_count)
        )
    if call.duration_ms is not None:
        parts.append(f"{call.duration_ms:.0f} ms")
    return " · ".join(parts)


def decision_text(call: CallRecord) -> str:
    """The runtime's decision, or the person's answer to an approval request."""
    if call.approved is True:
        return translate("ToolCallModel", "approved")
    if call.approved is False:
        return translate("ToolCallModel", "denied by you")
    return {
        "allow": translate("ToolCallModel", "read"),
        "approval_required": translate("ToolCallModel", "needs approval"),
        "deny": translate("ToolCallModel", "refused"),
    }.get(call.decision, call.decision)


def flags_text(call: CallRecord) -> str:
    """Flag words: truncated, injection suspected."""
    flags = []
    if call.truncated:
        flags.append(translate("ToolCallModel", "truncated"))
    if call.injection_suspected:
        flags.append(translate("ToolCallModel", "⚠ injection?"))
    return " ".join(flags)


class _Row(NamedTuple):
    turn: TurnRecord
    """The turn the call belongs to."""
    position: int
    """Its index in ``turn.calls``."""
    question: str
    """The question shown above it ('' unless it is the turn's first call)."""


class ToolCallModel(QAbstractListModel):
    """The calls of a pane's turns, in the order the model asked for them."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[_Row] = []
        self._turn: TurnRecord | None = None
        self._turn_start = 0
        self._question = ""
        self._phase = 0
        self._ticker = QTimer(self)
        self._ticker.setInterval(100)
        self._ticker.timeout.connect(self._tick)

    # Qt model interface -------------------------------------------------
    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        """Number of calls."""
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """A call's fields by role (see the ``ROLE_`` constants)."""
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        call = row.turn.calls[row.position]
        if role == ROLE_CALL:
            return call
        if role == ROLE_PHASE:
            return self._phase
        if role == Qt.ItemDataRole.DisplayRole:
            return call.tool
        if role == ROLE_QUESTION:
            return row.question
        if role == ROLE_STATUS_TEXT:
            return status_text(call, self._phase, row.turn.status)
        if role == ROLE_METRICS:
            return metrics_text(call)
        if role == ROLE_BADGES:
            return badges(call)
        if role == ROLE_SECOND_LINE:
            if call.error and call.status in ("error", "denied"):
                return call.error
            return arguments_summary(call)
        if role == ROLE_DECISION:
            return decision_text(call)
        if role == Qt.ItemDataRole.ForegroundRole:
            return status_color(call.status)
        if role == Qt.ItemDataRole.ToolTipRole:
            arguments = json.dumps(call.arguments, ensure_ascii=False, indent=2)
            note = call.error or call.preview
            return f"{note}\n\n{arguments}" if note else arguments
        if role == Qt.ItemDataRole.AccessibleTextRole:
            parts = [call.tool, status_text(call, 0, row.turn.status), metrics_text(call)]
            return ", ".join(p for p in parts if p)
        return None

    # Python API -----------------------------------------------------------
    @property
    def calls(self) -> list[CallRecord]:
        """The calls shown, in order."""
        return [row.turn.calls[row.position] for row in self._rows]

    def question_at(self, row: int) -> str:
        """The question shown above row ``row`` ('' when it is not a turn's first call)."""
        return self._rows[row].question if 0 <= row < len(self._rows) else ""

    def turn_status_at(self, row: int) -> str:
        """How the turn of row ``row`` stands (``TurnRecord.status``; '' for no row)."""
        return self._rows[row].turn.status if 0 <= row < len(self._rows) else ""

    def begin_turn(self, turn: TurnRecord, question: str) -> None:
        """The calls of ``turn`` follow (its first one is shown under ``question``)."""
        self._turn, self._turn_start, self._question = turn, len(self._rows), question

    def apply(self, change: Change) -> None:
        """Show what folding an event into the current turn changed.

        Args:
            change: What ``TurnRecord.apply`` returned: a new or changed call
                gets its row inserted or repainted; the turn's end repaints the
                calls it interrupted.
        """
        turn = self._turn
        if turn is None:
            return
        what, index = change
        if what == "call" and index is not None:
            position = self._turn_start + index
            if position == len(self._rows):
                self.beginInsertRows(QModelIndex(), position, position)
                self._rows.append(_Row(turn, index, "" if index else self._question))
                self.endInsertRows()
            elif position < len(self._rows):
                cell = self.index(position)
                self.dataChanged.emit(cell, cell)
        elif what == "status" and turn.finished and len(self._rows) > self._turn_start:
            self.dataChanged.emit(self.index(self._turn_start), self.index(len(self._rows) - 1))
        else:
            return
        self._update_ticker()

    def add_turn(self, turn: TurnRecord, question: str) -> None:
        """Show a finished turn's calls at once (a saved conversation)."""
        self.begin_turn(turn, question)
        if turn.calls:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(turn.calls) - 1)
            self._rows.extend(_Row(turn, n, "" if n else question) for n in range(len(turn.calls)))
            self.endInsertRows()
        self._update_ticker()

    def clear(self) -> None:
        """Forget every call (new chat)."""
        self.beginResetModel()
        self._rows.clear()
        self._turn, self._turn_start, self._question = None, 0, ""
        self.endResetModel()
        self._update_ticker()

    def truncate(self, position: int) -> None:
        """Forget the calls from row ``position`` on (regenerate, edit and resend)."""
        if 0 <= position < len(self._rows):
            self.beginRemoveRows(QModelIndex(), position, len(self._rows) - 1)
            del self._rows[position:]
            self.endRemoveRows()
        self._turn, self._turn_start, self._question = None, len(self._rows), ""
        self._update_ticker()

    def _live_rows(self) -> list[int]:
        # calls of earlier turns have ended (a turn's end interrupts its open calls)
        return [
            n
            for n in range(self._turn_start, len(self._rows))
            if self._rows[n].turn.calls[self._rows[n].position].status in LIVE
        ]

    def _update_ticker(self) -> None:
        running = bool(self._live_rows())
        if running and not self._ticker.isActive():
            self._ticker.start()
        elif not running and self._ticker.isActive():
            self._ticker.stop()

    def _tick(self) -> None:
        self._phase = (self._phase + 1) % PHASES
        live = self._live_rows()
        for position in live:
            cell = self.index(position)
            self.dataChanged.emit(cell, cell, [ROLE_PHASE, ROLE_STATUS_TEXT])
        if not live:
            self._ticker.stop()
