"""The platform's audit log (table ``audit_log``): every decision and its outcome.

``decision`` is ``ALLOW`` only for a request that was granted *and* ran; a
request refused by policy or by the SQL rules is ``DENY``, one granted but then
failed (SQLite error, deadline, result too large) is ``ERROR``; both carry the
reason (column ``reason``, added to older databases on open).
"""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path


def utc_now() -> str:
    """Return the current UTC time as ISO-8601 with milliseconds."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _text(value: str) -> str:
    """``value`` with any lone surrogate replaced, so SQLite can store it."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-8", "replace").decode("utf-8")
    return value


class Writer:
    """The one writable connection: audit rows and action ledgers, serialised."""

    def __init__(self, db_path: Path) -> None:
        """Open the writable connection.

        Args:
            db_path: The platform database.
        """
        self.conn = sqlite3.connect(db_path, check_same_thread=False, isolation_level=None)
        self.conn.execute("PRAGMA busy_timeout = 5000")
        # An fsync per audited read cost ~20 ms; on a laptop demo losing the last
        # rows on power loss is acceptable, a corrupt database is not (journal kept).
        self.conn.execute("PRAGMA synchronous = OFF")
        self.lock = threading.Lock()
        columns = {r[1] for r in self.conn.execute("PRAGMA table_info(audit_log)")}
        if columns and "reason" not in columns:
            self.conn.execute("ALTER TABLE audit_log ADD COLUMN reason TEXT")

    def audit(
        self,
        user_id: str,
        action: str,
        resource: str,
        decision: str,
        query: str | None,
        reason: str | None = None,
    ) -> None:
        """Append one audit row.

        Args:
            user_id: Who asked.
            action: e.g. ``data:Select``.
            resource: What was asked for.
            decision: ``ALLOW`` (granted and ran), ``DENY`` or ``ERROR``.
            query: The statement or arguments, for the record.
            reason: Why it was denied or failed (None for ALLOW).
        """
        with self.lock:
            self.conn.execute(
                "INSERT INTO audit_log(ts, user_id, action, resource, decision, query, reason) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    utc_now(),
                    _text(user_id)[:200],
                    action,
                    _text(resource)[:400],
                    decision,
                    _text(query or "")[:4000],
                    None if reason is None else _text(reason)[:1000],
                ),
            )

    def read(self, user: str | None, action: str | None, limit: int) -> list[dict[str, Any]]:
        """Return audit rows, newest first, filtered by user and action."""
        sql = (
            "SELECT user_id, action, resource, decision, query, ts, reason FROM audit_log WHERE 1=1"
        )
        params: list[Any] = []
        if user:
            sql += " AND user_id = ?"
            params.append(user)
        if action:
            sql += " AND action = ?"
            params.append(action)
        sql += " ORDER BY id DESC LIMIT ?"
        params.append(limit)
        with self.lock:
            rows = self.conn.execute(sql, params).fetchall()
        return [
            {
                "userId": r[0],
                "action": r[1],
                "resource": r[2],
                "decision": r[3],
                "query": r[4],
                "timestamp": r[5],
                "reason": r[6],
            }
            for r in rows
        ]

    def close(self) -> None:
        """Close the connection."""
        with self.lock:
            self.conn.close()
