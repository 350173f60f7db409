"""Read-only SQLite connections that can read only what a query was granted.

Defence in depth under the SQL rewriter: the connection is opened read-only,
and an authorizer permits only reads of the granted tables (minus denied
columns), SELECT, recursive CTEs and allow-listed functions.

Connections are pooled per database (opening one costs more than a small
query). Each pooled connection has one authorizer installed for its lifetime;
it reads the *current* grant from the connection's slot. SQLite authorises a
statement when it is prepared, and Python caches prepared statements per
connection, so a cached statement could otherwise run under a later, narrower
grant: the pool remembers the grant each statement text was prepared under and,
when the same text arrives with another grant, re-installs the authorizer,
which expires every prepared statement and forces a fresh, re-authorised
prepare.

Every statement is bounded:

- time: a CPU deadline (the executing thread's CPU time, so a loaded machine
  does not cut a statement short) checked by SQLite's progress handler between
  VM steps, and a watchdog thread that calls ``Connection.interrupt()`` on a
  statement still running at twice that in wall-clock time (the backstop for a
  statement stuck in one long step or waiting);
- single function calls: pooled connections cap every string or blob at
  :data:`CALLER_VALUE_BYTES`, so the quadratic built-ins (``instr``,
  ``replace``) finish in milliseconds (4 MiB operands took 20-78 s in one
  call, where no progress handler runs), ``printf``/``group_concat``/
  ``replace``/``substr`` cannot build more, and LIKE/GLOB patterns are capped
  at :data:`MAX_LIKE_PATTERN`; ``trim``'s character set is limited by
  ``sql_validation``;
- memory and response size: rows are fetched in batches and their JSON size
  counted; past ``max_bytes`` the statement stops with a clear error, and a
  ``MemoryError`` becomes one too (it never escapes to the HTTP layer). SQLite's
  own memory is bounded by the page cache (:data:`CACHE_KIB`; sorts and
  materialized CTEs spill to temporary files) and the value cap.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from embedded.ontul.errors import QueryRefused
from embedded.ontul.sql_validation import ALLOWED_FUNCTIONS

QUERY_DEADLINE_S = 5.0
"""A statement using more CPU seconds than this is interrupted (default; servers may set less).

The watchdog interrupts one still running after ``2 * deadline + 1`` wall-clock seconds."""
MAX_VALUE_BYTES = 4 * 1024 * 1024
"""Largest string or blob the platform's own read-only connections handle."""
CALLER_VALUE_BYTES = 64 * 1024
"""Largest string or blob a statement on a pooled (guarded) connection may build.

Bounds one function call: ``instr``/``replace`` worst cases take ~30 ms at
this size (0.3 s at 256 KiB, 20+ s at 4 MiB on the same machine)."""
MAX_LIKE_PATTERN = 1000
"""Longest LIKE/GLOB pattern (SQLite's default is 50,000)."""
MAX_RESULT_BYTES = 8 * 1024 * 1024
"""Default cap on the JSON size of a result's rows (``run_guarded(max_bytes=...)``)."""
MAX_EXPR_DEPTH = 400
"""SQLite's expression-depth limit for caller statements (default 1000)."""
MAX_COLUMNS = 100
"""Most columns a result (or any SELECT inside it) may have; the widest relation has 20."""
FETCH_BATCH = 16
"""Rows fetched at a time, each measured before the next is kept."""
POOL_IDLE_MAX = 8
"""Idle connections kept per database."""
_STATEMENT_CACHE = 256

_SQLITE_RECURSIVE = getattr(sqlite3, "SQLITE_RECURSIVE", 33)
_EXTRA_FUNCTIONS = frozenset({"like", "glob", "coalesce", "cast"})
_NO_TABLES: frozenset[str] = frozenset()
_NO_COLUMNS: frozenset[tuple[str, str]] = frozenset()


CACHE_KIB = 256
"""Page cache per connection (KiB). SQLite's default (2 MB) fills as the audit
tables grow, in every pooled connection; reads here touch few pages."""


def open_read_only(
    db_path: Path | str, max_value_bytes: int = MAX_VALUE_BYTES
) -> sqlite3.Connection:
    """Open ``db_path`` read-only (``mode=ro`` URI), values capped at ``max_value_bytes``."""
    uri = f"file:{quote(str(Path(db_path).resolve()))}?mode=ro"
    conn = sqlite3.connect(
        uri, uri=True, check_same_thread=False, cached_statements=_STATEMENT_CACHE
    )
    conn.execute("PRAGMA busy_timeout = 5000")
    conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, max_value_bytes)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH, MAX_LIKE_PATTERN)
    conn.setlimit(sqlite3.SQLITE_LIMIT_EXPR_DEPTH, MAX_EXPR_DEPTH)
    conn.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
    # A row is materialised whole before it can be measured: bound its width too,
    # or 2,000 columns of capped strings make one row gigabytes.
    conn.setlimit(sqlite3.SQLITE_LIMIT_COLUMN, MAX_COLUMNS)
    return conn


def _column_type(values: list[Any]) -> str:
    for v in values:
        if v is None:
            continue
        if isinstance(v, bool | int):
            return "INTEGER"
        if isinstance(v, float):
            return "REAL"
        if isinstance(v, bytes):
            return "BLOB"
        return "TEXT"
    return "TEXT"


@dataclass
class _Guarded:
    """A pooled read-only connection and the grant its authorizer enforces now."""

    conn: sqlite3.Connection
    tables: frozenset[str] = _NO_TABLES
    denied: frozenset[tuple[str, str]] = _NO_COLUMNS
    deadline: float = 0.0
    cpu_deadline: float = 0.0
    prepared_under: dict[str, tuple[frozenset[str], frozenset[tuple[str, str]]]] = field(
        default_factory=dict
    )

    def authorizer(
        self, action: int, arg1: str | None, arg2: str | None, db: str | None, *_: object
    ) -> int:
        if action == sqlite3.SQLITE_SELECT or action == _SQLITE_RECURSIVE:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_READ:
            if db is None:
                # A materialized CTE or subquery (no database): its rows come
                # from table reads this authorizer already approved.
                return sqlite3.SQLITE_OK
            if arg1 in self.tables and (arg1, arg2) not in self.denied:
                return sqlite3.SQLITE_OK
            return sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_FUNCTION:
            name = (arg2 or "").lower()
            if name in ALLOWED_FUNCTIONS or name in _EXTRA_FUNCTIONS:
                return sqlite3.SQLITE_OK
        return sqlite3.SQLITE_DENY

    def install(self) -> None:
        """(Re-)install the authorizer; SQLite expires every prepared statement."""
        self.conn.set_authorizer(self.authorizer)
        self.prepared_under.clear()

    def grant(
        self,
        sql: str,
        tables: frozenset[str],
        denied: frozenset[tuple[str, str]],
        deadline_s: float = QUERY_DEADLINE_S,
    ) -> None:
        """Make ``tables`` minus ``denied`` the grant for running ``sql`` within ``deadline_s``."""
        grant = (tables, denied)
        before = self.prepared_under.get(sql)
        if (before is not None and before != grant) or len(self.prepared_under) >= _STATEMENT_CACHE:
            self.install()
        self.prepared_under[sql] = grant
        self.tables, self.denied = tables, denied
        self.cpu_deadline = time.thread_time() + deadline_s
        self.deadline = time.monotonic() + 2 * deadline_s + 1

    def revoke(self) -> None:
        """Leave the connection able to read nothing until the next grant."""
        self.tables, self.denied = _NO_TABLES, _NO_COLUMNS


class _Pool:
    """Idle guarded connections to one database, shared by every request thread."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self._idle: list[_Guarded] = []
        self._lock = threading.Lock()

    def acquire(self) -> _Guarded:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        guarded = _Guarded(open_read_only(self.db_path, CALLER_VALUE_BYTES))
        guarded.install()
        guarded.conn.set_progress_handler(
            lambda: int(
                time.thread_time() > guarded.cpu_deadline or time.monotonic() > guarded.deadline
            ),
            10_000,
        )
        return guarded

    def release(self, guarded: _Guarded) -> None:
        guarded.revoke()
        with self._lock:
            if len(self._idle) < POOL_IDLE_MAX:
                self._idle.append(guarded)
                return
        guarded.conn.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for guarded in idle:
            guarded.conn.close()


class _Watchdog:
    """One daemon thread that interrupts statements running past their deadline.

    The progress handler already stops a statement between VM steps; the
    watchdog also reaches one stuck in a long step (a big sort, a slow
    function) and is the backstop should a progress handler be missing.
    ``interrupt()`` on a connection with no running statement is a no-op, and
    a statement is unregistered (under the lock) before its connection is
    reused, so an interrupt never hits the next request.
    """

    def __init__(self, idle_check_s: float = QUERY_DEADLINE_S) -> None:
        self._running: dict[int, tuple[float, sqlite3.Connection]] = {}
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        # When the loop will next look, and how long it sleeps with nothing to
        # watch. A statement due after that wake-up needs no notify: waking the
        # thread for every statement cost a context switch per query.
        self._wake_at = 0.0
        self._idle_check_s = idle_check_s
        self.interrupts = 0

    def watch(self, conn: sqlite3.Connection, deadline: float) -> int:
        """Register a statement about to run on ``conn``; returns its ticket."""
        with self._cond:
            ticket = id(conn) ^ int(deadline * 1e6)
            while ticket in self._running:
                ticket += 1
            self._running[ticket] = (deadline, conn)
            if self._thread is None or not self._thread.is_alive():
                self._wake_at = 0.0
                self._thread = threading.Thread(
                    target=self._loop, name="ontul-sql-watchdog", daemon=True
                )
                self._thread.start()
            elif deadline < self._wake_at:
                self._cond.notify()
            return ticket

    def done(self, ticket: int) -> None:
        """Forget a finished statement."""
        with self._cond:
            self._running.pop(ticket, None)

    def _loop(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                for ticket, (deadline, conn) in list(self._running.items()):
                    if deadline <= now:
                        del self._running[ticket]
                        conn.interrupt()
                        self.interrupts += 1
                nearest = min((d for d, _ in self._running.values()), default=None)
                if nearest is None:
                    nearest = now + self._idle_check_s
                self._wake_at = nearest
                self._cond.wait(timeout=max(nearest - now, 0.01))


_watchdog = _Watchdog()


_pools: dict[Path, _Pool] = {}
_pools_lock = threading.Lock()


_pool_by_name: dict[Path | str, _Pool] = {}


def _pool(db_path: Path | str) -> _Pool:
    pool = _pool_by_name.get(db_path)  # resolving a path costs several syscalls
    if pool is not None:
        return pool
    path = Path(db_path).resolve()
    with _pools_lock:
        pool = _pools.get(path)
        if pool is None:
            pool = _pools[path] = _Pool(path)
        _pool_by_name[db_path] = pool
        return pool


def close_pool(db_path: Path | str) -> None:
    """Close the idle pooled connections to ``db_path`` (a server calls this on stop)."""
    with _pools_lock:
        pool = _pools.pop(Path(db_path).resolve(), None)
        for name in [n for n, p in _pool_by_name.items() if p is pool]:
            del _pool_by_name[name]
    if pool is not None:
        pool.close()


def _json_size(value: object) -> int:
    """Upper estimate of ``value``'s size in a JSON response."""
    if isinstance(value, str):
        return len(value.encode("utf-8", "surrogatepass")) * 2 + 3
    if isinstance(value, bytes):
        return len(value) * 4 + 3
    return 24


def run_guarded(
    db_path: Path | str,
    sql: str,
    params: tuple[Any, ...] = (),
    *,
    tables: frozenset[str],
    denied_reads: frozenset[tuple[str, str]] = frozenset(),
    max_rows: int | None = None,
    deadline_s: float = QUERY_DEADLINE_S,
    max_bytes: int = MAX_RESULT_BYTES,
) -> tuple[list[dict[str, str]], list[list[Any]]]:
    """Execute ``sql`` on a pooled read-only connection under the authorizer.

    Args:
        db_path: The platform database.
        sql: A rewritten statement.
        params: Bound parameters.
        tables: Physical tables the statement may read.
        denied_reads: (table, column) pairs it must not read.
        max_rows: Stop after this many rows.
        deadline_s: Interrupt the statement after this many seconds.
        max_bytes: Refuse a result whose rows take more JSON than this.

    Returns:
        Columns as ``{name, type}`` and rows as lists.

    Raises:
        QueryRefused: SQLite refused or failed the statement, it ran past its
            deadline, or its result or memory use is too large.
    """
    pool = _pool(db_path)
    guarded = pool.acquire()
    broken = False
    ticket: int | None = None
    try:
        guarded.grant(sql, tables, denied_reads, deadline_s)
        ticket = _watchdog.watch(guarded.conn, guarded.deadline)
        cur = guarded.conn.execute(sql, params)
        try:
            rows: list[list[Any]] = []
            size = 0
            limit = max_rows if max_rows is not None else -1
            while limit < 0 or len(rows) < limit:
                want = FETCH_BATCH if limit < 0 else min(FETCH_BATCH, limit - len(rows))
                batch = cur.fetchmany(want)
                if not batch:
                    break
                for r in batch:
                    size += sum(_json_size(v) for v in r) + 2
                    if size > max_bytes:
                        raise QueryRefused(
                            f"result is larger than {max_bytes // 1024:,} KiB; "
                            "add a LIMIT or select fewer or shorter columns"
                        )
                    rows.append(list(r))
            names = [d[0] for d in cur.description or ()]
        finally:
            cur.close()  # a half-read statement would pin a read snapshot
    except sqlite3.Error as exc:
        message = str(exc)
        if "interrupted" in message:
            message = f"statement exceeded {deadline_s:g} s of CPU time and was interrupted"
        elif "out of memory" in message:
            message = "statement needs more memory than a request may use"
        raise QueryRefused(message) from None
    except MemoryError:
        raise QueryRefused("statement needs more memory than a request may use") from None
    except QueryRefused:
        raise
    except BaseException:
        broken = True
        raise
    finally:
        if ticket is not None:
            _watchdog.done(ticket)
        if broken:
            guarded.conn.close()
        else:
            pool.release(guarded)
    columns = [{"name": n, "type": _column_type([r[i] for r in rows])} for i, n in enumerate(names)]
    return columns, rows
