"""``OntulServer``: the embedded platform on a stdlib ``ThreadingHTTPServer``."""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
from datetime import date
from http.server import ThreadingHTTPServer
from pathlib import Path

from embedded.ontul.audit import Writer
from embedded.ontul.auth import LoginThrottle, TokenService, UserStore
from embedded.ontul.context import PlatformContext
from embedded.ontul.embedder import Embedder, HashedNgramEmbedder
from embedded.ontul.guarded_sqlite import CACHE_KIB, QUERY_DEADLINE_S, close_pool
from embedded.ontul.http_api import Api, Handler
from embedded.ontul.policy import PolicyEngine, load_policies
from embedded.ontul.search import SearchIndex
from embedded.ontul.sql_rewrite import SqlRewriter
from resources import RESOURCES_DIR

_log = logging.getLogger(__name__)


def resolve_today(today: date | None) -> date:
    """Return ``today`` if given, else env ``ONTUL_TODAY`` (ISO), else the clock."""
    if today is not None:
        return today
    configured = os.environ.get("ONTUL_TODAY")
    return date.fromisoformat(configured) if configured else date.today()


def _setting(value: float | None, env: str, default: float) -> float:
    """``value`` if given, else the positive number in env ``env``, else ``default``."""
    if value is not None:
        return value
    raw = os.environ.get(env)
    if not raw:
        return default
    try:
        number = float(raw)
    except ValueError:
        raise ValueError(f"{env} must be a number of seconds, not {raw!r}") from None
    if not number > 0:
        raise ValueError(f"{env} must be positive, not {raw!r}")
    return number


class _ClosingHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server that can drop every open connection on stop.

    ``shutdown()`` only ends the accept loop; handler threads keep serving
    keep-alive connections. :meth:`close_connections` shuts their sockets so
    a client sees the server go away (a connection error), as with a real one.
    """

    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: type[Handler]) -> None:
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()
        self._closing = False
        super().__init__(address, handler)

    def process_request(self, request: socket.socket, client_address: object) -> None:  # type: ignore[override]
        """Remember the connection, then serve it in a thread."""
        with self._open_lock:
            if self._closing:
                self._drop(request)
                return
            self._open.add(request)
        super().process_request(request, client_address)

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that hung up mid-reply is routine; anything else is logged, not printed."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        _log.exception("request from %s failed", client_address)

    def shutdown_request(self, request: socket.socket) -> None:  # type: ignore[override]
        """Forget a finished connection and close it."""
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        """Refuse new connections and shut every open one (handlers then exit)."""
        with self._open_lock:
            self._closing = True
            open_now, self._open = list(self._open), set()
        for request in open_now:
            self._drop(request)

    @staticmethod
    def _drop(request: socket.socket) -> None:
        try:
            request.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # the peer already went away
        request.close()


class OntulServer:
    """The Ontul-compatible platform over one SQLite database.

    Example:
        >>> server = OntulServer(db_path).start()   # doctest: +SKIP
        >>> server.url                              # doctest: +SKIP
        'http://127.0.0.1:54321'
    """

    def __init__(
        self,
        db_path: Path | str,
        host: str = "127.0.0.1",
        port: int = 0,
        token_ttl_s: float = 900,
        today: date | None = None,
        *,
        policies_dir: Path | None = None,
        embedder: Embedder | None = None,
        refresh_ttl_s: float = 8 * 3600,
        query_deadline_s: float | None = None,
        idle_timeout_s: float | None = None,
        request_timeout_s: float | None = None,
        login_throttle: LoginThrottle | None = None,
    ) -> None:
        """Load policies, build the search index and bind the socket.

        Args:
            db_path: The platform database (built by the demo generator).
            host: Interface to bind; loopback by default.
            port: Port, 0 for a free one.
            token_ttl_s: Access-token lifetime (seconds; may be 1 for tests).
            today: Platform date (default env ``ONTUL_TODAY`` or the clock).
            policies_dir: Policy folder (default env ``ONTUL_POLICIES_DIR``, else
                ``resources/policies``).
            embedder: Dense embedder (default the hashed n-gram fallback).
            refresh_ttl_s: Refresh-token lifetime.
            query_deadline_s: Deadline of one SQL statement (default env
                ``ONTUL_QUERY_DEADLINE_S``, else 5 s).
            idle_timeout_s: Close a keep-alive connection idle this long (default
                env ``ONTUL_IDLE_TIMEOUT_S``, else 30 s).
            request_timeout_s: Drop a request whose headers or body stall this
                long (default env ``ONTUL_REQUEST_TIMEOUT_S``, else 10 s).
            login_throttle: Pause after repeated failed logins (default env
                ``ONTUL_LOGIN_BACKOFF``: ``off`` or ``threshold,base_s,max_s``;
                else 10 failures, then 0.5 s doubling up to 60 s).
        """
        self.db_path = Path(db_path)
        self.today = resolve_today(today)
        env_dir = os.environ.get("ONTUL_POLICIES_DIR")
        folder = policies_dir or (Path(env_dir) if env_dir else RESOURCES_DIR / "policies")
        engine = PolicyEngine(load_policies(folder))
        self.ctx = PlatformContext(
            db_path=self.db_path,
            engine=engine,
            today=self.today,
            index=SearchIndex(self.db_path, embedder or HashedNgramEmbedder()),
            writer=self._writer(),
            rewriter=SqlRewriter(engine, self.today),
        )
        self.tokens = TokenService(token_ttl_s, refresh_ttl_s)
        api = Api(
            self.ctx,
            UserStore(self.db_path),
            self.tokens,
            query_deadline_s=_setting(query_deadline_s, "ONTUL_QUERY_DEADLINE_S", QUERY_DEADLINE_S),
            throttle=login_throttle
            or LoginThrottle.from_env(os.environ.get("ONTUL_LOGIN_BACKOFF")),
        )
        handler = type(
            "BoundHandler",
            (Handler,),
            {
                "api": api,
                "idle_timeout_s": _setting(idle_timeout_s, "ONTUL_IDLE_TIMEOUT_S", 30.0),
                "request_timeout_s": _setting(request_timeout_s, "ONTUL_REQUEST_TIMEOUT_S", 10.0),
            },
        )
        self._httpd = _ClosingHTTPServer((host, port), handler)
        self._thread: threading.Thread | None = None

    def _writer(self) -> Writer:
        writer = Writer(self.db_path)
        # the audit tables only grow: keep the writer's page cache small
        writer.conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        return writer

    @property
    def url(self) -> str:
        """Base URL, e.g. ``http://127.0.0.1:54321``."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> OntulServer:
        """Serve in a daemon thread and return self."""
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, name="ontul-http", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving: close the listening socket and every open connection.

        Keep-alive clients then see a connection error, as when a real
        server goes away, instead of answers from a half-stopped platform.
        """
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._httpd.server_close()
        self._httpd.close_connections()
        self.ctx.writer.close()
        close_pool(self.db_path)
