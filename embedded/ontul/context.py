"""What every request handler needs: database, policies, date, index, writer."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from embedded.ontul.errors import PolicyDenied

if TYPE_CHECKING:
    from datetime import date
    from pathlib import Path

    from embedded.ontul.audit import Writer
    from embedded.ontul.policy import Decision, PolicyEngine, UserRecord
    from embedded.ontul.search import SearchIndex
    from embedded.ontul.sql_rewrite import SqlRewriter


QUIRK_MODES = ("", "real")


def quirks_mode(value: str) -> str:
    """Validate ``ONTUL_QUIRKS``: unset/empty (faithful contract only) or ``real``.

    Raises:
        ValueError: An unknown mode (a typo must not silently test the wrong thing).
    """
    mode = value.strip().lower()
    if mode not in QUIRK_MODES:
        raise ValueError(f"ONTUL_QUIRKS must be unset or 'real', not {value!r}")
    return mode


@dataclass
class PlatformContext:
    """Shared, thread-safe state of one running platform."""

    db_path: Path
    engine: PolicyEngine
    today: date
    index: SearchIndex
    writer: Writer
    rewriter: SqlRewriter
    quirks: str = field(default_factory=lambda: quirks_mode(os.environ.get("ONTUL_QUIRKS", "")))
    """``"real"`` also reproduces the real deployment's failures (docs/architecture.md)."""

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
