"""The side panel listing a pane's tool calls, with a detail view of one call.

Each call is one compact two-line row drawn by :class:`ToolCallDelegate`
(``desktop.tool_call_delegate``): a status mark, the tool name, small badges
for what deserves a glance (approval, refusal, truncation, suspected
injection), rows and duration; underneath, the arguments summarised on one
elided line (or the error, in red). Below the list, :class:`ToolCallDetail`
(``desktop.tool_call_detail``) shows the selected call in full.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QItemSelection, QObject, Qt, QTimer
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.tool_call_delegate import (
    DARK_STATUS_COLORS,
    ModelIndex,
    ToolCallDelegate,
    status_color,
)
from desktop.tool_call_detail import (
    LEADING_COLUMNS,
    ToolCallDetail,
    arguments_text,
    describe_call,
    result_table,
)
from desktop.tool_call_model import COLUMNS, ROLE_CALL

if TYPE_CHECKING:
    from desktop.tool_call_model import ToolCallModel, ToolCallRow

__all__ = [
    "DARK_STATUS_COLORS",
    "LEADING_COLUMNS",
    "ModelIndex",
    "ToolCallDelegate",
    "ToolCallDetail",
    "ToolCallPanel",
    "arguments_text",
    "describe_call",
    "result_table",
    "status_color",
]


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
        # A question's first call is taller: it shows the question the calls answer.
        # Its height is set once, when it is inserted (ResizeToContents would measure
        # every row again on every streamed change: a stall with hundreds of calls).
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        model.rowsInserted.connect(self._size_new_rows)
        self.empty_label = QLabel(
            self.tr("Tool calls appear here as the assistant works."), self.table.viewport()
        )
        self.empty_label.setEnabled(False)
        self.empty_label.setWordWrap(True)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.detail = ToolCallDetail(self)
        self.detail.setAccessibleName(self.tr("Tool call detail"))
        self.detail.hide()  # until a call is selected
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
        model.modelReset.connect(self.detail.hide)
        model.modelReset.connect(self._update_empty)
        model.rowsRemoved.connect(lambda *_: self._update_empty())
        self._shown: tuple[Any, ...] | None = None
        # the hint lives in the list's viewport, which the splitter resizes without
        # resizing the panel: follow the viewport (the hint was cut to half its height)
        self.table.viewport().installEventFilter(self)
        self._update_empty()

    def changeEvent(self, event: QEvent) -> None:
        """Text zoom changed the font: rows take the height the new font needs."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._size_rows()

    def _size_rows(self) -> None:
        header = self.table.verticalHeader()
        header.setDefaultSectionSize(
            QFontMetrics(self.font()).height() * 2 + ToolCallDelegate.PADDING * 2 + 4
        )
        self.detail.rows_view.verticalHeader().setDefaultSectionSize(
            max(22, QFontMetrics(self.font()).height() + 6)
        )
        if self.model.rowCount():
            self._size_new_rows(None, 0, self.model.rowCount() - 1)

    def _size_new_rows(self, _parent: Any, first: int, last: int) -> None:
        header = self.table.verticalHeader()
        for row in range(first, last + 1):
            call = self.model.index(row, 0).data(ROLE_CALL)
            if call is not None and call.question:
                extra = self.delegate.header_height(QFontMetrics(self.table.font()))
                header.resizeSection(row, header.defaultSectionSize() + extra)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Keep the empty-state hint the size of the list's viewport."""
        if watched is self.table.viewport() and event.type() == QEvent.Type.Resize:
            self.empty_label.setGeometry(self.table.viewport().rect().adjusted(12, 12, -12, -12))
        return super().eventFilter(watched, event)

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
        # the detail takes room only once there is a call to show: until then the
        # list gets the whole height (in a split pane it had room for two rows)
        self.detail.setVisible(call is not None)

    def _refresh_detail(self, *_: object) -> None:
        call = self.selected_call()
        if call is None:
            return
        key = (call.status, call.approval, len(call.result), call.error)
        if call is not self.detail.call or key != self._shown:
            self._shown = key
            self.detail.show_call(call)
