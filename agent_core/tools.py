"""The nine tools the model may call, each closed over (client, caller).

Tools take no argument that names a user, role or employee number: the caller
is the platform token. Arguments reach the platform as retriever/object/link
arguments, or as SQL literals built by sqlglot (never string formatting).
Results follow the "Tool results" table of docs/architecture.md.

They speak the real deployment's catalog (SPEC §3, the reference client): a
document number is resolved to its integer ``doc_id`` through
``semantic.reg.doc_index`` as an ordinary policy-checked read (a restricted
document is then simply absent: "not available to you", never an error); the
graph retrievers take that integer and ``derives_from`` its string;
``pending_revisions`` has Korean columns; DATE values arrive as epoch days and
leave as ISO dates; ``effective_to`` is exclusive.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import sqlglot
from sqlglot import exp

from agent_core.errors import (
    PlatformAuthError,
    PlatformBadRequestError,
    PlatformError,
    PlatformNetworkError,
    PlatformTimeoutError,
)
from agent_core.platform_quirks import as_iso_date
from agent_core.rules import in_force, is_doc_no

if TYPE_CHECKING:
    from collections.abc import Callable

    from agent_core.platform_client import PlatformClient

EMPTY_NOTE = "No rows: not available to you or not present."
"""Note attached to every empty result."""

SEARCH_RETRIEVER = "semantic.rag.regulation_search"
SEARCH_LIMIT_DEFAULT = 5
"""Search hits returned when the model names no limit."""
SEARCH_LIMIT_MAX = 20
"""The most search hits one call may ask for (every article of a long regulation)."""
AUTHORITY_RETRIEVER = "semantic.rag.authority_trace"
IMPACT_RETRIEVER = "semantic.rag.impact_analysis"
REGULATION_TYPE = "reg.ontology.Regulation"
HAS_VERSION = "reg.ontology.has_version"
DERIVES_FROM = "reg.ontology.derives_from"
REQUEST_REVISION = "reg.ontology.request_revision"
PENDING_VIEW = "semantic.reg.pending_revisions"
DOC_INDEX = "semantic.reg.doc_index"

PENDING_COLUMNS = (
    ("문서번호", "doc_no"),
    ("제목", "title"),
    ("개정차수", "version"),
    ("단계", "status"),
    ("요지", "summary"),
    ("예정시행일", "effective_from"),
    ("기안자사번", "drafter"),
)
"""``semantic.reg.pending_revisions`` columns and the keys the tool result uses for them.

단계 is DRAFT, IN_REVIEW, APPROVED (approved, not yet in force) or REJECTED (kept:
"submitted and rejected" is a different fact from "no revision")."""

_log = logging.getLogger(__name__)

_TURN_ERRORS = (PlatformAuthError, PlatformNetworkError, PlatformTimeoutError)

ToolKind = Literal["read", "write"]


class ToolArgumentError(ValueError):
    """The model gave an argument the tool cannot use."""


@dataclass(frozen=True, slots=True)
class ToolResult:
    """What a tool produced, before framing."""

    payload: dict[str, Any]
    """The JSON object the model reads."""
    row_count: int | None = None
    """Rows returned, for tools that return rows."""

    @property
    def status(self) -> Literal["ok", "empty", "error"]:
        """ok, empty (carries the note) or error."""
        if "error" in self.payload:
            return "error"
        if self.payload.get("note") == EMPTY_NOTE:
            return "empty"
        return "ok"


@dataclass(frozen=True, slots=True)
class Tool:
    """One tool: what the model is told and the function that runs it."""

    name: str
    description: str
    input_schema: dict[str, Any]
    kind: ToolKind
    run: Callable[[dict[str, Any]], ToolResult]
    prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """For writes: normalise arguments (resolve a title to its doc_no) before the
    approval, so the person approves exactly what will run."""

    def to_anthropic(self) -> dict[str, Any]:
        """Return the tool definition for the Messages API."""
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": self.input_schema,
        }


def idempotency_key(caller: str, doc_no: str, version: int) -> str:
    """Key of a revision request: the same (caller, doc, version) is a replay.

    Args:
        caller: Username the write runs as.
        doc_no: Document number.
        version: Version number.

    Returns:
        A 32-hex-digit key.
    """
    material = f"regdesk/request_revision\x1f{caller}\x1f{doc_no.strip().upper()}\x1f{int(version)}"
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:32]


def _iso_date(value: Any, name: str) -> str | None:
    if value is None or value == "":
        return None
    text = str(value).strip()
    try:
        return dt.date.fromisoformat(text[:10]).isoformat()
    except ValueError:
        raise ToolArgumentError(f"{name} must be an ISO date YYYY-MM-DD, got {text!r}") from None


def _search_limit(value: Any) -> int:
    """The number of search hits asked for: SEARCH_LIMIT_DEFAULT when unsaid."""
    if value is None or value == "":
        return SEARCH_LIMIT_DEFAULT
    try:
        limit = int(value)
    except (TypeError, ValueError):
        raise ToolArgumentError(f"limit must be an integer, got {value!r}") from None
    if not 1 <= limit <= SEARCH_LIMIT_MAX:
        raise ToolArgumentError(f"limit must be between 1 and {SEARCH_LIMIT_MAX}, got {limit}")
    return limit


def _records(data: dict[str, Any]) -> list[dict[str, Any]]:
    cols = [str(c) for c in data.get("columns") or []]
    return [dict(zip(cols, row, strict=False)) for row in data.get("rows") or []]


def _pick(record: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: record.get(k) for k in keys}


def _with_note(payload: dict[str, Any], empty: bool) -> dict[str, Any]:
    if empty:
        payload["note"] = EMPTY_NOTE
    return payload


def _in_force(version: dict[str, Any], on: str) -> bool:
    """In force on ``on``: effective_from <= on < effective_to (exclusive; NULL = current)."""
    if str(version.get("status") or "APPROVED").upper() != "APPROVED":
        return False
    start = as_iso_date(version.get("effective_from"))
    return in_force(start or None, as_iso_date(version.get("effective_to")) or None, on)


def _is_itself(row: dict[str, Any], doc_no: str) -> bool:
    """A graph row for the starting document (depth 0, or its own doc_no)."""
    return str(row.get("doc_no")) == doc_no or str(row.get("depth")).strip() == "0"


def _iso_dates(record: dict[str, Any]) -> dict[str, Any]:
    """The record with every date-valued key rendered as an ISO date (never epoch days)."""
    return {
        k: as_iso_date(v) if k.endswith(("_from", "_to", "_date")) else v for k, v in record.items()
    }


def check_single_select(sql: str) -> str:
    """Accept one read-only SELECT statement, or raise.

    Args:
        sql: The statement the model wrote.

    Returns:
        The statement, stripped of a trailing semicolon.

    Raises:
        ToolArgumentError: Not parseable, several statements, or not a SELECT.
    """
    text = sql.strip().rstrip(";").strip()
    try:
        statements = [s for s in sqlglot.parse(text) if s is not None]
    except sqlglot.errors.ParseError as exc:
        raise ToolArgumentError(f"not a valid SQL statement: {exc}") from None
    if len(statements) != 1:
        raise ToolArgumentError("exactly one SELECT statement is allowed")
    stmt = statements[0]
    if not isinstance(stmt, exp.Select | exp.Union | exp.Intersect | exp.Except):
        raise ToolArgumentError("only SELECT statements are allowed")
    writes = (exp.Insert, exp.Update, exp.Delete, exp.Drop, exp.Create, exp.Alter, exp.Command)
    if any(stmt.find(kind) for kind in writes):
        raise ToolArgumentError("only SELECT statements are allowed")
    return text


LINEAGE_KEYS = ("depth", "doc_no", "title", "doc_class", "tier", "owner_dept", "parent_doc_no")
HIT_KEYS = (
    "doc_no", "title", "version", "effective_from", "effective_to", "stated_from",
    "date_mismatch", "article_no", "article_title", "text", "score",
)  # fmt: skip
VERSION_KEYS = (
    "version", "status", "effective_from", "effective_to", "stated_from",
    "date_mismatch", "summary",
)  # fmt: skip
PENDING_KEYS = tuple(key for _, key in PENDING_COLUMNS)

_DOC_PROP = {"type": "string", "description": "Document number, e.g. HR-REG-003."}
_AS_OF_PROP = {
    "type": "string",
    "description": "ISO date YYYY-MM-DD; the day the rule must be in force. Omit for today.",
}


def build_tools(client: PlatformClient, caller: str) -> dict[str, Tool]:
    """Create the nine tools for one persona.

    Args:
        client: The persona's logged-in platform client.
        caller: The persona's username (for idempotency keys only; never sent as
            an argument that widens access).

    Returns:
        Tools by name, in the order the model is told about them.
    """

    def resolve_doc_no(value: Any) -> str:
        text = str(value or "").strip()
        if not text:
            raise ToolArgumentError("doc_no is required")
        if is_doc_no(text.upper()):
            return text.upper()
        # The model may pass a title; look it up as the caller (same policies apply).
        found = _records(client.query_objects(REGULATION_TYPE, filters={"title": text}, limit=1))
        return str(found[0]["doc_no"]) if found else text

    def doc_id_of(doc_no: str) -> int | None:
        """The integer doc_id the graph walks are seeded with, or None when not visible.

        An ordinary SQL read of ``semantic.reg.doc_index`` as the caller, so row
        filters apply: a restricted or unknown document has no row and the tool
        answers "not available to you". The doc_no is a sqlglot string literal.
        """
        query = (
            exp.select("doc_id")
            .from_(DOC_INDEX)
            .where(exp.column("doc_no").eq(exp.Literal.string(doc_no)))
            .limit(1)
        )
        rows = client.execute_sql(query.sql())["rows"]
        if not rows or rows[0][0] is None:
            return None
        try:
            return int(str(rows[0][0]).strip())
        except ValueError:
            raise PlatformBadRequestError(
                f"{DOC_INDEX} gave a doc_id that is not an integer: {rows[0][0]!r}"
            ) from None

    def search_regulations(args: dict[str, Any]) -> ToolResult:
        question = str(args.get("question") or "").strip()
        if not question:
            raise ToolArgumentError("question is required")
        as_of = _iso_date(args.get("as_of"), "as_of")
        call: dict[str, Any] = {"q": question, "k": _search_limit(args.get("limit"))}
        if as_of:
            call["as_of"] = as_of
        if args.get("dept"):
            call["dept"] = str(args["dept"])
        data = client.invoke_retriever(SEARCH_RETRIEVER, call)
        rows = _records(data)
        hits = []
        for row in rows:
            row = {**row, "text": row.get("body", row.get("text"))}
            hit = _iso_dates(_pick(row, HIT_KEYS))
            hit["date_mismatch"] = bool(hit["date_mismatch"])
            hits.append(hit)
        # Omitted as_of: the platform chose the date, and says which (asOf).
        used = as_of or as_iso_date(data.get("asOf")) or client.today().isoformat()
        payload = {"as_of": used, "hits": hits}
        return ToolResult(_with_note(payload, not hits), len(hits))

    def versions_of(doc_no: str) -> list[dict[str, Any]]:
        found = _records(client.traverse_link(HAS_VERSION, doc_no, limit=200))
        return [_iso_dates(v) for v in found]

    def get_effective_version(args: dict[str, Any]) -> ToolResult:
        doc_no = resolve_doc_no(args.get("doc_no"))
        requested = _iso_date(args.get("as_of"), "as_of")
        versions = versions_of(doc_no)
        # "Today" is the platform's (learned from its responses), not this machine's.
        as_of = requested or client.today().isoformat()
        in_force = [v for v in versions if _in_force(v, as_of)]
        best = max(in_force, key=lambda v: int(v.get("version") or 0), default=None)
        chosen = None
        if best is not None:
            chosen = _pick(best, VERSION_KEYS)
            chosen["date_mismatch"] = bool(chosen["date_mismatch"])
        payload = {"doc_no": doc_no, "as_of": as_of, "version": chosen}
        return ToolResult(_with_note(payload, chosen is None), len(versions))

    def lineage(retriever: str, key: str, args: dict[str, Any]) -> ToolResult:
        doc_no = resolve_doc_no(args.get("doc_no"))
        seed = doc_id_of(doc_no)
        rows: list[dict[str, Any]] = []
        if seed is not None:
            found = _records(client.invoke_retriever(retriever, {"doc_id": seed}))
            rows = [_pick(r, LINEAGE_KEYS) for r in found]
        # depth 0 is the document itself; the result is what lies above / below it.
        rows = [r for r in rows if not _is_itself(r, doc_no)]
        return ToolResult(_with_note({"doc_no": doc_no, key: rows}, not rows), len(rows))

    def trace_authority(args: dict[str, Any]) -> ToolResult:
        return lineage(AUTHORITY_RETRIEVER, "chain", args)

    def impact_of_change(args: dict[str, Any]) -> ToolResult:
        return lineage(IMPACT_RETRIEVER, "dependents", args)

    def query_hr(args: dict[str, Any]) -> ToolResult:
        sql = check_single_select(str(args.get("question_sql") or args.get("sql") or ""))
        data = client.execute_sql(sql)
        rows = data["rows"]
        payload = {"sql": sql, "columns": data["columns"], "rows": rows, "rowCount": len(rows)}
        return ToolResult(_with_note(payload, not rows), len(rows))

    def pending_revision(args: dict[str, Any]) -> ToolResult:
        doc_no = resolve_doc_no(args["doc_no"]) if args.get("doc_no") else None
        column = {korean: exp.column(korean, quoted=True) for korean, _ in PENDING_COLUMNS}
        query = exp.select(*column.values()).from_(PENDING_VIEW)
        if doc_no:
            query = query.where(column["문서번호"].eq(exp.Literal.string(doc_no)))
        query = query.order_by(column["문서번호"], column["개정차수"]).limit(50)
        rows = []
        for record in _records(client.execute_sql(query.sql())):
            row = {key: record.get(korean) for korean, key in PENDING_COLUMNS}
            row["effective_from"] = as_iso_date(row["effective_from"])
            if row["version"] is not None:
                row["version"] = int(row["version"])
            rows.append(row)
        return ToolResult(_with_note({"doc_no": doc_no, "pending": rows}, not rows), len(rows))

    def describe_regulation(args: dict[str, Any]) -> ToolResult:
        doc_no = resolve_doc_no(args.get("doc_no"))
        found = _records(client.query_objects(REGULATION_TYPE, filters={"doc_no": doc_no}, limit=1))
        regulation = found[0] if found else None
        versions = versions_of(doc_no) if regulation else []
        for v in versions:
            if "date_mismatch" in v:
                v["date_mismatch"] = bool(v["date_mismatch"])
        payload = {"regulation": regulation, "versions": versions}
        return ToolResult(_with_note(payload, regulation is None), len(found) + len(versions))

    def related_regulations(args: dict[str, Any]) -> ToolResult:
        doc_no = resolve_doc_no(args.get("doc_no"))
        depth = max(1, min(_int_arg(args, "depth", 5), 10))
        seed = doc_id_of(doc_no)
        rows: list[dict[str, Any]] = []
        if seed is not None:
            data = client.traverse_link(DERIVES_FROM, str(seed), limit=100, max_depth=depth)
            rows = [_pick(r, LINEAGE_KEYS) for r in _records(data)]
        rows = [r for r in rows if not _is_itself(r, doc_no)]
        payload = {"doc_no": doc_no, "depth": depth, "related": rows}
        return ToolResult(_with_note(payload, not rows), len(rows))

    def prepare_revision(args: dict[str, Any]) -> dict[str, Any]:
        prepared = dict(args)
        try:
            prepared["doc_no"] = resolve_doc_no(args.get("doc_no"))
            prepared["version"] = _int_arg(args, "version", 0)
        except (ToolArgumentError, PlatformError):
            pass  # the run reports the problem as a tool error
        return prepared

    def request_regulation_revision(args: dict[str, Any]) -> ToolResult:
        doc_no = resolve_doc_no(args.get("doc_no"))
        version = _int_arg(args, "version", 0)
        reason = str(args.get("reason") or "").strip()
        if version <= 0 or not reason:
            raise ToolArgumentError("version (a positive integer) and reason are required")
        key = idempotency_key(caller, doc_no, version)
        data = client.invoke_action(
            REQUEST_REVISION, {"doc_no": doc_no, "version": version, "reason": reason}, key
        )
        status = str(data.get("status") or ("OK" if data.get("ok") else "UNKNOWN"))
        payload = {"status": status, "doc_no": doc_no, "version": version, "idempotency_key": key}
        return ToolResult(payload, None)

    def tool(
        name: str, kind: ToolKind, fn: Callable[[dict[str, Any]], ToolResult],
        props: dict[str, Any], required: list[str], doc: str,
    ) -> Tool:  # fmt: skip
        schema = {"type": "object", "properties": props, "required": required}
        return Tool(name, doc, schema, kind, _guarded(fn))

    tools = [
        tool("search_regulations", "read", search_regulations,
             {"question": {"type": "string", "description": "What to look for, in words."},
              "as_of": _AS_OF_PROP,
              "dept": {"type": "string", "description": "Optional owner department code."},
              "limit": {"type": "integer", "description": "How many hits to return "
                        f"(1-{SEARCH_LIMIT_MAX}, default {SEARCH_LIMIT_DEFAULT})."}},
             ["question"],
             "Search citable regulation articles in force on as_of (default today). Returns "
             "hits with doc_no, version, effective_from (approval date, authoritative), "
             "stated_from (date printed in the document), date_mismatch and article text. "
             "Pass as_of for questions about a past date."),
        tool("get_effective_version", "read", get_effective_version,
             {"doc_no": _DOC_PROP, "as_of": _AS_OF_PROP}, ["doc_no"],
             "Return the version of a regulation in force on as_of (default today): the one "
             "with effective_from <= as_of < effective_to (effective_to is the next version's "
             "effective_from, exclusive), with stated_from and date_mismatch."),
        tool("trace_authority", "read", trace_authority, {"doc_no": _DOC_PROP}, ["doc_no"],
             "List the chain of higher regulations a document derives its authority from."),
        tool("impact_of_change", "read", impact_of_change, {"doc_no": _DOC_PROP}, ["doc_no"],
             "List the documents that derive from this one (affected if it is revised)."),
        tool("query_hr", "read", query_hr,
             {"question_sql": {"type": "string", "description": "One SELECT over semantic.hr.* "
                               "(employees, leave_balance, expenses, purchase_orders)."}},
             ["question_sql"],
             "Run one read-only SELECT over the HR views as the current user. Rows you may not "
             "see are filtered out by the platform; an empty result means not available to you. "
             "Columns are Korean identifiers: "
             "semantic.hr.employees(사번, 성명, 부서, 직급, 연락처, 입사일, 비고); "
             "semantic.hr.leave_balance(사번, 성명, 부서, 휴가종류, 연도, 부여일수_ERP, 사용일수, "
             "비고); semantic.hr.expenses(청구번호, 사번, 성명, 부서, 유형, 지역, 숙박일수, 금액, "
             "청구일, 상태, 비고); semantic.hr.purchase_orders(발주번호, 부서, 요청자사번, 성명, "
             "품목, 금액, 상태, 비고). 부서 holds a department code such as DEV or HR. "
             "주민등록번호 is denied to everyone. DATE columns (입사일, 청구일) hold epoch days: "
             "compare them as CAST(col AS VARCHAR) <= '<days since 1970-01-01>'; results show "
             "them as ISO dates."),
        tool("pending_revision", "read", pending_revision,
             {"doc_no": {**_DOC_PROP, "description": "Optional document number."}}, [],
             "List revisions moving through approval (semantic.reg.pending_revisions): status "
             "DRAFT, IN_REVIEW, APPROVED (approved, effective_from in the future, not yet in "
             "force) or REJECTED (submitted and rejected; still listed). Check this before "
             "stating a current rule."),
        tool("describe_regulation", "read", describe_regulation, {"doc_no": _DOC_PROP}, ["doc_no"],
             "Describe a regulation (title, class, tier, owner, latest version) and list its "
             "approved versions."),
        tool("related_regulations", "read", related_regulations,
             {"doc_no": _DOC_PROP,
              "depth": {"type": "integer", "description": "How many links to follow (1-10)."}},
             ["doc_no"],
             "Follow the ontology's derives_from links upward from a regulation."),
        tool("request_regulation_revision", "write", request_regulation_revision,
             {"doc_no": _DOC_PROP,
              "version": {"type": "integer", "description": "Version the request is about."},
              "reason": {"type": "string", "description": "Why a revision is requested."}},
             ["doc_no", "version", "reason"],
             "File a revision request for a regulation version. This is a write: a person "
             "must approve it first. Repeating the same request is a replay, not a new row."),
    ]  # fmt: skip
    by_name = {t.name: t for t in tools}
    write = by_name["request_regulation_revision"]
    by_name[write.name] = dataclasses.replace(write, prepare=prepare_revision)
    return by_name


def _int_arg(args: dict[str, Any], name: str, default: int) -> int:
    """An integer argument (the model may send ``"3"``); anything else is the model's mistake."""
    value = args.get(name)
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        raise ToolArgumentError(f"{name} must be an integer, not {value!r}")
    try:
        return int(str(value).strip())
    except ValueError:
        raise ToolArgumentError(f"{name} must be an integer, not {value!r}") from None


def _guarded(fn: Callable[[dict[str, Any]], ToolResult]) -> Callable[[dict[str, Any]], ToolResult]:
    """Turn expected failures into error results the model reads.

    Auth, network and timeout failures are not the tool's business: they end the
    turn, so they propagate. Bad arguments are named as such (the model can fix
    them); anything else is a bug in the tool, logged with its traceback and
    reported as an internal error, so the model does not retry with other
    arguments that were never the problem.
    """

    def run(args: dict[str, Any]) -> ToolResult:
        try:
            return fn(dict(args or {}))
        except _TURN_ERRORS:
            raise
        except ToolArgumentError as exc:
            return ToolResult({"error": str(exc), "error_kind": "bad_request"})
        except PlatformError as exc:
            return ToolResult({"error": exc.message, "error_kind": exc.kind})
        except Exception as exc:
            _log.exception("tool %s failed with a bug", getattr(fn, "__name__", "?"))
            message = (
                f"internal error in the tool ({type(exc).__name__}); this is a fault in "
                "RegDesk, not in the arguments. It was logged. Do not retry this call."
            )
            return ToolResult({"error": message, "error_kind": "internal"})

    return run
