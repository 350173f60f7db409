"""One tool call in full, as a person wants to read it.

Rows as a table, other payloads as pretty JSON, arguments pretty, errors in red
— and the exact framed text the model read, under "Raw (as the model saw it)".
The table and the JSON come from the call's structured ``payload``; the framed
text is only shown, never parsed back.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from agent_core.events import plain
from desktop.tool_call_model import (
    badges,
    decision_text,
    flags_text,
    metrics_text,
    status_color,
    status_text,
)

if TYPE_CHECKING:
    from agent_core.record import CallRecord


LEADING_COLUMNS = ("doc_no", "version", "article_no", "article_title", "title", "depth")
"""Columns a person looks for first in a list of results."""


def result_table(payload: Any) -> tuple[list[str], list[list[Any]], dict[str, Any]] | None:
    """The rows inside a tool's JSON, if it holds any.

    ``query_hr``'s ``columns``/``rows``; otherwise the first list of objects
    (search hits, chains, dependents, versions, pending revisions).

    Args:
        payload: The structured result a tool returned (``CallRecord.payload``).

    Returns:
        ``(columns, rows, other top-level fields)`` or None when there is no table.
    """
    if not isinstance(payload, Mapping) or "error" in payload:
        return None
    if isinstance(payload.get("columns"), list) and isinstance(payload.get("rows"), list):
        rest = {k: v for k, v in payload.items() if k not in ("columns", "rows")}
        return [str(c) for c in payload["columns"]], list(payload["rows"]), rest
    for key, value in payload.items():
        if isinstance(value, list) and (not value or all(isinstance(v, dict) for v in value)):
            columns: list[str] = []
            for item in value:
                columns.extend(k for k in item if k not in columns)
            first = [c for c in LEADING_COLUMNS if c in columns]
            columns = (
                first
                + [c for c in columns if c not in first and c != "text"]
                + (
                    ["text"] if "text" in columns else []  # the long article text reads best last
                )
            )
            rows = [[item.get(c) for c in columns] for item in value]
            rest = {k: v for k, v in payload.items() if k != key}
            return columns, rows, rest
    return None


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


class ToolCallDetail(QWidget):
    """One call in full: summary, result (table or JSON), arguments, raw framed text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.call: CallRecord | None = None
        self.turn_status = ""
        """How the shown call's turn stands (an interrupted call says why)."""
        fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.placeholder = QLabel(self.tr("Select a tool call to see its result."), self)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.placeholder.setEnabled(False)
        self.summary = QLabel(self)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.caption = QLabel(self)
        self.caption.setWordWrap(True)
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.rows_model = QStandardItemModel(self)
        self.rows_view = QTableView(self)
        self.rows_view.setModel(self.rows_model)
        self.rows_view.setAccessibleName(self.tr("Result rows"))
        self.rows_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.rows_view.setAlternatingRowColors(True)
        self.rows_view.setWordWrap(False)
        self.rows_view.verticalHeader().setDefaultSectionSize(22)
        self.rows_view.horizontalHeader().setStretchLastSection(True)
        self.json_view = QPlainTextEdit(self)
        self.json_view.setReadOnly(True)
        self.json_view.setFont(fixed)
        self.json_view.setAccessibleName(self.tr("Result"))
        self.result_stack = QStackedWidget(self)
        self.result_stack.addWidget(self.rows_view)
        self.result_stack.addWidget(self.json_view)
        result_page = QWidget(self)
        result_layout = QVBoxLayout(result_page)
        result_layout.setContentsMargins(0, 2, 0, 0)
        result_layout.addWidget(self.caption)
        result_layout.addWidget(self.result_stack, 1)
        self.arguments_view = QPlainTextEdit(self)
        self.arguments_view.setReadOnly(True)
        self.arguments_view.setFont(fixed)
        self.arguments_view.setAccessibleName(self.tr("Arguments"))
        self.raw_view = QPlainTextEdit(self)
        self.raw_view.setReadOnly(True)
        self.raw_view.setFont(fixed)
        self.raw_view.setAccessibleName(self.tr("Raw result as the model saw it"))
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(result_page, self.tr("Result"))
        self.tabs.addTab(self.arguments_view, self.tr("Arguments"))
        self.tabs.addTab(self.raw_view, self.tr("Raw (as the model saw it)"))
        content = QWidget(self)
        content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(4, 4, 4, 0)
        content_layout.addWidget(self.summary)
        content_layout.addWidget(self.tabs, 1)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.placeholder)
        self.pages.addWidget(content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.pages)

    def toPlainText(self) -> str:
        """Everything the detail shows, as plain text (tests, accessibility)."""
        return describe_call(self.call) if self.call is not None else ""

    def clear(self) -> None:
        """Show nothing (new chat)."""
        self.call = None
        self.pages.setCurrentIndex(0)

    def show_call(self, call: CallRecord | None, turn_status: str = "") -> None:
        """Show a call (None clears).

        Args:
            call: The call.
            turn_status: How its turn stands (``TurnRecord.status``).
        """
        if call is None:
            self.clear()
            return
        self.call, self.turn_status = call, turn_status
        self.pages.setCurrentIndex(1)
        self.summary.setText(self._summary_html(call))
        self.arguments_view.setPlainText(arguments_text(call.arguments))
        self.raw_view.setPlainText(call.result)
        self._show_result(call)

    def _summary_html(self, call: CallRecord) -> str:
        e = html.escape
        color = status_color(call.status, self.palette()).name()
        parts = [
            f"<b>{e(call.tool)}</b>",
            f"<span style='color:{color}'>{e(status_text(call, 0, self.turn_status))}</span>",
        ]
        if metrics_text(call):
            parts.append(e(metrics_text(call)))
        for text, fill in badges(call):
            parts.append(
                f"<span style='background:{fill}; color:#ffffff'>&nbsp;{e(text)}&nbsp;</span>"
            )
        lines = ["&nbsp;&nbsp;".join(parts)]
        if call.approval_reason:
            lines.append(e(self.tr("Reason: {0}").format(call.approval_reason)))
        if call.error:
            error = status_color("error", self.palette()).name()
            lines.append(f"<span style='color:{error}'>{e(call.error)}</span>")
        return "<br>".join(lines)

    def _show_result(self, call: CallRecord) -> None:
        payload = plain(call.payload) if call.payload else None
        if call.status == "running" and not call.result:
            self.caption.setText(self.tr("Running…"))
            self.json_view.setPlainText("")
            self.result_stack.setCurrentWidget(self.json_view)
            return
        if call.status == "awaiting_approval":
            self.caption.setText(self.tr("Waiting for your approval."))
            self.json_view.setPlainText("")
            self.result_stack.setCurrentWidget(self.json_view)
            return
        # The payload is the whole result; the model read the framed text, which
        # was cut at the size limit. Say so rather than imply the model saw it all.
        cut = (
            self.tr("The model saw only the first part of this result (see Raw); shown here whole.")
            if call.truncated
            else ""
        )
        table = result_table(payload)
        if table is not None:
            columns, rows, rest = table
            self.rows_model.clear()
            self.rows_model.setHorizontalHeaderLabels(columns)
            for row in rows:
                items = []
                for value in row:
                    item = QStandardItem(_cell_text(value))
                    item.setToolTip(_cell_text(value))
                    if isinstance(value, int | float) and not isinstance(value, bool):
                        item.setTextAlignment(
                            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                        )
                    items.append(item)
                self.rows_model.appendRow(items)
            header = self.rows_view.horizontalHeader()
            header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
            header.setStretchLastSection(bool(columns) and columns[-1] == "text")
            self.rows_view.resizeColumnsToContents()
            for column in range(len(columns)):
                header.resizeSection(column, min(header.sectionSize(column), 240))
            extras = [
                f"{k}: {_cell_text(v)}" for k, v in rest.items() if k not in ("sql", "rowCount")
            ]
            if cut:
                extras.insert(0, cut)
            self.caption.setText("  ·  ".join(extras))
            self.caption.setVisible(bool(extras))
            self.result_stack.setCurrentWidget(self.rows_view)
            return
        self.caption.setVisible(bool(cut))
        self.caption.setText(cut)
        if isinstance(payload, dict) and payload.get("error"):
            self.caption.setVisible(True)
            self.caption.setText(str(payload.get("error_kind") or ""))
        if payload is not None:
            text = json.dumps(payload, ensure_ascii=False, indent=2)
        else:
            text = call.result or call.error or ""
        self.json_view.setPlainText(text)
        self.result_stack.setCurrentWidget(self.json_view)


def arguments_text(arguments: dict[str, Any]) -> str:
    """Arguments for reading: SQL and long text on their own lines, the rest as JSON."""
    lines = []
    for key, value in arguments.items():
        if isinstance(value, str):
            lines.append(f"{key}:\n  {value}" if len(value) > 60 else f"{key}: {value}")
        else:
            lines.append(f"{key}: {json.dumps(value, ensure_ascii=False, indent=2)}")
    return "\n".join(lines)


def describe_call(call: CallRecord) -> str:
    """The full, readable account of one call for the detail pane.

    Args:
        call: A tool call of a turn record.

    Returns:
        Plain text: tool, arguments, status, flags and the full result.
    """
    lines = [
        f"{call.tool}  [{call.status}]  {decision_text(call)}",
        json.dumps(call.arguments, ensure_ascii=False, indent=2),
    ]
    if call.duration_ms is not None:
        rows = "" if call.row_count is None else f", {call.row_count} rows"
        lines.append(f"{call.duration_ms:.0f} ms{rows}")
    if flags_text(call):
        lines.append(flags_text(call))
    if call.approval_reason:
        lines.append(f"reason: {call.approval_reason}")
    if call.error:
        lines.append(f"error: {call.error}")
    if call.result:
        lines.extend(["", call.result])
    return "\n".join(lines)
