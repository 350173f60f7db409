"""HTTP surface of the platform: endpoints, routing, JSON errors.

Every failure is a JSON ``{"error": ...}`` with a 4xx status that says what is
wrong, including the ones the stdlib server raises itself (bad request line,
header too long, unknown method -> 405 with ``Allow``); an unexpected exception
is logged and answered with 500 ``{"error": "internal error"}`` (no traceback
leaves the process). Request bodies (size, media type, JSON limits, pydantic
models) are read by ``embedded.ontul.request_bodies``.

Bounds: a connection idle between requests is closed after
:attr:`Handler.idle_timeout_s`, one whose request (line, headers, body) stalls
after :attr:`Handler.request_timeout_s`; a response larger than
:data:`MAX_RESPONSE_BYTES` is replaced by a 413 error, and a ``MemoryError``
while serving becomes a 413 error instead of a dropped connection.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import parse_qs, unquote, urlsplit

from pydantic import ValidationError

from embedded.ontul import ontology, retrievers
from embedded.ontul.auth import ACCESS, REFRESH, LoginThrottle
from embedded.ontul.errors import ApiError, PolicyDenied, QueryRefused
from embedded.ontul.guarded_sqlite import QUERY_DEADLINE_S, run_guarded
from embedded.ontul.request_bodies import (
    ActionBody,
    LoginBody,
    ObjectQueryBody,
    RefreshBody,
    RetrieverBody,
    SqlBody,
    TraverseBody,
    read_json_body,
    validation_message,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from embedded.ontul.auth import TokenService, UserStore
    from embedded.ontul.context import PlatformContext
    from embedded.ontul.policy import UserRecord

__all__ = ["MAX_SQL_ROWS", "ROUTES", "Api", "Handler"]

log = logging.getLogger("embedded.ontul")

MAX_SQL_ROWS = 10_000
"""A SQL result with more rows is refused (the caller should add a LIMIT)."""
MAX_SQL_BYTES = 8 * 1024 * 1024
"""A SQL result whose rows take more JSON than this is refused (status error)."""
MAX_RESPONSE_BYTES = 16 * 1024 * 1024
"""No response body is larger; a bigger one becomes a 413 error."""


class Api:
    """Endpoint implementations, independent of the HTTP plumbing."""

    def __init__(
        self,
        ctx: PlatformContext,
        users: UserStore,
        tokens: TokenService,
        *,
        query_deadline_s: float = QUERY_DEADLINE_S,
        throttle: LoginThrottle | None = None,
    ) -> None:
        """Create the API.

        Args:
            ctx: Platform state.
            users: User store.
            tokens: Token service.
            query_deadline_s: Deadline of one SQL statement.
            throttle: Pause after repeated failed logins (default: on, 10 failures).
        """
        self.ctx = ctx
        self.users = users
        self.tokens = tokens
        self.query_deadline_s = query_deadline_s
        self.throttle = throttle or LoginThrottle()

    def authenticate(self, header: str | None) -> UserRecord:
        """Return the active user behind a ``Bearer`` header.

        Raises:
            ApiError: 401 for a missing, bad or expired token or a disabled account.
        """
        if not header or not header.startswith("Bearer "):
            raise ApiError(401, "missing bearer token")
        user_id = self.tokens.verify(header[7:].strip(), ACCESS)
        user = self.users.get(user_id)
        if user is None:
            raise ApiError(401, "unknown user")
        if not user.active:
            raise ApiError(401, "account disabled")
        return user

    def login(self, body: LoginBody) -> dict[str, Any]:
        """POST /admin/auth/login.

        Every failure answers the same 401 after the same work; repeated
        failures for one username answer 429 for a while (``LoginThrottle``).
        """
        self.throttle.check(body.username)
        try:
            user = self.users.check_password(body.username, body.password)
        except ApiError as exc:
            self.throttle.failed(body.username)
            self.ctx.writer.audit(
                body.username, "auth:Login", "admin.auth", "DENY", None, exc.message
            )
            raise
        self.throttle.succeeded(body.username)
        self.ctx.writer.audit(user.user_id, "auth:Login", "admin.auth", "ALLOW", None)
        return {
            "accessToken": self.tokens.issue(user.user_id, ACCESS),
            "refreshToken": self.tokens.issue(user.user_id, REFRESH),
            "username": user.user_id,
            "displayName": user.display_name,
            "isAdmin": self.ctx.engine.is_admin(user),
        }

    def refresh(self, body: RefreshBody) -> dict[str, Any]:
        """POST /admin/auth/refresh: a new access token and the next refresh token.

        The presented refresh token is spent; presenting it again revokes its
        family (see ``TokenService.rotate``).
        """
        user_id, successor = self.tokens.rotate(body.refreshToken)
        user = self.users.get(user_id)
        if user is None or not user.active:
            raise ApiError(401, "account disabled")
        return {"accessToken": self.tokens.issue(user_id, ACCESS), "refreshToken": successor}

    def execute_sql(self, user: UserRecord, body: SqlBody) -> dict[str, Any]:
        """POST /admin/query/execute.

        Audited after the outcome is known: ALLOW for a statement that ran and
        was answered, DENY (policy or SQL rules) or ERROR (SQLite failure,
        deadline, result too large) with the reason otherwise.
        """
        query_id = uuid.uuid4().hex
        started = time.perf_counter()
        audit = self.ctx.writer.audit
        try:
            rewritten = self.ctx.rewriter.rewrite(body.sql, user)
        except PolicyDenied as exc:
            audit(user.user_id, exc.action, exc.resource, "DENY", body.sql, str(exc))
            return {"queryId": query_id, "status": "error", "error": str(exc)}
        except QueryRefused as exc:
            audit(user.user_id, "data:Select", "sql", "DENY", body.sql, str(exc))
            return {"queryId": query_id, "status": "error", "error": str(exc)}
        resource = ",".join(rewritten.relations)
        try:
            columns, rows = run_guarded(
                self.ctx.db_path,
                rewritten.sql,
                tables=rewritten.tables,
                denied_reads=rewritten.denied_reads,
                max_rows=MAX_SQL_ROWS + 1,
                deadline_s=self.query_deadline_s,
                max_bytes=MAX_SQL_BYTES,
            )
        except QueryRefused as exc:
            audit(user.user_id, "data:Select", resource, "ERROR", body.sql, str(exc))
            return {"queryId": query_id, "status": "error", "error": str(exc)}
        if len(rows) > MAX_SQL_ROWS:
            error = f"result has more than {MAX_SQL_ROWS} rows; add a LIMIT"
            audit(user.user_id, "data:Select", resource, "ERROR", body.sql, error)
            return {"queryId": query_id, "status": "error", "error": error}
        audit(user.user_id, "data:Select", resource, "ALLOW", body.sql)
        return {
            "queryId": query_id,
            "status": "ok",
            "commandTag": f"SELECT {len(rows)}",
            "elapsedMs": round((time.perf_counter() - started) * 1000, 3),
            "columns": columns,
            "rows": rows,
            "rowCount": len(rows),
        }

    def audit(self, user: UserRecord, query: dict[str, list[str]]) -> dict[str, Any]:
        """GET /admin/audit (admin only)."""
        if not self.ctx.engine.is_admin(user):
            self.ctx.writer.audit(user.user_id, "admin:ReadAudit", "admin.audit", "DENY", None)
            raise ApiError(403, "the audit log is for administrators only")
        try:
            limit = int((query.get("limit") or ["100"])[0])
        except ValueError:
            raise ApiError(400, "limit must be an integer") from None
        if not 1 <= limit <= 10_000:
            raise ApiError(400, "limit must be between 1 and 10000")
        user_filter = query.get("user", [""])[0] or None
        action_filter = query.get("action", [""])[0] or None
        rows = self.ctx.writer.read(user_filter, action_filter, limit)
        return {"rows": rows, "rowCount": len(rows)}


_TOO_LARGE = json.dumps(
    {"error": f"the response would be larger than {MAX_RESPONSE_BYTES // (1024 * 1024)} MiB"}
).encode()

Route = tuple[str, re.Pattern[str], str]

ROUTES: list[Route] = [
    ("GET", re.compile(r"/health"), "health"),
    ("POST", re.compile(r"/admin/auth/login"), "login"),
    ("POST", re.compile(r"/admin/auth/refresh"), "refresh"),
    ("POST", re.compile(r"/admin/query/execute"), "sql"),
    ("POST", re.compile(r"/api/v1/retrievers/([^/]+)/invoke"), "retriever"),
    ("POST", re.compile(r"/api/v1/object-types/([^/]+)/query"), "objects"),
    ("POST", re.compile(r"/api/v1/link-types/([^/]+)/traverse"), "link"),
    ("POST", re.compile(r"/api/v1/action-types/([^/]+)/invoke"), "action"),
    ("GET", re.compile(r"/admin/audit"), "audit"),
]


class Handler(BaseHTTPRequestHandler):
    """Request handler; the server sets :attr:`api`."""

    api: ClassVar[Api]
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out as separate writes
    server_version = "OntulEmbedded/1.0"

    def log_message(self, format: str, *args: Any) -> None:
        """Route access logs to logging (quiet by default)."""
        log.debug(format, *args)

    def do_GET(self) -> None:
        """Dispatch a GET."""
        self._dispatch("GET")

    def do_POST(self) -> None:
        """Dispatch a POST."""
        self._dispatch("POST")

    def do_PUT(self) -> None:
        """Refuse PUT."""
        self._dispatch("PUT")

    def do_DELETE(self) -> None:
        """Refuse DELETE."""
        self._dispatch("DELETE")

    def do_PATCH(self) -> None:
        """Refuse PATCH."""
        self._dispatch("PATCH")

    def do_OPTIONS(self) -> None:
        """Refuse OPTIONS (no CORS: browsers get no preflight approval)."""
        self._dispatch("OPTIONS")

    def do_HEAD(self) -> None:
        """Answer HEAD with the status and headers a GET would get, without a body."""
        self._head_only = True
        self._dispatch("HEAD")

    _head_only = False
    idle_timeout_s: ClassVar[float] = 30.0
    """A keep-alive connection with no new request for this long is closed."""
    request_timeout_s: ClassVar[float] = 10.0
    """A started request whose line, headers or body stall this long is dropped (408 for a body)."""

    def handle_one_request(self) -> None:
        """Serve one request: idle timeout until its first byte, request timeout after."""
        self.connection.settimeout(self.idle_timeout_s)
        try:
            started = bool(self.rfile.peek(1))  # type: ignore[attr-defined]
        except OSError:  # TimeoutError included: idle too long
            started = False
        if not started:
            self.close_connection = True
            return
        self.connection.settimeout(self.request_timeout_s)
        super().handle_one_request()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Errors the stdlib server raises itself, as JSON (an unknown method is 405)."""
        self.close_connection = True
        if getattr(self, "request_version", "HTTP/0.9") == "HTTP/0.9":
            self.request_version = "HTTP/1.0"  # an unparsable request line still gets a status
        if code == 501:  # "Unsupported method": every other verb is simply not allowed
            path = urlsplit(getattr(self, "path", "") or "/").path.rstrip("/") or "/"
            self._send(405, {"error": f"{self.command} is not allowed on {path}"})
            return
        if code >= 500:  # e.g. 505 for "HTTP/9.9": the client's mistake, not the server's
            code = 400
        try:
            phrase = HTTPStatus(code).phrase
        except ValueError:
            phrase = "error"
        self._send(code, {"error": message or phrase})

    def _send(self, status: int, payload: object) -> None:
        try:
            data = json.dumps(payload, ensure_ascii=False, default=str).encode(
                "utf-8", "backslashreplace"
            )
        except (MemoryError, RecursionError, ValueError):
            status, data = 413, _TOO_LARGE
        if len(data) > MAX_RESPONSE_BYTES:
            status, data = 413, _TOO_LARGE
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        if status == 405:
            self.send_header("Allow", self._allowed_methods())
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if not self._head_only:
            self.wfile.write(data)
        self._head_only = False

    def _allowed_methods(self) -> str:
        try:
            path = urlsplit(getattr(self, "path", "") or "/").path.rstrip("/") or "/"
        except ValueError:
            path = "/"
        verbs = {verb for verb, pattern, _ in ROUTES if pattern.fullmatch(path)}
        if not verbs:
            verbs = {verb for verb, _, _ in ROUTES}
        return ", ".join(sorted(verbs | ({"HEAD"} if "GET" in verbs else set())))

    def _dispatch(self, method: str) -> None:
        try:
            status, payload = self._route(method)
        except ApiError as exc:
            status, payload = exc.status, {"error": exc.message}
        except PolicyDenied as exc:
            status, payload = 403, {"error": str(exc)}
        except QueryRefused as exc:
            status, payload = 400, {"error": str(exc)}
        except ValidationError as exc:
            status, payload = 400, {"error": validation_message(exc)}
        except MemoryError:
            status, payload = 413, {"error": "the request needs more memory than allowed"}
        except RecursionError:
            status, payload = 400, {"error": "the request is nested too deeply"}
        except Exception:
            log.exception("internal error on %s %s", method, self.path)
            status, payload = 500, {"error": "internal error"}
        try:
            self._send(status, payload)
        except OSError:
            self.close_connection = True

    def _route(self, method: str) -> tuple[int, object]:
        parts = urlsplit(self.path)
        path = parts.path.rstrip("/") or "/"
        for verb, pattern, name in ROUTES:
            m = pattern.fullmatch(path)
            if m is None:
                continue
            if verb != method and not (method == "HEAD" and verb == "GET"):
                raise ApiError(405, f"{method} is not allowed on {path}")
            handler: Callable[..., tuple[int, object]] = getattr(self, "_h_" + name)
            return handler(*(unquote(g) for g in m.groups()), query=parse_qs(parts.query))
        raise ApiError(404, f"no endpoint {method} {path}")

    def _user(self) -> UserRecord:
        return self.api.authenticate(self.headers.get("Authorization"))

    def _h_health(self, query: dict[str, list[str]]) -> tuple[int, object]:
        return 200, {"status": "ok"}

    def _h_login(self, query: dict[str, list[str]]) -> tuple[int, object]:
        return 200, self.api.login(LoginBody.model_validate(read_json_body(self)))

    def _h_refresh(self, query: dict[str, list[str]]) -> tuple[int, object]:
        return 200, self.api.refresh(RefreshBody.model_validate(read_json_body(self)))

    def _h_sql(self, query: dict[str, list[str]]) -> tuple[int, object]:
        body = read_json_body(self)
        user = self._user()
        return 200, self.api.execute_sql(user, SqlBody.model_validate(body))

    def _outcome_audited(
        self, user: UserRecord, action: str, fqn: str, run: Callable[[], dict[str, Any]]
    ) -> dict[str, Any]:
        """Run a read; record a failure after the grant as ERROR/DENY with its reason.

        (The grant itself is audited by ``PlatformContext.require``; a policy
        denial is recorded there, so it is not recorded twice.)
        """
        try:
            return run()
        except QueryRefused as exc:
            self.api.ctx.writer.audit(user.user_id, action, fqn, "ERROR", None, str(exc))
            raise
        except ApiError as exc:
            self.api.ctx.writer.audit(user.user_id, action, fqn, "DENY", None, exc.message)
            raise

    def _h_retriever(self, fqn: str, query: dict[str, list[str]]) -> tuple[int, object]:
        body = RetrieverBody.model_validate(read_json_body(self))
        user = self._user()
        if body.maxRows is not None and body.maxRows < 1:
            raise ApiError(400, "maxRows must be positive")
        return 200, self._outcome_audited(
            user,
            "data:SelectTable",
            fqn,
            lambda: retrievers.invoke_retriever(self.api.ctx, user, fqn, body.args, body.maxRows),
        )

    def _h_objects(self, fqn: str, query: dict[str, list[str]]) -> tuple[int, object]:
        body = ObjectQueryBody.model_validate(read_json_body(self))
        user = self._user()
        return 200, self._outcome_audited(
            user,
            "data:SelectTable",
            fqn,
            lambda: ontology.query_objects(
                self.api.ctx,
                user,
                fqn,
                body.filters or {},
                body.select,
                body.orderBy,
                body.desc,
                body.limit,
            ),
        )

    def _h_link(self, fqn: str, query: dict[str, list[str]]) -> tuple[int, object]:
        body = TraverseBody.model_validate(read_json_body(self))
        user = self._user()
        result = self._outcome_audited(
            user,
            "data:SelectTable",
            fqn,
            lambda: ontology.traverse_link(
                self.api.ctx, user, fqn, body.sourceKey, body.select, body.limit, body.maxDepth
            ),
        )
        # Echo the platform's date, so a client can reason about "in force today"
        # with the platform's clock (ONTUL_TODAY), not its own.
        return 200, {**result, "asOf": self.api.ctx.today.isoformat()}

    def _h_action(self, fqn: str, query: dict[str, list[str]]) -> tuple[int, object]:
        body = ActionBody.model_validate(read_json_body(self))
        user = self._user()
        return 200, ontology.invoke_action(self.api.ctx, user, fqn, body.args, body.idempotencyKey)

    def _h_audit(self, query: dict[str, list[str]]) -> tuple[int, object]:
        return 200, self.api.audit(self._user(), query)
