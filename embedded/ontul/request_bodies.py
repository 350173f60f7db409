"""Request bodies of the platform's HTTP API: size, media type, JSON, models.

A body must come with a Content-Length (no chunked uploads) of at most
:data:`MAX_BODY_BYTES`, as ``application/json``, and decode to one JSON object
within :data:`MAX_JSON_DEPTH`; the pydantic models then check its fields
strictly. Every refusal is an :class:`ApiError` with a 4xx status.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from embedded.ontul.errors import ApiError

if TYPE_CHECKING:
    from http.server import BaseHTTPRequestHandler

MAX_BODY_BYTES = 1024 * 1024
"""Larger request bodies are refused with 413."""
MAX_JSON_DEPTH = 32
"""Deeper JSON request bodies are refused with 400."""


class _Body(BaseModel):
    """Strict request body: no type coercion, unknown keys ignored."""

    model_config = ConfigDict(strict=True, extra="ignore")


class LoginBody(_Body):
    """Body of POST /admin/auth/login (lengths bounded: the login throttle keeps names)."""

    username: str = Field(max_length=256)
    password: str = Field(max_length=4096)


class RefreshBody(_Body):
    """Body of POST /admin/auth/refresh."""

    refreshToken: str


class SqlBody(_Body):
    """Body of POST /admin/query/execute."""

    sql: str


class RetrieverBody(_Body):
    """Body of POST /api/v1/retrievers/{fqn}/invoke."""

    args: dict[str, Any] = {}
    maxRows: int | None = None


class ObjectQueryBody(_Body):
    """Body of POST /api/v1/object-types/{fqn}/query."""

    filters: dict[str, Any] | None = None
    select: list[str] | None = None
    orderBy: str | None = None
    desc: bool = False
    limit: int | None = None


class TraverseBody(_Body):
    """Body of POST /api/v1/link-types/{fqn}/traverse."""

    sourceKey: str
    select: list[str] | None = None
    limit: int | None = None
    maxDepth: int | None = None


class ActionBody(_Body):
    """Body of POST /api/v1/action-types/{fqn}/invoke.

    An idempotency key is 1-200 characters with no control characters (the
    ledger scopes keys per requester with a control-character separator).
    """

    args: dict[str, Any]
    idempotencyKey: str | None = Field(
        default=None, min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f]+$"
    )


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ApiError(400, f"malformed JSON: duplicate key {key!r}")
        out[key] = value
    return out


def _json_depth(raw: str) -> int:
    """Deepest ``[``/``{`` nesting of a JSON text, ignoring brackets inside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in raw:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_json_object(raw: bytes) -> dict[str, Any]:
    """Decode a request body that must be one JSON object.

    Refuses (400) invalid UTF-8 or JSON, nesting deeper than
    :data:`MAX_JSON_DEPTH`, duplicate keys, integers outside 64 bits, numbers
    that overflow to infinity, ``NaN``/``Infinity``, strings holding a lone
    UTF-16 surrogate, and any top level other than an object.

    Args:
        raw: The body bytes.

    Returns:
        The decoded object.

    Raises:
        ApiError: 400 with what is wrong.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError(400, f"malformed JSON: {exc}") from None
    if _json_depth(text) > MAX_JSON_DEPTH:
        raise ApiError(400, f"malformed JSON: nested deeper than {MAX_JSON_DEPTH}")

    def no_constant(name: str) -> Any:
        raise ApiError(400, f"malformed JSON: {name} is not a number")

    try:
        data = json.loads(
            text,
            object_pairs_hook=_no_duplicate_keys,
            parse_constant=no_constant,
            parse_int=_bounded_int,
            parse_float=_finite_float,
        )
    except json.JSONDecodeError as exc:
        raise ApiError(400, f"malformed JSON: {exc}") from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer of 5,000 digits
        raise ApiError(400, f"malformed JSON: {str(exc).splitlines()[0][:120]}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "request body must be a JSON object")
    try:
        # "\ud800" decodes to a lone surrogate, which no UTF-8 consumer (SQLite,
        # the password hash, the response) can encode: refuse it here, once.
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(
            400, "malformed JSON: a string holds a lone UTF-16 surrogate (\\ud800-\\udfff)"
        ) from None
    return data


INT_MIN, INT_MAX = -(2**63), 2**63 - 1
"""JSON integers must fit SQLite's 64-bit integers (larger ones could not be bound)."""


def _bounded_int(literal: str) -> int:
    if len(literal.lstrip("-")) > 19:
        raise ApiError(400, "malformed JSON: integers must fit in 64 bits")
    value = int(literal)
    if not INT_MIN <= value <= INT_MAX:
        raise ApiError(400, "malformed JSON: integers must fit in 64 bits")
    return value


def _finite_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise ApiError(400, "malformed JSON: numbers must be finite")
    return value


def validation_message(exc: ValidationError) -> str:
    """Summarise a pydantic error as one line naming up to three fields.

    Args:
        exc: The validation error.

    Returns:
        ``invalid request: <field>: <problem>; ...``.
    """
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err["loc"]) or "body"
        parts.append(f"{where}: {err['msg']}")
    return "invalid request: " + "; ".join(parts)


def read_json_body(handler: BaseHTTPRequestHandler) -> dict[str, Any]:
    """Read and decode the JSON object body of the request ``handler`` serves.

    When the length is missing or unusable the body cannot be skipped, so the
    connection is marked to close rather than read the rest as a new request.

    Args:
        handler: The request handler (its headers and input stream).

    Returns:
        The decoded object.

    Raises:
        ApiError: 408, 411, 413, 415 or 400 with what is wrong.
    """
    headers = handler.headers
    length_header = headers.get("Content-Length")
    if headers.get("Transfer-Encoding"):
        handler.close_connection = True
        raise ApiError(411, "send the body with a Content-Length")
    if length_header is None:
        handler.close_connection = True
        raise ApiError(411, "a JSON body with a Content-Length is required")
    try:
        length = int(length_header)
    except ValueError:
        handler.close_connection = True
        raise ApiError(400, "bad Content-Length") from None
    if length < 0:
        handler.close_connection = True
        raise ApiError(400, "bad Content-Length")
    if length > MAX_BODY_BYTES:
        handler.close_connection = True
        raise ApiError(413, f"request body larger than {MAX_BODY_BYTES} bytes")
    try:
        raw = handler.rfile.read(length) if length > 0 else b""
    except (TimeoutError, OSError):
        raw = None
    if raw is None or len(raw) < length:
        handler.close_connection = True
        raise ApiError(408, "the request body did not arrive in time")
    media_type = (headers.get("Content-Type") or "").split(";")[0].strip().lower()
    if media_type != "application/json":
        # Also keeps a web page from POSTing a "simple" text/plain body to
        # the loopback server without a CORS preflight.
        raise ApiError(415, "send the body as Content-Type: application/json")
    if not raw:
        raise ApiError(400, "request body must be a JSON object")
    return parse_json_object(raw)
