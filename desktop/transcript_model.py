"""The conversation of one persona as a list model.

Rows are plain Python objects in a list. Each step of a turn (one model call)
streams its text into a row of its own; a delta emits ``dataChanged`` for that
one index only (never a reset). The model does not buffer: the turn worker
already merges a frame's deltas into one event (``desktop.turn_worker``), so a
long answer costs the view one relayout and repaint per frame, not one per
delta. When a step ends with tool calls, its row becomes narration; the last
step's row becomes the answer.

While it streams a row is plain text; a finished answer is rendered from
Markdown, and the documents its ``AnswerFinished.citations`` name become
``cite:`` links (the chips): no second reading of the text decides what is
cited.
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
)

from agent_core.rules import DOC_NO_RE
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

_keys = itertools.count(1)

CITE_WINDOW = 80
"""Characters after a document number searched for the version it is cited with."""


ModelIndex = QModelIndex | QPersistentModelIndex


_CODE_SPAN = re.compile(r"(```.*?```|`[^`\n]*`)", re.DOTALL)
_NUMBER = re.compile(r"(?<!\d)\d{1,3}(?!\d)")
_BODY_TAG = re.compile(r"<body[^>]*>")
_SAFE_LINK_PREFIXES = ("cite:", "https:", "http:")
"""Link schemes a rendered answer may keep; any other link becomes plain text."""


def markdown_citations(text: str, citations: tuple[Citation, ...]) -> str:
    """Link the documents an answer cites, outside code spans.

    Only documents in ``citations`` (``AnswerFinished.citations``) are linked. A
    document cited in several versions links each mention to the version named
    right after it (the first cited version when none is).

    Args:
        text: Markdown answer text.
        citations: What the answer cites.

    Returns:
        Markdown with ``[HR-REG-003](cite:HR-REG-003:3)`` links.
    """
    versions: dict[str, list[int | None]] = {}
    for citation in citations:
        versions.setdefault(citation.doc_no, []).append(citation.version)
    if not versions:
        return text

    def linked(part: str) -> str:
        out: list[str] = []
        last = 0
        matches = list(DOC_NO_RE.finditer(part))
        for number, match in enumerate(matches):
            cited = versions.get(match.group(1))
            if cited is None:
                continue
            end = matches[number + 1].start() if number + 1 < len(matches) else len(part)
            window = part[match.end() : min(end, match.end() + CITE_WINDOW)]
            named = [int(n) for n in _NUMBER.findall(window)]
            version = next((n for n in named if n in cited), cited[0])
            out += [part[last : match.start()], f"[{match.group(1)}]"]
            out.append(f"(cite:{match.group(1)}:{'' if version is None else version})")
            last = match.end()
        return "".join(out) + part[last:]

    parts = _CODE_SPAN.split(text)
    for number in range(0, len(parts), 2):  # even parts are outside code
        parts[number] = linked(parts[number])
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


def render_markdown(
    text: str, verbatim: tuple[str, ...] = (), citations: tuple[Citation, ...] = ()
) -> str:
    """Rich text of a finished answer written in Markdown.

    GitHub-flavoured Markdown without raw HTML: tags the model writes show as
    text. Cited documents become ``cite:`` links; other links keep only http(s)
    targets, and images are shown as their address instead of being loaded.
    Values from tool results (and masks such as ``02-****-****``) are never
    read as markup (``desktop.verbatim``).

    Args:
        text: Markdown answer text.
        verbatim: Tool-result values that must show exactly as they are.
        citations: What the answer cites (``AnswerFinished.citations``).

    Returns:
        An HTML fragment body for a ``QTextDocument`` (no fixed font or colours).
    """
    from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextDocument

    features = QTextDocument.MarkdownFeature
    document = QTextDocument()
    document.setMarkdown(
        markdown_citations(keep_line_breaks(protect_values(text, verbatim)), citations),
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
    """The text the chat shows for a row, as plain text (tests and the headless driver)."""
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
    step: int = 0
    """The model call (1-based) whose streamed text or thinking this row holds; 0 otherwise."""
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

        A finished answer is rendered from Markdown (once per revision), its
        citations as links; a streaming row is the plain text the view paints
        (it has no citations yet, so no links).
        """
        if self.kind == "thinking":
            return thinking_html(self.text, self.expanded)
        if self.kind != "assistant" or self.streaming:
            return html.escape(self.text).replace("\n", "<br>")
        if self._rendered is None or self._rendered[0] != self.revision:
            rendered = render_markdown(self.text, self.verbatim, self.citations)
            self._rendered = (self.revision, rendered)
        return self._rendered[1]


class TranscriptModel(QAbstractListModel):
    """The rows of one persona's conversation."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[TranscriptRow] = []
        self._attempt_start = 0

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

    def _open_row(self, kind: RowRole) -> int | None:
        """The row of this kind still streaming in the current turn, if any."""
        for position in range(len(self._rows) - 1, -1, -1):
            row = self._rows[position]
            if row.kind == "user":
                return None
            if row.kind == kind and row.streaming:
                return position
        return None

    def append_delta(self, text: str, step: int = 1) -> None:
        """Grow the streamed text of ``step``; a new step starts a row of its own.

        Args:
            text: The new text (a frame's deltas, merged by the turn worker).
            step: The model call streaming it.
        """
        position = self._open_row("assistant")
        if position is not None and self._rows[position].step == step:
            self._rows[position].text += text
            self._changed(position)
            return
        if position is not None:
            # the earlier step went on to tools without saying anything (no
            # narration): only whitespace streamed, and it never starts an answer
            self._close_step(position, narration=None)
        self._append(TranscriptRow("assistant", text, streaming=True, step=step))

    def end_step_as_narration(self, step: int, text: str) -> None:
        """Step ``step`` ended with tool calls: its streamed row is narration.

        Args:
            step: The model call that ended (``Narration.step``; 0: the open row's).
            text: Its whole text, which replaces what streamed.
        """
        position = self._open_row("assistant")
        if position is not None and step in (0, self._rows[position].step):
            self._close_step(position, narration=text)
        elif text.strip():  # nothing of it streamed (an endpoint that does not stream)
            self._append(TranscriptRow("narration", text, step=step))

    def _close_step(self, position: int, narration: str | None) -> None:
        row = self._rows[position]
        text = row.text if narration is None else narration
        if not text.strip():
            self.beginRemoveRows(QModelIndex(), position, position)
            self._rows.pop(position)
            self.endRemoveRows()
            return
        row.kind, row.text, row.streaming = "narration", text, False
        self._changed(position)

    def finish_answer(
        self, text: str, citations: tuple[Citation, ...] = (), verbatim: tuple[str, ...] = ()
    ) -> None:
        """The answer is complete: its final text replaces the streamed one.

        Args:
            text: The whole answer (Markdown).
            citations: What it cites.
            verbatim: Tool-result values in it that must never be read as markup.
        """
        position = self._open_row("assistant")
        if position is not None:
            row = self._rows[position]
            row.text, row.streaming, row.citations = text, False, citations
            row.verbatim = verbatim
            self._changed(position)
        else:
            self._append(TranscriptRow("assistant", text, citations=citations, verbatim=verbatim))

    def append_thinking(self, text: str, step: int = 1) -> None:
        """Grow the thinking row of ``step`` (a summary, never part of the answer)."""
        last = self._rows[-1] if self._rows else None
        if last is not None and last.kind == "thinking" and last.streaming and last.step == step:
            last.text += text
            self._changed(len(self._rows) - 1)
        else:
            self._append(TranscriptRow("thinking", text, streaming=True, step=step))

    def finish_thinking(self, text: str) -> None:
        """A thinking block ended: its whole summary replaces the streamed one."""
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
        self._attempt_start = len(self._rows)

    def discard_attempt(self) -> None:
        """Drop what the abandoned model call streamed (its text and thinking rows)."""
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
        if not self._rows:
            return
        position = position % len(self._rows)
        self._rows[position].footer = text
        index = self.index(position, 0)  # the text is unchanged: its layout stays cached
        self.dataChanged.emit(index, index, [ROLE_FOOTER])

    def drop_partial(self) -> None:
        """Remove a still-streaming answer row: a failed turn's text is never an answer."""
        position = self._open_row("assistant")
        if position is not None:
            self.beginRemoveRows(QModelIndex(), position, position)
            self._rows.pop(position)
            self.endRemoveRows()

    def end_streaming(self) -> None:
        """Close the turn's streaming rows without a final answer (stopped or failed)."""
        for position in range(len(self._rows) - 1, -1, -1):
            row = self._rows[position]
            if row.kind == "user":
                break
            if row.streaming:
                row.streaming = False
                self._changed(position)

    def truncate(self, position: int) -> None:
        """Remove the rows from ``position`` on (regenerate, edit and resend)."""
        if 0 <= position < len(self._rows):
            self.beginRemoveRows(QModelIndex(), position, len(self._rows) - 1)
            del self._rows[position:]
            self.endRemoveRows()

    def clear(self) -> None:
        """Start a new chat."""
        self.beginResetModel()
        self._rows.clear()
        self.endResetModel()
