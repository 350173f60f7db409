"""The conversation view: rich-text bubbles over a ``TranscriptModel``.

A delegate lays each row out with a cached ``QTextDocument`` (keyed by the row's
revision and the width), so scrolling and repaints cost nothing new; only the
streaming row is laid out again, at most once per flush.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QPoint, QRect, QSize, Qt
from PySide6.QtCore import Signal as _Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from desktop.transcript_model import (
    ROLE_HTML,
    ROLE_KEY,
    ROLE_KIND,
    ROLE_REVISION,
    ROLE_STREAMING,
    parse_cite_link,
)

if TYPE_CHECKING:
    from PySide6.QtCore import QAbstractItemModel

ModelIndex = QModelIndex | QPersistentModelIndex

MARGIN = 8
"""Space around a bubble."""
PADDING = 8
"""Space inside a bubble."""

BUBBLE_TINT = {
    "user": QColor(66, 133, 244, 40),
    "assistant": QColor(0, 0, 0, 0),
    "narration": QColor(128, 128, 128, 25),
    "notice": QColor(239, 108, 0, 35),
}


class ChatDelegate(QStyledItemDelegate):
    """Paints transcript rows as rich-text bubbles with citation chips."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._cache: dict[int, tuple[int, int, QTextDocument]] = {}

    def document(self, index: ModelIndex, width: int) -> QTextDocument:
        """The laid-out document of a row at a width (cached)."""
        key = int(index.data(ROLE_KEY))
        revision = int(index.data(ROLE_REVISION))
        text_width = max(40, width - 2 * (MARGIN + PADDING))
        cached = self._cache.get(key)
        if cached and cached[0] == revision and cached[1] == text_width:
            return cached[2]
        document = cached[2] if cached else QTextDocument()
        kind = index.data(ROLE_KIND)
        style = "a { color: #1a73e8; text-decoration: none; font-weight: 600; }"
        if kind in ("narration", "notice"):
            style += " body { font-style: italic; }"
        document.setDefaultStyleSheet(style)
        body = str(index.data(ROLE_HTML))
        if index.data(ROLE_STREAMING):
            body += " ▍"
        document.setHtml(body)
        document.setTextWidth(text_width)
        self._cache[key] = (revision, text_width, document)
        return document

    def forget(self) -> None:
        """Drop every cached layout (after a model reset)."""
        self._cache.clear()

    def sizeHint(self, option: QStyleOptionViewItem, index: ModelIndex) -> QSize:
        """Height of the laid-out text plus padding."""
        width = option.rect.width() if option.rect.width() > 0 else 400
        document = self.document(index, width)
        height = int(document.size().height()) + 2 * (MARGIN + PADDING) // 2 + PADDING
        return QSize(width, height)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        """Draw the bubble and its text."""
        rect: QRect = option.rect
        document = self.document(index, rect.width())
        painter.save()
        bubble = rect.adjusted(MARGIN, MARGIN // 2, -MARGIN, -MARGIN // 2)
        tint = BUBBLE_TINT.get(str(index.data(ROLE_KIND)), QColor(0, 0, 0, 0))
        if tint.alpha():
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(tint)
            painter.drawRoundedRect(bubble, 6, 6)
        if option.state & QStyle.StateFlag.State_Selected:
            painter.setPen(option.palette.color(QPalette.ColorRole.Highlight))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(bubble, 6, 6)
        painter.translate(bubble.topLeft() + QPoint(PADDING, PADDING // 2))
        context_color = option.palette.color(QPalette.ColorRole.Text)
        document.setDefaultStyleSheet(document.defaultStyleSheet())
        layout = document.documentLayout()
        paint_context = layout.PaintContext()
        paint_context.palette.setColor(QPalette.ColorRole.Text, context_color)
        layout.draw(painter, paint_context)
        painter.restore()

    def anchor_at(self, index: ModelIndex, rect: QRect, point: QPoint) -> str:
        """The link under a point of a row, or ''."""
        document = self.document(index, rect.width())
        bubble = rect.adjusted(MARGIN, MARGIN // 2, -MARGIN, -MARGIN // 2)
        local = point - bubble.topLeft() - QPoint(PADDING, PADDING // 2)
        return document.documentLayout().anchorAt(local.toPointF())


class ChatView(QListView):
    """The conversation of one persona; citation chips are clickable."""

    citation_clicked = _Signal(str, object)
    """(doc_no, version or None) of a clicked citation chip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._delegate = ChatDelegate(self)
        self.setItemDelegate(self._delegate)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setUniformItemSizes(False)
        self.setWordWrap(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setMouseTracking(True)
        self.setAccessibleName(self.tr("Conversation"))
        self._follow = True

    def setModel(self, model: QAbstractItemModel | None) -> None:
        """Attach a transcript model and follow its growth."""
        super().setModel(model)
        if model is None:
            return
        model.rowsInserted.connect(self._on_grow)
        model.dataChanged.connect(self._on_grow)
        model.modelReset.connect(self._delegate.forget)

    def _on_grow(self, *_: object) -> None:
        bar = self.verticalScrollBar()
        self._follow = bar.value() >= bar.maximum() - 4
        if self._follow:
            self.scrollToBottom()

    def _anchor(self, point: QPoint) -> str:
        index = self.indexAt(point)
        if not index.isValid():
            return ""
        return self._delegate.anchor_at(index, self.visualRect(index), point)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        """Show a pointing hand over citation chips."""
        anchor = self._anchor(event.position().toPoint())
        self.viewport().setCursor(
            Qt.CursorShape.PointingHandCursor if anchor else Qt.CursorShape.ArrowCursor
        )
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """Open a clicked citation."""
        if event.button() == Qt.MouseButton.LeftButton:
            parsed = parse_cite_link(self._anchor(event.position().toPoint()))
            if parsed is not None:
                self.citation_clicked.emit(parsed[0], parsed[1])
        super().mouseReleaseEvent(event)

    def event(self, event: QEvent) -> bool:
        """Relayout bubbles when the palette changes (theme switch)."""
        if event.type() == QEvent.Type.PaletteChange:
            self._delegate.forget()
        return super().event(event)
