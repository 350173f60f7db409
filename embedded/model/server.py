"""``ModelServer``: the offline model behind an Anthropic-compatible HTTP endpoint.

``POST /v1/messages`` (JSON or SSE) and ``GET /health`` on a stdlib
``ThreadingHTTPServer``. Every reply is decided by the deterministic planner.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from embedded.model.planner import plan_reply
from embedded.model.sse import stream_events
from embedded.model.wire import RequestError, error_body, message_body, parse_request

_log = logging.getLogger(__name__)

MODEL_DISPLAY_NAME = "Offline demo model (deterministic, no LLM)"
"""What the UI shows for this model."""

PACE_ENV = "REGDESK_MODEL_PACE_MS"
"""Environment variable that overrides the pacing between text chunks (milliseconds)."""

_MAX_BODY = 16 * 1024 * 1024
_CLIENT_GONE = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


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

    def log_message(self, format: str, *args: Any) -> None:
        _log.debug("%s " + format, self.address_string(), *args)

    def _send_json(self, status: int, body: dict[str, Any]) -> None:
        raw = json.dumps(body, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_GET(self) -> None:
        try:
            if self.path.split("?")[0] == "/health":
                self._send_json(200, {"status": "ok", "model": MODEL_DISPLAY_NAME})
            else:
                self._send_json(404, error_body(f"no route {self.path}", "not_found_error"))
        except _CLIENT_GONE:
            self.close_connection = True

    def do_POST(self) -> None:
        try:
            self._handle_post()
        except _CLIENT_GONE:
            _log.debug("client went away")
            self.close_connection = True

    def _handle_post(self) -> None:
        if self.path.split("?")[0] != "/v1/messages":
            self._send_json(404, error_body(f"no route {self.path}", "not_found_error"))
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > _MAX_BODY:
            self.close_connection = True
            self._send_json(400, error_body("invalid Content-Length"))
            return
        try:
            request = parse_request(self.rfile.read(length))
        except RequestError as exc:
            self._send_json(400, error_body(str(exc)))
            return
        try:
            blocks = plan_reply(request)
        except Exception:  # a planner bug must surface as an API error, not a dead socket
            _log.exception("planner failed")
            self._send_json(500, error_body("the offline planner failed", "api_error"))
            return
        if not request.stream:
            self._send_json(200, message_body(request, blocks))
            return
        self._stream(request, blocks)

    def _stream(self, request: Any, blocks: list[dict[str, Any]]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        pace = self.server.pace_s
        for event in stream_events(request, blocks):
            if event.is_text_delta and pace > 0:
                time.sleep(pace)  # deliberate pacing, like a real model's token rate
            self.wfile.write(event.encode())
            self.wfile.flush()


class _ModelHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    pace_s: float = 0.0


class ModelServer:
    """The offline model on a loopback port.

    Args:
        host: Interface to bind.
        port: Port to bind (0 picks a free one).
        pace_s: Seconds between streamed text chunks (env ``REGDESK_MODEL_PACE_MS`` wins).
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0, pace_s: float = 0.0) -> None:
        self._httpd = _ModelHTTPServer((host, port), _Handler)
        self._httpd.pace_s = resolve_pace(pace_s)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """Base URL to give the Anthropic SDK as ``base_url``."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def pace_s(self) -> float:
        """Seconds between streamed text chunks."""
        return self._httpd.pace_s

    def start(self) -> ModelServer:
        """Serve in a daemon thread and return self."""
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._httpd.serve_forever, name="regdesk-model", daemon=True
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._httpd.server_close()
