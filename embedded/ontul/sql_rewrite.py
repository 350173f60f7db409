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

import re
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
MAX_NESTING = 48
"""Deepest parenthesis nesting accepted (checked on tokens, before parsing)."""
MAX_TREE_DEPTH = 160
"""Deepest syntax tree accepted (unparenthesised chains such as ``NOT NOT ...``)."""

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


_ASCII_FOLD = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_FUNC_NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_KEYWORD_FUNCS: tuple[type[exp.Expression], ...] = tuple(
    t
    for t in (
        getattr(exp, name, None)
        for name in (
            "Case",
            "If",
            "Collate",
            "Exists",
            "CurrentDate",
            "CurrentTime",
            "CurrentTimestamp",
            "Cast",
            "TryCast",
        )
    )
    if isinstance(t, type)
)
"""Parsed "functions" that are SQL syntax, not calls (SQLite's authorizer sees no call)."""


def sqlite_fold(name: str) -> str:
    """Fold ``name`` the way SQLite compares identifiers (ASCII letters only)."""
    return name.translate(_ASCII_FOLD)


def _reserved(name: str) -> bool:
    """True when a CTE of this name could shadow a table, relation or system object."""
    for folded in {sqlite_fold(name), name.casefold(), name.lower()}:
        if folded in PHYSICAL_TABLES or folded.startswith("sqlite_"):
            return True
        if any(folded == sqlite_fold(r) or folded == r.casefold() for r in RELATIONS):
            return True
    return False


def _max_paren_depth(sql: str) -> int:
    """Deepest parenthesis nesting of ``sql``, measured on its tokens."""
    depth = deepest = 0
    for token in sqlglot.Dialect.get_or_raise("sqlite").tokenize(sql):
        kind = token.token_type.name
        if kind == "L_PAREN":
            depth += 1
            deepest = max(deepest, depth)
        elif kind == "R_PAREN":
            depth -= 1
    return deepest


def _tree_depth(tree: exp.Expr) -> int:
    """Depth of a syntax tree, computed without recursion."""
    deepest = 0
    stack: list[tuple[exp.Expr, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_TREE_DEPTH:
            break
        stack.extend((child, depth + 1) for child in node.iter_expressions())
    return deepest


def _function_name(node: exp.Func) -> str | None:
    """The SQLite function a parsed call becomes, or None for keyword syntax."""
    if isinstance(node, exp.Anonymous):
        return str(node.name).lower()
    if isinstance(node, _KEYWORD_FUNCS) or isinstance(node, exp.Connector):
        return None
    m = _FUNC_NAME.match(node.sql(dialect="sqlite"))
    # Operators sqlglot models as functions (REGEXP, ->) and implicit
    # conversions render without a call; SQLite's authorizer still sees any
    # function they become.
    return m.group(1).lower() if m else None


MAX_PRINTF_WIDTH = 1000
"""Widest field or precision a ``printf``/``format`` pattern may ask for."""
_PRINTF_FIELD = re.compile(r"%[-+ 0#,!]*(\*|\d*)(?:\.(\*|\d*))?")


def _check_printf(node: exp.Func, name: str) -> None:
    """Refuse a printf/format whose pattern is not a literal or asks for huge fields.

    SQLite builds the whole field before applying its length limit, so
    ``printf('%.*c', 900000000, 'x')`` burns seconds of CPU in one call.
    """
    pattern = node.this if isinstance(node, exp.Format) else (node.expressions or [None])[0]
    if not (isinstance(pattern, exp.Literal) and pattern.is_string):
        raise QueryRefused(f"{name}() needs a string literal pattern")
    for width, precision in _PRINTF_FIELD.findall(str(pattern.this)):
        for size in (width, precision):
            if size == "*" or (size and int(size) > MAX_PRINTF_WIDTH):
                raise QueryRefused(
                    f"{name}() fields are limited to {MAX_PRINTF_WIDTH} characters "
                    "and may not use *"
                )


def _cte_in_scope(table: exp.Table, name: str) -> bool:
    """True when a WITH clause enclosing ``table`` defines a CTE called ``name``."""
    node: exp.Expr | None = table.parent
    while node is not None:
        with_ = node.args.get("with_") if isinstance(node, exp.Query) else None
        if isinstance(with_, exp.With) and any(
            sqlite_fold(cte.alias_or_name) == name for cte in with_.expressions
        ):
            return True
        node = node.parent
    return False


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

    def _parse(self, sql: str) -> exp.Query:
        if len(sql) > MAX_SQL_CHARS:
            raise QueryRefused(f"statement longer than {MAX_SQL_CHARS} characters")
        try:
            if _max_paren_depth(sql) > MAX_NESTING:
                raise QueryRefused(f"statement nests parentheses deeper than {MAX_NESTING}")
            statements = [s for s in sqlglot.parse(sql, read="sqlite") if s is not None]
        except (ParseError, TokenError) as exc:
            raise QueryRefused(f"SQL parse error: {str(exc).splitlines()[0]}") from None
        if len(statements) != 1:
            raise QueryRefused("exactly one SELECT statement is accepted")
        tree = statements[0]
        if not isinstance(tree, exp.Query) or isinstance(tree, exp.Values):
            raise QueryRefused("only SELECT statements are accepted")
        if _tree_depth(tree) > MAX_TREE_DEPTH:
            raise QueryRefused("statement is nested too deeply")
        return tree

    def _rewrite_checked(self, sql: str, user: UserRecord) -> RewrittenQuery:
        tree = self._parse(sql)
        for node in tree.walk():
            if isinstance(node, _FORBIDDEN_NODES):
                raise QueryRefused(f"{type(node).__name__.upper()} is not allowed")
            if isinstance(node, exp.Func):
                name = _function_name(node)
                if name is not None and name not in ALLOWED_FUNCTIONS:
                    raise QueryRefused(f"function {name} is not allowed")
                if name in ("printf", "format"):
                    _check_printf(node, name)
            if isinstance(node, exp.In) and (node.args.get("field") or node.args.get("unnest")):
                raise QueryRefused("IN <table> is not allowed; write IN (SELECT ... FROM ...)")
            if isinstance(node, exp.CTE) and _reserved(node.alias_or_name):
                raise QueryRefused(
                    f"a WITH name may not shadow a table or relation: {node.alias_or_name}"
                )
        refs: list[tuple[exp.Table, Relation]] = []
        physical: set[str] = set()
        admin = self.engine.is_admin(user)
        for table in list(tree.find_all(exp.Table)):
            if not isinstance(table.this, exp.Identifier):
                raise QueryRefused("table-valued functions are not allowed")
            parts = [p for p in (table.catalog, table.db, table.name) if p]
            if len(parts) == 1 and _cte_in_scope(table, sqlite_fold(parts[0])):
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
