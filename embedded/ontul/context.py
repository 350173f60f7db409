"""What every request handler needs: database, policies, date, index, writer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from embedded.ontul.errors import PolicyDenied

if TYPE_CHECKING:
    from datetime import date
    from pathlib import Path

    from embedded.ontul.audit import Writer
    from embedded.ontul.policy import Decision, PolicyEngine, UserRecord
    from embedded.ontul.search import SearchIndex
    from embedded.ontul.sql_rewrite import SqlRewriter


@dataclass
class PlatformContext:
    """Shared, thread-safe state of one running platform."""

    db_path: Path
    engine: PolicyEngine
    today: date
    index: SearchIndex
    writer: Writer
    rewriter: SqlRewriter

    def require(self, user: UserRecord, action: str, resource: str, query: str) -> Decision:
        """Return the allowed decision, auditing ALLOW or DENY.

        Raises:
            PolicyDenied: Nothing grants ``action`` on ``resource``.
        """
        decision = self.engine.decide(user, action, resource)
        self.writer.audit(
            user.user_id, action, resource, "ALLOW" if decision.allowed else "DENY", query
        )
        if not decision.allowed:
            raise PolicyDenied(action, resource)
        return decision
