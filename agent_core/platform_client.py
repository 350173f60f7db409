"""HTTP client for the Ontul data platform (SPEC §2), one token per persona.

Every call has a timeout. Loopback URLs never go through a proxy; others
honour ``HTTP(S)_PROXY`` / ``NO_PROXY``. On a 401 the client re-authenticates
once (refresh, else a fresh login) and retries; a second 401 raises ``PlatformAuthError``,
never an empty result. The quirks of real deployments (epoch-day dates, the
empty-search parse error) are read by ``agent_core.platform_quirks``; the
abortable transport lives in ``agent_core.abortable_http``.
"""

from __future__ import annotations

import datetime as dt
import threading
from typing import Any
from urllib.parse import quote

import requests

from agent_core.abortable_http import AbortableAdapter, DirectLoopbackSession
from agent_core.errors import (
    PlatformAuthError,
    PlatformBadRequestError,
    PlatformError,
    PlatformForbiddenError,
    PlatformNetworkError,
    PlatformNotFoundError,
    PlatformServerError,
    PlatformTimeoutError,
)
from agent_core.platform_quirks import (
    EMPTY_SEARCH_QUIRK,
    error_class_for_message,
    normalise_dates,
)

DEFAULT_TIMEOUT_S = 15.0
"""Read timeout of every platform call, in seconds."""


class PlatformClient:
    """Talks to one Ontul platform as one person.

    Args:
        base_url: Platform URL, e.g. ``http://127.0.0.1:8765``.
        username: Login name.
        password: Password (kept in memory only, for re-login on expiry).
        timeout: Read timeout of every call, in seconds.
        connect_timeout: Connect timeout, in seconds.
    """

    def __init__(
        self,
        base_url: str,
        username: str,
        password: str,
        timeout: float = DEFAULT_TIMEOUT_S,
        connect_timeout: float = 5.0,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.username = username
        self._password = password
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        # Loopback (the embedded platform) never through a proxy; a real Ontul
        # honours HTTP(S)_PROXY and NO_PROXY.
        self._session: requests.Session = DirectLoopbackSession()
        self._adapter = AbortableAdapter()
        self._session.mount("http://", self._adapter)
        self._session.mount("https://", self._adapter)
        self._lock = threading.Lock()
        self._auth_lock = threading.Lock()
        """One renewal at a time: a platform that rotates refresh tokens revokes the
        whole family when one is used twice, which two threads renewing at once do."""
        self._access: str | None = None
        self._refresh: str | None = None
        self.is_admin = False
        self.display_name: str | None = None
        self.call_count = 0
        """Number of HTTP requests made (for benchmarks)."""
        self._today: dt.date | None = None

    # -- transport -------------------------------------------------------

    def _raw(
        self, method: str, path: str, body: dict[str, Any] | None, token: str | None
    ) -> requests.Response:
        headers = {"Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.call_count += 1
        try:
            return self._session.request(
                method,
                self.base_url + path,
                json=body,
                headers=headers,
                timeout=(self.connect_timeout, self.timeout),
            )
        except requests.Timeout as exc:
            raise PlatformTimeoutError(f"platform did not answer in {self.timeout:g} s") from exc
        except requests.RequestException as exc:
            raise PlatformNetworkError(f"platform unreachable: {exc}") from exc

    @staticmethod
    def _json(resp: requests.Response) -> dict[str, Any]:
        try:
            data = resp.json()
        except ValueError as exc:
            raise PlatformServerError(
                f"platform sent non-JSON (HTTP {resp.status_code})", resp.status_code
            ) from exc
        if isinstance(data, list):
            return {"rows": data}
        if not isinstance(data, dict):
            raise PlatformServerError("platform sent an unexpected body", resp.status_code)
        return data

    def _raise_for(self, resp: requests.Response) -> None:
        if resp.status_code < 400:
            return
        try:
            message = str(self._json(resp).get("error") or resp.reason)
        except PlatformError:
            message = resp.reason or f"HTTP {resp.status_code}"
        status = resp.status_code
        if status == 401:
            raise PlatformAuthError(message, status)
        if status == 403:
            raise PlatformForbiddenError(message, status)
        if status == 404:
            raise PlatformNotFoundError(message, status)
        if status in (400, 409, 422):
            raise PlatformBadRequestError(message, status)
        raise PlatformServerError(message, status)

    def abort(self) -> None:
        """End any in-flight request from another thread (used on cancellation)."""
        self._adapter.abort()

    def close(self) -> None:
        """Release the connection pool, and end connections still held by a response.

        A response kept alive (by an exception's traceback, say a refused login's)
        holds its connection outside the pool, where closing the pool misses it.
        """
        self._session.close()
        self._adapter.abort()

    # -- authentication --------------------------------------------------

    def login(self) -> dict[str, Any]:
        """Log in with the stored credentials.

        Returns:
            The login response (``accessToken``, ``refreshToken``, ``username``, ``isAdmin``).

        Raises:
            PlatformAuthError: Credentials refused.
        """
        creds = {"username": self.username, "password": self._password}
        resp = self._raw("POST", "/admin/auth/login", creds, None)
        if resp.status_code in (401, 403):
            raise PlatformAuthError(
                f"login refused for {self.username}: {self._message(resp)}", resp.status_code
            )
        self._raise_for(resp)
        data = self._json(resp)
        with self._lock:
            self._access = data.get("accessToken")
            self._refresh = data.get("refreshToken")
        if not self._access:
            raise PlatformServerError("login response carried no token")
        self.is_admin = bool(data.get("isAdmin"))
        self.display_name = data.get("displayName") or data.get("display_name")
        return data

    def refresh(self) -> bool:
        """Exchange the refresh token for a new access token.

        Returns:
            True on success, False when the platform refused the refresh token.
        """
        if not self._refresh:
            return False
        resp = self._raw("POST", "/admin/auth/refresh", {"refreshToken": self._refresh}, None)
        if resp.status_code >= 400:
            return False
        data = self._json(resp)
        token = data.get("accessToken")
        if not token:
            return False
        with self._lock:
            self._access = token
            # SPEC's refresh answers {accessToken}; a platform that rotates refresh
            # tokens also sends the next one, and the spent one must not be reused.
            self._refresh = data.get("refreshToken") or self._refresh
        return True

    def _reauthenticate(self, stale: str | None) -> None:
        with self._auth_lock:
            if self._access != stale:
                return  # another thread renewed the token while this one waited
            if not self.refresh():
                self.login()

    @staticmethod
    def _message(resp: requests.Response) -> str:
        try:
            return str(resp.json().get("error") or resp.reason)
        except (ValueError, AttributeError):
            return resp.reason or f"HTTP {resp.status_code}"

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        if self._access is None:
            self.login()
        sent = self._access
        resp = self._raw(method, path, body, sent)
        if resp.status_code == 401:
            self._reauthenticate(sent)
            resp = self._raw(method, path, body, self._access)
            if resp.status_code == 401:
                raise PlatformAuthError(
                    f"the platform refused {self.username}'s credentials: {self._message(resp)}",
                    401,
                )
        self._raise_for(resp)
        return self._json(resp)

    # -- the platform's date ----------------------------------------------

    @property
    def today_known(self) -> bool:
        """True once a response has told the platform's date."""
        return self._today is not None

    def today(self) -> dt.date:
        """The platform's today, else (before any response told it) the local date.

        The embedded platform echoes the date it used as ``asOf`` in retriever and
        link-traversal responses; the first one that is not an explicit ``as_of``
        request is remembered. A real Ontul does not send it, so the local date
        stands in there.

        Returns:
            The date.
        """
        return self._today if self._today is not None else dt.date.today()

    def _learn_today(self, data: dict[str, Any]) -> None:
        if self._today is not None:
            return
        try:
            self._today = dt.date.fromisoformat(str(data.get("asOf"))[:10])
        except ValueError:
            pass

    # -- endpoints -------------------------------------------------------

    def execute_sql(self, sql: str) -> dict[str, Any]:
        """Run one SELECT through the SQL endpoint.

        Args:
            sql: A single SELECT statement.

        Returns:
            ``{"columns": [names], "types": [..], "rows": [[..]], "rowCount"}``.

        Raises:
            PlatformForbiddenError: The statement touched something not granted.
            PlatformBadRequestError: The statement failed otherwise.
        """
        data = self._call("POST", "/admin/query/execute", {"sql": sql})
        if data.get("status") == "error" or "error" in data:
            message = str(data.get("error") or "statement failed")
            raise error_class_for_message(message)(message)
        cols = data.get("columns") or []
        names = [str(c.get("name")) if isinstance(c, dict) else str(c) for c in cols]
        types = [c.get("type", "") if isinstance(c, dict) else "" for c in cols]
        rows = normalise_dates(names, data.get("rows") or [], types)
        return {"columns": names, "types": types, "rows": rows, "rowCount": len(rows)}

    def _tabular(self, data: dict[str, Any]) -> dict[str, Any]:
        if "error" in data:
            message = str(data["error"])
            if EMPTY_SEARCH_QUIRK in message:
                return {**data, "error": None, "rows": [], "rowCount": 0, "columns": []}
            raise error_class_for_message(message)(message)
        cols = data.get("columns") or []
        names = [str(c.get("name")) if isinstance(c, dict) else str(c) for c in cols]
        rows = normalise_dates(names, data.get("rows") or [])
        return {**data, "columns": names, "rows": rows, "rowCount": len(rows)}

    def _tabular_call(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        try:
            data = self._call("POST", path, body)
        except PlatformError as exc:
            if EMPTY_SEARCH_QUIRK in exc.message:
                return {"columns": [], "rows": [], "rowCount": 0}
            if isinstance(exc, PlatformBadRequestError | PlatformServerError):
                raise error_class_for_message(exc.message)(exc.message, exc.status) from exc
            raise
        return self._tabular(data)

    def invoke_retriever(
        self, fqn: str, args: dict[str, Any], max_rows: int | None = None
    ) -> dict[str, Any]:
        """Invoke a retriever with arguments (never formatted into SQL here).

        Args:
            fqn: Retriever name, e.g. ``semantic.rag.regulation_search``.
            args: Its arguments.
            max_rows: Optional row cap.

        Returns:
            ``{"columns": [names], "rows": [[..]], "rowCount"}``, plus ``asOf`` (the
            date the platform used) when the platform sends it.
        """
        body: dict[str, Any] = {"args": args}
        if max_rows is not None:
            body["maxRows"] = max_rows
        data = self._tabular_call(f"/api/v1/retrievers/{fqn}/invoke", body)
        if not args.get("as_of"):  # an explicit as_of is echoed back, not the platform's today
            self._learn_today(data)
        return data

    def query_objects(
        self,
        fqn: str,
        filters: dict[str, Any] | None = None,
        select: list[str] | None = None,
        order_by: str | None = None,
        desc: bool = False,
        limit: int = 50,
    ) -> dict[str, Any]:
        """Query an object type with declared-property filters.

        Args:
            fqn: Object type, e.g. ``reg.ontology.Regulation``.
            filters: Property equality filters.
            select: Properties to return.
            order_by: Property to sort by.
            desc: Sort descending.
            limit: Row cap.

        Returns:
            ``{"columns", "rows", "rowCount"}``.
        """
        body: dict[str, Any] = {"limit": limit, "desc": desc}
        if filters:
            body["filters"] = filters
        if select:
            body["select"] = select
        if order_by:
            body["orderBy"] = order_by
        return self._tabular_call(f"/api/v1/object-types/{fqn}/query", body)

    def traverse_link(
        self,
        fqn: str,
        source_key: str,
        select: list[str] | None = None,
        limit: int = 50,
        max_depth: int = 5,
    ) -> dict[str, Any]:
        """Traverse a link type from one object.

        Args:
            fqn: Link type, e.g. ``reg.ontology.derives_from``.
            source_key: Key of the source object (a doc_no).
            select: Columns to return.
            limit: Row cap.
            max_depth: Depth for GRAPH links.

        Returns:
            ``{"mode", "columns", "rows", "rowCount"}``.
        """
        body: dict[str, Any] = {"sourceKey": source_key, "limit": limit, "maxDepth": max_depth}
        if select:
            body["select"] = select
        data = self._tabular_call(f"/api/v1/link-types/{fqn}/traverse", body)
        self._learn_today(data)
        return data

    def invoke_action(
        self, fqn: str, args: dict[str, Any], idempotency_key: str | None = None
    ) -> dict[str, Any]:
        """Invoke an ontology action (a write).

        Args:
            fqn: Action type, e.g. ``reg.ontology.request_revision``.
            args: Action arguments.
            idempotency_key: Key that makes a retry a replay.

        Returns:
            ``{"action", "ok", "status": "OK"|"REPLAYED"|"PENDING_APPROVAL", ...}``.
        """
        body: dict[str, Any] = {"args": args}
        if idempotency_key:
            body["idempotencyKey"] = idempotency_key
        data = self._call("POST", f"/api/v1/action-types/{fqn}/invoke", body)
        if "error" in data and not data.get("ok"):
            message = str(data["error"])
            raise error_class_for_message(message)(message)
        return data

    def audit(
        self, user: str | None = None, action: str | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        """Read the platform's audit log (administrators only).

        Args:
            user: Filter by user id.
            action: Filter by action.
            limit: Row cap.

        Returns:
            Audit rows.
        """
        params = [f"limit={int(limit)}"]
        if user:
            params.append("user=" + quote(user))
        if action:
            params.append("action=" + quote(action))
        data = self._call("GET", "/admin/audit?" + "&".join(params))
        rows = data.get("rows") or data.get("audit") or data.get("entries") or []
        return [r for r in rows if isinstance(r, dict)]
