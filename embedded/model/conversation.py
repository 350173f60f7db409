"""Reads the current turn out of a Messages conversation.

The planner is stateless: everything it knows comes from the request (a
message thread's stored history is rebuilt into it by the server). The turn
starts at the last user message that asks something (text, not tool results);
every tool_use after it, paired with its tool_result, is what was learnt so
far. Results are read in whatever form the client's tools return them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from embedded.model.results import read_result


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call of this turn and what came back."""

    name: str
    """Tool name."""
    input: dict[str, Any]
    """Arguments the planner sent."""
    data: dict[str, Any] | None
    """The result as the plans read it (``results.read_result``); ``{"error": …}`` on failure."""
    is_error: bool = False
    """True when the client marked the result as an error."""
    raw: str = ""
    """The result text as received."""

    @property
    def failed(self) -> bool:
        """True when the call errored, was refused, or returned nothing readable.

        ``read_result`` has already turned an ``is_error`` result into ``{"error": …}``,
        except the real platform's empty-lexical-match error, which means "no rows".
        """
        return self.data is None or "error" in self.data

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
    earlier: tuple[tuple[str, str], ...] = ()
    """The conversation's earlier questions and their answers, oldest first (follow-ups)."""

    def last(self, name: str) -> ToolCall | None:
        """Return the latest call of a tool, or None."""
        for call in reversed(self.calls):
            if call.name == name:
                return call
        return None

    def all(self, name: str) -> list[ToolCall]:
        """Return every call of a tool, oldest first."""
        return [c for c in self.calls if c.name == name]


def _block_text(block: dict[str, Any]) -> str:
    kind = block.get("type")
    if kind == "text":
        return str(block.get("text", ""))
    if kind == "search_result":
        inner = block.get("content")
        body = _result_text(inner) if isinstance(inner, list) else ""
        return "\n".join(p for p in (str(block.get("title") or ""), body) if p)
    if kind == "document":
        source = block.get("source")
        if isinstance(source, dict) and source.get("type") == "text":
            return str(source.get("data", ""))
        if isinstance(source, dict) and isinstance(source.get("content"), list):
            return _result_text(source["content"])
    return ""  # images and other media carry nothing the planner reads


def _result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_block_text(b) for b in content if isinstance(b, dict))
    return ""


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
                data=read_result(str(use.get("name")), text, bool(result.get("is_error"))),
                is_error=bool(result.get("is_error")),
                raw=text,
            )
        )
    return Turn(question=question, calls=calls, round=rounds, earlier=_earlier(messages[:start]))


def _earlier(messages: list[dict[str, Any]]) -> tuple[tuple[str, str], ...]:
    """The questions asked before this turn with the answers they got, oldest first."""
    pairs: list[tuple[str, str]] = []
    for index, message in enumerate(messages):
        if message["role"] != "user" or not _is_question(message):
            continue
        question = " ".join(
            str(b.get("text", "")) for b in message["content"] if b["type"] == "text"
        ).strip()
        answer: list[str] = []
        for later in messages[index + 1 :]:
            if later["role"] == "user" and _is_question(later):
                break
            if later["role"] == "assistant":
                answer.extend(
                    str(b.get("text", "")) for b in later["content"] if b["type"] == "text"
                )
        pairs.append((question, " ".join(answer).strip()))
    return tuple(pairs)
