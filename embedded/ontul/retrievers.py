"""Retrievers: hybrid regulation search and authority/impact graph walks.

Every retriever reads through the caller's policy decision for its own name
(``data:SelectTable`` on ``semantic.rag.<name>``): the row filter narrows the
candidates *before* ranking or walking, masks shape the output.
"""

from __future__ import annotations

import json
from datetime import date
from typing import TYPE_CHECKING, Any

from embedded.ontul.dates import epoch_day
from embedded.ontul.errors import ApiError
from embedded.ontul.guarded_sqlite import run_guarded
from embedded.ontul.relations import REGULATION_NODES, RELATIONS
from embedded.ontul.sql_rewrite import quote_ident, relation_select

if TYPE_CHECKING:
    from embedded.ontul.context import PlatformContext
    from embedded.ontul.policy import Decision, UserRecord
    from embedded.ontul.search import CandidateSet

SEARCH = "semantic.rag.regulation_search"
TRACE = "semantic.rag.authority_trace"
IMPACT = "semantic.rag.impact_analysis"
GRAPH_COLUMNS = [
    "depth",
    "doc_id",
    "doc_no",
    "title",
    "doc_class",
    "tier",
    "owner_dept",
    "parent_doc_no",
]
EMPTY_MATCH_ERROR = (
    'SQL parse error: Encountered "WHERE" at line 1, column 412. Was expecting one of: <EOF> ...'
)
"""What ``ONTUL_QUIRKS=real`` answers for a search with no lexical match."""
MAX_GRAPH_DEPTH = 64
"""Deepest walk a retriever does (far beyond any real authority chain)."""


def _arg_str(args: dict[str, Any], name: str, *, required: bool = False) -> str | None:
    value = args.get(name)
    if value is None or value == "":
        if required:
            raise ApiError(400, f"argument {name!r} is required")
        return None
    if not isinstance(value, str):
        raise ApiError(400, f"argument {name!r} must be a string")
    return value


def _arg_date(args: dict[str, Any], name: str, default: date) -> date:
    text = _arg_str(args, name)
    if text is None:
        return default
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        raise ApiError(400, f"argument {name!r} must be an ISO date (YYYY-MM-DD)") from None


def _arg_doc_id(args: dict[str, Any]) -> int:
    """The integer ``doc_id`` of ``semantic.reg.doc_index`` (a digit string is accepted)."""
    value = args.get("doc_id")
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(
            400,
            "argument 'doc_id' must be an integer doc_id from semantic.reg.doc_index "
            "(look it up by doc_no)",
        )
    if not 0 <= value < 2**31:
        raise ApiError(400, "argument 'doc_id' is out of range")
    return value


def _arg_int(args: dict[str, Any], name: str, default: int, lo: int, hi: int) -> int:
    value = args.get(name, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"argument {name!r} must be an integer")
    if not lo <= value <= hi:
        raise ApiError(400, f"argument {name!r} must be between {lo} and {hi}")
    return value


def _candidates(
    ctx: PlatformContext, decision: Decision, as_of: date, dept: str | None
) -> CandidateSet:
    """The chunks this decision may rank: in force on ``as_of``, citable, policy-filtered."""
    relation = RELATIONS[SEARCH]
    sql = (
        f"SELECT _src.chunk_id FROM {relation.source_sql(ctx.today)} AS _src "
        "WHERE _src.status = 'APPROVED' AND _src.citable = 1 "
        "AND _src.effective_from <= ? AND (_src.effective_to IS NULL OR ? < _src.effective_to)"
    )
    day = epoch_day(as_of)
    params: list[Any] = [day, day]
    if dept is not None:
        sql += " AND _src.owner_dept = ?"
        params.append(dept)
    if decision.row_filter is not None:
        sql += f" AND ({decision.row_filter})"

    def load() -> list[int]:
        _, rows = run_guarded(ctx.db_path, sql, tuple(params), tables=relation.tables)
        return [int(r[0]) for r in rows]

    return ctx.index.cached_candidates((sql, tuple(params)), load)


def regulation_search(
    ctx: PlatformContext, user: UserRecord, args: dict[str, Any], max_rows: int | None
) -> dict[str, Any]:
    """Hybrid search over citable chunks of versions in force on ``as_of``.

    Args:
        ctx: Platform state.
        user: The caller (stored record).
        args: ``q`` (required), ``k`` (default 5), ``as_of`` (ISO, default today), ``dept``.
        max_rows: Optional cap on returned rows.

    Returns:
        ``{fqn, columns, rows, rowCount, asOf}``; ``asOf`` is the date searched
        (the ``as_of`` argument, else the platform's today).
    """
    q = _arg_str(args, "q", required=True) or ""
    k = _arg_int(args, "k", 5, 1, 100)
    as_of = _arg_date(args, "as_of", ctx.today)
    dept = _arg_str(args, "dept")
    decision = ctx.require(user, "data:SelectTable", SEARCH, json.dumps(args, ensure_ascii=False))
    if max_rows is not None:
        k = min(k, max_rows)
    ranked = ctx.index.hybrid(q, _candidates(ctx, decision, as_of, dept), k)
    if not ranked and ctx.quirks == "real":
        # A real deployment's hybrid search fails this way when its lexical
        # side matches nothing (the rewriter's WHERE lands on an empty subquery).
        raise ApiError(400, EMPTY_MATCH_ERROR)
    relation = RELATIONS[SEARCH]
    columns = [c for c in relation.columns if c not in decision.denied_columns]
    if not ranked:
        return {
            "fqn": SEARCH,
            "columns": [*columns, "score"],
            "rows": [],
            "rowCount": 0,
            "asOf": as_of.isoformat(),
        }
    marks = ", ".join("?" for _ in ranked)
    sql = (
        f"SELECT * FROM ({relation_select(relation, decision, ctx.today)}) AS hit "
        f"WHERE hit.chunk_id IN ({marks})"
    )
    names, rows = run_guarded(
        ctx.db_path, sql, tuple(cid for cid, _ in ranked), tables=relation.tables
    )
    by_id = {row[0]: row for row in rows}
    out = [[*by_id[cid], round(score, 6)] for cid, score in ranked if cid in by_id]
    return {
        "fqn": SEARCH,
        "columns": [c["name"] for c in names] + ["score"] if names else [*columns, "score"],
        "rows": out,
        "rowCount": len(out),
        "asOf": as_of.isoformat(),
    }


def walk_graph(
    ctx: PlatformContext, decision: Decision, root: int, *, upward: bool, max_depth: int
) -> list[list[Any]]:
    """Walk ``regulation_links`` from ``root`` over documents the caller may see.

    Cycle-safe (a path string stops revisits); each document appears once, at
    its smallest depth; depth 0 is the root itself. Hidden documents are not
    walked through, so a chain never reveals what lies behind them.

    Args:
        ctx: Platform state.
        decision: The caller's decision (row filter over doc_index columns).
        root: Starting document's ``doc_id``; one the caller may not see walks nothing.
        upward: True for parents (authority), False for children (impact).
        max_depth: Deepest level returned.

    Returns:
        Rows in :data:`GRAPH_COLUMNS` order.
    """
    nodes = relation_select(REGULATION_NODES, decision, ctx.today)
    step_from, step_to = (
        ("child_doc_no", "parent_doc_no") if upward else ("parent_doc_no", "child_doc_no")
    )
    cols = ", ".join(
        f"n.{quote_ident(c)}"
        for c in ("doc_id", "doc_no", "title", "doc_class", "tier", "owner_dept")
    )
    sql = f"""
        WITH RECURSIVE nodes AS ({nodes}),
        walk(doc_no, depth, path) AS (
            SELECT doc_no, 0, '/' || doc_no || '/' FROM nodes WHERE doc_id = ?
            UNION ALL
            SELECT l.{step_to}, w.depth + 1, w.path || l.{step_to} || '/'
            FROM walk AS w
            JOIN regulation_links AS l ON l.{step_from} = w.doc_no
            JOIN nodes AS n ON n.doc_no = l.{step_to}
            WHERE w.depth < ? AND instr(w.path, '/' || l.{step_to} || '/') = 0
        ),
        best AS (SELECT doc_no, min(depth) AS depth FROM walk GROUP BY doc_no)
        SELECT b.depth, {cols},
            (SELECT min(l.parent_doc_no) FROM regulation_links AS l
             JOIN best AS p ON p.doc_no = l.parent_doc_no
             WHERE l.child_doc_no = n.doc_no) AS parent_doc_no
        FROM best AS b JOIN nodes AS n ON n.doc_no = b.doc_no
        ORDER BY b.depth, n.doc_no
    """
    _, rows = run_guarded(
        ctx.db_path,
        sql,
        (root, max_depth),
        tables=REGULATION_NODES.tables | {"regulation_links"},
    )
    return rows


def graph_retriever(
    ctx: PlatformContext,
    user: UserRecord,
    fqn: str,
    args: dict[str, Any],
    max_rows: int | None,
) -> dict[str, Any]:
    """authority_trace (upward) or impact_analysis (downward) from ``doc_id``.

    Args:
        ctx: Platform state.
        user: The caller.
        fqn: :data:`TRACE` or :data:`IMPACT`.
        args: ``doc_id``, the integer id of ``semantic.reg.doc_index``.
        max_rows: Optional cap on returned rows.

    Returns:
        ``{fqn, columns, rows, rowCount, asOf}``; ``asOf`` is the platform's today.
    """
    root = _arg_doc_id(args)
    decision = ctx.require(user, "data:SelectTable", fqn, json.dumps(args, ensure_ascii=False))
    rows = walk_graph(ctx, decision, root, upward=fqn == TRACE, max_depth=MAX_GRAPH_DEPTH)
    if max_rows is not None:
        rows = rows[:max_rows]
    return {
        "fqn": fqn,
        "columns": GRAPH_COLUMNS,
        "rows": rows,
        "rowCount": len(rows),
        "asOf": ctx.today.isoformat(),
    }


def invoke_retriever(
    ctx: PlatformContext,
    user: UserRecord,
    fqn: str,
    args: dict[str, Any],
    max_rows: int | None,
) -> dict[str, Any]:
    """Dispatch a retriever by name.

    Raises:
        ApiError: 404 for an unknown retriever, 400 for bad arguments.
    """
    if fqn == SEARCH:
        return regulation_search(ctx, user, args, max_rows)
    if fqn in (TRACE, IMPACT):
        return graph_retriever(ctx, user, fqn, args, max_rows)
    raise ApiError(404, f"unknown retriever {fqn}")
