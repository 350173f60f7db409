"""The platform's audit log (table ``audit_log``): every decision, ALLOW or DENY."""

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

    def audit(
        self, user_id: str, action: str, resource: str, decision: str, query: str | None
    ) -> None:
        """Append one audit row.

        Args:
            user_id: Who asked.
            action: e.g. ``data:Select``.
            resource: What was asked for.
            decision: ``ALLOW`` or ``DENY``.
            query: The statement or arguments, for the record.
        """
        with self.lock:
            self.conn.execute(
                "INSERT INTO audit_log(ts, user_id, action, resource, decision, query) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (utc_now(), user_id, action, resource, decision, (query or "")[:4000]),
            )

    def read(self, user: str | None, action: str | None, limit: int) -> list[dict[str, Any]]:
        """Return audit rows, newest first, filtered by user and action."""
        sql = "SELECT user_id, action, resource, decision, query, ts FROM audit_log WHERE 1=1"
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
            }
            for r in rows
        ]

    def close(self) -> None:
        """Close the connection."""
        with self.lock:
            self.conn.close()
