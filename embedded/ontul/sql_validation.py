"""Refusal rules for caller SQL, applied before any rewriting.

A statement must be one SELECT (no writes, pragmas or transactions), short and
shallow enough to parse safely, call only allow-listed functions (``printf``
with bounded fields), keep its WITH names clear of tables and relations, and
not use ``IN <table>``. Each rule raises :class:`QueryRefused` with a message
that says what to change. ``embedded.ontul.sql_rewrite`` applies the policies.
"""

from __future__ import annotations

import re

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError

from embedded.ontul.errors import QueryRefused
from embedded.ontul.relations import PHYSICAL_TABLES, RELATIONS

BARRIER_CTE_PREFIX = "_rel_"
"""The rewriter names its row-security CTEs ``_rel_1``...; a caller's WITH name may not."""
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


def _shadows_reserved_name(name: str) -> bool:
    """True when a CTE of this name could shadow a table, relation, barrier CTE or system object."""
    for folded in {sqlite_fold(name), name.casefold(), name.lower()}:
        if folded in PHYSICAL_TABLES or folded.startswith(("sqlite_", BARRIER_CTE_PREFIX)):
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


def _sqlite_function_name(node: exp.Func) -> str | None:
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


MAX_TRIM_SET = 64
"""Longest character set ``trim(X, Y)`` / ``ltrim`` / ``rtrim`` may strip."""


def _check_trim_set(node: exp.Trim) -> None:
    """Refuse a trim whose character set is not a short string literal.

    SQLite's trim compares every stripped character with every character of the
    set, so ``trim(<64 KiB>, <5,000 characters>)`` runs ~1 s inside one call.
    """
    chars = node.args.get("expression")
    if chars is None:
        return
    if not (isinstance(chars, exp.Literal) and chars.is_string) or len(chars.this) > MAX_TRIM_SET:
        raise QueryRefused(
            f"trim() characters must be a string literal of at most {MAX_TRIM_SET} characters"
        )


def cte_in_scope(table: exp.Table, name: str) -> bool:
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


def parse_single_select(sql: str) -> exp.Query:
    """Parse ``sql`` as exactly one SELECT within the size and nesting limits.

    Args:
        sql: The caller's statement.

    Returns:
        Its syntax tree.

    Raises:
        QueryRefused: Too long, too deep, unparsable, several statements, or
            not a SELECT.
    """
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


def refuse_forbidden_constructs(tree: exp.Query) -> None:
    """Refuse writes and commands, unlisted functions, ``IN <table>`` and shadowing WITH names.

    Args:
        tree: A parsed SELECT.

    Raises:
        QueryRefused: The first construct found that is not allowed.
    """
    for node in tree.walk():
        if isinstance(node, _FORBIDDEN_NODES):
            raise QueryRefused(f"{type(node).__name__.upper()} is not allowed")
        if isinstance(node, exp.Func):
            name = _sqlite_function_name(node)
            if name is not None and name not in ALLOWED_FUNCTIONS:
                raise QueryRefused(f"function {name} is not allowed")
            if name in ("printf", "format"):
                _check_printf(node, name)
        if isinstance(node, exp.Trim):
            _check_trim_set(node)
        if isinstance(node, exp.In) and (node.args.get("field") or node.args.get("unnest")):
            raise QueryRefused("IN <table> is not allowed; write IN (SELECT ... FROM ...)")
        if isinstance(node, exp.CTE) and _shadows_reserved_name(node.alias_or_name):
            raise QueryRefused(
                f"a WITH name may not shadow a table or relation: {node.alias_or_name}"
            )
