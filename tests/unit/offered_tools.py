"""The nine tools a client offers the offline model, as the model tests offer them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable

TOOLS = (
    "search_regulations",
    "get_effective_version",
    "trace_authority",
    "impact_of_change",
    "query_hr",
    "pending_revision",
    "describe_regulation",
    "related_regulations",
    "request_regulation_revision",
)


def tool_definitions(names: Iterable[str] = TOOLS) -> list[dict[str, Any]]:
    """Tool definitions as a Messages request carries them (schemas left open)."""
    return [{"name": n, "input_schema": {"type": "object"}} for n in names]
