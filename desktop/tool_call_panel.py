"""The side panel listing a pane's tool calls, with a detail view of one call.

Each call is one compact two-line row drawn by :class:`ToolCallDelegate`: a
status mark (a spinner while the call runs, a pulsing dot while it awaits
approval), the tool name, small badges for what deserves a glance (approval,
refusal, truncation, suspected injection), rows and duration; underneath, the
arguments summarised on one elided line (or the error, in red). The detail
below shows the selected call as a person wants it: rows as a table, other
payloads as pretty JSON, arguments pretty, errors in red — and the exact framed
text the model read, under "Raw (as the model saw it)".
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QItemSelection,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QFontMetrics,
    QPainter,
    QPalette,
    QPen,
    QStandardItem,
    QStandardItemModel,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QStackedWidget,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.tool_call_model import COLUMNS, PHASES, ROLE_CALL, ROLE_PHASE, STATUS_COLORS

if TYPE_CHECKING:
    from desktop.tool_call_model import ToolCallModel, ToolCallRow

ModelIndex = QModelIndex | QPersistentModelIndex

DARK_STATUS_COLORS = {
    "ok": "#81c784",
    "empty": "#bcaaa4",
    "error": "#ef9a9a",
    "denied": "#ef9a9a",
    "awaiting": "#ffb74d",
    "running": "#64b5f6",
}
"""Status colours readable on the dark palette."""


def _is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def status_color(status: str, palette: QPalette) -> QColor:
    """The colour of a status, readable on the palette's base colour."""
    colors = DARK_STATUS_COLORS if _is_dark(palette) else STATUS_COLORS
    return QColor(colors.get(status, "#808080"))


class ToolCallDelegate(QStyledItemDelegate):
    """Paints a call as two lines: status, name, badges, metrics / arguments."""

    PADDING = 6

    def sizeHint(self, option: QStyleOptionViewItem, index: ModelIndex) -> QSize:
        """Two text lines and some air."""
        metrics = QFontMetrics(option.font)
        return QSize(200, metrics.height() * 2 + self.PADDING * 2 + 4)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        """Draw one call."""
        call: ToolCallRow | None = index.data(ROLE_CALL)
        if call is None:
            super().paint(painter, option, index)
            return
        phase = int(index.data(ROLE_PHASE) or 0)
        rect: QRect = option.rect
        palette: QPalette = option.palette
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if selected:
            painter.fillRect(rect, palette.color(QPalette.ColorRole.Highlight))
        elif index.row() % 2:
            painter.fillRect(rect, palette.color(QPalette.ColorRole.AlternateBase))
        text_color = palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        )
        dim_color = text_color if selected else palette.color(QPalette.ColorRole.PlaceholderText)
        font: QFont = QFont(option.font)
        metrics = QFontMetrics(font)
        pad = self.PADDING
        line_h = metrics.height()
        top = rect.top() + pad
        # status mark
        mark = QRect(rect.left() + pad, top + (line_h - 12) // 2, 12, 12)
        color = status_color(call.status, palette)
        if selected:
            color = text_color
        self._paint_mark(painter, mark, call.status, color, phase)
        x = mark.right() + 8
        right = rect.right() - pad
        # metrics on the right of line 1
        metrics_text = call.metrics_text()
        small = QFont(font)
        small.setPointSizeF(max(font.pointSizeF() - 1, 7.0))
        small_metrics = QFontMetrics(small)
        if metrics_text:
            width = small_metrics.horizontalAdvance(metrics_text)
            painter.setFont(small)
            painter.setPen(dim_color)
            painter.drawText(
                QRect(right - width, top, width, line_h),
                int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                metrics_text,
            )
            right -= width + 8
        # tool name
        bold = QFont(font)
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(text_color)
        name = QFontMetrics(bold).elidedText(call.tool, Qt.TextElideMode.ElideRight, right - x)
        name_w = QFontMetrics(bold).horizontalAdvance(name)
        painter.drawText(QRect(x, top, name_w, line_h), int(Qt.AlignmentFlag.AlignVCenter), name)
        x += name_w + 8
        # status word unless plain ok
        if call.status != "ok" and x < right:
            word = small_metrics.elidedText(
                call.status_text(phase), Qt.TextElideMode.ElideRight, right - x
            )
            painter.setFont(small)
            painter.setPen(color)
            word_w = small_metrics.horizontalAdvance(word)
            painter.drawText(
                QRect(x, top, word_w, line_h), int(Qt.AlignmentFlag.AlignVCenter), word
            )
            x += word_w + 8
        # badges
        painter.setFont(small)
        for text, fill in call.badges():
            width = small_metrics.horizontalAdvance(text) + 10
            if x + width > right:
                break
            pill = QRect(
                x,
                top + (line_h - small_metrics.height() - 2) // 2,
                width,
                small_metrics.height() + 2,
            )
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(fill))
            painter.drawRoundedRect(pill, pill.height() / 2, pill.height() / 2)
            painter.setPen(QColor("#ffffff"))
            painter.drawText(pill, int(Qt.AlignmentFlag.AlignCenter), text)
            x += width + 4
        # line 2: arguments summary, or the error in red
        second = QRect(
            mark.right() + 8, top + line_h + 1, rect.right() - pad - mark.right() - 8, line_h + 3
        )
        painter.setFont(font)
        if call.error and call.status in ("error", "denied"):
            painter.setPen(text_color if selected else status_color("error", palette))
            line = call.error
        else:
            painter.setPen(dim_color)
            line = call.arguments_summary()
        painter.drawText(
            second,
            int(Qt.AlignmentFlag.AlignVCenter),
            metrics.elidedText(line, Qt.TextElideMode.ElideRight, second.width()),
        )
        painter.restore()

    @staticmethod
    def _paint_mark(painter: QPainter, mark: QRect, status: str, color: QColor, phase: int) -> None:
        if status == "running":
            pen = QPen(color, 2.0)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            start = -int(360 * 16 * phase / PHASES)
            painter.drawArc(mark.adjusted(1, 1, -1, -1), start, 270 * 16)
            return
        if status == "awaiting":
            pulse = QColor(color)
            pulse.setAlphaF(0.35 + 0.65 * abs((phase % PHASES) - PHASES / 2) / (PHASES / 2))
            painter.setPen(QPen(color, 1.5))
            painter.setBrush(pulse)
            painter.drawEllipse(mark.adjusted(1, 1, -1, -1))
            return
        if status == "empty":
            painter.setPen(QPen(color, 1.5))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(mark.adjusted(2, 2, -2, -2))
            return
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawEllipse(mark.adjusted(1, 1, -1, -1))
        if status in ("error", "denied"):
            painter.setPen(QPen(QColor("#ffffff"), 1.6))
            inner = mark.adjusted(4, 4, -4, -4)
            painter.drawLine(inner.topLeft(), inner.bottomRight())
            painter.drawLine(inner.topRight(), inner.bottomLeft())


LEADING_COLUMNS = ("doc_no", "version", "article_no", "article_title", "title", "depth")
"""Columns a person looks for first in a list of results."""


def result_table(payload: Any) -> tuple[list[str], list[list[Any]], dict[str, Any]] | None:
    """The rows inside a tool's JSON, if it holds any.

    ``query_hr``'s ``columns``/``rows``; otherwise the first list of objects
    (search hits, chains, dependents, versions, pending revisions).

    Args:
        payload: The parsed JSON a tool returned.

    Returns:
        ``(columns, rows, other top-level fields)`` or None when there is no table.
    """
    if not isinstance(payload, dict) or "error" in payload:
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
        self.call: ToolCallRow | None = None
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

    def show_call(self, call: ToolCallRow | None) -> None:
        """Show a call (None clears)."""
        if call is None:
            self.clear()
            return
        self.call = call
        self.pages.setCurrentIndex(1)
        self.summary.setText(self._summary_html(call))
        self.arguments_view.setPlainText(arguments_text(call.arguments))
        self.raw_view.setPlainText(call.result)
        self._show_result(call)

    def _summary_html(self, call: ToolCallRow) -> str:
        e = html.escape
        color = status_color(call.status, self.palette()).name()
        parts = [
            f"<b>{e(call.tool)}</b>",
            f"<span style='color:{color}'>{e(call.status_text())}</span>",
        ]
        if call.metrics_text():
            parts.append(e(call.metrics_text()))
        for text, fill in call.badges():
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

    def _show_result(self, call: ToolCallRow) -> None:
        payload = call.payload()
        if call.status == "running" and not call.result:
            self.caption.setText(self.tr("Running…"))
            self.json_view.setPlainText("")
            self.result_stack.setCurrentWidget(self.json_view)
            return
        if call.status == "awaiting":
            self.caption.setText(self.tr("Waiting for your approval."))
            self.json_view.setPlainText("")
            self.result_stack.setCurrentWidget(self.json_view)
            return
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
            self.caption.setText("  ·  ".join(extras))
            self.caption.setVisible(bool(extras))
            self.result_stack.setCurrentWidget(self.rows_view)
            return
        self.caption.setVisible(False)
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
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setVisible(False)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.delegate = ToolCallDelegate(self.table)
        self.table.setItemDelegateForColumn(0, self.delegate)
        for column in range(1, len(COLUMNS)):  # the delegate draws every field in column 0
            self.table.setColumnHidden(column, True)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().setDefaultSectionSize(
            QFontMetrics(self.font()).height() * 2 + ToolCallDelegate.PADDING * 2 + 4
        )
        self.empty_label = QLabel(
            self.tr("Tool calls appear here as the assistant works."), self.table.viewport()
        )
        self.empty_label.setEnabled(False)
        self.empty_label.setWordWrap(True)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.detail = ToolCallDetail(self)
        self.detail.setAccessibleName(self.tr("Tool call detail"))
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.table)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        self.splitter = splitter
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
        model.rowsInserted.connect(lambda *_: self._update_empty())
        model.modelReset.connect(self.detail.clear)
        model.modelReset.connect(self._update_empty)
        self._shown: tuple[Any, ...] | None = None
        self._update_empty()

    def resizeEvent(self, event: Any) -> None:
        """Keep the empty-state hint centred in the list."""
        super().resizeEvent(event)
        self.empty_label.setGeometry(self.table.viewport().rect().adjusted(12, 12, -12, -12))

    def _update_empty(self) -> None:
        self.empty_label.setVisible(self.model.rowCount() == 0)
        self.empty_label.setGeometry(self.table.viewport().rect().adjusted(12, 12, -12, -12))

    def selected_call(self) -> ToolCallRow | None:
        """The call whose detail is shown."""
        rows = self.table.selectionModel().selectedRows()
        return rows[0].data(ROLE_CALL) if rows else None

    def _show_selected(self, *_: QItemSelection) -> None:
        call = self.selected_call()
        self._shown = (
            None if call is None else (call.status, call.approval, len(call.result), call.error)
        )
        self.detail.show_call(call)

    def _refresh_detail(self, *_: object) -> None:
        call = self.selected_call()
        if call is None:
            return
        key = (call.status, call.approval, len(call.result), call.error)
        if call is not self.detail.call or key != self._shown:
            self._shown = key
            self.detail.show_call(call)


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
