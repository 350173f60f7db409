"""The conversations of the persona in view, as in the chat clients people know.

A "New chat" button, a search box (across every conversation of the persona:
questions and answers), and the list: title (the first question, or what a
person renamed it to) and date. Right-click or F2 renames in place; Delete (or
the menu) deletes. The window owns the history; this widget only shows it and
says what a person asked for.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QDateTime, QLocale, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from desktop.history_store import Conversation, SearchHit

ROLE_CONVERSATION = Qt.ItemDataRole.UserRole + 1
"""The conversation id of a list item."""
ROLE_TITLE = Qt.ItemDataRole.UserRole + 2
"""The title as saved (the item's text also carries the date)."""

SEARCH_DELAY_MS = 200
"""Typing pauses this long before the search runs."""


def when(timestamp: float) -> str:
    """A conversation's date for the list: the time today, else the short date."""
    moment = datetime.fromtimestamp(timestamp)
    locale = QLocale()
    stamp = QDateTime.fromSecsSinceEpoch(int(timestamp))
    if moment.date() == datetime.now().date():
        return locale.toString(stamp.time(), QLocale.FormatType.ShortFormat)
    return locale.toString(stamp.date(), QLocale.FormatType.ShortFormat)


class ConversationSidebar(QWidget):
    """New chat, search, and the list of a persona's conversations."""

    new_chat_requested = Signal()
    """The person wants a new conversation."""
    conversation_chosen = Signal(int)
    """A conversation (id) was picked (a search hit picks its conversation)."""
    rename_requested = Signal(int, str)
    """(id, new title)."""
    delete_requested = Signal(int)
    """A conversation (id) should be deleted (the window asks first)."""
    search_changed = Signal(str)
    """The search text, once typing paused ('' lists every conversation again)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.new_button = QPushButton(self.tr("New chat"), self)
        self.new_button.setToolTip(self.tr("Start a new conversation (Ctrl+N)"))
        self.new_button.clicked.connect(lambda *_: self.new_chat_requested.emit())
        self.search = QLineEdit(self)
        self.search.setPlaceholderText(self.tr("Search conversations…"))
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName(self.tr("Search conversations"))
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(lambda: self.search_changed.emit(self.query()))
        self.search.textChanged.connect(lambda *_: self._search_timer.start())
        self.search.returnPressed.connect(self._search_now)
        self.list = QListWidget(self)
        self.list.setAccessibleName(self.tr("Conversations"))
        self.list.setWordWrap(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)
        self.list.itemActivated.connect(self._activated)
        self.list.itemClicked.connect(self._activated)
        self.list.itemChanged.connect(self._renamed)
        delete = QAction(self.tr("Delete"), self.list)
        delete.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        delete.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        delete.triggered.connect(self._delete_current)
        self.list.addAction(delete)
        self.empty_text = self.tr("No conversations yet.")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 0, 4)
        layout.addWidget(self.new_button)
        layout.addWidget(self.search)
        layout.addWidget(self.list, 1)
        self._filling = False
        self._hits: dict[int, int] = {}

    def query(self) -> str:
        """The search text ('' when not searching)."""
        return self.search.text().strip()

    def _search_now(self) -> None:
        self._search_timer.stop()
        self.search_changed.emit(self.query())

    def show_conversations(self, conversations: list[Conversation], current: int | None) -> None:
        """List conversations (newest first) and select the one in view."""
        self._fill()
        for conversation in conversations:
            self._add(conversation.id, conversation.title, when(conversation.updated_at))
        if not conversations:
            self._placeholder(self.empty_text)
        self.select(current)
        self._filling = False

    def show_hits(self, hits: list[SearchHit]) -> None:
        """List search hits: the conversation's title and the matching text."""
        self._fill()
        shown: set[int] = set()
        for hit in hits:  # newest first: each conversation once, with its latest match
            if hit.conversation_id in shown:
                continue
            shown.add(hit.conversation_id)
            snippet = " ".join(hit.snippet.split())
            self._add(hit.conversation_id, hit.title, snippet, editable=False)
        if not hits:
            self._placeholder(self.tr("Nothing found."))
        self._filling = False

    def select(self, conversation_id: int | None) -> None:
        """Mark the conversation in view (None: a new chat, nothing marked)."""
        self.list.clearSelection()
        for row in range(self.list.count()):
            item = self.list.item(row)
            if conversation_id is not None and item.data(ROLE_CONVERSATION) == conversation_id:
                self.list.setCurrentItem(item)
                return

    def ids(self) -> list[int]:
        """The conversation ids listed, top to bottom (tests)."""
        items = (self.list.item(row) for row in range(self.list.count()))
        return [int(i.data(ROLE_CONVERSATION)) for i in items if i.data(ROLE_CONVERSATION)]

    def titles(self) -> list[str]:
        """The titles listed, top to bottom (tests)."""
        items = (self.list.item(row) for row in range(self.list.count()))
        return [str(i.data(ROLE_TITLE)) for i in items if i.data(ROLE_CONVERSATION)]

    def _fill(self) -> None:
        self._filling = True
        self.list.clear()

    def _add(self, conversation_id: int, title: str, detail: str, editable: bool = True) -> None:
        item = QListWidgetItem(f"{title}\n{detail}" if detail else title)
        item.setData(ROLE_CONVERSATION, conversation_id)
        item.setData(ROLE_TITLE, title)
        item.setToolTip(title)
        if editable:
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        self.list.addItem(item)

    def _placeholder(self, text: str) -> None:
        item = QListWidgetItem(text)
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        self.list.addItem(item)

    def _activated(self, item: QListWidgetItem) -> None:
        conversation_id = item.data(ROLE_CONVERSATION)
        if conversation_id:
            self.conversation_chosen.emit(int(conversation_id))

    def rename(self, conversation_id: int) -> None:
        """Start renaming a conversation in place."""
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(ROLE_CONVERSATION) == conversation_id:
                self._filling = True
                item.setText(str(item.data(ROLE_TITLE)))  # edit the title, not the date
                self._filling = False
                self.list.editItem(item)
                return

    def _renamed(self, item: QListWidgetItem) -> None:
        if self._filling or not item.data(ROLE_CONVERSATION):
            return
        title = " ".join(item.text().split())
        if title and title != item.data(ROLE_TITLE):
            self.rename_requested.emit(int(item.data(ROLE_CONVERSATION)), title)
        else:
            self.search_changed.emit(self.query())  # put the date back

    def _delete_current(self) -> None:
        item = self.list.currentItem()
        if item is not None and item.data(ROLE_CONVERSATION):
            self.delete_requested.emit(int(item.data(ROLE_CONVERSATION)))

    def _menu(self, point: QPoint) -> None:
        item = self.list.itemAt(point)
        if item is None or not item.data(ROLE_CONVERSATION):
            return
        conversation_id = int(item.data(ROLE_CONVERSATION))
        menu = QMenu(self)
        menu.addAction(self.tr("Open"), lambda: self.conversation_chosen.emit(conversation_id))
        if item.flags() & Qt.ItemFlag.ItemIsEditable:
            menu.addAction(self.tr("Rename"), lambda: self.rename(conversation_id))
        menu.addAction(self.tr("Delete"), lambda: self.delete_requested.emit(conversation_id))
        menu.popup(self.list.viewport().mapToGlobal(point))
        self.menu = menu
