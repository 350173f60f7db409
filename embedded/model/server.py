"""``ModelServer``: the offline model behind an Anthropic-compatible HTTP endpoint.

``POST /v1/messages`` (JSON or SSE, message threads), ``POST
/v1/messages/count_tokens`` and ``GET /health`` on a
stdlib ``ThreadingHTTPServer``. Every reply is decided by the deterministic
planner. Every malformed request is a 4xx JSON error in the Messages API's
shape, wrong methods included (405 with ``Allow``).

The server runs in a process of its own (``embedded.model.child``;
``in_process=True`` or ``REGDESK_MODEL_IN_PROCESS=1`` keeps it on a thread of
the caller): on a thread of the platform's process its CPU-bound planning and
JSON handling would hold the GIL while platform requests wait.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from embedded.model.child import ModelChild, ServeOptions
from embedded.model.planner import plan_reply
from embedded.model.sse import stream_events
from embedded.model.threads import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_REPLIES,
    DEFAULT_TTL_S,
    THREADS_BETA,
    StoredReply,
    ThreadStore,
)
from embedded.model.wire import (
    MessagesRequest,
    Reply,
    RequestError,
    decode_body,
    error_body,
    input_tokens,
    make_reply,
    message_body,
    new_id,
    parse_request,
)

if TYPE_CHECKING:
    from collections.abc import Callable

_log = logging.getLogger(__name__)

MODEL_DISPLAY_NAME = "Offline demo model (deterministic, no LLM)"
"""What the UI shows for this model."""

PACE_ENV = "REGDESK_MODEL_PACE_MS"
"""Environment variable that overrides the pacing between text chunks (milliseconds)."""
IN_PROCESS_ENV = "REGDESK_MODEL_IN_PROCESS"
"""Environment variable: ``1`` serves the model on a thread of the caller's process."""

MAX_BODY = 16 * 1024 * 1024
"""Largest request body accepted (413 beyond)."""
IDLE_TIMEOUT_S = 30.0
"""An idle or half-sent connection is closed after this long."""
MODEL_NICENESS = 5
"""Scheduling niceness the model process adds to itself (POSIX)."""
_START_TIMEOUT_S = 60.0
_CLIENT_GONE = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError)
_ROUTES = {
    "/v1/messages": ("POST",),
    "/v1/messages/count_tokens": ("POST",),
    "/health": ("GET", "HEAD"),
}


def resolve_pace(pace_s: float) -> float:
    """Return the pacing in seconds: env ``REGDESK_MODEL_PACE_MS`` wins over ``pace_s``."""
    raw = os.environ.get(PACE_ENV, "").strip()
    if raw:
        try:
            return max(0.0, float(raw) / 1000.0)
        except ValueError:
            _log.warning("ignoring %s=%r (not a number)", PACE_ENV, raw)
    return max(0.0, pace_s)


class _Handler(BaseHTTPRequestHandler):
    server: _ModelHTTPServer
    protocol_version = "HTTP/1.1"
    timeout = IDLE_TIMEOUT_S

    def log_message(self, format: str, *args: Any) -> None:
        _log.debug("%s " + format, self.address_string(), *args)

    def _route(self) -> str:
        return str(getattr(self, "path", "") or "").split("?")[0]

    def _send_json(
        self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None
    ) -> None:
        raw = json.dumps(body, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.send_header("request-id", str(body.get("request_id") or new_id("req_")))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if getattr(self, "command", "") != "HEAD":
            self.wfile.write(raw)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """JSON errors for what the stdlib rejects itself (bad request line, unknown method …)."""
        self.close_connection = True
        if getattr(self, "request_version", "HTTP/0.9") == "HTTP/0.9":
            self.request_version = "HTTP/1.1"  # answer a garbled request line with headers
        route = self._route()
        if code == HTTPStatus.NOT_IMPLEMENTED and route in _ROUTES:
            self._method_not_allowed(route)
            return
        if code == HTTPStatus.NOT_IMPLEMENTED:
            code = HTTPStatus.NOT_FOUND
            message = f"no route {route}"
        if code >= 500:  # e.g. 505 for 'HTTP/9.9': a malformed request is the client's (4xx)
            code = HTTPStatus.BAD_REQUEST
        kind = "not_found_error" if code == HTTPStatus.NOT_FOUND else "invalid_request_error"
        try:
            self._send_json(code, error_body(message or HTTPStatus(code).phrase, kind))
        except _CLIENT_GONE:
            pass

    def _method_not_allowed(self, route: str) -> None:
        allow = ", ".join(_ROUTES[route])
        self.close_connection = True
        self._send_json(
            HTTPStatus.METHOD_NOT_ALLOWED,
            error_body(f"{self.command} is not allowed on {route}; use {allow}"),
            {"Allow": allow},
        )

    def _dispatch(self, method: str) -> None:
        try:
            route = self._route()
            if route not in _ROUTES:
                self._send_json(404, error_body(f"no route {route}", "not_found_error"))
            elif method not in _ROUTES[route]:
                self._method_not_allowed(route)
            elif route == "/health":
                self._send_json(200, {"status": "ok", "model": MODEL_DISPLAY_NAME})
            elif route == "/v1/messages/count_tokens":
                self._count_tokens()
            else:
                self._handle_post()
        except _CLIENT_GONE:
            _log.debug("client went away")
            self.close_connection = True

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_HEAD(self) -> None:
        self._dispatch("HEAD")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_PUT(self) -> None:
        self._dispatch("PUT")

    def do_DELETE(self) -> None:
        self._dispatch("DELETE")

    def do_PATCH(self) -> None:
        self._dispatch("PATCH")

    def do_OPTIONS(self) -> None:
        self._dispatch("OPTIONS")

    def do_TRACE(self) -> None:
        self._dispatch("TRACE")

    def do_CONNECT(self) -> None:
        self._dispatch("CONNECT")

    def _read_body(self) -> bytes:
        if "chunked" in str(self.headers.get("Transfer-Encoding") or "").lower():
            self.close_connection = True
            raise RequestError("chunked bodies are not accepted; send Content-Length", status=411)
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0:
            self.close_connection = True
            raise RequestError("invalid Content-Length")
        if length > MAX_BODY:
            self.close_connection = True
            raise RequestError(
                f"request body is larger than {MAX_BODY} bytes",
                status=413,
                error_type="request_too_large",
            )
        return self.rfile.read(length)

    def _handle_post(self) -> None:
        claimed: str | None = None
        try:
            raw = self._read_body()
            request = parse_request(decode_body(raw))
            request, claimed = self._threaded(request)
            blocks = plan_reply(request)
            reply = make_reply(request, blocks)
        except RequestError as exc:
            self._abort(claimed)
            self._send_json(exc.status, exc.body())
            return
        except Exception:  # a planner bug must surface as an API error, not a dead socket
            self._abort(claimed)
            _log.exception("planner failed")
            self._send_json(500, error_body("the offline planner failed", "api_error"))
            return
        if request.thread is not None:
            self._store(request, reply, claimed, len(raw))
        if not request.stream:
            self._send_json(200, message_body(request, reply))
            return
        self._stream(request, reply)

    def _count_tokens(self) -> None:
        """``POST /v1/messages/count_tokens``: the input tokens (no max_tokens needed)."""
        try:
            body = decode_body(self._read_body())
            request = parse_request({"max_tokens": 1, **body})
        except RequestError as exc:
            self._send_json(exc.status, exc.body())
            return
        self._send_json(200, {"input_tokens": input_tokens(request)})

    def _abort(self, claimed: str | None) -> None:
        if claimed is not None:
            self.server.threads.abort(claimed)

    def _threaded(self, request: MessagesRequest) -> tuple[MessagesRequest, str | None]:
        """Rebuild a thread continue's conversation; return it and the reply it claimed."""
        if request.thread is None:
            return request, None
        betas = {b.strip() for b in str(self.headers.get("anthropic-beta") or "").split(",")}
        if THREADS_BETA not in betas:
            raise RequestError(f"thread: requires the anthropic-beta header '{THREADS_BETA}'")
        if request.thread["type"] == "create":
            return request, None
        for name in ("system", "tools"):
            if name in request.sent:
                raise RequestError(
                    f"{name}: must be left out of a thread continue; the thread keeps the "
                    "value it was created with"
                )
        previous = str(request.thread["previous_message_id"])
        stored = self.server.threads.begin_continue(previous, request.model)
        merged = MessagesRequest(
            model=request.model,
            max_tokens=request.max_tokens,
            messages=[*stored.messages, *request.messages],
            system=stored.system,
            tools=stored.tools,
            stream=request.stream,
            thread=request.thread,
            stop_sequences=request.stop_sequences,
            sent=request.sent,
        )
        return merged, previous

    def _store(
        self, request: MessagesRequest, reply: Reply, previous: str | None, size: int
    ) -> None:
        conversation = [*request.messages, {"role": "assistant", "content": reply.content}]
        stored = StoredReply(request.model, request.system, request.tools, conversation)
        self.server.threads.store(reply.id, stored, previous_id=previous, added_bytes=size)

    def _stream(self, request: MessagesRequest, reply: Reply) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.send_header("request-id", new_id("req_"))
        self.end_headers()
        self.close_connection = True
        pace = self.server.pace_s
        for event in stream_events(request, reply):
            if event.is_text_delta and pace > 0:
                time.sleep(pace)  # deliberate pacing, like a real model's token rate
            self.wfile.write(event.encode())
            self.wfile.flush()


class _ModelHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    pace_s: float = 0.0
    threads: ThreadStore

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that hung up mid-reply is routine; anything else is logged, not printed."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        _log.exception("request from %s failed", client_address)


def _make_httpd(
    host: str, port: int, pace_s: float, thread_limits: tuple[float, int, int]
) -> _ModelHTTPServer:
    httpd = _ModelHTTPServer((host, port), _Handler)
    httpd.pace_s = pace_s
    ttl_s, max_replies, max_bytes = thread_limits
    httpd.threads = ThreadStore(ttl_s=ttl_s, max_replies=max_replies, max_bytes=max_bytes)
    return httpd


def serve(
    options: ServeOptions,
    report: Callable[[dict[str, Any]], None],
    wait: Callable[[], object],
) -> None:
    """The model process's main: bind, report the address, serve until ``wait`` returns."""
    if hasattr(os, "nice"):
        # On a small machine the platform's requests come first; the model can wait.
        try:
            os.nice(MODEL_NICENESS)
        except OSError:
            pass
    limits = (options.thread_ttl_s, options.max_thread_replies, options.max_thread_bytes)
    try:
        httpd = _make_httpd(options.host, options.port, options.pace_s, limits)
    except OSError as exc:
        report({"error": f"{type(exc).__name__}: {exc}"})
        return
    report({"ok": [str(httpd.server_address[0]), int(httpd.server_address[1])]})
    serving = threading.Thread(target=httpd.serve_forever, name="regdesk-model", daemon=True)
    serving.start()
    try:
        wait()  # returns once the parent stops us, exits or dies
    except (EOFError, OSError, KeyboardInterrupt):
        pass
    # No shutdown(): it waits out serve_forever's poll interval; the process is
    # ending, and its exit closes the listening socket and every connection.
    httpd.server_close()


class ModelServer:
    """The offline model on a loopback port.

    Args:
        host: Interface to bind.
        port: Port to bind (0 picks a free one).
        pace_s: Seconds between streamed text chunks (env ``REGDESK_MODEL_PACE_MS`` wins).
        in_process: Serve on a thread of this process instead of a child process
            (default: env ``REGDESK_MODEL_IN_PROCESS``, else a child process).
        thread_ttl_s: Lifetime of a message thread after its last reply.
        max_thread_replies: Stored thread replies kept at most.
        max_thread_bytes: Stored thread conversation bytes kept at most.
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        pace_s: float = 0.0,
        *,
        in_process: bool | None = None,
        thread_ttl_s: float = DEFAULT_TTL_S,
        max_thread_replies: int = DEFAULT_MAX_REPLIES,
        max_thread_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        if in_process is None:
            in_process = os.environ.get(IN_PROCESS_ENV, "").strip() == "1"
        # A daemonic multiprocessing worker may not start multiprocessing children
        # (the frozen build's way of starting the model process).
        daemonic = bool(multiprocessing.current_process().daemon)
        self._in_process = in_process or (daemonic and bool(getattr(sys, "frozen", False)))
        self._host, self._port = host, port
        self._pace_s = resolve_pace(pace_s)
        self._limits = (thread_ttl_s, max_thread_replies, max_thread_bytes)
        self._address: tuple[str, int] | None = None
        self._httpd: _ModelHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._child: ModelChild | None = None

    @property
    def url(self) -> str:
        """Base URL to give the Anthropic SDK as ``base_url`` (after ``start()``)."""
        if self._address is None:
            raise RuntimeError("the model server is not started")
        host, port = self._address
        return f"http://{host}:{port}"

    @property
    def pace_s(self) -> float:
        """Seconds between streamed text chunks."""
        return self._pace_s

    @property
    def pid(self) -> int | None:
        """Process id serving the model (this process when in-process), None before start."""
        if self._child is not None:
            return self._child.pid
        return os.getpid() if self._httpd is not None else None

    def start(self) -> ModelServer:
        """Start serving (in a child process unless in-process) and return self.

        Raises:
            OSError: When the address cannot be bound.
            RuntimeError: When the child process does not come up.
        """
        if self._address is not None:
            return self
        if self._in_process:
            self._httpd = _make_httpd(self._host, self._port, self._pace_s, self._limits)
            self._address = (str(self._httpd.server_address[0]), int(self._httpd.server_address[1]))
            self._thread = threading.Thread(
                target=self._httpd.serve_forever, name="regdesk-model", daemon=True
            )
            self._thread.start()
            return self
        ttl_s, max_replies, max_bytes = self._limits
        child = ModelChild(
            ServeOptions(self._host, self._port, self._pace_s, ttl_s, max_replies, max_bytes)
        )
        self._address = child.start(_START_TIMEOUT_S)
        self._child = child
        return self

    def stop(self) -> None:
        """Stop serving and close the socket (ends the child process)."""
        if self._httpd is not None:
            if self._thread is not None:
                self._httpd.shutdown()
                self._thread.join(timeout=5)
                self._thread = None
            self._httpd.server_close()
            self._httpd = None
        if self._child is not None:
            self._child.stop()
            self._child = None
        self._address = None
