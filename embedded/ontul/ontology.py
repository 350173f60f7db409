"""Ontology: the Regulation object type, its two link types, one action.

Properties, links and actions are declared here; a request naming anything
undeclared fails with 400 before any SQL is built. Reads go through the
caller's policy decision for the ontology name (``data:SelectTable``), the
action through ``ontology:InvokeAction``.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from typing import TYPE_CHECKING, Any

from embedded.ontul.audit import utc_now
from embedded.ontul.errors import ApiError, PolicyDenied
from embedded.ontul.guarded_sqlite import run_guarded
from embedded.ontul.relations import RELATIONS
from embedded.ontul.retrievers import GRAPH_COLUMNS, walk_graph
from embedded.ontul.sql_rewrite import quote_ident, relation_select

if TYPE_CHECKING:
    from embedded.ontul.context import PlatformContext
    from embedded.ontul.policy import UserRecord

REGULATION = "reg.ontology.Regulation"
HAS_VERSION = "reg.ontology.has_version"
DERIVES_FROM = "reg.ontology.derives_from"
REQUEST_REVISION = "reg.ontology.request_revision"
MAX_LIMIT = 1000


def _check_names(names: list[str], declared: list[str], what: str, fqn: str) -> None:
    for name in names:
        if name not in declared:
            raise ApiError(
                400, f"{what} {name!r} is not declared on {fqn}; declared: {', '.join(declared)}"
            )


def _limit(value: int | None, default: int = 100) -> int:
    limit = default if value is None else value
    if not 1 <= limit <= MAX_LIMIT:
        raise ApiError(400, f"limit must be between 1 and {MAX_LIMIT}")
    return limit


def query_objects(
    ctx: PlatformContext,
    user: UserRecord,
    fqn: str,
    filters: dict[str, Any],
    select: list[str] | None,
    order_by: str | None,
    desc: bool,
    limit: int | None,
) -> dict[str, Any]:
    """Query objects of ``fqn`` with equality filters.

    Args:
        ctx: Platform state.
        user: The caller.
        fqn: Object type (only ``reg.ontology.Regulation``).
        filters: ``{property: value}`` equality filters.
        select: Properties to return (default all visible).
        order_by: Property to sort by.
        desc: Sort descending.
        limit: Maximum rows.

    Returns:
        ``{columns, rows, rowCount}``.
    """
    if fqn != REGULATION:
        raise ApiError(404, f"unknown object type {fqn}")
    relation = RELATIONS[REGULATION]
    declared = list(relation.columns)
    _check_names(list(filters), declared, "property", fqn)
    _check_names(select or [], declared, "property", fqn)
    _check_names([order_by] if order_by else [], declared, "property", fqn)
    for name, value in filters.items():
        if value is not None and not isinstance(value, str | int | float | bool):
            raise ApiError(400, f"filter {name!r} must be a scalar value")
    n = _limit(limit)
    decision = ctx.require(
        user,
        "data:SelectTable",
        fqn,
        json.dumps({"filters": filters, "select": select}, ensure_ascii=False),
    )
    visible = [c for c in declared if c not in decision.denied_columns]
    wanted = select or visible
    hidden = [
        c
        for c in [*wanted, *filters, *([order_by] if order_by else [])]
        if c in decision.denied_columns
    ]
    if hidden:
        raise ApiError(403, f"property {hidden[0]} is denied by policy")
    sql = (
        f"SELECT {', '.join('o.' + quote_ident(c) for c in wanted)} FROM ("
        + relation_select(relation, decision, ctx.today)
        + ") AS o"
    )
    params: list[Any] = []
    if filters:
        sql += " WHERE " + " AND ".join(f"o.{quote_ident(k)} IS ?" for k in filters)
        params.extend(filters.values())
    if order_by:
        sql += f" ORDER BY o.{quote_ident(order_by)}{' DESC' if desc else ''}"
    sql += " LIMIT ?"
    params.append(n)
    _, rows = run_guarded(ctx.db_path, sql, tuple(params), tables=relation.tables)
    return {"columns": wanted, "rows": rows, "rowCount": len(rows)}


def traverse_link(
    ctx: PlatformContext,
    user: UserRecord,
    fqn: str,
    source_key: str,
    select: list[str] | None,
    limit: int | None,
    max_depth: int | None,
) -> dict[str, Any]:
    """Follow a link type from ``source_key``.

    Args:
        ctx: Platform state.
        user: The caller.
        fqn: ``reg.ontology.has_version`` (JOIN) or ``reg.ontology.derives_from`` (GRAPH,
            upward: the parents and ancestors of the source).
        source_key: ``has_version``: the document's doc_no; ``derives_from``: its
            numeric ``doc_id`` (from ``semantic.reg.doc_index``) as a string.
        select: Columns to return.
        limit: Maximum rows.
        max_depth: GRAPH depth (default 5).

    Returns:
        ``{fqn, mode, columns, rows, rowCount}``.
    """
    if fqn == HAS_VERSION:
        relation = RELATIONS[HAS_VERSION]
        declared, mode = list(relation.columns), "JOIN"
    elif fqn == DERIVES_FROM:
        declared, mode = list(GRAPH_COLUMNS), "GRAPH"
    else:
        raise ApiError(404, f"unknown link type {fqn}")
    _check_names(select or [], declared, "column", fqn)
    n = _limit(limit)
    depth = 5 if max_depth is None else max_depth
    if not 1 <= depth <= 64:
        raise ApiError(400, "maxDepth must be between 1 and 64")
    decision = ctx.require(
        user,
        "data:SelectTable",
        fqn,
        json.dumps({"sourceKey": source_key, "maxDepth": depth}, ensure_ascii=False),
    )
    if mode == "JOIN":
        visible = [c for c in declared if c not in decision.denied_columns]
        sql = (
            f"SELECT * FROM ({relation_select(relation, decision, ctx.today)}) AS v "
            "WHERE v.doc_no = ? ORDER BY v.version LIMIT ?"
        )
        _, rows = run_guarded(ctx.db_path, sql, (source_key, n), tables=relation.tables)
    else:
        visible = declared
        seed = source_key.strip()
        if not seed.isdigit() or len(seed) > 10:
            raise ApiError(
                400,
                f"sourceKey of {fqn} is the numeric doc_id from semantic.reg.doc_index, "
                f"not {source_key[:40]!r}",
            )
        rows = walk_graph(ctx, decision, int(seed), upward=True, max_depth=depth)
        rows = [r for r in rows if r[0] > 0][:n]
    wanted = select or visible
    missing = [c for c in wanted if c not in visible]
    if missing:
        raise ApiError(403, f"column {missing[0]} is denied by policy")
    idx = [visible.index(c) for c in wanted]
    out = [[row[i] for i in idx] for row in rows]
    return {"fqn": fqn, "mode": mode, "columns": wanted, "rows": out, "rowCount": len(out)}


def _revision_args(args: dict[str, Any]) -> tuple[str, int, str]:
    doc_no, version, reason = args.get("doc_no"), args.get("version"), args.get("reason")
    if not isinstance(doc_no, str) or not doc_no.strip():
        raise ApiError(400, "argument 'doc_no' is required (string)")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ApiError(400, "argument 'version' is required (integer)")
    if not isinstance(reason, str) or not reason.strip():
        raise ApiError(400, "argument 'reason' is required (non-empty string)")
    if len(reason) > 2000:
        raise ApiError(400, "argument 'reason' is longer than 2000 characters")
    return doc_no.strip(), version, reason.strip()


def invoke_action(
    ctx: PlatformContext,
    user: UserRecord,
    fqn: str,
    args: dict[str, Any],
    idempotency_key: str | None,
) -> dict[str, Any]:
    """Run ``reg.ontology.request_revision`` (the only declared action).

    One request per (doc, version): the same idempotency key, or a second key
    for the same (doc, version), answers ``REPLAYED`` with the first request's
    id and writes nothing to the ledger. The ledger row and its audit row are
    written in one transaction; the requester is the token's user.

    Returns:
        ``{action, ok, status, commandTag, requestId}``.
    """
    if fqn != REQUEST_REVISION:
        raise ApiError(404, f"unknown action type {fqn}")
    doc_no, version, reason = _revision_args(args)
    query = json.dumps({"args": args, "idempotencyKey": idempotency_key}, ensure_ascii=False)
    decision = ctx.engine.decide(user, "ontology:InvokeAction", fqn)
    if not decision.allowed:
        ctx.writer.audit(user.user_id, "ontology:InvokeAction", fqn, "DENY", query)
        raise PolicyDenied("ontology:InvokeAction", fqn)
    visible = (
        query_objects(ctx, user, REGULATION, {"doc_no": doc_no}, ["doc_no"], None, False, 1)[
            "rowCount"
        ]
        if _may_read_regulations(ctx, user)
        else 0
    )
    if visible:
        _, found = run_guarded(
            ctx.db_path,
            "SELECT 1 FROM regulation_versions WHERE doc_no = ? AND version = ?",
            (doc_no, version),
            tables=frozenset({"regulation_versions"}),
        )
        visible = len(found)
    if not visible:
        ctx.writer.audit(user.user_id, "ontology:InvokeAction", fqn, "DENY", query)
        raise ApiError(404, f"regulation {doc_no} version {version} not found")
    key = idempotency_key or f"auto-{uuid.uuid4().hex}"
    # Idempotency keys are scoped per requester: another user's key never matches,
    # so a reused key cannot tell the caller what someone else requested. A key
    # already stored by another user is stored as "<key>\x1f<user>" (client keys
    # cannot hold control characters).
    scoped = f"{key}\x1f{user.user_id}"
    w = ctx.writer
    with w.lock:
        w.conn.execute("BEGIN IMMEDIATE")
        try:
            prior = w.conn.execute(
                "SELECT request_id, doc_no, version, requested_by, created_at "
                "FROM revision_requests "
                "WHERE (requested_by = ? AND idempotency_key IN (?, ?)) "
                "OR (doc_no = ? AND version = ?) "
                "ORDER BY (requested_by = ? AND idempotency_key IN (?, ?)) DESC, request_id "
                "LIMIT 1",
                (user.user_id, key, scoped, doc_no, version, user.user_id, key, scoped),
            ).fetchone()
            if (
                prior is None
                and w.conn.execute(
                    "SELECT 1 FROM revision_requests WHERE idempotency_key = ?", (key,)
                ).fetchone()
            ):
                key = scoped
            if prior is not None and (prior[1], prior[2]) != (doc_no, version):
                w.conn.execute("ROLLBACK")
                raise ApiError(409, "idempotencyKey was already used for another document")
            status = "REPLAYED" if prior is not None else "OK"
            if prior is None:
                created = utc_now()
                cur = w.conn.execute(
                    "INSERT INTO revision_requests(doc_no, version, reason, requested_by, "
                    "idempotency_key, status, created_at) VALUES (?, ?, ?, ?, ?, 'REQUESTED', ?)",
                    (doc_no, version, reason, user.user_id, key, created),
                )
                request_id = public_request_id(cur.lastrowid, user.user_id, created)
            else:
                request_id = public_request_id(prior[0], prior[3], prior[4])
            w.conn.execute(
                "INSERT INTO audit_log(ts, user_id, action, resource, decision, query) "
                "VALUES (?, ?, 'ontology:InvokeAction', ?, 'ALLOW', ?)",
                (utc_now(), user.user_id, fqn, f"{status} {query}"[:4000]),
            )
            w.conn.execute("COMMIT")
        except ApiError:
            raise
        except Exception:
            w.conn.execute("ROLLBACK")
            raise
    return {
        "action": fqn,
        "ok": True,
        "status": status,
        "commandTag": "INSERT 0 1" if status == "OK" else "INSERT 0 0",
        "requestId": request_id,
    }


def public_request_id(row_id: int | None, requested_by: str, created_at: str) -> str:
    """The id a caller is shown for a ledger row: stable for the row, opaque.

    The ledger's own integer counts everyone's requests, restricted documents
    included, so handing it out would let any caller count them.
    """
    digest = hashlib.sha256(f"{row_id}\x1f{requested_by}\x1f{created_at}".encode()).hexdigest()
    return f"rr-{digest[:20]}"


def _may_read_regulations(ctx: PlatformContext, user: UserRecord) -> bool:
    return ctx.engine.decide(user, "data:SelectTable", REGULATION).allowed
