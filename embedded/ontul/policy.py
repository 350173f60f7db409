"""AWS-style policy documents and the decisions they yield.

For a (user, action, resource) the engine returns a :class:`Decision`: whether
anything is allowed, the row filter (OR of the Allow conditions, minus Deny
conditions), the denied columns and the column masks. Deny beats Mask beats
Allow; anything not allowed is denied. ``AdministratorAccess`` bypasses.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

ADMIN_POLICY = "AdministratorAccess"
"""A policy with this name (or a user flagged is_admin) bypasses every check."""

_PLACEHOLDER = re.compile(r"\$\{user\.(id|attr\.([A-Za-z0-9_]+))\}")


@dataclass(frozen=True)
class UserRecord:
    """A user as stored in the platform database (never as the request claims)."""

    user_id: str
    display_name: str
    is_admin: bool
    active: bool
    groups: tuple[str, ...]
    attrs: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Statement:
    """One statement of a policy."""

    effect: str
    actions: tuple[str, ...]
    resources: tuple[str, ...]
    condition: str | None = None
    columns: tuple[str, ...] = ()
    masked: tuple[tuple[str, str], ...] = ()

    def matches(self, action: str, resource: str) -> bool:
        """Return True when the statement covers this action and resource."""
        return any(fnmatchcase(action, a) for a in self.actions) and any(
            fnmatchcase(resource, r) for r in self.resources
        )


@dataclass(frozen=True)
class Policy:
    """A named policy attached to groups and users."""

    name: str
    groups: tuple[str, ...]
    users: tuple[str, ...]
    statements: tuple[Statement, ...]

    def attached_to(self, user: UserRecord) -> bool:
        """Return True when the policy applies to ``user``."""
        return user.user_id in self.users or any(g in self.groups for g in user.groups)


@dataclass(frozen=True)
class Decision:
    """What a user may do with one resource.

    Attributes:
        allowed: False means refuse the whole resource.
        row_filter: SQL predicate with user values already quoted in; None = all rows.
        denied_columns: Columns removed from the schema.
        masks: Column -> SQL expression replacing its value.
        admin: True when the decision came from AdministratorAccess.
    """

    allowed: bool
    row_filter: str | None = None
    denied_columns: frozenset[str] = frozenset()
    masks: tuple[tuple[str, str], ...] = ()
    admin: bool = False

    @property
    def mask_map(self) -> dict[str, str]:
        """Masks as a dict."""
        return dict(self.masks)


def sql_quote(value: object) -> str:
    """Return ``value`` as a safe SQLite string literal."""
    return "'" + str(value).replace("'", "''") + "'"


def resolve_condition(condition: str, user: UserRecord) -> str:
    """Substitute ``${user.id}`` / ``${user.attr.X}`` from the stored user record.

    A placeholder outside quotes becomes a quoted literal; inside a quoted
    string its value is escaped in place. A missing attribute becomes the
    empty string, so the filter fails closed.

    Args:
        condition: SQL predicate from a policy.
        user: The stored user record.

    Returns:
        The predicate with every placeholder replaced.
    """
    out: list[str] = []
    in_string = False
    i = 0
    while i < len(condition):
        ch = condition[i]
        if ch == "'":
            in_string = not in_string
            out.append(ch)
            i += 1
            continue
        m = _PLACEHOLDER.match(condition, i)
        if m is None:
            out.append(ch)
            i += 1
            continue
        if m.group(1) == "id":
            value: object = user.user_id
        else:
            value = user.attrs.get(m.group(2))
            if value is None or isinstance(value, (dict, list)):
                value = ""
        out.append(str(value).replace("'", "''") if in_string else sql_quote(value))
        i = m.end()
    return "".join(out)


def _as_tuple(value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    raise ValueError(f"expected a string or list, got {value!r}")


def parse_policy(doc: dict[str, Any]) -> Policy:
    """Build a :class:`Policy` from its JSON document.

    Args:
        doc: ``{"Name", "AttachTo": {"groups", "users"}, "Statement": [...]}``.

    Returns:
        The parsed policy.

    Raises:
        ValueError: The document is malformed.
    """
    attach = doc.get("AttachTo") or {}
    statements = []
    for raw in doc.get("Statement") or []:
        effect = raw.get("Effect")
        if effect not in ("Allow", "Deny", "Mask"):
            raise ValueError(f"policy {doc.get('Name')}: bad Effect {effect!r}")
        masked = raw.get("MaskedColumns") or {}
        statements.append(
            Statement(
                effect=effect,
                actions=_as_tuple(raw.get("Action")),
                resources=_as_tuple(raw.get("Resource")),
                condition=raw.get("Condition") or None,
                columns=_as_tuple(raw.get("Columns")),
                masked=tuple(sorted((str(k), str(v)) for k, v in masked.items())),
            )
        )
    return Policy(
        name=str(doc.get("Name", "")),
        groups=_as_tuple(attach.get("groups")),
        users=_as_tuple(attach.get("users")),
        statements=tuple(statements),
    )


def load_policies(directory: Path) -> list[Policy]:
    """Load every ``*.json`` policy in ``directory`` (sorted by file name).

    Args:
        directory: Folder of policy documents.

    Returns:
        The policies.
    """
    return [
        parse_policy(json.loads(p.read_text(encoding="utf-8")))
        for p in sorted(directory.glob("*.json"))
    ]


class PolicyEngine:
    """Evaluates policies for users; stateless apart from the loaded documents."""

    def __init__(self, policies: Iterable[Policy]) -> None:
        """Create the engine.

        Args:
            policies: Every policy document known to the platform.
        """
        self.policies = tuple(policies)

    def is_admin(self, user: UserRecord) -> bool:
        """Return True when ``user`` holds AdministratorAccess."""
        return user.is_admin or any(
            p.name == ADMIN_POLICY and p.attached_to(user) for p in self.policies
        )

    def decide(self, user: UserRecord, action: str, resource: str) -> Decision:
        """Return the decision for ``user`` doing ``action`` on ``resource``.

        Args:
            user: Stored user record.
            action: e.g. ``data:Select``.
            resource: Fully qualified resource name.

        Returns:
            The decision (``allowed=False`` when nothing grants it).
        """
        if self.is_admin(user):
            return Decision(allowed=True, admin=True)
        allows: list[Statement] = []
        denies: list[Statement] = []
        masks: dict[str, str] = {}
        denied_cols: set[str] = set()
        for policy in self.policies:
            if not policy.attached_to(user):
                continue
            for st in policy.statements:
                if not st.matches(action, resource):
                    continue
                if st.effect == "Allow":
                    allows.append(st)
                elif st.effect == "Mask":
                    masks.update(dict(st.masked))
                elif st.columns:
                    denied_cols.update(st.columns)
                else:
                    denies.append(st)
        if not allows or any(d.condition is None for d in denies):
            return Decision(allowed=False)
        row_filter: str | None = None
        if all(a.condition is not None for a in allows):
            row_filter = " OR ".join(
                f"({resolve_condition(a.condition or '', user)})" for a in allows
            )
        for d in denies:
            clause = f"NOT coalesce(({resolve_condition(d.condition or '', user)}), 1)"
            row_filter = clause if row_filter is None else f"({row_filter}) AND {clause}"
        for col in denied_cols:
            masks.pop(col, None)
        return Decision(
            allowed=True,
            row_filter=row_filter,
            denied_columns=frozenset(denied_cols),
            masks=tuple(sorted(masks.items())),
        )
