"""The Anthropic Messages wire format: request validation and response bodies."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

MODEL_LABEL = "regdesk-offline-planner"
"""Model name the server reports when the request names none."""


class RequestError(ValueError):
    """The request body is not a valid Messages request (HTTP 400)."""


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

    def tool_names(self) -> set[str]:
        """Return the names of the tools the client offered."""
        return {str(t.get("name")) for t in self.tools if isinstance(t, dict)}


def _normalise_content(content: Any, where: str) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if not isinstance(content, list):
        raise RequestError(f"{where}.content: expected a string or a list of blocks")
    blocks: list[dict[str, Any]] = []
    for i, block in enumerate(content):
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            raise RequestError(f"{where}.content.{i}: expected a block object with a type")
        blocks.append(block)
    return blocks


def _system_text(system: Any) -> str:
    if system is None:
        return ""
    if isinstance(system, str):
        return system
    if isinstance(system, list):
        return "\n".join(str(b.get("text", "")) for b in system if isinstance(b, dict))
    raise RequestError("system: expected a string or a list of text blocks")


def parse_request(raw: bytes) -> MessagesRequest:
    """Validate a request body.

    Args:
        raw: The HTTP body bytes.

    Returns:
        The validated request.

    Raises:
        RequestError: When the body is not a valid Messages request.
    """
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RequestError(f"body is not valid JSON: {exc}") from exc
    if not isinstance(body, dict):
        raise RequestError("body: expected a JSON object")
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise RequestError("model: field required")
    max_tokens = body.get("max_tokens")
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
        raise RequestError("max_tokens: field required (a positive integer)")
    raw_messages = body.get("messages")
    if not isinstance(raw_messages, list) or not raw_messages:
        raise RequestError("messages: field required (a non-empty list)")
    messages: list[dict[str, Any]] = []
    for i, msg in enumerate(raw_messages):
        if not isinstance(msg, dict) or msg.get("role") not in ("user", "assistant"):
            raise RequestError(f"messages.{i}.role: expected 'user' or 'assistant'")
        blocks = _normalise_content(msg.get("content"), f"messages.{i}")
        messages.append({"role": msg["role"], "content": blocks})
    if messages[0]["role"] != "user":
        raise RequestError("messages.0.role: the first message must use the user role")
    tools = body.get("tools") or []
    if not isinstance(tools, list) or not all(isinstance(t, dict) for t in tools):
        raise RequestError("tools: expected a list of tool objects")
    stream = body.get("stream", False)
    if not isinstance(stream, bool):
        raise RequestError("stream: expected a boolean")
    return MessagesRequest(
        model=model,
        max_tokens=max_tokens,
        messages=messages,
        system=_system_text(body.get("system")),
        tools=list(tools),
        stream=stream,
    )


def error_body(message: str, error_type: str = "invalid_request_error") -> dict[str, Any]:
    """Return an Anthropic-style error body."""
    return {"type": "error", "error": {"type": error_type, "message": message}}


def message_id(request: MessagesRequest) -> str:
    """Return a deterministic message id for a request (same conversation, same id)."""
    digest = hashlib.sha256(
        json.dumps(request.messages, ensure_ascii=False, sort_keys=True).encode("utf-8")
    ).hexdigest()
    return f"msg_{digest[:24]}"


def estimate_tokens(text: str) -> int:
    """Return a rough token count (about four characters per token, at least one)."""
    return max(1, len(text) // 4)


def input_tokens(request: MessagesRequest) -> int:
    """Return a rough input token count for usage reporting."""
    size = len(request.system) + len(json.dumps(request.messages, ensure_ascii=False))
    size += len(json.dumps(request.tools, ensure_ascii=False))
    return estimate_tokens("x" * size)


def output_tokens(blocks: list[dict[str, Any]]) -> int:
    """Return a rough output token count for the reply blocks."""
    return estimate_tokens(json.dumps(blocks, ensure_ascii=False))


def stop_reason(blocks: list[dict[str, Any]]) -> str:
    """Return ``tool_use`` when the reply calls a tool, else ``end_turn``."""
    return "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"


def message_body(request: MessagesRequest, blocks: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the non-streaming Message JSON for reply blocks."""
    return {
        "id": message_id(request),
        "type": "message",
        "role": "assistant",
        "model": request.model or MODEL_LABEL,
        "content": blocks,
        "stop_reason": stop_reason(blocks),
        "stop_sequence": None,
        "usage": {"input_tokens": input_tokens(request), "output_tokens": output_tokens(blocks)},
    }
