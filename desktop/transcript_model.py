"""The conversation of one persona as a list model.

Rows are plain Python objects in a list. A streamed answer grows one row: deltas
are buffered and flushed at most once per frame (16 ms), and each flush emits
``dataChanged`` for that one index only (never a reset), so a long answer costs
the view one relayout and repaint per frame, not one per delta. Every model
streaming at once (the split view's panes) is flushed by one shared timer tick,
so two panes cost one layout-and-paint pass per frame, not two.
"""

from __future__ import annotations

import html
import itertools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
)

from desktop.verbatim import protect_values

if TYPE_CHECKING:
    from agent_core.events import Citation

RowRole = Literal["user", "assistant", "narration", "notice", "thinking"]

ROLE_KIND = Qt.ItemDataRole.UserRole + 1
"""Which kind of row: user, assistant, narration, notice."""
ROLE_HTML = Qt.ItemDataRole.UserRole + 2
"""Rich text for the row (finished answers from Markdown, citations as links)."""
ROLE_STREAMING = Qt.ItemDataRole.UserRole + 3
"""True while the answer is still arriving."""
ROLE_REVISION = Qt.ItemDataRole.UserRole + 4
"""Changes whenever the row's text changes (for render caches)."""
ROLE_KEY = Qt.ItemDataRole.UserRole + 5
"""A stable unique id of the row."""
ROLE_FOOTER = Qt.ItemDataRole.UserRole + 6
"""A small line under the row: how long the answer took (and more, later)."""

FLUSH_INTERVAL_MS = 16
"""Longest time a streamed delta waits before it reaches the view."""

CITATION_PATTERN = re.compile(
    r"\b([A-Z]{2,4}-[A-Z]{3}-\d{3})"
    r"(?:(\s*)(?:제\s*(\d+)\s*차|[vV]\s?(\d+)\b|version\s+(\d+)))?"
)
"""A document number, optionally with a version as 제N차, vN or version N."""

_keys = itertools.count(1)


class _FrameFlusher(QObject):
    """One timer for every streaming model: each tick flushes all of them."""

    def __init__(self) -> None:
        super().__init__()
        self._waiting: dict[int, TranscriptModel] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FLUSH_INTERVAL_MS)
        self._timer.timeout.connect(self._tick)

    def schedule(self, model: TranscriptModel) -> None:
        self._waiting[id(model)] = model
        if not self._timer.isActive():
            self._timer.start()

    def forget(self, model: TranscriptModel) -> None:
        self.forget_key(id(model))

    def forget_key(self, key: int) -> None:
        self._waiting.pop(key, None)

    def _tick(self) -> None:
        waiting, self._waiting = self._waiting, {}
        for model in waiting.values():
            model.flush()


_flusher: _FrameFlusher | None = None


def _frame_flusher() -> _FrameFlusher:
    global _flusher  # one per GUI thread, made on first use
    if _flusher is None:
        _flusher = _FrameFlusher()
    return _flusher


ModelIndex = QModelIndex | QPersistentModelIndex


def linkify_citations(text: str) -> str:
    """Escape text and turn document numbers into ``cite:`` links.

    Args:
        text: Plain answer text.

    Returns:
        HTML: ``<a href="cite:HR-REG-003:3">HR-REG-003 제3차</a>``; line breaks kept.
    """
    parts: list[str] = []
    last = 0
    for match in CITATION_PATTERN.finditer(text):
        parts.append(html.escape(text[last : match.start()]))
        doc_no = match.group(1)
        version = match.group(3) or match.group(4) or match.group(5) or ""
        label = html.escape(match.group(0))
        parts.append(f'<a href="cite:{doc_no}:{version}">{label}</a>')
        last = match.end()
    parts.append(html.escape(text[last:]))
    return "".join(parts).replace("\n", "<br>")


_CODE_SPAN = re.compile(r"(```.*?```|`[^`\n]*`)", re.DOTALL)
_BODY_TAG = re.compile(r"<body[^>]*>")
_SAFE_LINK_PREFIXES = ("cite:", "https:", "http:")
"""Link schemes a rendered answer may keep; any other link becomes plain text."""


def markdown_citations(text: str) -> str:
    """Turn document numbers into Markdown ``cite:`` links, outside code spans.

    Args:
        text: Markdown answer text.

    Returns:
        Markdown with ``[HR-REG-003 제3차](cite:HR-REG-003:3)`` links.
    """

    def link(match: re.Match[str]) -> str:
        doc_no = match.group(1)
        version = match.group(3) or match.group(4) or match.group(5) or ""
        return f"[{match.group(0)}](cite:{doc_no}:{version})"

    parts = _CODE_SPAN.split(text)
    for number in range(0, len(parts), 2):  # even parts are outside code
        parts[number] = CITATION_PATTERN.sub(link, parts[number])
    return "".join(parts)


def keep_line_breaks(text: str) -> str:
    """Make each single line break of prose a hard break, as the model meant it.

    Markdown joins consecutive lines into one paragraph; answers put one fact per
    line. Table rows and fenced code are left as they are.

    Args:
        text: Markdown answer text.

    Returns:
        The text with two trailing spaces on prose lines followed by more prose.
    """
    lines = text.split("\n")
    fenced = False
    out: list[str] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        following = lines[i + 1].strip() if i + 1 < len(lines) else ""
        prose = stripped and not stripped.startswith("|") and not fenced
        if prose and following and not following.startswith(("|", "```")):
            line = line.rstrip() + "  "
        out.append(line)
    return "\n".join(out)


def render_markdown(text: str, verbatim: tuple[str, ...] = ()) -> str:
    """Rich text of a finished answer written in Markdown.

    GitHub-flavoured Markdown without raw HTML: tags the model writes show as
    text. Citations become ``cite:`` links; other links keep only http(s)
    targets, and images are shown as their address instead of being loaded.
    Values from tool results (and masks such as ``02-****-****``) are never
    read as markup (``desktop.verbatim``).

    Args:
        text: Markdown answer text.
        verbatim: Tool-result values that must show exactly as they are.

    Returns:
        An HTML fragment body for a ``QTextDocument`` (no fixed font or colours).
    """
    from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextDocument

    features = QTextDocument.MarkdownFeature
    document = QTextDocument()
    document.setMarkdown(
        markdown_citations(keep_line_breaks(protect_values(text, verbatim))),
        features.MarkdownDialectGitHub | features.MarkdownNoHTML,
    )
    fixes: list[tuple[int, int, str | None]] = []  # (position, length, replacement text)
    block = document.begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            fragment = iterator.fragment()
            fmt = fragment.charFormat()
            if fmt.isImageFormat():
                fixes.append((fragment.position(), fragment.length(), fmt.toImageFormat().name()))
            elif fmt.isAnchor():
                keep = fmt.anchorHref().startswith(_SAFE_LINK_PREFIXES)
                fixes.append((fragment.position(), fragment.length(), None if keep else ""))
            iterator += 1
        block = block.next()
    for position, length, replacement in reversed(fixes):
        cursor = QTextCursor(document)
        cursor.setPosition(position)
        cursor.setPosition(position + length, QTextCursor.MoveMode.KeepAnchor)
        fmt = cursor.charFormat()
        if replacement is None:  # a kept link: drop the hard-coded blue, the view styles it
            fmt.clearForeground()
            cursor.setCharFormat(fmt)
            continue
        plain = QTextCharFormat()
        plain.setFontWeight(fmt.fontWeight())
        plain.setFontItalic(fmt.fontItalic())
        if replacement:  # an image: its address as text
            cursor.insertText(replacement, plain)
        else:  # a link to something other than the web or a citation: its label only
            cursor.setCharFormat(plain)
    return _BODY_TAG.sub("<body>", document.toHtml(), count=1)


def displayed_text(row: TranscriptRow) -> str:
    """Exactly what the chat shows for a row, as plain text (tests and the headless driver)."""
    from PySide6.QtGui import QTextDocument

    document = QTextDocument()
    document.setHtml(row.html())
    return document.toPlainText()


def parse_cite_link(href: str) -> tuple[str, int | None] | None:
    """Read a ``cite:DOC:VERSION`` link back.

    Args:
        href: The anchor's href.

    Returns:
        (doc_no, version or None), or None for other links.
    """
    if not href.startswith("cite:"):
        return None
    _, doc_no, *rest = href.split(":")
    version = rest[0] if rest else ""
    return doc_no, int(version) if version.isdigit() else None


def thinking_html(text: str, expanded: bool) -> str:
    """A thinking row: ``▸ Thinking: first line…`` collapsed, the whole summary expanded."""
    from PySide6.QtCore import QCoreApplication

    title = QCoreApplication.translate("TranscriptModel", "Thinking")
    summary = " ".join(text.split())
    if not summary:
        note = QCoreApplication.translate("TranscriptModel", "(not shown by the model)")
        return f"<i>{html.escape(title)} {html.escape(note)}</i>"
    if not expanded:
        short = summary if len(summary) <= 90 else summary[:89] + "…"
        return f"<i>▸ {html.escape(title)}: {html.escape(short)}</i>"
    body = html.escape(text.strip()).replace("\n", "<br>")
    return f"<i>▾ {html.escape(title)}</i><br><i>{body}</i>"


@dataclass
class TranscriptRow:
    """One bubble of the conversation."""

    kind: RowRole
    """Who speaks: the user, the assistant, narration, or an app notice."""
    text: str
    """Plain text."""
    streaming: bool = False
    """True while the answer is still arriving."""
    citations: tuple[Citation, ...] = ()
    """Citations of a finished answer."""
    verbatim: tuple[str, ...] = ()
    """Values from the turn's tool results, shown verbatim (never as markup)."""
    footer: str = ""
    """A small muted line under the row (latency of an answer); not part of its text."""
    revision: int = 0
    """Bumped on every text change."""
    key: int = field(default_factory=lambda: next(_keys))
    """Stable id."""
    _rendered: tuple[int, str] | None = field(default=None, repr=False, compare=False)
    expanded: bool = False
    """A thinking row shows its whole summary (click toggles); collapsed it shows one line."""

    def html(self) -> str:
        """Rich text for the row.

        A finished answer is rendered from Markdown (once per revision); while
        it streams, plain escaping keeps it cheap.
        """
        if self.kind == "thinking":
            return thinking_html(self.text, self.expanded)
        if self.kind != "assistant":
            return html.escape(self.text).replace("\n", "<br>")
        if self.streaming:
            return linkify_citations(self.text)
        if self._rendered is None or self._rendered[0] != self.revision:
            self._rendered = (self.revision, render_markdown(self.text, self.verbatim))
        return self._rendered[1]


class TranscriptModel(QAbstractListModel):
    """The rows of one persona's conversation."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[TranscriptRow] = []
        self._pending: list[str] = []
        self._attempt_start = 0
        key = id(self)
        self.destroyed.connect(lambda *_: _frame_flusher().forget_key(key))

    # Qt model interface -------------------------------------------------
    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        """Number of rows (zero under any valid parent: this is a flat list)."""
        return 0 if parent.isValid() else len(self._rows)

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        """Finished rows open as selectable text (the view's read-only editor)."""
        flags = super().flags(index)
        if index.isValid() and 0 <= index.row() < len(self._rows):
            if not self._rows[index.row()].streaming:
                flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Row data for the view and for tests."""
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return row.text
        if role == ROLE_KIND:
            return row.kind
        if role == ROLE_HTML:
            return row.html()
        if role == ROLE_STREAMING:
            return row.streaming
        if role == ROLE_REVISION:
            return row.revision
        if role == ROLE_KEY:
            return row.key
        if role == ROLE_FOOTER:
            return row.footer
        return None

    # Python API -----------------------------------------------------------
    @property
    def rows(self) -> list[TranscriptRow]:
        """The rows (read-only view for tests and export)."""
        return list(self._rows)

    def _append(self, row: TranscriptRow) -> None:
        self.flush()
        position = len(self._rows)
        self.beginInsertRows(QModelIndex(), position, position)
        self._rows.append(row)
        self.endInsertRows()

    def _changed(self, position: int) -> None:
        self._rows[position].revision += 1
        index = self.index(position, 0)
        self.dataChanged.emit(index, index)

    def add_question(self, text: str) -> None:
        """Append the user's question."""
        self._append(TranscriptRow("user", text))

    def add_notice(self, text: str) -> None:
        """Append a notice from the app (stopped, failed, login)."""
        self._append(TranscriptRow("notice", text))

    def add_answer(
        self, text: str, citations: tuple[Citation, ...] = (), verbatim: tuple[str, ...] = ()
    ) -> None:
        """Append a finished answer (history replay)."""
        self._append(TranscriptRow("assistant", text, citations=citations, verbatim=verbatim))

    def append_delta(self, text: str) -> None:
        """Buffer streamed text; it reaches the view within 16 ms."""
        if not self._pending:
            _frame_flusher().schedule(self)
        self._pending.append(text)

    def flush(self) -> None:
        """Move buffered deltas into the streaming row (one ``dataChanged``)."""
        if not self._pending:
            return
        _frame_flusher().forget(self)
        text = "".join(self._pending)
        self._pending.clear()
        if self._rows and self._rows[-1].kind == "assistant" and self._rows[-1].streaming:
            self._rows[-1].text += text
            self._changed(len(self._rows) - 1)
        else:
            self._append(TranscriptRow("assistant", text, streaming=True))

    def mark_narration(self, text: str) -> None:
        """The text streamed since the last boundary was narration, not the answer."""
        self.flush()
        if self._rows and self._rows[-1].kind == "assistant" and self._rows[-1].streaming:
            row = self._rows[-1]
            row.kind, row.text, row.streaming = "narration", text, False
            self._changed(len(self._rows) - 1)
        elif text.strip():
            self._append(TranscriptRow("narration", text))

    def finish_answer(
        self, text: str, citations: tuple[Citation, ...] = (), verbatim: tuple[str, ...] = ()
    ) -> None:
        """The answer is complete: its final text replaces the streamed one.

        Args:
            text: The whole answer (Markdown).
            citations: What it cites.
            verbatim: Tool-result values in it that must never be read as markup.
        """
        self.flush()
        if self._rows and self._rows[-1].kind == "assistant" and self._rows[-1].streaming:
            row = self._rows[-1]
            row.text, row.streaming, row.citations = text, False, citations
            row.verbatim = verbatim
            self._changed(len(self._rows) - 1)
        else:
            self._append(TranscriptRow("assistant", text, citations=citations, verbatim=verbatim))

    def append_thinking(self, text: str) -> None:
        """Grow the model's current thinking row (a summary, never part of the answer)."""
        self.flush()
        if self._rows and self._rows[-1].kind == "thinking" and self._rows[-1].streaming:
            self._rows[-1].text += text
            self._changed(len(self._rows) - 1)
        else:
            self._append(TranscriptRow("thinking", text, streaming=True))

    def finish_thinking(self, text: str) -> None:
        """A thinking block ended: its whole summary replaces the streamed one."""
        self.flush()
        if self._rows and self._rows[-1].kind == "thinking" and self._rows[-1].streaming:
            row = self._rows[-1]
            row.text, row.streaming = text or row.text, False
            self._changed(len(self._rows) - 1)
        else:
            self._append(TranscriptRow("thinking", text))

    def toggle(self, position: int) -> bool:
        """Expand or collapse a thinking row.

        Returns:
            True when the row was a thinking row.
        """
        if not 0 <= position < len(self._rows) or self._rows[position].kind != "thinking":
            return False
        self._rows[position].expanded = not self._rows[position].expanded
        self._changed(position)
        return True

    def mark_attempt(self) -> None:
        """Rows from here on belong to the model call now streaming."""
        self.flush()
        self._attempt_start = len(self._rows)

    def discard_attempt(self) -> None:
        """Drop what the abandoned model call streamed (its text and thinking rows)."""
        self.flush()
        start = min(self._attempt_start, len(self._rows))
        while (
            len(self._rows) > start
            and self._rows[-1].kind in ("assistant", "thinking")
            and (self._rows[-1].streaming or self._rows[-1].kind == "thinking")
        ):
            position = len(self._rows) - 1
            self.beginRemoveRows(QModelIndex(), position, position)
            self._rows.pop()
            self.endRemoveRows()

    def set_footer(self, text: str, position: int = -1) -> None:
        """Set the small line under a row (default the last row)."""
        self.flush()
        if not self._rows:
            return
        position = position % len(self._rows)
        self._rows[position].footer = text
        index = self.index(position, 0)  # the text is unchanged: its layout stays cached
        self.dataChanged.emit(index, index, [ROLE_FOOTER])

    def drop_partial(self) -> None:
        """Remove a still-streaming answer row: a failed turn's text is never an answer."""
        self.flush()
        if self._rows and self._rows[-1].kind == "assistant" and self._rows[-1].streaming:
            position = len(self._rows) - 1
            self.beginRemoveRows(QModelIndex(), position, position)
            self._rows.pop()
            self.endRemoveRows()

    def end_streaming(self) -> None:
        """Close a streaming row without a final answer (stopped or failed)."""
        self.flush()
        if self._rows and self._rows[-1].streaming:
            self._rows[-1].streaming = False
            self._changed(len(self._rows) - 1)

    def truncate(self, position: int) -> None:
        """Remove the rows from ``position`` on (regenerate, edit and resend)."""
        self.flush()
        if 0 <= position < len(self._rows):
            self.beginRemoveRows(QModelIndex(), position, len(self._rows) - 1)
            del self._rows[position:]
            self.endRemoveRows()

    def clear(self) -> None:
        """Start a new chat."""
        _frame_flusher().forget(self)
        self._pending.clear()
        self.beginResetModel()
        self._rows.clear()
        self.endResetModel()
