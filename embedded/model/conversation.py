"""Reads the current turn out of a Messages conversation.

The planner is stateless: everything it knows comes from the request. The turn
starts at the last user message that asks something (text, not tool results);
every tool_use after it, paired with its tool_result, is what was learnt so far.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

_FRAME_OPEN = "<tool-data"
_FRAME_CLOSE = "</tool-data>"


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call of this turn and what came back."""

    name: str
    """Tool name."""
    input: dict[str, Any]
    """Arguments the planner sent."""
    data: dict[str, Any] | None
    """The parsed JSON result, or None when it could not be read."""
    is_error: bool = False
    """True when the client marked the result as an error."""
    raw: str = ""
    """The result text as received."""

    @property
    def failed(self) -> bool:
        """True when the call errored, was refused, or returned nothing readable."""
        return self.is_error or self.data is None or "error" in self.data

    @property
    def error_text(self) -> str:
        """The error message, when the call failed."""
        if self.data is not None and "error" in self.data:
            return str(self.data["error"])
        return self.raw.strip()[:300]


@dataclass(frozen=True, slots=True)
class Turn:
    """The question being answered and the tool calls made for it so far."""

    question: str
    """The user's question text."""
    calls: list[ToolCall] = field(default_factory=list)
    """Tool calls of this turn, oldest first."""
    round: int = 0
    """Assistant messages already sent in this turn."""

    def last(self, name: str) -> ToolCall | None:
        """Return the latest call of a tool, or None."""
        for call in reversed(self.calls):
            if call.name == name:
                return call
        return None

    def all(self, name: str) -> list[ToolCall]:
        """Return every call of a tool, oldest first."""
        return [c for c in self.calls if c.name == name]


def _result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(b.get("text", ""))
            for b in content
            if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""


def parse_tool_data(text: str) -> dict[str, Any] | None:
    """Parse a framed tool result (or bare JSON) into its JSON object.

    Args:
        text: The tool_result text.

    Returns:
        The JSON object, or None when there is none.
    """
    body = text
    start = text.find(_FRAME_OPEN)
    if start >= 0:
        header_end = text.find("\n", start)
        body = text[header_end + 1 :] if header_end >= 0 else text[start:]
        close = body.rfind(_FRAME_CLOSE)
        if close >= 0:
            body = body[:close]
    brace = body.find("{")
    if brace < 0:
        return None
    try:
        value, _ = json.JSONDecoder().raw_decode(body[brace:])
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _is_question(message: dict[str, Any]) -> bool:
    blocks = message["content"]
    has_text = any(b["type"] == "text" and str(b.get("text", "")).strip() for b in blocks)
    return has_text and not any(b["type"] == "tool_result" for b in blocks)


def read_turn(messages: list[dict[str, Any]]) -> Turn:
    """Return the current turn of a conversation.

    Args:
        messages: Messages with content normalised to block lists.

    Returns:
        The question and the tool calls made for it.
    """
    start = 0
    for index in range(len(messages) - 1, -1, -1):
        if messages[index]["role"] == "user" and _is_question(messages[index]):
            start = index
            break
    question = " ".join(
        str(b.get("text", "")) for b in messages[start]["content"] if b["type"] == "text"
    ).strip()
    uses: list[dict[str, Any]] = []
    results: dict[str, dict[str, Any]] = {}
    rounds = 0
    for message in messages[start + 1 :]:
        if message["role"] == "assistant":
            rounds += 1
            uses.extend(b for b in message["content"] if b["type"] == "tool_use")
        else:
            for block in message["content"]:
                if block["type"] == "tool_result":
                    results[str(block.get("tool_use_id"))] = block
    calls: list[ToolCall] = []
    for use in uses:
        result = results.get(str(use.get("id")))
        if result is None:
            continue
        text = _result_text(result.get("content"))
        inp = use.get("input")
        calls.append(
            ToolCall(
                name=str(use.get("name")),
                input=inp if isinstance(inp, dict) else {},
                data=parse_tool_data(text),
                is_error=bool(result.get("is_error")),
                raw=text,
            )
        )
    return Turn(question=question, calls=calls, round=rounds)
