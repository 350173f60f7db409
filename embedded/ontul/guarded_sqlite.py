"""Read-only SQLite connections that can read only what a query was granted.

Defence in depth under the SQL rewriter: the connection is opened read-only,
and an authorizer permits only reads of the granted tables (minus denied
columns), SELECT, recursive CTEs and allow-listed functions.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

from embedded.ontul.errors import QueryRefused
from embedded.ontul.sql_rewrite import ALLOWED_FUNCTIONS

QUERY_DEADLINE_S = 5.0
"""A statement running longer than this is interrupted."""

_SQLITE_RECURSIVE = getattr(sqlite3, "SQLITE_RECURSIVE", 33)
_EXTRA_FUNCTIONS = frozenset({"like", "glob", "coalesce", "cast"})


def open_read_only(db_path: Path | str) -> sqlite3.Connection:
    """Open ``db_path`` read-only (``mode=ro`` URI)."""
    uri = f"file:{quote(str(Path(db_path).resolve()))}?mode=ro"
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
    conn.execute("PRAGMA busy_timeout = 5000")
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


def run_guarded(
    db_path: Path | str,
    sql: str,
    params: tuple[Any, ...] = (),
    *,
    tables: frozenset[str],
    denied_reads: frozenset[tuple[str, str]] = frozenset(),
    max_rows: int | None = None,
) -> tuple[list[dict[str, str]], list[list[Any]]]:
    """Execute ``sql`` on a fresh read-only connection under the authorizer.

    Args:
        db_path: The platform database.
        sql: A rewritten statement.
        params: Bound parameters.
        tables: Physical tables the statement may read.
        denied_reads: (table, column) pairs it must not read.
        max_rows: Stop after this many rows.

    Returns:
        Columns as ``{name, type}`` and rows as lists.

    Raises:
        QueryRefused: SQLite refused or failed the statement.
    """
    conn = open_read_only(db_path)

    def authorizer(action: int, arg1: str | None, arg2: str | None, *_: object) -> int:
        if action == sqlite3.SQLITE_SELECT or action == _SQLITE_RECURSIVE:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_READ:
            if arg1 in tables and (arg1, arg2) not in denied_reads:
                return sqlite3.SQLITE_OK
            return sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_FUNCTION:
            name = (arg2 or "").lower()
            if name in ALLOWED_FUNCTIONS or name in _EXTRA_FUNCTIONS:
                return sqlite3.SQLITE_OK
        return sqlite3.SQLITE_DENY

    deadline = time.monotonic() + QUERY_DEADLINE_S
    try:
        conn.set_authorizer(authorizer)
        conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
        cur = conn.execute(sql, params)
        rows = [list(r) for r in (cur.fetchall() if max_rows is None else cur.fetchmany(max_rows))]
        names = [d[0] for d in cur.description or ()]
    except sqlite3.Error as exc:
        message = str(exc)
        if "interrupted" in message:
            message = f"statement exceeded {QUERY_DEADLINE_S:.0f} s and was interrupted"
        raise QueryRefused(message) from None
    finally:
        conn.close()
    columns = [
        {"name": n, "type": _column_type([r[i] for r in rows])} for i, n in enumerate(names)
    ]
    return columns, rows
