"""The side panel listing a pane's tool calls, with a detail view of one call."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelection, Qt, QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QPlainTextEdit,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.tool_call_model import COLUMNS, ROLE_CALL

if TYPE_CHECKING:
    from desktop.tool_call_model import ToolCallModel, ToolCallRow


class ToolCallPanel(QWidget):
    """Tool calls as they happen; selecting one shows its full result."""

    def __init__(self, model: ToolCallModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.table = QTableView(self)
        self.table.setModel(model)
        self.table.setAccessibleName(self.tr("Tool calls"))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)  # arguments, the longest, take the rest
        for name, width in (
            ("tool", 140),
            ("status", 96),
            ("rows", 40),
            ("duration", 60),
            ("decision", 90),
            ("flags", 60),
        ):
            header.resizeSection(COLUMNS.index(name), width)
        self.detail = QPlainTextEdit(self)
        self.detail.setReadOnly(True)
        self.detail.setAccessibleName(self.tr("Tool call detail"))
        self.detail.setPlaceholderText(self.tr("Select a tool call to see its full result."))
        self.detail.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.table)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        self.table.selectionModel().selectionChanged.connect(self._show_selected)
        model.dataChanged.connect(self._refresh_detail)
        self._scroll_timer = QTimer(self)
        self._scroll_timer.setSingleShot(True)
        self._scroll_timer.setInterval(0)
        self._scroll_timer.timeout.connect(self.table.scrollToBottom)
        model.rowsInserted.connect(lambda *_: self._scroll_timer.start())
        model.modelReset.connect(self.detail.clear)

    def selected_call(self) -> ToolCallRow | None:
        """The call whose detail is shown."""
        rows = self.table.selectionModel().selectedRows()
        return rows[0].data(ROLE_CALL) if rows else None

    def _show_selected(self, *_: QItemSelection) -> None:
        call = self.selected_call()
        self.detail.setPlainText(describe_call(call) if call else "")

    def _refresh_detail(self, top_left: object, *_: object) -> None:
        call = self.selected_call()
        if call is not None and call.status not in ("running",):
            text = describe_call(call)
            if text != self.detail.toPlainText():
                self.detail.setPlainText(text)


def describe_call(call: ToolCallRow) -> str:
    """The full, readable account of one call for the detail pane.

    Args:
        call: A tool-call row.

    Returns:
        Plain text: tool, arguments, status, flags and the full result.
    """
    lines = [
        f"{call.tool}  [{call.status}]  {call.decision_text()}",
        json.dumps(call.arguments, ensure_ascii=False, indent=2),
    ]
    if call.duration_ms is not None:
        rows = "" if call.row_count is None else f", {call.row_count} rows"
        lines.append(f"{call.duration_ms:.0f} ms{rows}")
    if call.flags_text():
        lines.append(call.flags_text())
    if call.approval_reason:
        lines.append(f"reason: {call.approval_reason}")
    if call.error:
        lines.append(f"error: {call.error}")
    if call.result:
        lines.extend(["", call.result])
    return "\n".join(lines)
