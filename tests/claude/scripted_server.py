"""A scripted Messages API server speaking Claude's real wire format over HTTP.

It replays what the Messages API does, step by scripted step, so RegDesk's
client can be tested against Claude's behaviour on 127.0.0.1 with no network:

- ``GET /v1/models`` (paged list of ``ModelInfo`` with ``display_name``,
  ``created_at``, ``line``, ``lifecycle``, ``capabilities``) or a 404 when the
  script says the endpoint has no model list;
- ``POST /v1/messages`` with ``stream: true``: the SSE sequence ``message_start``,
  ``ping``, ``content_block_start`` / ``content_block_delta`` (``text_delta``,
  ``thinking_delta``, ``signature_delta``, ``input_json_delta``) /
  ``content_block_stop``, ``message_delta`` (stop reason, ``stop_details``, usage),
  ``message_stop``;
- errors as the API sends them: the JSON ``{"type": "error", "error": {"type",
  "message"}, "request_id"}`` with the ``request-id`` header, ``retry-after``,
  ``x-should-retry``; an SSE ``error`` event in the middle of a stream; a
  connection dropped mid-stream;
- prompt caching that honours ``cache_control`` breakpoints (tools → system →
  messages, a minimum cacheable length, reads of the longest cached prefix,
  writes up to the last breakpoint), reported in ``usage``;
- message threads (``anthropic-beta: message-threads-2026-08-12``, ``thread``
  create / continue with only the new messages; ``system`` and ``tools``
  refused on a continue).

Tokens are estimated as one per three characters of the canonical JSON: a
stand-in for a tokenizer, the same for every request, which is what the cache
share needs.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

THREADS_BETA = "message-threads-2026-08-12"

_ids = itertools.count(1)


def tokens_of(value: Any) -> int:
    """The scripted server's token estimate of a JSON value (one per three characters)."""
    text = (
        value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    )
    return max(1, len(text) // 3)


def _strip_cache(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_cache(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_strip_cache(v) for v in value]
    return value


# ----------------------------------------------------------------------------- script steps
@dataclass
class Reply:
    """A message streamed back: content blocks and a stop reason."""

    blocks: list[dict[str, Any]]
    """Content blocks: ``{"type": "text", "text"}``, ``{"type": "thinking", "thinking",
    "signature"}``, ``{"type": "redacted_thinking", "data"}``, ``{"type": "tool_use",
    "id", "name", "input"}`` (``"partial_json"`` instead of ``input`` for a cut one)."""
    stop_reason: str = "end_turn"
    stop_details: dict[str, Any] | None = None
    output_tokens: int | None = None
    """Output tokens to report (default: estimated from the blocks)."""
    chunk: int = 24
    """Characters per text / thinking / JSON delta."""
    model: str | None = None


@dataclass
class Error:
    """An HTTP error response with the API's JSON body and headers."""

    status: int
    type: str
    message: str
    headers: dict[str, str] = field(default_factory=dict)
    error_code: str | None = None


@dataclass
class Broken:
    """A stream that breaks after ``after`` SSE events of ``reply``.

    ``how`` is ``drop`` (the connection closes, no ``message_stop``) or
    ``sse_error`` (an ``event: error`` with ``error_type`` then the end).
    """

    reply: Reply
    after: int
    how: str = "drop"
    error_type: str = "overloaded_error"
    error_message: str = "Overloaded"


Step = Reply | Error | Broken
Planner = Callable[[dict[str, Any]], Step]


def text(value: str) -> dict[str, Any]:
    """A text block."""
    return {"type": "text", "text": value}


def thinking(value: str, signature: str = "sig-abc123") -> dict[str, Any]:
    """A thinking block (summarized thinking with its signature)."""
    return {"type": "thinking", "thinking": value, "signature": signature}


def tool_use(name: str, tool_input: dict[str, Any], use_id: str | None = None) -> dict[str, Any]:
    """A tool_use block."""
    return {
        "type": "tool_use",
        "id": use_id or f"toolu_{next(_ids):04d}",
        "name": name,
        "input": tool_input,
    }


def cut_tool_use(name: str, partial_json: str, use_id: str | None = None) -> dict[str, Any]:
    """A tool_use block whose input JSON the output limit cut off."""
    return {
        "type": "tool_use",
        "id": use_id or f"toolu_{next(_ids):04d}",
        "name": name,
        "partial_json": partial_json,
    }


@dataclass
class ModelEntry:
    """One entry of the model list."""

    id: str
    display_name: str
    created_at: str
    line: str | None = "sonnet"
    lifecycle: str = "active"
    adaptive: bool = True
    max_tokens: int = 128000

    def info(self) -> dict[str, Any]:
        support = {"supported": True}
        no = {"supported": False}
        return {
            "type": "model",
            "id": self.id,
            "display_name": self.display_name,
            "created_at": self.created_at,
            "line": self.line,
            "lifecycle": self.lifecycle,
            "max_tokens": self.max_tokens,
            "max_input_tokens": 1_000_000,
            "capabilities": {
                "thinking": {
                    "supported": self.adaptive,
                    "types": {
                        "adaptive": support if self.adaptive else no,
                        "between_tools": support if self.adaptive else no,
                        "disabled": no if self.adaptive else support,
                        "enabled": no,
                    },
                },
                "effort": {
                    "supported": self.adaptive,
                    **{
                        lvl: support if self.adaptive else no
                        for lvl in ("low", "medium", "high", "xhigh", "max")
                    },
                },
            },
        }


CURRENT_MODELS = [
    ModelEntry("claude-sonnet-5-5", "Claude Sonnet 5.5", "2026-09-15T00:00:00Z"),
    ModelEntry("claude-opus-5-5", "Claude Opus 5.5", "2026-09-01T00:00:00Z", line="opus"),
    ModelEntry(
        "claude-sonnet-5", "Claude Sonnet 5", "2026-06-30T00:00:00Z", lifecycle="deprecated"
    ),
    ModelEntry(
        "claude-haiku-4-5",
        "Claude Haiku 4.5",
        "2025-10-01T00:00:00Z",
        line="haiku",
        adaptive=False,
        max_tokens=64000,
    ),
]
"""What Anthropic lists on 2026-12-01 (Sonnet 4.5 retired, so not listed)."""


# ------------------------------------------------------------------------------ the server
class ScriptedMessages:
    """The server. ``script(...)`` queues steps; ``requests`` records what arrived.

    Args:
        models: The model list, or None for an endpoint without ``/v1/models`` (404).
        planner: Called for a request when the queue is empty (e.g. a scripted agent).
        min_cacheable: Fewest tokens a cache breakpoint's prefix must have.
        available: Model ids ``/v1/messages`` accepts (404 ``not_found_error`` for others);
            None accepts every model.
    """

    def __init__(
        self,
        models: list[ModelEntry] | None = CURRENT_MODELS,
        planner: Planner | None = None,
        *,
        min_cacheable: int = 512,
        available: set[str] | None = None,
    ) -> None:
        self.models = models
        self.planner = planner
        self.min_cacheable = min_cacheable
        self.available = (
            available
            if available is not None
            else ({m.id for m in models if m.lifecycle != "retired"} if models else None)
        )
        self.requests: list[dict[str, Any]] = []
        """Request bodies as sent (a thread continue holds only the new messages)."""
        self.full_requests: list[dict[str, Any]] = []
        """Request bodies with a thread's held conversation put back."""
        self.thread_support = True
        """False: the endpoint rejects the ``thread`` field (400)."""
        self.headers: list[dict[str, str]] = []
        self.model_list_calls = 0
        self._steps: list[Step] = []
        self._lock = threading.Lock()
        self._cache: dict[str, int] = {}
        self._threads: dict[str, dict[str, Any]] = {}
        self._continued: set[str] = set()
        server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        server.daemon_threads = True
        self._server = server
        self.url = f"http://127.0.0.1:{server.server_address[1]}"
        self._thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self) -> ScriptedMessages:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def script(self, *steps: Step) -> ScriptedMessages:
        """Queue steps, answered one per ``POST /v1/messages``."""
        with self._lock:
            self._steps.extend(steps)
        return self

    @property
    def pending(self) -> int:
        """Steps not used yet."""
        with self._lock:
            return len(self._steps)

    def _next(self, body: dict[str, Any]) -> Step:
        with self._lock:
            if self._steps:
                return self._steps.pop(0)
        if self.planner is not None:
            return self.planner(body)
        return Error(500, "api_error", "the script has no step left")

    # prompt caching ---------------------------------------------------------------------
    def _usage(self, body: dict[str, Any]) -> dict[str, int]:
        """Input token usage as the API reports it, honouring ``cache_control``."""
        units: list[tuple[Any, bool]] = []  # (canonical unit, has a breakpoint)
        for tool in body.get("tools") or []:
            units.append((_strip_cache(tool), "cache_control" in tool))
        system = body.get("system")
        if isinstance(system, str):
            units.append((system, False))
        for block in system or [] if isinstance(system, list) else []:
            units.append((_strip_cache(block), "cache_control" in block))
        for message in body.get("messages") or []:
            content = message.get("content")
            blocks = [text(content)] if isinstance(content, str) else content
            for block in blocks:
                units.append(
                    ({"role": message["role"], **_strip_cache(block)}, "cache_control" in block)
                )
        digest = hashlib.sha256(str(body.get("model")).encode())
        prefix_tokens = 0
        boundaries: list[tuple[str, int]] = []  # (hash of the prefix through a unit, its tokens)
        marks: list[int] = []  # indexes of the units carrying a breakpoint
        for unit, marked in units:
            digest.update(json.dumps(unit, ensure_ascii=False, sort_keys=True).encode())
            prefix_tokens += tokens_of(unit)
            boundaries.append((digest.copy().hexdigest(), prefix_tokens))
            if marked:
                marks.append(len(boundaries) - 1)
        total = prefix_tokens
        with self._lock:
            # a hit is looked for at each breakpoint and up to 20 blocks before it
            read = 0
            for mark in marks:
                for h, t in boundaries[max(0, mark - 19) : mark + 1]:
                    if h in self._cache:
                        read = max(read, t)
            written = 0
            if marks:
                last_hash, last_tokens = boundaries[marks[-1]]
                if last_tokens >= self.min_cacheable and last_hash not in self._cache:
                    written = last_tokens - read
                for mark in marks:
                    h, t = boundaries[mark]
                    if t >= self.min_cacheable:
                        self._cache[h] = t
        return {
            "input_tokens": total - read - written,
            "cache_read_input_tokens": read,
            "cache_creation_input_tokens": written,
        }

    # threads ------------------------------------------------------------------------------
    def _thread_body(self, body: dict[str, Any], beta: str) -> tuple[dict[str, Any], Error | None]:
        thread = body.get("thread")
        if not thread:
            return body, None
        if THREADS_BETA not in beta or not self.thread_support:
            return body, Error(
                400,
                "invalid_request_error",
                "thread: Extra inputs are not permitted",
                error_code="thread_unsupported_request",
            )
        if thread.get("type") == "create":
            return body, None
        previous = str(thread.get("previous_message_id"))
        held = self._threads.get(previous)
        if previous in self._continued:
            return body, Error(
                400,
                "invalid_request_error",
                "thread: that message was already continued",
                error_code="thread_already_continued",
            )
        if held is None:
            return body, Error(
                404, "not_found_error", "thread not found", error_code="thread_not_found"
            )
        if "system" in body or "tools" in body:
            return body, Error(
                400,
                "invalid_request_error",
                "thread: system and tools come from the thread on a continue",
            )
        full = {**held, **{k: v for k, v in body.items() if k not in ("messages", "thread")}}
        full["messages"] = [*held["messages"], *body["messages"]]
        full["thread"] = thread
        self._continued.add(previous)
        return full, None

    def _hold(self, body: dict[str, Any], message_id: str, blocks: list[dict[str, Any]]) -> None:
        if not body.get("thread"):
            return
        held = {k: v for k, v in body.items() if k in ("system", "tools", "model")}
        reply = {"role": "assistant", "content": blocks}
        held["messages"] = [*body["messages"], reply]
        self._threads[message_id] = held

    # HTTP -------------------------------------------------------------------------------
    def _handler(self) -> type[BaseHTTPRequestHandler]:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _json(self, status: int, body: dict[str, Any], headers: dict[str, str]) -> None:
                raw = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(raw)

            def _error(self, error: Error) -> None:
                rid = f"req_{next(_ids):06d}"
                payload: dict[str, Any] = {"type": error.type, "message": error.message}
                if error.error_code:
                    payload["details"] = {"error_code": error.error_code}
                self._json(
                    error.status,
                    {"type": "error", "error": payload, "request_id": rid},
                    {"request-id": rid, **error.headers},
                )

            def do_GET(self) -> None:
                path = self.path.split("?")[0]
                if path == "/v1/models" and owner.models is not None:
                    owner.model_list_calls += 1
                    data = [m.info() for m in owner.models]
                    self._json(
                        200,
                        {
                            "data": data,
                            "has_more": False,
                            "first_id": data[0]["id"] if data else None,
                            "last_id": data[-1]["id"] if data else None,
                        },
                        {"request-id": f"req_{next(_ids):06d}"},
                    )
                    return
                self._error(Error(404, "not_found_error", f"Not found: {path}"))

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with owner._lock:
                    owner.requests.append(body)
                    owner.headers.append({k.lower(): v for k, v in self.headers.items()})
                if self.path.split("?")[0] != "/v1/messages":
                    self._error(Error(404, "not_found_error", "Not found"))
                    return
                with owner._lock:
                    full, problem = owner._thread_body(
                        body, self.headers.get("anthropic-beta") or ""
                    )
                    owner.full_requests.append(full)
                if problem is not None:
                    self._error(problem)
                    return
                if owner.available is not None and full.get("model") not in owner.available:
                    self._error(Error(404, "not_found_error", f"model: {full.get('model')}"))
                    return
                step = owner._next(full)
                if isinstance(step, Error):
                    self._error(step)
                    return
                self._stream(full, step)

            def _stream(self, body: dict[str, Any], step: Reply | Broken) -> None:
                reply = step.reply if isinstance(step, Broken) else step
                message_id = f"msg_{next(_ids):06d}"
                events = list(_sse_events(body, reply, message_id, owner._usage(body)))
                rid = f"req_{next(_ids):06d}"
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream; charset=utf-8")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("request-id", rid)
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                limit = step.after if isinstance(step, Broken) else len(events)
                for name, data in events[:limit]:
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                    self.wfile.flush()
                if isinstance(step, Broken):
                    if step.how == "sse_error":
                        error = {
                            "type": "error",
                            "error": {"type": step.error_type, "message": step.error_message},
                        }
                        self.wfile.write(f"event: error\ndata: {json.dumps(error)}\n\n".encode())
                        self.wfile.flush()
                    return
                with owner._lock:
                    owner._hold(body, message_id, _final_blocks(reply))

        return Handler


def _final_blocks(reply: Reply) -> list[dict[str, Any]]:
    out = []
    for block in reply.blocks:
        if "partial_json" in block:
            continue
        out.append(block)
    return out


def _chunks(value: str, size: int) -> list[str]:
    return [value[i : i + size] for i in range(0, len(value), size)] or [""]


def _sse_events(
    body: dict[str, Any], reply: Reply, message_id: str, usage: dict[str, int]
) -> list[tuple[str, dict[str, Any]]]:
    model = reply.model or str(body.get("model"))
    output = reply.output_tokens if reply.output_tokens is not None else tokens_of(reply.blocks)
    events: list[tuple[str, dict[str, Any]]] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": message_id,
                    "type": "message",
                    "role": "assistant",
                    "content": [],
                    "model": model,
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {**usage, "output_tokens": 1},
                },
            },
        ),
        ("ping", {"type": "ping"}),
    ]
    for index, block in enumerate(reply.blocks):
        kind = block["type"]
        if kind == "text":
            events.append(
                (
                    "content_block_start",
                    {
                        "type": "content_block_start",
                        "index": index,
                        "content_block": {"type": "text", "text": ""},
                    },
                )
            )
            for piece in _chunks(block["text"], reply.chunk):
                events.append(
                    (
                        "content_block_delta",
                        {
                            "type": "content_block_delta",
                            "index": index,
                            "delta": {"type": "text_delta", "text": piece},
                        },
                    )
                )
        elif kind == "thinking":
            events.append(
                (
                    "content_block_start",
                    {
                        "type": "content_block_start",
                        "index": index,
                        "content_block": {"type": "thinking", "thinking": "", "signature": ""},
                    },
                )
            )
            for piece in _chunks(block["thinking"], reply.chunk):
                events.append(
                    (
                        "content_block_delta",
                        {
                            "type": "content_block_delta",
                            "index": index,
                            "delta": {"type": "thinking_delta", "thinking": piece},
                        },
                    )
                )
            events.append(
                (
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": "signature_delta", "signature": block["signature"]},
                    },
                )
            )
        elif kind == "redacted_thinking":
            events.append(
                (
                    "content_block_start",
                    {
                        "type": "content_block_start",
                        "index": index,
                        "content_block": {"type": "redacted_thinking", "data": block["data"]},
                    },
                )
            )
        elif kind == "tool_use":
            raw = block.get("partial_json")
            if raw is None:
                raw = json.dumps(block["input"], ensure_ascii=False)
            events.append(
                (
                    "content_block_start",
                    {
                        "type": "content_block_start",
                        "index": index,
                        "content_block": {
                            "type": "tool_use",
                            "id": block["id"],
                            "name": block["name"],
                            "input": {},
                        },
                    },
                )
            )
            for piece in _chunks(raw, reply.chunk):
                events.append(
                    (
                        "content_block_delta",
                        {
                            "type": "content_block_delta",
                            "index": index,
                            "delta": {"type": "input_json_delta", "partial_json": piece},
                        },
                    )
                )
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    delta: dict[str, Any] = {"stop_reason": reply.stop_reason, "stop_sequence": None}
    if reply.stop_details is not None:
        delta["stop_details"] = reply.stop_details
    events.append(
        (
            "message_delta",
            {"type": "message_delta", "delta": delta, "usage": {"output_tokens": output}},
        )
    )
    events.append(("message_stop", {"type": "message_stop"}))
    return events
