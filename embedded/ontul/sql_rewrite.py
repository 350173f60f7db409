"""Parse, check and rewrite caller SQL so policies hold inside SQLite.

Every reference to a semantic relation becomes a subquery
``(SELECT <allowed cols> FROM <backing> AS _src WHERE <row filter>) AS <alias>``,
so row filters apply before the caller's predicates, joins and aggregates.

Masks: the subquery exposes the *masked* expression under the column's name.
Neither the output nor the caller's predicates ever see the raw value, so a
``WHERE 연락처 LIKE '010-1234%'`` cannot confirm a guess (SPEC: "a mask hides
output only"; hiding it from predicates too is the stricter reading).

Denied columns are absent from the subquery, and any identifier in the
statement that names one fails the query with a message naming the column.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError

from embedded.ontul.errors import PolicyDenied, QueryRefused
from embedded.ontul.relations import (
    CREDENTIAL_COLUMNS,
    PHYSICAL_TABLES,
    RELATIONS,
    Relation,
)

if TYPE_CHECKING:
    from datetime import date

    from embedded.ontul.policy import Decision, PolicyEngine, UserRecord

MAX_SQL_CHARS = 20_000
"""Longer statements are refused before parsing."""

ALLOWED_FUNCTIONS = frozenset(
    {
        "abs",
        "avg",
        "cast",
        "char",
        "coalesce",
        "count",
        "date",
        "datetime",
        "glob",
        "group_concat",
        "hex",
        "ifnull",
        "iif",
        "instr",
        "julianday",
        "length",
        "like",
        "lower",
        "ltrim",
        "max",
        "min",
        "nullif",
        "printf",
        "format",
        "quote",
        "replace",
        "round",
        "rtrim",
        "sign",
        "strftime",
        "substr",
        "substring",
        "sum",
        "time",
        "total",
        "trim",
        "typeof",
        "unicode",
        "upper",
        "string_agg",
        "row_number",
        "rank",
        "dense_rank",
        "percent_rank",
        "cume_dist",
        "ntile",
        "lag",
        "lead",
        "first_value",
        "last_value",
        "nth_value",
        "unixepoch",
        "concat",
        "concat_ws",
        "likely",
        "unlikely",
    }
)
"""Functions a caller may use; everything else is refused (and the authorizer agrees)."""

_FORBIDDEN_NODES: tuple[type[exp.Expression], ...] = tuple(
    t
    for t in (
        getattr(exp, name, None)
        for name in (
            "Insert",
            "Update",
            "Delete",
            "Create",
            "Drop",
            "Alter",
            "Command",
            "Pragma",
            "Attach",
            "Detach",
            "Into",
            "Merge",
            "Transaction",
            "Commit",
            "Rollback",
            "Set",
            "Use",
        )
    )
    if isinstance(t, type)
)


@dataclass(frozen=True)
class RewrittenQuery:
    """A checked, rewritten statement ready for the guarded connection.

    Attributes:
        sql: SQL to execute.
        relations: Semantic relations the statement reads, then any physical
            tables an administrator named.
        tables: Physical tables SQLite may read.
        denied_reads: Physical (table, column) pairs SQLite must never read.
    """

    sql: str
    relations: tuple[str, ...]
    tables: frozenset[str]
    denied_reads: frozenset[tuple[str, str]]


def quote_ident(name: str) -> str:
    """Return ``name`` as a double-quoted SQLite identifier."""
    return '"' + name.replace('"', '""') + '"'


def relation_select(relation: Relation, decision: Decision, today: date) -> str:
    """Return the policy-applied ``SELECT`` for one relation.

    Args:
        relation: The semantic relation.
        decision: The caller's decision for it (must be allowed).
        today: Platform date for date-dependent relations.

    Returns:
        SQL selecting the allowed (masked) columns of the allowed rows.
    """
    masks = decision.mask_map
    cols = []
    for col in relation.columns:
        if col in decision.denied_columns:
            continue
        if col in masks:
            cols.append(f"({masks[col]}) AS {quote_ident(col)}")
        else:
            cols.append(f"_src.{quote_ident(col)} AS {quote_ident(col)}")
    if not cols:
        raise QueryRefused(f"no columns of {relation.name} are available to you")
    sql = f"SELECT {', '.join(cols)} FROM {relation.source_sql(today)} AS _src"
    if decision.row_filter is not None:
        sql += f" WHERE {decision.row_filter}"
    return sql


def denied_reads(relation: Relation, decision: Decision) -> set[tuple[str, str]]:
    """Physical columns SQLite must not read for a plain-table relation."""
    if relation.backing in relation.tables and not decision.masks:
        return {(relation.backing, c) for c in decision.denied_columns}
    return set()


class SqlRewriter:
    """Checks and rewrites caller SQL against the policy engine."""

    def __init__(self, engine: PolicyEngine, today: date, cache_size: int = 512) -> None:
        """Create the rewriter.

        Args:
            engine: Policy engine.
            today: Platform date.
            cache_size: Rewrites remembered per (statement, user record).
        """
        self.engine = engine
        self.today = today
        self._cache: OrderedDict[tuple[str, ...], RewrittenQuery] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def rewrite(self, sql: str, user: UserRecord) -> RewrittenQuery:
        """Check and rewrite ``sql`` for ``user``.

        Args:
            sql: The caller's statement.
            user: Stored user record.

        Returns:
            The rewritten statement.

        Raises:
            QueryRefused: The statement is not a single permitted SELECT.
            PolicyDenied: A relation is not granted to the user.
        """
        key = (
            sql,
            user.user_id,
            repr(user.groups),
            repr(sorted(user.attrs.items())),
            str(user.is_admin),
        )
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        result = self._rewrite(sql, user)
        with self._lock:
            self._cache[key] = result
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return result

    def _rewrite(self, sql: str, user: UserRecord) -> RewrittenQuery:
        if len(sql) > MAX_SQL_CHARS:
            raise QueryRefused(f"statement longer than {MAX_SQL_CHARS} characters")
        try:
            statements = [s for s in sqlglot.parse(sql, read="sqlite") if s is not None]
        except (ParseError, TokenError) as exc:
            raise QueryRefused(f"SQL parse error: {str(exc).splitlines()[0]}") from None
        if len(statements) != 1:
            raise QueryRefused("exactly one SELECT statement is accepted")
        tree = statements[0]
        if not isinstance(tree, exp.Query) or isinstance(tree, exp.Values):
            raise QueryRefused("only SELECT statements are accepted")
        for node in tree.walk():
            if isinstance(node, _FORBIDDEN_NODES):
                raise QueryRefused(f"{type(node).__name__.upper()} is not allowed")
            if isinstance(node, exp.Anonymous) and node.name.lower() not in ALLOWED_FUNCTIONS:
                raise QueryRefused(f"function {node.name} is not allowed")
        cte_names = {c.alias_or_name.lower() for c in tree.find_all(exp.CTE)}
        refs: list[tuple[exp.Table, Relation]] = []
        physical: set[str] = set()
        admin = self.engine.is_admin(user)
        for table in list(tree.find_all(exp.Table)):
            if not isinstance(table.this, exp.Identifier):
                raise QueryRefused("table-valued functions are not allowed")
            parts = [p for p in (table.catalog, table.db, table.name) if p]
            if len(parts) == 1 and parts[0].lower() in cte_names:
                continue
            fqn = ".".join(parts)
            if any(p.lower().startswith("sqlite_") for p in parts):
                raise QueryRefused(f"system table {fqn} is not available")
            relation = RELATIONS.get(fqn)
            if relation is None and admin and len(parts) == 1 and fqn.lower() in PHYSICAL_TABLES:
                # AdministratorAccess bypasses policy: the table is read as stored.
                physical.add(fqn.lower())
                continue
            if relation is None or not relation.sql_visible:
                raise QueryRefused(
                    f"unknown relation {fqn}; name a semantic relation such as "
                    "semantic.hr.employees"
                )
            refs.append((table, relation))
        if not refs and not physical:
            raise QueryRefused("the statement reads no semantic relation")
        decisions: dict[str, Decision] = {}
        for _, relation in refs:
            if relation.name not in decisions:
                decision = self.engine.decide(user, "data:Select", relation.name)
                if not decision.allowed:
                    raise PolicyDenied("data:Select", relation.name)
                decisions[relation.name] = decision
        denied = set().union(*(d.denied_columns for d in decisions.values()))
        if denied:
            for ident in tree.find_all(exp.Identifier):
                if ident.name in denied:
                    raise QueryRefused(
                        f"column {ident.name} is denied by policy and cannot be referenced"
                    )
        tables: set[str] = set(physical)
        blocked: set[tuple[str, str]] = set(CREDENTIAL_COLUMNS) if physical else set()
        for table, relation in refs:
            decision = decisions[relation.name]
            inner = sqlglot.parse_one(
                relation_select(relation, decision, self.today), read="sqlite"
            )
            alias = table.args.get("alias")
            if alias is None:
                alias = exp.TableAlias(this=exp.to_identifier(table.name))
            table.replace(exp.Subquery(this=inner, alias=alias.copy()))
            tables |= relation.tables
            blocked |= denied_reads(relation, decision)
        for column in tree.find_all(exp.Column):
            if column.args.get("catalog") or column.args.get("db"):
                column.set("catalog", None)
                column.set("db", None)
        return RewrittenQuery(
            sql=tree.sql(dialect="sqlite"),
            relations=tuple(sorted(decisions)) + tuple(sorted(physical)),
            tables=frozenset(tables),
            denied_reads=frozenset(blocked),
        )
