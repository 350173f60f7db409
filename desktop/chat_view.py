"""The conversation view: rich-text bubbles over a ``TranscriptModel``.

A delegate lays each row out with a cached ``QTextDocument`` (keyed by the row's
revision and the width), so scrolling and repaints cost nothing new; only the
streaming row is laid out again, at most once per frame (the turn worker delivers
a frame's text as one change).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
    QUrl,
)
from PySide6.QtCore import Signal as _Signal
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QFont,
    QFontMetrics,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPalette,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QListView,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTextBrowser,
    QWidget,
)

from desktop.transcript_model import (
    ROLE_FOOTER,
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


CACHED_DOCUMENTS = 96
"""Laid-out rows kept; older ones are laid out again if scrolled back to."""

STREAM_BLOCK_CHARS = 600
"""A streamed paragraph longer than this is broken at its next space.

Qt lays out a paragraph as a whole, so one endless streamed paragraph would
cost more with every delta; the break shows only while the answer streams (the
finished answer is laid out again as written).
"""


def _append_streamed(document: QTextDocument, text: str) -> None:
    """Append streamed text as plain paragraphs, capping paragraph length."""
    if not text:
        return
    cursor = QTextCursor(document)
    cursor.movePosition(QTextCursor.MoveOperation.End)
    block_length = cursor.block().length()
    for number, line in enumerate(text.split("\n")):
        if number:
            cursor.insertBlock()
            block_length = 0
        while block_length + len(line) > STREAM_BLOCK_CHARS:
            cut = line.find(" ", max(0, STREAM_BLOCK_CHARS - block_length))
            if cut < 0:
                break
            cursor.insertText(line[: cut + 1])
            cursor.insertBlock()
            line, block_length = line[cut + 1 :], 0
        cursor.insertText(line)
        block_length += len(line)


class ChatDelegate(QStyledItemDelegate):
    """Paints transcript rows as rich-text bubbles with citation chips."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # key -> (revision, text width, document, streamed length or -1)
        self._cache: OrderedDict[int, tuple[int, int, QTextDocument, int]] = OrderedDict()
        self._sizes: dict[int, tuple[tuple[int, int, int, str], QSize]] = {}

    def document(self, index: ModelIndex, width: int) -> QTextDocument:
        """The laid-out document of a row at a width (cached).

        A streaming row grows by appending only the new text, as plain text,
        to its cached document; Qt then lays out only the last paragraph. When
        the answer finishes it is rebuilt once as rich text with citation links.
        """
        key = int(index.data(ROLE_KEY))
        revision = int(index.data(ROLE_REVISION))
        text_width = max(40, width - 2 * (MARGIN + PADDING))
        cached = self._cache.get(key)
        if cached and cached[0] == revision and cached[1] == text_width:
            self._cache.move_to_end(key)
            return cached[2]
        if len(self._cache) >= CACHED_DOCUMENTS:  # long histories: keep recent rows only
            self._cache.popitem(last=False)
        streaming = bool(index.data(ROLE_STREAMING))
        if streaming:
            text = str(index.data(Qt.ItemDataRole.DisplayRole))
            if cached and 0 <= cached[3] <= len(text):
                document, consumed = cached[2], cached[3]
            else:
                document, consumed = self._new_document(index), 0
            _append_streamed(document, text[consumed:])
            if not cached or cached[1] != text_width or consumed == 0:
                document.setTextWidth(text_width)
            self._cache[key] = (revision, text_width, document, len(text))
            return document
        document = self._new_document(index)
        document.setHtml(str(index.data(ROLE_HTML)))
        document.setTextWidth(text_width)
        self._cache[key] = (revision, text_width, document, -1)
        return document

    def _new_document(self, index: ModelIndex) -> QTextDocument:
        document = QTextDocument()
        link = QGuiApplication.palette().color(QPalette.ColorRole.Link).name()
        style = (  # the theme's link colour: a fixed blue was hard to read on dark
            f"a {{ color: {link}; text-decoration: none; font-weight: 600; }}"
            " table { border-color: #8a8a8a; border-style: solid; }"
            " td, th { padding: 3px 8px; }"
        )
        if index.data(ROLE_KIND) in ("narration", "notice"):
            style += " body { font-style: italic; }"
        document.setDefaultStyleSheet(style)
        view = self.parent()
        if isinstance(view, QWidget):  # the view's font: text zoom scales it
            document.setDefaultFont(view.font())
        document.setDocumentMargin(2)
        return document

    def _row_width(self, fallback: int) -> int:
        # One width for sizeHint, paint and hit tests: a width that differs by
        # a pixel would throw the cached layout away and lay out the row again.
        view = self.parent()
        if isinstance(view, QListView):
            return max(80, view.viewport().width())
        return fallback if fallback > 0 else 400

    def forget(self) -> None:
        """Drop every cached layout (after a model reset)."""
        self._cache.clear()
        self._sizes.clear()

    def sizeHint(self, option: QStyleOptionViewItem, index: ModelIndex) -> QSize:
        """Height of the laid-out text plus padding (cached per revision and width)."""
        width = self._row_width(option.rect.width())
        footer = str(index.data(ROLE_FOOTER) or "")
        key = (int(index.data(ROLE_KEY)), int(index.data(ROLE_REVISION)), width, footer)
        size = self._sizes.get(key[0])
        if size is not None and size[0] == key:
            return size[1]
        document = self.document(index, width)
        extra = self._footer_metrics().height() if footer else 0
        hint = QSize(width, int(document.size().height()) + MARGIN + PADDING + extra)
        self._sizes[key[0]] = (key, hint)
        return hint

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        """Draw the bubble and its text."""
        rect: QRect = option.rect
        document = self.document(index, self._row_width(rect.width()))
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
        origin = bubble.topLeft() + QPoint(PADDING, PADDING // 2)
        painter.translate(origin)
        # Draw only what is on screen: a long answer has many off-screen blocks.
        # (drawContents, not documentLayout().draw(PaintContext): writing to
        # PaintContext's fields corrupts reference counts in PySide6 6.12.)
        view = self.parent()
        visible = rect if not isinstance(view, QListView) else rect & view.viewport().rect()
        document.drawContents(painter, QRectF(visible.translated(-origin)))
        footer = str(index.data(ROLE_FOOTER) or "")
        if footer:
            painter.setFont(self._footer_font())
            painter.setPen(option.palette.color(QPalette.ColorRole.PlaceholderText))
            metrics = self._footer_metrics()
            top = int(document.size().height())
            painter.drawText(
                QRect(0, top, int(document.textWidth()), metrics.height()),
                int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                footer,
            )
        painter.restore()

    def _footer_font(self) -> QFont:
        view = self.parent()
        font = QFont(view.font() if isinstance(view, QWidget) else QGuiApplication.font())
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.85))
        return font

    def _footer_metrics(self) -> QFontMetrics:
        return QFontMetrics(self._footer_font())

    # selectable text: a double-clicked bubble opens as a read-only text browser
    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: ModelIndex
    ) -> QWidget:
        """A read-only rich-text browser over the bubble: select and copy any part."""
        editor = QTextBrowser(parent)
        editor.setReadOnly(True)
        editor.setOpenLinks(False)
        editor.setFrameShape(QFrame.Shape.NoFrame)
        editor.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        editor.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        editor.setAccessibleName(self.tr("Message text"))
        view = self.parent()
        if isinstance(view, ChatView):
            editor.anchorClicked.connect(view.open_link)
        return editor

    def setEditorData(self, editor: QWidget, index: ModelIndex) -> None:
        """The row's text as the chat shows it."""
        if isinstance(editor, QTextBrowser):
            editor.document().setDefaultStyleSheet(self._new_document(index).defaultStyleSheet())
            editor.document().setDocumentMargin(2)
            editor.setHtml(str(index.data(ROLE_HTML)))
            editor.selectAll()

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: ModelIndex) -> None:
        """Read-only: nothing goes back to the model."""

    def updateEditorGeometry(
        self, editor: QWidget, option: QStyleOptionViewItem, index: ModelIndex
    ) -> None:
        """Exactly over the bubble's text."""
        bubble = option.rect.adjusted(MARGIN, MARGIN // 2, -MARGIN, -MARGIN // 2)
        editor.setGeometry(bubble.adjusted(PADDING - 2, PADDING // 2 - 2, -PADDING + 4, 0))

    def anchor_at(self, index: ModelIndex, rect: QRect, point: QPoint) -> str:
        """The link under a point of a row, or ''."""
        document = self.document(index, self._row_width(rect.width()))
        bubble = rect.adjusted(MARGIN, MARGIN // 2, -MARGIN, -MARGIN // 2)
        local = point - bubble.topLeft() - QPoint(PADDING, PADDING // 2)
        return document.documentLayout().anchorAt(local.toPointF())


class ChatView(QListView):
    """The conversation of one persona; citation chips are clickable.

    Every message can be copied (context menu, Ctrl+C) and opened as selectable
    text (double-click); the pane adds regenerate, edit-and-resend and export.
    """

    citation_clicked = _Signal(str, object)
    """(doc_no, version or None) of a clicked citation chip."""
    context_menu_requested = _Signal(object, int)
    """(the ``QMenu`` being built, row): the pane adds its own actions before it shows."""

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
        self.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        self._follow = True
        self._scroll_pending = False

    def setModel(self, model: QAbstractItemModel | None) -> None:
        """Attach a transcript model and follow its growth."""
        super().setModel(model)
        if model is None:
            return
        model.rowsInserted.connect(self._on_grow)
        model.dataChanged.connect(self._on_grow)
        model.modelReset.connect(self._delegate.forget)

    def _on_grow(self, *_: object) -> None:
        # one scroll per event-loop turn, however many rows changed in it
        if self._scroll_pending:
            return
        bar = self.verticalScrollBar()
        self._follow = bar.value() >= bar.maximum() - 4
        if self._follow:
            self._scroll_pending = True
            QTimer.singleShot(0, self, self._scroll_down)

    def _scroll_down(self) -> None:
        self._scroll_pending = False
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

    def open_link(self, url: QUrl) -> None:
        """A link in the selectable text: citations open the evidence, as chips do."""
        parsed = parse_cite_link(url.toString())
        if parsed is not None:
            self.citation_clicked.emit(parsed[0], parsed[1])

    def row_text(self, row: int, markdown: bool = False) -> str:
        """A message as the chat shows it (plain text), or as the model wrote it."""
        from desktop.transcript_model import displayed_text

        rows = getattr(self.model(), "rows", [])
        if not 0 <= row < len(rows):
            return ""
        return rows[row].text if markdown else displayed_text(rows[row])

    def copy_row(self, row: int, markdown: bool = False) -> None:
        """Put a message on the clipboard."""
        QGuiApplication.clipboard().setText(self.row_text(row, markdown))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Ctrl+C copies the selected message."""
        if event.matches(QKeySequence.StandardKey.Copy) and self.currentIndex().isValid():
            self.copy_row(self.currentIndex().row())
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """Copy (as shown or as Markdown), select text, and the pane's own actions."""
        index = self.indexAt(event.pos())
        if not index.isValid():
            return
        row = index.row()
        menu = QMenu(self)
        menu.addAction(self.tr("Copy"), lambda: self.copy_row(row))
        if index.data(ROLE_KIND) == "assistant":
            menu.addAction(self.tr("Copy as Markdown"), lambda: self.copy_row(row, True))
        if index.flags() & Qt.ItemFlag.ItemIsEditable:
            menu.addAction(self.tr("Select text"), lambda: self.edit(index))
        self.context_menu_requested.emit(menu, row)
        menu.popup(event.globalPos())
        self.menu = menu

    def event(self, event: QEvent) -> bool:
        """Relayout bubbles when the palette changes (theme switch)."""
        if event.type() == QEvent.Type.PaletteChange:
            self._delegate.forget()
        elif event.type() == QEvent.Type.FontChange:  # text zoom: lay the bubbles out again
            self._delegate.forget()
            self.scheduleDelayedItemsLayout()
        return super().event(event)
