"""Conversation history per persona, in a local SQLite file that survives restarts.

Each turn is written in one transaction, so a crash or a full disk leaves
either the whole turn or nothing. A write that fails raises
:class:`HistoryWriteError` with a message for people; the turns saved before
stay readable and the app keeps running.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

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
"""


class HistoryWriteError(Exception):
    """The history could not be written; earlier turns are untouched."""


@dataclass(frozen=True, slots=True)
class TurnRecord:
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
        self._pool: ThreadPoolExecutor | None = None
        self._queued: list[Future[int]] = []
        self._closed = False
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            try:
                conn.execute("PRAGMA busy_timeout = 5000")
                conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
                conn.execute("PRAGMA journal_mode = WAL")
                conn.executescript(_SCHEMA)
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
        events: list[dict[str, Any]],
        started_at: float,
        elapsed_ms: float,
        status: str,
    ) -> int:
        """Save one turn in a single transaction.

        Args:
            persona: Username the turn ran as.
            question: The question.
            answer: The final answer text.
            events: The turn's events as dicts.
            started_at: Unix time the turn started.
            elapsed_ms: Wall time in milliseconds.
            status: How the turn ended.

        Returns:
            The new row id.

        Raises:
            HistoryWriteError: The turn could not be saved (read-only folder,
                disk full, ...). Nothing of it was written.
        """
        payload = json.dumps(events, ensure_ascii=False, default=str)
        with self._lock:
            conn = self._writer()
            try:
                conn.execute("BEGIN IMMEDIATE")
                cursor = conn.execute(
                    "INSERT INTO turns(persona, question, answer, events, started_at,"
                    " elapsed_ms, status) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (persona, question, answer, payload, started_at, elapsed_ms, status),
                )
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback(conn)
                raise _write_failed(self._path, exc) from exc
            row_id = cursor.lastrowid
        assert row_id is not None
        return row_id

    def submit_turn(
        self,
        persona: str,
        question: str,
        answer: str,
        events: list[dict[str, Any]],
        started_at: float,
        elapsed_ms: float,
        status: str,
        on_error: Callable[[HistoryWriteError], None] | None = None,
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
            events: The turn's events as dicts (not changed afterwards).
            started_at: Unix time the turn started.
            elapsed_ms: Wall time in milliseconds.
            status: How the turn ended.
            on_error: Called in the writer thread with the error when the turn
                could not be saved; at once, in the caller's thread, when the
                store is already closed (no writer thread is started then).

        Returns:
            The future row id.
        """

        def write() -> int:
            try:
                return self.append_turn(
                    persona, question, answer, events, started_at, elapsed_ms, status
                )
            except HistoryWriteError as exc:
                if on_error is not None:
                    on_error(exc)
                raise

        with self._lock:
            if not self._closed:
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(1, thread_name_prefix="regdesk-history")
                future = self._pool.submit(write)
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

    def turns(self, persona: str, limit: int = 200) -> list[TurnRecord]:
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
                    "SELECT id, persona, question, answer, events, started_at, elapsed_ms,"
                    " status FROM turns WHERE persona = ? ORDER BY id DESC LIMIT ?",
                    (persona, limit),
                ).fetchall()
            except sqlite3.Error:
                return []
        return [
            TurnRecord(
                id=row[0],
                persona=row[1],
                question=row[2],
                answer=row[3],
                events=json.loads(row[4]),
                started_at=row[5],
                elapsed_ms=row[6],
                status=row[7],
            )
            for row in reversed(rows)
        ]

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
            pool, self._pool = self._pool, None
            self._queued = []
        # outside the lock: the writer thread takes it for every queued turn
        if pool is not None:
            pool.shutdown(wait=True)
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
