"""Deterministic planner: decides the next reply from the conversation (placeholder)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from embedded.model.wire import MessagesRequest


def plan_reply(request: MessagesRequest) -> list[dict[str, Any]]:
    """Return reply content blocks for a request."""
    return [{"type": "text", "text": "확인할 수 없습니다."}]
