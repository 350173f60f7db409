"""Parse, check and rewrite caller SQL so policies hold inside SQLite.

Every semantic relation a statement reads becomes a *materialized* common table
expression prepended to the statement::

    WITH _rel_1 AS MATERIALIZED (SELECT <allowed cols> FROM <backing> AS _src
                                 WHERE <row filter>)
    SELECT ... FROM _rel_1 AS <alias> ...

and every reference to the relation reads ``_rel_n`` under the caller's alias.

Row security is a barrier (as PostgreSQL's ``security_barrier`` views): no
expression of the caller's is ever evaluated on a row the caller may not see.
SQLite computes an ``AS MATERIALIZED`` CTE once into an ephemeral table before
the outer query reads it; the query flattener may not merge it into the outer
query (flattener restriction 28), the WHERE-clause push-down optimisation skips
it (``eM10d == M10d_Yes``), and it is never run as a co-routine interleaved with
the caller's loop. So the caller's WHERE, ON, HAVING, select list and
subqueries only ever see filtered rows, and an error, a timing or a count can
not depend on a hidden row. (A plain ``(SELECT ... WHERE filter) AS x``
subquery is no barrier: SQLite flattens it or pushes the caller's ON/WHERE
terms into it, and evaluates them on rows the filter then discards.)
``tests/integration/test_platform_barrier.py`` proves it with generated
raising, slow and counting predicates over every relation and join shape.

Masks: the CTE exposes the *masked* expression under the column's name.
Neither the output nor the caller's predicates ever see the raw value, so a
``WHERE 연락처 LIKE '010-1234%'`` cannot confirm a guess (SPEC: "a mask hides
output only"; hiding it from predicates too is the stricter reading).

Denied columns are absent from the CTE, and any identifier in the statement
that names one fails the query with a message naming the column.

Name resolution: the final SQL quotes identifiers with backticks, never double
quotes, so SQLite's "double-quoted string literal" fallback cannot apply: a
quoted name that names no column fails with ``no such column: <name>`` instead
of reading as the string ``'<name>'``.

The refusal rules checked before any rewriting (one SELECT, size and nesting
limits, function allow-list, WITH names, ``IN <table>``) live in
``embedded.ontul.sql_validation``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import sqlglot
from sqlglot import exp
from sqlglot.dialects.sqlite import SQLite
from sqlglot.errors import ParseError, TokenError

from embedded.ontul.errors import PolicyDenied, QueryRefused
from embedded.ontul.relations import (
    CREDENTIAL_COLUMNS,
    PHYSICAL_TABLES,
    RELATIONS,
    Relation,
)
from embedded.ontul.sql_validation import (
    BARRIER_CTE_PREFIX,
    cte_in_scope,
    parse_single_select,
    refuse_forbidden_constructs,
    sqlite_fold,
)

if TYPE_CHECKING:
    from datetime import date

    from embedded.ontul.policy import Decision, PolicyEngine, UserRecord


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


class _BacktickSQLite(SQLite):
    """SQLite dialect that quotes identifiers with backticks.

    SQLite reads a double-quoted name that resolves to no column as a string
    literal (the "DQS" misfeature); a backtick-quoted one is always an
    identifier, so an unknown name is an error that names it.
    """

    class Tokenizer(SQLite.Tokenizer):
        """Backticks are the only identifier quotes."""

        IDENTIFIERS: ClassVar[list[str | tuple[str, str]]] = ["`"]


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
    """Physical columns SQLite must not read for a plain-table relation.

    A denied column is blocked at the authorizer too, unless a mask expression
    of the same relation reads it (then only the rewrite keeps it out).
    """
    if relation.backing not in relation.tables:
        return set()
    masked_reads: set[str] = set()
    for expr in decision.mask_map.values():
        try:
            parsed = sqlglot.parse_one(expr, read="sqlite")
        except (ParseError, TokenError):
            return set()
        masked_reads |= {c.name for c in parsed.find_all(exp.Column)}
    return {(relation.backing, c) for c in decision.denied_columns if c not in masked_reads}


def _name_computed_columns(tree: exp.Query) -> None:
    """Alias unnamed computed result columns with the caller's own expression text.

    SQLite names such a column after the SQL it ran, which after rewriting would
    show the barrier CTE names (``_rel_1``) instead of what the caller wrote.
    """
    select: object = tree
    while isinstance(select, exp.SetOperation):
        select = select.this  # the leftmost SELECT names a compound's columns
    if not isinstance(select, exp.Select):
        return
    named = []
    for projection in select.expressions:
        if isinstance(projection, exp.Alias | exp.Column | exp.Star) or not isinstance(
            projection, exp.Expression
        ):
            named.append(projection)
            continue
        text = projection.sql(dialect="sqlite")
        named.append(exp.alias_(projection, exp.to_identifier(text, quoted=True), copy=False))
    select.set("expressions", named)


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
        try:
            return self._rewrite_checked(sql, user)
        except RecursionError:
            raise QueryRefused("statement is nested too deeply") from None

    def _rewrite_checked(self, sql: str, user: UserRecord) -> RewrittenQuery:
        tree = parse_single_select(sql)
        while isinstance(tree, exp.Subquery) and tree.args.get("alias") is None:
            inner = tree.this  # "(SELECT ...)" as a whole statement: WITH goes inside
            if not isinstance(inner, exp.Query):
                break
            tree = inner
        refuse_forbidden_constructs(tree)
        refs, physical = self._resolve_tables(tree, user)
        decisions = self._decide(refs, user)
        denied = set().union(*(d.denied_columns for d in decisions.values()))
        if denied:
            for ident in tree.find_all(exp.Identifier):
                if ident.name in denied:
                    raise QueryRefused(
                        f"column {ident.name} is denied by policy and cannot be referenced"
                    )
        _name_computed_columns(tree)
        tables: set[str] = set(physical)
        blocked: set[tuple[str, str]] = set(CREDENTIAL_COLUMNS) if physical else set()
        cte_names: dict[str, str] = {}
        for table, relation in refs:
            name = cte_names.setdefault(relation.name, f"{BARRIER_CTE_PREFIX}{len(cte_names) + 1}")
            alias = table.args.get("alias")
            if alias is None:
                alias = exp.TableAlias(this=exp.to_identifier(table.name))
            table.replace(exp.Table(this=exp.to_identifier(name), alias=alias.copy()))
        barriers = []
        for relation_name, name in cte_names.items():
            relation = RELATIONS[relation_name]
            decision = decisions[relation_name]
            inner = sqlglot.parse_one(
                relation_select(relation, decision, self.today), read="sqlite"
            )
            barriers.append(
                exp.CTE(
                    this=inner,
                    alias=exp.TableAlias(this=exp.to_identifier(name)),
                    materialized=True,
                )
            )
            tables |= relation.tables
            blocked |= denied_reads(relation, decision)
        for column in tree.find_all(exp.Column):
            if column.args.get("catalog") or column.args.get("db"):
                column.set("catalog", None)
                column.set("db", None)
        if barriers:
            existing = tree.args.get("with_")
            if isinstance(existing, exp.With):
                existing.set("expressions", [*barriers, *existing.expressions])
            else:
                tree.set("with_", exp.With(expressions=barriers))
        return RewrittenQuery(
            sql=tree.sql(dialect=_BacktickSQLite),
            relations=tuple(sorted(decisions)) + tuple(sorted(physical)),
            tables=frozenset(tables),
            denied_reads=frozenset(blocked),
        )

    def _resolve_tables(
        self, tree: exp.Query, user: UserRecord
    ) -> tuple[list[tuple[exp.Table, Relation]], set[str]]:
        """Sort the statement's table references into relations and admin-read tables.

        References to a CTE in scope are left alone.

        Returns:
            (table node, relation) pairs, and the physical tables an
            administrator named.

        Raises:
            QueryRefused: A table-valued function, system table or unknown name,
                or no relation read at all.
        """
        refs: list[tuple[exp.Table, Relation]] = []
        physical: set[str] = set()
        admin = self.engine.is_admin(user)
        for table in list(tree.find_all(exp.Table)):
            if not isinstance(table.this, exp.Identifier):
                raise QueryRefused("table-valued functions are not allowed")
            parts = [p for p in (table.catalog, table.db, table.name) if p]
            if len(parts) == 1 and cte_in_scope(table, sqlite_fold(parts[0])):
                continue
            fqn = ".".join(parts)
            if any(p.lower().startswith("sqlite_") for p in parts):
                raise QueryRefused(f"system table {fqn} is not available")
            relation = RELATIONS.get(fqn)
            if (
                relation is None
                and admin
                and len(parts) == 1
                and sqlite_fold(fqn) in PHYSICAL_TABLES
            ):
                # AdministratorAccess bypasses policy: the table is read as stored.
                physical.add(sqlite_fold(fqn))
                continue
            if relation is None or not relation.sql_visible:
                raise QueryRefused(
                    f"unknown relation {fqn}; name a semantic relation such as "
                    "semantic.hr.employees"
                )
            refs.append((table, relation))
        if not refs and not physical:
            raise QueryRefused("the statement reads no semantic relation")
        return refs, physical

    def _decide(
        self, refs: list[tuple[exp.Table, Relation]], user: UserRecord
    ) -> dict[str, Decision]:
        """The user's ``data:Select`` decision per relation read, in reference order.

        Raises:
            PolicyDenied: The first relation not granted.
        """
        decisions: dict[str, Decision] = {}
        for _, relation in refs:
            if relation.name not in decisions:
                decision = self.engine.decide(user, "data:Select", relation.name)
                if not decision.allowed:
                    raise PolicyDenied("data:Select", relation.name)
                decisions[relation.name] = decision
        return decisions
