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

from desktop.tool_call_delegate import ToolCallDelegate
from desktop.tool_call_detail import ToolCallDetail
from desktop.tool_call_model import ROLE_CALL, ROLE_QUESTION

if TYPE_CHECKING:
    from agent_core.record import CallRecord
    from desktop.tool_call_model import ToolCallModel


class ToolCallPanel(QWidget):
    """Tool calls as they happen; selecting one shows its full result."""

    def __init__(self, model: ToolCallModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        # A one-column table over the list model, not a QListView: its vertical
        # header gives every row a fixed height, set once when the row is
        # inserted, where a list view measures rows again as they change (a
        # stall with hundreds of streamed calls).
        self.table = QTableView(self)
        """The calls, one delegate-drawn row each."""
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
        self.table.setItemDelegate(self.delegate)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().setDefaultSectionSize(
            QFontMetrics(self.font()).height() * 2 + ToolCallDelegate.PADDING * 2 + 4
        )
        # a question's first call is taller: it shows the question the calls answer
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
            if self.model.index(row, 0).data(ROLE_QUESTION):
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

    def selected_row(self) -> int:
        """The row of the call whose detail is shown (-1: none)."""
        rows = self.table.selectionModel().selectedRows()
        return rows[0].row() if rows else -1

    def selected_call(self) -> CallRecord | None:
        """The call whose detail is shown."""
        row = self.selected_row()
        return None if row < 0 else self.model.index(row, 0).data(ROLE_CALL)

    def _show_selected(self, *_: QItemSelection) -> None:
        call = self.selected_call()
        self._shown = None if call is None else self._key(call)
        self.detail.show_call(call, self.model.turn_status_at(self.selected_row()))
        # the detail takes room only once there is a call to show: until then the
        # list gets the whole height (in a split pane it had room for two rows)
        self.detail.setVisible(call is not None)

    def _refresh_detail(self, *_: object) -> None:
        call = self.selected_call()
        if call is None:
            return
        key = self._key(call)
        if call is not self.detail.call or key != self._shown:
            self._shown = key
            self.detail.show_call(call, self.model.turn_status_at(self.selected_row()))

    def _key(self, call: CallRecord) -> tuple[Any, ...]:
        """What the detail shows of a call that can still change."""
        turn = self.model.turn_status_at(self.selected_row())
        return (call.status, call.approved, len(call.result), call.error, turn)
