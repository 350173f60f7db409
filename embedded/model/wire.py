"""The Anthropic Messages wire format: request validation and response bodies.

Every parameter the real API takes is accepted and type-checked the way the
real API checks it (a wrong type is a 400, never a 500); top-level keys this
stand-in does not know are accepted and ignored, so a newer SDK's fields never
break it. The body is checked for what the JSON parser lets through but the
rest of the server cannot carry: lone surrogates, NaN/Infinity, integers past
the parser's digit limit and nesting deeper than any Messages request needs.
"""

from __future__ import annotations

import json
import re
import secrets
import string
from dataclasses import dataclass, field
from typing import Any

MODEL_LABEL = "regdesk-offline-planner"
"""Model name the server reports when the request names none."""

MAX_DEPTH = 64
"""Deepest JSON nesting a request may have (a tool input of a tool input of … is far less)."""

_SURROGATE = re.compile(r"[\ud800-\udfff]")
_ID_ALPHABET = string.ascii_letters + string.digits
_MAX_TOKENS_LIMIT = 2**31 - 1
_ROLES = ("user", "assistant")


class RequestError(ValueError):
    """The request is not a valid Messages request (HTTP 400 unless ``status`` says otherwise)."""

    def __init__(
        self,
        message: str,
        *,
        status: int = 400,
        error_type: str = "invalid_request_error",
        code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        """HTTP status of the error response."""
        self.error_type = error_type
        """The ``error.type`` of the body."""
        self.code = code
        """The ``error.details.error_code``, when the error has one."""

    def body(self) -> dict[str, Any]:
        """The Messages API error body."""
        return error_body(str(self), self.error_type, self.code)


@dataclass(frozen=True, slots=True)
class MessagesRequest:
    """A validated ``POST /v1/messages`` body."""

    model: str
    """Model name the client asked for (echoed back)."""
    max_tokens: int
    """Client's output limit (accepted, not enforced: answers are short)."""
    messages: list[dict[str, Any]]
    """Conversation, each content normalised to a list of blocks."""
    system: str
    """System prompt text ('' when absent)."""
    tools: list[dict[str, Any]] = field(default_factory=list)
    """Tool definitions offered by the client."""
    stream: bool = False
    """True for an SSE response."""
    thread: dict[str, Any] | None = None
    """The ``thread`` field (message threads beta), when sent."""
    stop_sequences: list[str] = field(default_factory=list)
    """Strings that end a text answer where they first appear."""
    sent: frozenset[str] = frozenset()
    """Top-level fields the body carried (a thread continue must not repeat system/tools)."""

    def tool_names(self) -> set[str]:
        """Return the names of the tools the client offered."""
        return {str(t.get("name")) for t in self.tools if isinstance(t, dict)}


def _reject_constant(name: str) -> float:
    raise RequestError(f"body is not valid JSON: {name} is not a JSON number")


def _check_tree(value: Any) -> None:
    """Reject lone surrogates and over-deep nesting, iteratively (no recursion to exhaust)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, str):
            if _SURROGATE.search(node):
                raise RequestError("body is not valid JSON: a string holds a lone surrogate")
            continue
        if not isinstance(node, dict | list):
            continue
        if depth > MAX_DEPTH:
            raise RequestError(f"body nests deeper than {MAX_DEPTH} levels")
        items = list(node.items()) if isinstance(node, dict) else [(None, v) for v in node]
        for key, child in items:
            if isinstance(key, str) and _SURROGATE.search(key):
                raise RequestError("body is not valid JSON: a key holds a lone surrogate")
            stack.append((child, depth + 1))


def decode_body(raw: bytes) -> dict[str, Any]:
    """Decode a request body into a JSON object, rejecting what cannot be carried further.

    Raises:
        RequestError: When the bytes are not one JSON object the server can handle.
    """
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except RecursionError:
        raise RequestError(f"body nests deeper than {MAX_DEPTH} levels") from None
    except UnicodeDecodeError as exc:
        raise RequestError(f"body is not UTF-8: {exc.reason}") from None
    except ValueError as exc:  # JSONDecodeError, and ints past the digit limit
        if isinstance(exc, RequestError):
            raise
        raise RequestError(f"body is not valid JSON: {exc}") from None
    _check_tree(body)
    if not isinstance(body, dict):
        raise RequestError("body: expected a JSON object")
    return body


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check_block(block: Any, where: str) -> dict[str, Any]:
    if not isinstance(block, dict) or not isinstance(block.get("type"), str):
        raise RequestError(f"{where}: expected a block object with a type")
    kind = block["type"]
    if kind == "text" and not isinstance(block.get("text"), str):
        raise RequestError(f"{where}.text: field required (a string)")
    if kind == "tool_use":
        if not isinstance(block.get("id"), str) or not isinstance(block.get("name"), str):
            raise RequestError(f"{where}: a tool_use block needs a string id and name")
        if not isinstance(block.get("input", {}), dict):
            raise RequestError(f"{where}.input: expected an object")
    if kind == "tool_result":
        if not isinstance(block.get("tool_use_id"), str):
            raise RequestError(f"{where}.tool_use_id: field required (a string)")
        content = block.get("content")
        if content is not None and not isinstance(content, str | list):
            raise RequestError(f"{where}.content: expected a string or a list of blocks")
        if isinstance(content, list):
            for i, inner in enumerate(content):
                _check_block(inner, f"{where}.content.{i}")
        if not isinstance(block.get("is_error", False), bool):
            raise RequestError(f"{where}.is_error: expected a boolean")
    return block


def _normalise_content(content: Any, where: str) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if not isinstance(content, list):
        raise RequestError(f"{where}.content: expected a string or a list of blocks")
    return [_check_block(block, f"{where}.content.{i}") for i, block in enumerate(content)]


def _system_text(system: Any) -> str:
    if system is None:
        return ""
    if isinstance(system, str):
        return system
    if isinstance(system, list):
        parts = []
        for i, block in enumerate(system):
            if not isinstance(block, dict) or not isinstance(block.get("text", ""), str):
                raise RequestError(f"system.{i}: expected a text block")
            parts.append(str(block.get("text", "")))
        return "\n".join(parts)
    raise RequestError("system: expected a string or a list of text blocks")


def parse_messages(raw_messages: Any, *, allow_empty: bool = False) -> list[dict[str, Any]]:
    """Validate a ``messages`` list and normalise each content to a list of blocks.

    Raises:
        RequestError: When a message is malformed.
    """
    if not isinstance(raw_messages, list) or (not raw_messages and not allow_empty):
        raise RequestError("messages: field required (a non-empty list)")
    messages: list[dict[str, Any]] = []
    for i, msg in enumerate(raw_messages):
        if not isinstance(msg, dict) or msg.get("role") not in _ROLES:
            raise RequestError(f"messages.{i}.role: expected 'user' or 'assistant'")
        blocks = _normalise_content(msg.get("content"), f"messages.{i}")
        messages.append({"role": msg["role"], "content": blocks})
    return messages


def _check_range(body: dict[str, Any], name: str, low: float, high: float) -> None:
    value = body.get(name)
    if value is not None and (not _is_number(value) or not low <= value <= high):
        raise RequestError(f"{name}: expected a number from {low:g} to {high:g}")


def _check_choice(value: Any, name: str, choices: tuple[str, ...]) -> None:
    if value is not None and value not in choices:
        raise RequestError(f"{name}: expected one of {', '.join(choices)}")


def _check_object(body: dict[str, Any], name: str) -> dict[str, Any]:
    value = body.get(name)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RequestError(f"{name}: expected an object")
    return value


def _check_parameters(body: dict[str, Any], max_tokens: int) -> None:
    """Type-check the optional parameters the real API takes (the model ignores their effect)."""
    _check_range(body, "temperature", 0.0, 1.0)
    _check_range(body, "top_p", 0.0, 1.0)
    top_k = body.get("top_k")
    if top_k is not None and (not _is_int(top_k) or top_k < 0):
        raise RequestError("top_k: expected a non-negative integer")
    metadata = _check_object(body, "metadata")
    if not isinstance(metadata.get("user_id") or "", str):
        raise RequestError("metadata.user_id: expected a string")
    tool_choice = _check_object(body, "tool_choice")
    if tool_choice:
        _check_choice(tool_choice.get("type"), "tool_choice.type", ("auto", "any", "tool", "none"))
        if tool_choice.get("type") == "tool" and not isinstance(tool_choice.get("name"), str):
            raise RequestError("tool_choice.name: field required for type 'tool'")
    thinking = _check_object(body, "thinking")
    if thinking:
        _check_choice(thinking.get("type"), "thinking.type", ("enabled", "disabled", "adaptive"))
        if thinking.get("type") == "enabled":
            budget = thinking.get("budget_tokens")
            if not isinstance(budget, int) or isinstance(budget, bool) or budget < 1024:
                raise RequestError("thinking.budget_tokens: expected an integer of at least 1024")
            if budget >= max_tokens:
                raise RequestError("max_tokens: must be greater than thinking.budget_tokens")
    output_config = _check_object(body, "output_config")
    _check_choice(
        output_config.get("effort"), "output_config.effort", ("low", "medium", "high", "max")
    )
    if not isinstance(output_config.get("format") or {}, dict):
        raise RequestError("output_config.format: expected an object")
    _check_choice(body.get("service_tier"), "service_tier", ("auto", "standard_only"))
    for name in ("context_management", "diagnostics", "cache_control"):
        _check_object(body, name)
    container = body.get("container")
    if container is not None and not isinstance(container, str | dict):
        raise RequestError("container: expected a string or an object")
    stops = body.get("stop_sequences")
    if stops is not None and (
        not isinstance(stops, list) or not all(isinstance(s, str) for s in stops)
    ):
        raise RequestError("stop_sequences: expected a list of strings")
    servers = body.get("mcp_servers")
    if servers is not None and (
        not isinstance(servers, list) or not all(isinstance(s, dict) for s in servers)
    ):
        raise RequestError("mcp_servers: expected a list of server objects")


def _check_thread(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RequestError("thread: expected an object")
    kind = value.get("type")
    if kind == "create":
        return {"type": "create"}
    if kind == "continue":
        previous = value.get("previous_message_id")
        if not isinstance(previous, str) or not previous.startswith("msg_"):
            raise RequestError(
                "thread.previous_message_id: must be the id from a prior /v1/messages response "
                "(starts with msg_)"
            )
        return {"type": "continue", "previous_message_id": previous}
    raise RequestError("thread.type: expected 'create' or 'continue'")


def parse_request(raw: bytes | dict[str, Any]) -> MessagesRequest:
    """Validate a request body.

    Args:
        raw: The HTTP body bytes, or the body already decoded by ``decode_body``.

    Returns:
        The validated request.

    Raises:
        RequestError: When the body is not a valid Messages request.
    """
    body = decode_body(raw) if isinstance(raw, bytes) else raw
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise RequestError("model: field required")
    max_tokens = body.get("max_tokens")
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool):
        raise RequestError("max_tokens: field required (a positive integer)")
    if not 1 <= max_tokens <= _MAX_TOKENS_LIMIT:
        raise RequestError(f"max_tokens: expected an integer from 1 to {_MAX_TOKENS_LIMIT}")
    thread = _check_thread(body.get("thread"))
    continuing = thread is not None and thread["type"] == "continue"
    messages = parse_messages(body.get("messages"), allow_empty=continuing)
    if messages and messages[0]["role"] != "user" and not continuing:
        raise RequestError("messages.0.role: the first message must use the user role")
    tools = body.get("tools") or []
    if not isinstance(tools, list) or not all(
        isinstance(t, dict) and isinstance(t.get("name"), str) for t in tools
    ):
        raise RequestError("tools: expected a list of tool objects, each with a name")
    stream = body.get("stream", False)
    if not isinstance(stream, bool):
        raise RequestError("stream: expected a boolean")
    _check_parameters(body, max_tokens)
    return MessagesRequest(
        model=model,
        max_tokens=max_tokens,
        messages=messages,
        system=_system_text(body.get("system")),
        tools=list(tools),
        stream=stream,
        thread=thread,
        stop_sequences=[s for s in body.get("stop_sequences") or [] if s],
        sent=frozenset(k for k in body if isinstance(k, str)),
    )


def error_body(
    message: str, error_type: str = "invalid_request_error", code: str | None = None
) -> dict[str, Any]:
    """Return an Anthropic-style error body (``error.details.error_code`` when there is a code)."""
    error: dict[str, Any] = {"type": error_type, "message": message}
    if code is not None:
        error["details"] = {"error_code": code}
    return {"type": "error", "error": error, "request_id": new_id("req_")}


def new_id(prefix: str) -> str:
    """Return a fresh random id in the API's style (``msg_01…``, ``toolu_01…``)."""
    return prefix + "01" + "".join(secrets.choice(_ID_ALPHABET) for _ in range(22))


def estimate_tokens(text: str) -> int:
    """Return a rough token count (about four characters per token, at least one)."""
    return max(1, len(text) // 4)


def input_tokens(request: MessagesRequest) -> int:
    """Return a rough input token count for usage reporting."""
    size = len(request.system) + len(json.dumps(request.messages, ensure_ascii=False))
    size += len(json.dumps(request.tools, ensure_ascii=False))
    return max(1, size // 4)


def output_tokens(blocks: list[dict[str, Any]]) -> int:
    """Return a rough output token count for the reply blocks."""
    return estimate_tokens(json.dumps(blocks, ensure_ascii=False))


@dataclass(frozen=True, slots=True)
class Reply:
    """One assistant message: its id, content and why it stopped."""

    id: str
    """The message id (unique per response)."""
    content: list[dict[str, Any]]
    """Text and tool_use blocks."""
    stop_reason: str
    """``tool_use``, ``end_turn`` or ``stop_sequence``."""
    stop_sequence: str | None = None
    """The stop sequence that ended the text, when one did."""


def make_reply(request: MessagesRequest, blocks: list[dict[str, Any]]) -> Reply:
    """Give the planner's blocks a fresh id and a stop reason, applying the stop sequences."""
    if any(b["type"] == "tool_use" for b in blocks):
        return Reply(new_id("msg_"), blocks, "tool_use")
    for i, block in enumerate(blocks):
        if block["type"] != "text":
            continue
        text = str(block["text"])
        hits = [(text.find(s), s) for s in request.stop_sequences if s in text]
        if hits:
            at, stop = min(hits)
            cut = [*blocks[:i], {"type": "text", "text": text[:at]}]
            return Reply(new_id("msg_"), cut, "stop_sequence", stop)
    return Reply(new_id("msg_"), blocks, "end_turn")


def usage(request: MessagesRequest, reply: Reply | None) -> dict[str, Any]:
    """The ``usage`` object (output tokens 1 while a stream is starting)."""
    return {
        "input_tokens": input_tokens(request),
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": output_tokens(reply.content) if reply else 1,
        "service_tier": "standard",
    }


def message_body(request: MessagesRequest, reply: Reply) -> dict[str, Any]:
    """Return the non-streaming Message JSON for a reply."""
    return {
        "id": reply.id,
        "type": "message",
        "role": "assistant",
        "model": request.model or MODEL_LABEL,
        "content": reply.content,
        "stop_reason": reply.stop_reason,
        "stop_sequence": reply.stop_sequence,
        "usage": usage(request, reply),
    }
