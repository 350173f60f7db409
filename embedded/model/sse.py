"""The Messages streaming event sequence (server-sent events)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from embedded.model.wire import usage

if TYPE_CHECKING:
    from collections.abc import Iterator

    from embedded.model.wire import MessagesRequest, Reply

_TEXT_PIECE = re.compile(r"\S+\s*|\s+")
_WORDS_PER_CHUNK = 2
_JSON_CHUNK = 24


@dataclass(frozen=True, slots=True)
class SseEvent:
    """One server-sent event."""

    name: str
    """The ``event:`` line."""
    data: dict[str, Any]
    """The ``data:`` payload."""
    is_text_delta: bool = False
    """True for a text chunk (the server paces these)."""

    def encode(self) -> bytes:
        """Return the wire bytes of the event."""
        payload = json.dumps(self.data, ensure_ascii=False, separators=(",", ":"))
        return f"event: {self.name}\ndata: {payload}\n\n".encode()


def text_chunks(text: str) -> list[str]:
    """Split text into small chunks, a couple of words each, as a model streams.

    Args:
        text: The whole text.

    Returns:
        Chunks whose concatenation is ``text``.
    """
    pieces = _TEXT_PIECE.findall(text)
    return [
        "".join(pieces[i : i + _WORDS_PER_CHUNK]) for i in range(0, len(pieces), _WORDS_PER_CHUNK)
    ]


def _json_chunks(value: dict[str, Any]) -> list[str]:
    raw = json.dumps(value, ensure_ascii=False)
    return [raw[i : i + _JSON_CHUNK] for i in range(0, len(raw), _JSON_CHUNK)] or ["{}"]


def _block_events(index: int, block: dict[str, Any]) -> Iterator[SseEvent]:
    if block["type"] == "text":
        yield SseEvent(
            "content_block_start",
            {
                "type": "content_block_start",
                "index": index,
                "content_block": {"type": "text", "text": ""},
            },
        )
        for chunk in text_chunks(block["text"]):
            yield SseEvent(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "text_delta", "text": chunk},
                },
                is_text_delta=True,
            )
    else:
        yield SseEvent(
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
        for chunk in _json_chunks(block["input"]):
            yield SseEvent(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "input_json_delta", "partial_json": chunk},
                },
            )
    yield SseEvent("content_block_stop", {"type": "content_block_stop", "index": index})


def stream_events(request: MessagesRequest, reply: Reply) -> Iterator[SseEvent]:
    """Yield the full SSE sequence for a reply.

    Args:
        request: The request being answered.
        reply: The reply (id, text and tool_use blocks, stop reason).

    Yields:
        message_start, per-block start/delta/stop, message_delta, message_stop.
    """
    yield SseEvent(
        "message_start",
        {
            "type": "message_start",
            "message": {
                "id": reply.id,
                "type": "message",
                "role": "assistant",
                "model": request.model,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": usage(request, None),
            },
        },
    )
    yield SseEvent("ping", {"type": "ping"})
    for index, block in enumerate(reply.content):
        yield from _block_events(index, block)
    final = usage(request, reply)
    yield SseEvent(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": reply.stop_reason, "stop_sequence": reply.stop_sequence},
            "usage": {"output_tokens": final["output_tokens"]},
        },
    )
    yield SseEvent("message_stop", {"type": "message_stop"})
