"""The tool calls of one persona's turns, as a table model.

One row per call, keyed by the model's ``call_id``. A running call animates
(the panel's delegate draws a spinner from ``ROLE_PHASE``; the status text
reads "running", "running.", ...) by emitting ``dataChanged`` for the rows that
run, on a timer that runs only while something runs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import QColor

if TYPE_CHECKING:
    from agent_core.events import ApprovalResolved, ToolCallFinished, ToolCallStarted

CallStatus = Literal["running", "awaiting", "ok", "empty", "error", "denied"]

COLUMNS = ("tool", "status", "rows", "duration", "decision", "flags", "arguments")
"""Column keys, in display order."""

ROLE_CALL = Qt.ItemDataRole.UserRole + 1
"""The whole ``ToolCallRow`` of a row."""
ROLE_PHASE = Qt.ItemDataRole.UserRole + 2
"""Animation phase (0..PHASES-1) of a running row's spinner."""

PHASES = 12
"""Spinner steps per turn."""

FRAME_END = "</tool-data>"

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
    "awaiting": "#ef6c00",
    "running": "#1565c0",
}


@dataclass
class ToolCallRow:
    """What the panel knows about one call."""

    call_id: str
    """The model's tool_use id."""
    tool: str
    """Tool name."""
    arguments: dict[str, Any]
    """Arguments as the model gave them."""
    decision: str
    """Runtime decision: allow, approval_required, deny."""
    status: CallStatus = "running"
    """Live status."""
    duration_ms: float | None = None
    """Execution time once finished."""
    row_count: int | None = None
    """Rows returned, when the tool returns rows."""
    preview: str = ""
    """One-line summary."""
    result: str = ""
    """Full result text as the model saw it."""
    truncated: bool = False
    """The result was cut at the size limit."""
    injection_suspected: bool = False
    """The result contains text that looks like instructions."""
    error: str | None = None
    """Error or denial message."""
    approval: bool | None = None
    """A person's answer to an approval request, if one was asked."""
    approval_reason: str = ""
    """The reason given with that answer."""
    question: str = ""
    """Set on the first call of a question: the panel shows the question above it."""

    def arguments_text(self) -> str:
        """Compact one-line JSON of the arguments."""
        return json.dumps(self.arguments, ensure_ascii=False, sort_keys=True)

    def arguments_summary(self) -> str:
        """The arguments on one line for people: ``value · key: value``.

        The first argument (the question, the SQL, the document number) is
        shown bare; later ones with their name. Whitespace runs collapse.
        """
        parts = []
        for position, (key, value) in enumerate(self.arguments.items()):
            text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            text = " ".join(str(text).split())
            parts.append(text if position == 0 else f"{key}: {text}")
        return " · ".join(parts)

    def payload(self) -> Any:
        """The JSON the tool returned, parsed from the framed result (None if cut or absent)."""
        start = self.result.find("{")
        end = self.result.rfind(FRAME_END)
        if start < 0:
            return None
        body = self.result[start : end if end > start else len(self.result)].strip()
        try:
            return json.loads(body)
        except ValueError:
            return None

    def badges(self) -> list[tuple[str, str]]:
        """Small badges worth a glance: ``(text, colour)``; a plain read has none."""
        badges: list[tuple[str, str]] = []
        if self.approval is True:
            badges.append(
                (QCoreApplication.translate("ToolCallModel", "approved"), BADGE_COLORS["approved"])
            )
        elif self.approval is False:
            badges.append(
                (
                    QCoreApplication.translate("ToolCallModel", "denied by you"),
                    BADGE_COLORS["refused"],
                )
            )
        elif self.decision == "approval_required":
            badges.append(
                (
                    QCoreApplication.translate("ToolCallModel", "needs approval"),
                    BADGE_COLORS["approval"],
                )
            )
        elif self.decision == "deny":
            badges.append(
                (QCoreApplication.translate("ToolCallModel", "refused"), BADGE_COLORS["refused"])
            )
        if self.truncated:
            badges.append(
                (
                    QCoreApplication.translate("ToolCallModel", "truncated"),
                    BADGE_COLORS["truncated"],
                )
            )
        if self.injection_suspected:
            badges.append(
                (
                    QCoreApplication.translate("ToolCallModel", "⚠ injection?"),
                    BADGE_COLORS["injection"],
                )
            )
        return badges

    def status_text(self, phase: int = 0) -> str:
        """The live status in words."""
        if self.status == "running":
            return QCoreApplication.translate("ToolCallModel", "running") + "." * (phase // 3 % 4)
        if self.status == "awaiting":
            return QCoreApplication.translate("ToolCallModel", "awaiting approval")
        return {
            "ok": QCoreApplication.translate("ToolCallModel", "ok"),
            "empty": QCoreApplication.translate("ToolCallModel", "empty"),
            "error": QCoreApplication.translate("ToolCallModel", "error"),
            "denied": QCoreApplication.translate("ToolCallModel", "denied"),
        }[self.status]

    def metrics_text(self) -> str:
        """Rows and duration, e.g. ``5 rows · 7 ms`` (empty while running)."""
        parts = []
        if self.row_count is not None:
            parts.append(
                QCoreApplication.translate("ToolCallModel", "1 row")
                if self.row_count == 1
                else QCoreApplication.translate("ToolCallModel", "{0} rows").format(self.row_count)
            )
        if self.duration_ms is not None:
            parts.append(f"{self.duration_ms:.0f} ms")
        return " · ".join(parts)

    def decision_text(self) -> str:
        """Decision badge text."""
        if self.approval is True:
            return QCoreApplication.translate("ToolCallModel", "approved")
        if self.approval is False:
            return QCoreApplication.translate("ToolCallModel", "denied by you")
        return {
            "allow": QCoreApplication.translate("ToolCallModel", "read"),
            "approval_required": QCoreApplication.translate("ToolCallModel", "needs approval"),
            "deny": QCoreApplication.translate("ToolCallModel", "refused"),
        }.get(self.decision, self.decision)

    def flags_text(self) -> str:
        """Flag badges: truncated, injection suspected."""
        flags = []
        if self.truncated:
            flags.append(QCoreApplication.translate("ToolCallModel", "truncated"))
        if self.injection_suspected:
            flags.append(QCoreApplication.translate("ToolCallModel", "⚠ injection?"))
        return " ".join(flags)


class ToolCallModel(QAbstractTableModel):
    """Tool-call rows of a pane, in the order the model asked for them."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[ToolCallRow] = []
        self._by_id: dict[str, int] = {}
        self._phase = 0
        self._question = ""
        self._ticker = QTimer(self)
        self._ticker.setInterval(100)
        self._ticker.timeout.connect(self._tick)

    # Qt model interface -------------------------------------------------
    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        """Number of calls."""
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        """Number of columns."""
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """Column titles."""
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(COLUMNS):
            return {
                "tool": QCoreApplication.translate("ToolCallModel", "Tool"),
                "arguments": QCoreApplication.translate("ToolCallModel", "Arguments"),
                "status": QCoreApplication.translate("ToolCallModel", "Status"),
                "duration": QCoreApplication.translate("ToolCallModel", "Time"),
                "rows": QCoreApplication.translate("ToolCallModel", "Rows"),
                "decision": QCoreApplication.translate("ToolCallModel", "Decision"),
                "flags": QCoreApplication.translate("ToolCallModel", "Flags"),
            }[COLUMNS[section]]
        if orientation == Qt.Orientation.Vertical and 0 <= section < len(self._rows):
            return str(section + 1)
        return None

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cell data."""
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        if not 0 <= index.column() < len(COLUMNS):
            return None
        row = self._rows[index.row()]
        column = COLUMNS[index.column()]
        if role == ROLE_CALL:
            return row
        if role == ROLE_PHASE:
            return self._phase
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == "arguments":
                return json.dumps(row.arguments, ensure_ascii=False, indent=2)
            if column == "status" and row.error:
                return row.error
            return row.preview or None
        if role == Qt.ItemDataRole.ForegroundRole and column == "status":
            return QColor(STATUS_COLORS.get(row.status, "#000000"))
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("duration", "rows"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _display(self, row: ToolCallRow, column: str) -> str:
        if column == "tool":
            return row.tool
        if column == "arguments":
            return row.arguments_text()
        if column == "status":
            return row.status_text(self._phase)
        if column == "duration":
            return "" if row.duration_ms is None else f"{row.duration_ms:.0f} ms"
        if column == "rows":
            return "" if row.row_count is None else str(row.row_count)
        if column == "decision":
            return row.decision_text()
        return row.flags_text()

    # Python API -----------------------------------------------------------
    @property
    def calls(self) -> list[ToolCallRow]:
        """The rows, in order."""
        return list(self._rows)

    def _row_changed(self, position: int, first: str = "tool", last: str = "arguments") -> None:
        self.dataChanged.emit(
            self.index(position, COLUMNS.index(first)), self.index(position, COLUMNS.index(last))
        )

    def begin_turn(self, question: str) -> None:
        """The next calls answer this question (its first call is shown under it)."""
        self._question = question

    def _new_row(self, row: ToolCallRow) -> ToolCallRow:
        row.question, self._question = self._question, ""
        return row

    def start_call(self, event: ToolCallStarted) -> None:
        """A call began."""
        position = len(self._rows)
        self.beginInsertRows(QModelIndex(), position, position)
        self._rows.append(
            self._new_row(
                ToolCallRow(event.call_id, event.tool, dict(event.arguments), event.decision)
            )
        )
        self._by_id[event.call_id] = position
        self.endInsertRows()
        self._update_ticker()

    def await_approval(self, call_id: str) -> None:
        """The call waits for a person."""
        position = self._by_id.get(call_id)
        if position is None:
            return
        self._rows[position].status = "awaiting"
        self._row_changed(position, "status", "status")
        self._update_ticker()

    def resolve_approval(self, event: ApprovalResolved) -> None:
        """A person answered the call's approval request."""
        position = self._by_id.get(event.call_id)
        if position is None:
            return
        row = self._rows[position]
        row.approval, row.approval_reason = event.approved, event.reason
        if row.status == "awaiting":
            row.status = "running"
        self._row_changed(position, "status", "decision")  # contiguous: status..decision
        self._update_ticker()

    def finish_call(self, event: ToolCallFinished) -> None:
        """A call ended."""
        position = self._by_id.get(event.call_id)
        if position is None:  # a finish without a start still deserves a row
            position = len(self._rows)
            self.beginInsertRows(QModelIndex(), position, position)
            self._rows.append(self._new_row(ToolCallRow(event.call_id, event.tool, {}, "allow")))
            self._by_id[event.call_id] = position
            self.endInsertRows()
        row = self._rows[position]
        row.status = event.status
        row.duration_ms = event.duration_ms
        row.row_count = event.row_count
        row.preview = event.preview
        row.result = event.result
        row.truncated = event.truncated
        row.injection_suspected = event.injection_suspected
        row.error = event.error
        self._row_changed(position)
        self._update_ticker()

    def abandon_running(self, failed: bool = False) -> None:
        """A stopped (or failed) turn leaves no call spinning forever.

        Args:
            failed: The turn failed rather than being stopped by the person.
        """
        reason = (
            QCoreApplication.translate("ToolCallModel", "interrupted: the turn failed")
            if failed
            else QCoreApplication.translate("ToolCallModel", "stopped")
        )
        for position, row in enumerate(self._rows):
            if row.status in ("running", "awaiting"):
                row.status = "error"
                row.error = reason
                self._row_changed(position)
        self._update_ticker()

    def clear(self) -> None:
        """Forget every call (new chat)."""
        self.beginResetModel()
        self._rows.clear()
        self._by_id.clear()
        self._question = ""
        self.endResetModel()
        self._update_ticker()

    def truncate(self, position: int) -> None:
        """Forget the calls from row ``position`` on (regenerate, edit and resend)."""
        if 0 <= position < len(self._rows):
            self.beginRemoveRows(QModelIndex(), position, len(self._rows) - 1)
            del self._rows[position:]
            self._by_id = {row.call_id: n for n, row in enumerate(self._rows)}
            self.endRemoveRows()
        self._question = ""
        self._update_ticker()

    def _update_ticker(self) -> None:
        running = any(row.status in ("running", "awaiting") for row in self._rows)
        if running and not self._ticker.isActive():
            self._ticker.start()
        elif not running and self._ticker.isActive():
            self._ticker.stop()

    def _tick(self) -> None:
        self._phase = (self._phase + 1) % PHASES
        for position, row in enumerate(self._rows):
            if row.status in ("running", "awaiting"):
                # the panel's delegate draws a whole call in column 0 (the
                # rest are hidden): repaint only that cell of a running row
                cell = self.index(position, 0)
                self.dataChanged.emit(cell, cell, [ROLE_PHASE])
