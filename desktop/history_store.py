"""Conversation history per persona, in a local SQLite file that survives restarts.

A persona has conversations (a title from the first question, a date; renamed
and deleted by people); a conversation has turns. Each turn is written in one
transaction, so a crash or a full disk leaves either the whole turn or nothing.
A write that fails raises :class:`HistoryWriteError` with a message for people;
the turns saved before stay readable and the app keeps running. Questions and
answers are indexed with SQLite FTS5 (trigram tokenizer, so a Korean word is
found inside 육아휴직은 as well) for search across conversations.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

from agent_core.events import event_to_dict
from desktop.tasks import TaskLane, run_in_background

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path
    from typing import TypeAlias

    from agent_core.events import AgentEvent
    from desktop.tasks import Job

    StoredEvent: TypeAlias = dict[str, Any] | AgentEvent
    """An event as history stores it (``event_to_dict``), or the event itself."""

CACHE_KIB = 256
"""SQLite page cache per connection (KiB). The default (2 MB) only grows with
the table while the app mostly appends; reads are a persona's latest turns."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    persona TEXT NOT NULL,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    events TEXT NOT NULL,          -- JSON list of event dicts (agent_core.events.event_to_dict)
    started_at REAL NOT NULL,      -- Unix time
    elapsed_ms REAL NOT NULL,
    status TEXT NOT NULL           -- answered | failed | cancelled | ...
);
CREATE INDEX IF NOT EXISTS turns_by_persona ON turns(persona, id);
CREATE TABLE IF NOT EXISTS conversations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    persona TEXT NOT NULL,
    title TEXT NOT NULL,
    created_at REAL NOT NULL,      -- Unix time of the first turn
    updated_at REAL NOT NULL       -- Unix time of the latest turn (or rename)
);
CREATE INDEX IF NOT EXISTS conversations_by_persona ON conversations(persona, updated_at);
"""

_FTS_SCHEMA = """
CREATE VIRTUAL TABLE IF NOT EXISTS turns_fts USING fts5(
    question, answer, content='turns', content_rowid='id', tokenize='trigram'
);
CREATE TRIGGER IF NOT EXISTS turns_fts_insert AFTER INSERT ON turns BEGIN
    INSERT INTO turns_fts(rowid, question, answer) VALUES (new.id, new.question, new.answer);
END;
CREATE TRIGGER IF NOT EXISTS turns_fts_delete AFTER DELETE ON turns BEGIN
    INSERT INTO turns_fts(turns_fts, rowid, question, answer)
        VALUES ('delete', old.id, old.question, old.answer);
END;
"""

TITLE_CHARS = 60
"""A conversation's title is its first question, cut to this many characters."""

_TURN_COLUMNS = (
    "id, persona, question, answer, events, started_at, elapsed_ms, status, conversation_id"
)


class HistoryWriteError(Exception):
    """The history could not be written; earlier turns are untouched."""


@dataclass(frozen=True, slots=True)
class SavedTurn:
    """One saved turn."""

    id: int
    """Row id, increasing in the order turns were saved."""
    persona: str
    """Username the turn ran as."""
    question: str
    """The question as asked."""
    answer: str
    """The final answer text (empty when the turn failed or was cancelled)."""
    events: list[dict[str, Any]]
    """Every event of the turn as plain dicts, in order."""
    started_at: float
    """Unix time the turn started."""
    elapsed_ms: float
    """Wall time of the turn in milliseconds."""
    status: str
    """How the turn ended, e.g. ``answered``, ``failed``, ``cancelled``."""
    conversation_id: int | None = None
    """The conversation the turn belongs to."""


@dataclass(frozen=True, slots=True)
class Conversation:
    """One conversation of a persona, for the sidebar."""

    id: int
    """Row id."""
    persona: str
    """Username."""
    title: str
    """The first question (or what a person renamed it to)."""
    created_at: float
    """Unix time of its first turn."""
    updated_at: float
    """Unix time of its latest turn."""
    turn_count: int
    """How many turns it has."""


@dataclass(frozen=True, slots=True)
class SearchHit:
    """A turn whose question or answer matches a search."""

    conversation_id: int
    """Where it is."""
    turn_id: int
    """Which turn."""
    title: str
    """The conversation's title."""
    question: str
    """The turn's question."""
    snippet: str
    """The matching text with a little context."""


def conversation_title(question: str) -> str:
    """A conversation's title from its first question: one line, at most ``TITLE_CHARS``."""
    line = " ".join(question.split())
    return line if len(line) <= TITLE_CHARS else line[: TITLE_CHARS - 1] + "…"


def _record(row: tuple[Any, ...]) -> SavedTurn:
    return SavedTurn(
        id=row[0],
        persona=row[1],
        question=row[2],
        answer=row[3],
        events=json.loads(row[4]),
        started_at=row[5],
        elapsed_ms=row[6],
        status=row[7],
        conversation_id=row[8],
    )


def _migrate(conn: sqlite3.Connection) -> bool:
    """Bring an older file up to date: turns get a conversation; FTS5 when SQLite has it.

    Turns saved before conversations existed become one conversation per persona.

    Returns:
        True when full-text search is available.
    """
    columns = {row[1] for row in conn.execute("PRAGMA table_info(turns)")}
    conn.execute("BEGIN IMMEDIATE")
    try:
        if "conversation_id" not in columns:
            conn.execute("ALTER TABLE turns ADD COLUMN conversation_id INTEGER")
        conn.execute(
            "CREATE INDEX IF NOT EXISTS turns_by_conversation ON turns(conversation_id, id)"
        )
        orphans = conn.execute(
            "SELECT persona, min(id), min(started_at), max(started_at) FROM turns"
            " WHERE conversation_id IS NULL GROUP BY persona"
        ).fetchall()
        for persona, first_id, created, updated in orphans:
            (question,) = conn.execute(
                "SELECT question FROM turns WHERE id = ?", (first_id,)
            ).fetchone()
            cursor = conn.execute(
                "INSERT INTO conversations(persona, title, created_at, updated_at)"
                " VALUES (?, ?, ?, ?)",
                (persona, conversation_title(question), created, updated),
            )
            conn.execute(
                "UPDATE turns SET conversation_id = ?"
                " WHERE persona = ? AND conversation_id IS NULL",
                (cursor.lastrowid, persona),
            )
        conn.execute("COMMIT")
    except sqlite3.Error:
        HistoryStore._rollback(conn)
        raise
    try:
        fresh = not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'turns_fts'").fetchone()
        conn.executescript(_FTS_SCHEMA)
        if fresh:
            conn.execute("INSERT INTO turns_fts(turns_fts) VALUES ('rebuild')")
    except sqlite3.Error:
        return False  # an SQLite without FTS5 (or trigram): search falls back to LIKE
    return True


def _write_failed(path: Path, exc: BaseException) -> HistoryWriteError:
    message = QCoreApplication.translate(
        "HistoryStore",
        "Could not save the conversation history to {path}: {reason}. "
        "RegDesk keeps working, and earlier conversations are safe, but this one "
        "will not be there after a restart.",
    ).format(path=str(path), reason=str(exc))
    return HistoryWriteError(message)


class HistoryStore:
    """Saves and lists turns per persona in SQLite (WAL mode).

    One connection is shared by all threads behind a lock, so workers of
    several personas can save turns at the same time.

    Args:
        path: The database file; its folder is created when missing. When the
            file cannot be opened for writing, the store opens it read-only (if
            it exists) and every write raises :class:`HistoryWriteError`.
    """

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._open_error: BaseException | None = None
        self._conn: sqlite3.Connection | None = None
        # one thread, in submission order; not a daemon, so the interpreter
        # finishes a queued turn before it exits
        self._writes = TaskLane("regdesk-history", daemon=False)
        self._queued: list[Future[int]] = []
        self._closed = False
        self._fts = False
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            try:
                conn.execute("PRAGMA busy_timeout = 5000")
                conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
                conn.execute("PRAGMA journal_mode = WAL")
                conn.executescript(_SCHEMA)
                self._fts = _migrate(conn)
            except sqlite3.Error:
                conn.close()
                raise
            self._conn = conn
        except (OSError, sqlite3.Error) as exc:
            self._open_error = exc
            self._conn = self._open_read_only()

    @property
    def path(self) -> Path:
        """The database file."""
        return self._path

    @property
    def writable(self) -> bool:
        """False when the file could not be opened for writing."""
        return self._open_error is None

    def append_turn(
        self,
        persona: str,
        question: str,
        answer: str,
        events: Sequence[StoredEvent],
        started_at: float,
        elapsed_ms: float,
        status: str,
        *,
        conversation_id: int | None = None,
    ) -> int:
        """Save one turn in a single transaction.

        Args:
            persona: Username the turn ran as.
            question: The question.
            answer: The final answer text.
            events: The turn's events, as dicts or as the events themselves.
            started_at: Unix time the turn started.
            elapsed_ms: Wall time in milliseconds.
            status: How the turn ended.
            conversation_id: The conversation it continues; None starts a new one
                titled after the question (in the same transaction).

        Returns:
            The new row id.

        Raises:
            HistoryWriteError: The turn could not be saved (read-only folder,
                disk full, ...). Nothing of it was written.
        """
        return self._append(
            persona, question, answer, events, started_at, elapsed_ms, status, conversation_id
        )[0]

    def _append(
        self,
        persona: str,
        question: str,
        answer: str,
        events: Sequence[StoredEvent],
        started_at: float,
        elapsed_ms: float,
        status: str,
        conversation_id: int | None,
    ) -> tuple[int, int]:
        encoded = [e if isinstance(e, dict) else event_to_dict(e) for e in events]
        payload = json.dumps(encoded, ensure_ascii=False, default=str)
        with self._lock:
            conn = self._writer()
            try:
                conn.execute("BEGIN IMMEDIATE")
                known = (
                    conversation_id is not None
                    and conn.execute(
                        "SELECT 1 FROM conversations WHERE id = ? AND persona = ?",
                        (conversation_id, persona),
                    ).fetchone()
                )
                if not known:  # new, or deleted meanwhile: the turn starts a conversation
                    conversation_id = conn.execute(
                        "INSERT INTO conversations(persona, title, created_at, updated_at)"
                        " VALUES (?, ?, ?, ?)",
                        (persona, conversation_title(question), started_at, started_at),
                    ).lastrowid
                else:
                    conn.execute(
                        "UPDATE conversations SET updated_at = max(updated_at, ?) WHERE id = ?",
                        (started_at, conversation_id),
                    )
                cursor = conn.execute(
                    "INSERT INTO turns(persona, question, answer, events, started_at,"
                    " elapsed_ms, status, conversation_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        persona,
                        question,
                        answer,
                        payload,
                        started_at,
                        elapsed_ms,
                        status,
                        conversation_id,
                    ),
                )
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback(conn)
                raise _write_failed(self._path, exc) from exc
            row_id = cursor.lastrowid
        assert row_id is not None and conversation_id is not None
        return row_id, conversation_id

    def submit_turn(
        self,
        persona: str,
        question: str,
        answer: str,
        events: Sequence[StoredEvent],
        started_at: float,
        elapsed_ms: float,
        status: str,
        on_error: Callable[[HistoryWriteError], None] | None = None,
        *,
        conversation_id: int | None = None,
        on_written: Callable[[int, int], None] | None = None,
    ) -> Future[int]:
        """Save one turn in the background (one writer thread, in submission order).

        The GUI thread hands the JSON encoding and the commit to the writer, so a
        finished turn costs it nothing; reading (``turns``), ``clear`` and
        ``close`` first wait for every submitted turn. After ``close`` nothing is
        written: the returned future holds a :class:`HistoryWriteError`.

        Args:
            persona: Username the turn ran as.
            question: The question.
            answer: The final answer text.
            events: The turn's events, as dicts or as the events themselves
                (not changed afterwards); the writer encodes them.
            started_at: Unix time the turn started.
            elapsed_ms: Wall time in milliseconds.
            status: How the turn ended.
            on_error: Called in the writer thread with the error when the turn
                could not be saved; at once, in the caller's thread, when the
                store is already closed (no writer thread is started then).
            conversation_id: The conversation the turn continues (None: a new one).
            on_written: Called in the writer thread with (turn id, conversation id)
                once the turn is committed, before the future completes.

        Returns:
            The future row id.
        """

        def write(_: Job) -> int:
            try:
                turn_id = self.append_turn(
                    persona,
                    question,
                    answer,
                    events,
                    started_at,
                    elapsed_ms,
                    status,
                    conversation_id=conversation_id,
                )
            except HistoryWriteError as exc:
                if on_error is not None:
                    on_error(exc)
                raise
            if on_written is not None:
                on_written(turn_id, self._conversation_of(turn_id))
            return turn_id

        with self._lock:
            if not self._closed:
                future = run_in_background(write, name="regdesk-history", lane=self._writes).future
                self._queued = [f for f in self._queued if not f.done()]
                self._queued.append(future)
                return future
        # closed: report it like any failed write, and start no new writer thread
        error = _write_failed(self._path, RuntimeError("history is closed"))
        failed: Future[int] = Future()
        failed.set_exception(error)
        if on_error is not None:
            on_error(error)
        return failed

    def wait_written(self) -> None:
        """Block until every turn given to ``submit_turn`` was written (or failed)."""
        with self._lock:
            queued, self._queued = self._queued, []
        for future in queued:
            future.exception()  # waits; errors went to on_error

    def turns(self, persona: str, limit: int = 200) -> list[SavedTurn]:
        """Return the latest turns of a persona, oldest first.

        Args:
            persona: Username.
            limit: At most this many of the most recent turns.

        Returns:
            Saved turns in the order they happened; empty when none (or when the
            file cannot be read at all).
        """
        self.wait_written()
        with self._lock:
            if self._conn is None:
                return []
            try:
                rows = self._conn.execute(
                    f"SELECT {_TURN_COLUMNS} FROM turns WHERE persona = ? ORDER BY id DESC LIMIT ?",
                    (persona, limit),
                ).fetchall()
            except sqlite3.Error:
                return []
        return [_record(row) for row in reversed(rows)]

    def _conversation_of(self, turn_id: int) -> int:
        with self._lock:
            row = (
                self._conn.execute(
                    "SELECT conversation_id FROM turns WHERE id = ?", (turn_id,)
                ).fetchone()
                if self._conn is not None
                else None
            )
        return int(row[0]) if row and row[0] is not None else 0

    def conversations(self, persona: str, limit: int = 500) -> list[Conversation]:
        """A persona's conversations, the most recently used first.

        Args:
            persona: Username.
            limit: At most this many.

        Returns:
            The conversations (empty when none or unreadable).
        """
        self.wait_written()
        with self._lock:
            if self._conn is None:
                return []
            try:
                rows = self._conn.execute(
                    "SELECT c.id, c.persona, c.title, c.created_at, c.updated_at,"
                    " (SELECT count(*) FROM turns t WHERE t.conversation_id = c.id)"
                    " FROM conversations c WHERE c.persona = ?"
                    " ORDER BY c.updated_at DESC, c.id DESC LIMIT ?",
                    (persona, limit),
                ).fetchall()
            except sqlite3.Error:
                return []
        return [Conversation(*row) for row in rows]

    def conversation_turns(self, conversation_id: int) -> list[SavedTurn]:
        """The turns of one conversation, oldest first."""
        self.wait_written()
        with self._lock:
            if self._conn is None:
                return []
            try:
                rows = self._conn.execute(
                    f"SELECT {_TURN_COLUMNS} FROM turns WHERE conversation_id = ? ORDER BY id",
                    (conversation_id,),
                ).fetchall()
            except sqlite3.Error:
                return []
        return [_record(row) for row in rows]

    def search(self, persona: str, text: str, limit: int = 50) -> list[SearchHit]:
        """Turns of a persona whose question or answer contains ``text``.

        FTS5 (trigram) answers queries of three characters or more; shorter ones
        (a two-syllable Korean word) and an SQLite without FTS5 use ``LIKE``.

        Args:
            persona: Username (search never crosses personas).
            text: What to look for (plain text, not a query language).
            limit: Most hits.

        Returns:
            Hits, the newest turn first.
        """
        text = " ".join(text.split())
        if not text:
            return []
        self.wait_written()
        like = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        with self._lock:
            if self._conn is None:
                return []
            try:
                if self._fts and len(text) >= 3:
                    phrase = '"' + text.replace('"', '""') + '"'
                    rows = self._conn.execute(
                        "SELECT t.conversation_id, t.id, c.title, t.question,"
                        " snippet(turns_fts, -1, '', '', '…', 12)"
                        " FROM turns_fts JOIN turns t ON t.id = turns_fts.rowid"
                        " JOIN conversations c ON c.id = t.conversation_id"
                        " WHERE turns_fts MATCH ? AND t.persona = ? ORDER BY t.id DESC LIMIT ?",
                        (phrase, persona, limit),
                    ).fetchall()
                else:
                    rows = self._conn.execute(
                        "SELECT t.conversation_id, t.id, c.title, t.question,"
                        " CASE WHEN t.question LIKE ?1 ESCAPE '\\' THEN t.question"
                        " ELSE t.answer END"
                        " FROM turns t JOIN conversations c ON c.id = t.conversation_id"
                        " WHERE t.persona = ?2 AND (t.question LIKE ?1 ESCAPE '\\'"
                        " OR t.answer LIKE ?1 ESCAPE '\\') ORDER BY t.id DESC LIMIT ?3",
                        (like, persona, limit),
                    ).fetchall()
            except sqlite3.Error:
                return []
        return [SearchHit(*row) for row in rows]

    def rename_conversation(self, conversation_id: int, title: str) -> None:
        """Give a conversation another title.

        Raises:
            HistoryWriteError: It could not be written.
        """
        title = conversation_title(title)
        if title:
            self._write("UPDATE conversations SET title = ? WHERE id = ?", (title, conversation_id))

    def delete_conversation(self, conversation_id: int) -> None:
        """Delete a conversation and its turns.

        Raises:
            HistoryWriteError: It could not be written.
        """
        self._write(
            "DELETE FROM turns WHERE conversation_id = ?",
            (conversation_id,),
            "DELETE FROM conversations WHERE id = ?",
        )

    def delete_turns(self, turn_ids: list[int]) -> None:
        """Delete turns (regenerated or edited away).

        Raises:
            HistoryWriteError: It could not be written.
        """
        for turn_id in turn_ids:
            self._write("DELETE FROM turns WHERE id = ?", (turn_id,))

    def _write(self, statement: str, args: tuple[Any, ...], *more: str) -> None:
        """Run statements with the same arguments in one transaction, after queued turns."""
        self.wait_written()
        with self._lock:
            conn = self._writer()
            try:
                conn.execute("BEGIN IMMEDIATE")
                for sql in (statement, *more):
                    conn.execute(sql, args)
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback(conn)
                raise _write_failed(self._path, exc) from exc

    def clear(self, persona: str) -> None:
        """Delete every saved turn of a persona.

        Args:
            persona: Username.

        Raises:
            HistoryWriteError: The deletion could not be written.
        """
        self.wait_written()
        with self._lock:
            conn = self._writer()
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("DELETE FROM turns WHERE persona = ?", (persona,))
                conn.execute("DELETE FROM conversations WHERE persona = ?", (persona,))
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback(conn)
                raise _write_failed(self._path, exc) from exc

    def close(self) -> None:
        """Close the database (checkpointing the WAL into the main file).

        Turns submitted before are written first; ``submit_turn`` afterwards
        reports a :class:`HistoryWriteError`. Closing twice is harmless.
        """
        with self._lock:
            self._closed = True
            self._queued = []
        # outside the lock: the writer thread takes it for every queued turn
        self._writes.join()
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _writer(self) -> sqlite3.Connection:
        if self._open_error is not None:
            raise _write_failed(self._path, self._open_error)
        if self._conn is None:
            raise _write_failed(self._path, RuntimeError("the history store is closed"))
        return self._conn

    def _open_read_only(self) -> sqlite3.Connection | None:
        if not self._path.exists():
            return None
        try:
            uri = f"{self._path.resolve().as_uri()}?mode=ro"
            return sqlite3.connect(uri, uri=True, check_same_thread=False)
        except sqlite3.Error:
            return None

    @staticmethod
    def _rollback(conn: sqlite3.Connection) -> None:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # no transaction was open: nothing to undo
