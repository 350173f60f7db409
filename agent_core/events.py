"""The one event stream of a turn.

A turn is a sequence of small, frozen events. The GUI, the CLI, the scenario
runner and the tests consume the same objects; there is no second
representation of what happened. Events are immutable, so handing the same
reference to another thread is safe.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

ToolDecision = Literal["allow", "approval_required", "deny"]
"""What the tool runtime decided before running a call."""

ToolStatus = Literal["ok", "empty", "error", "denied"]
"""How a tool call ended: rows, no rows, a failure, or refused (policy or person)."""

FailureKind = Literal["auth", "network", "timeout", "model", "refused"]
"""Why a turn failed."""


@dataclass(frozen=True, slots=True)
class Citation:
    """A regulation the answer cites."""

    doc_no: str
    """Document number, e.g. ``HR-REG-003``."""
    version: int | None
    """Version number cited, when the answer names one."""
    effective_from: str | None
    """ISO date the cited version took effect, when known."""


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """A question was accepted and the turn began."""

    turn_id: str
    """Unique id of this turn."""
    persona: str
    """Username the turn runs as."""
    question: str
    """The question as asked."""
    model: str
    """Model name in use (the offline model reports its own label)."""
    kind: Literal["turn_started"] = "turn_started"


@dataclass(frozen=True, slots=True)
class Narration:
    """Text the model wrote before calling tools in the same message.

    The text was streamed as ``AnswerDelta`` events; this event says that the
    text streamed since the previous boundary was narration, not the answer.
    """

    text: str
    """The whole narration text of that message."""
    kind: Literal["narration"] = "narration"


@dataclass(frozen=True, slots=True)
class ToolCallStarted:
    """The model asked for a tool call and the runtime decided on it."""

    call_id: str
    """The model's tool_use id."""
    tool: str
    """Tool name."""
    arguments: dict[str, Any]
    """Arguments as the model gave them (treat as read-only)."""
    decision: ToolDecision
    """Runtime decision: read allowed, write needs approval, unknown denied."""
    kind: Literal["tool_call_started"] = "tool_call_started"


@dataclass(frozen=True, slots=True)
class ApprovalRequested:
    """A write waits for a person to approve or deny it."""

    call_id: str
    """The tool call waiting."""
    persona: str
    """Who the write would run as."""
    tool: str
    """Tool name."""
    arguments: dict[str, Any]
    """Full arguments of the write (treat as read-only)."""
    idempotency_key: str
    """Key derived from (caller, doc, version); a retry with it is a replay."""
    kind: Literal["approval_requested"] = "approval_requested"


@dataclass(frozen=True, slots=True)
class ApprovalResolved:
    """The person answered an approval request."""

    call_id: str
    """The tool call that waited."""
    approved: bool
    """True when the write may run."""
    reason: str
    """The person's reason (sent back to the model on a denial)."""
    kind: Literal["approval_resolved"] = "approval_resolved"


@dataclass(frozen=True, slots=True)
class ToolCallFinished:
    """A tool call ended."""

    call_id: str
    """The model's tool_use id."""
    tool: str
    """Tool name."""
    status: ToolStatus
    """ok, empty, error or denied."""
    duration_ms: float
    """Wall time of the execution, in milliseconds."""
    row_count: int | None
    """Rows the platform returned, when the tool returns rows."""
    preview: str
    """A short one-line summary for lists."""
    result: str
    """The full result text as the model sees it (framed, maybe truncated)."""
    truncated: bool = False
    """True when the result was cut at the size limit."""
    injection_suspected: bool = False
    """True when the result contains text that looks like instructions."""
    error: str | None = None
    """The error message, for status error or denied."""
    kind: Literal["tool_call_finished"] = "tool_call_finished"


@dataclass(frozen=True, slots=True)
class AnswerDelta:
    """A piece of streamed model text."""

    text: str
    """The new text."""
    kind: Literal["answer_delta"] = "answer_delta"


@dataclass(frozen=True, slots=True)
class AnswerFinished:
    """The model finished its answer."""

    text: str
    """The whole answer (text of the final message)."""
    citations: tuple[Citation, ...] = field(default_factory=tuple)
    """Regulations the answer cites, parsed from its text."""
    kind: Literal["answer_finished"] = "answer_finished"


@dataclass(frozen=True, slots=True)
class TurnFailed:
    """The turn ended with an error; nothing follows."""

    failure: FailureKind
    """What went wrong: auth, network, timeout, model, refused."""
    message: str
    """A message for people."""
    kind: Literal["turn_failed"] = "turn_failed"


@dataclass(frozen=True, slots=True)
class TurnCancelled:
    """The turn was cancelled; nothing follows."""

    kind: Literal["turn_cancelled"] = "turn_cancelled"


AgentEvent = (
    TurnStarted
    | Narration
    | ToolCallStarted
    | ApprovalRequested
    | ApprovalResolved
    | ToolCallFinished
    | AnswerDelta
    | AnswerFinished
    | TurnFailed
    | TurnCancelled
)
"""Every event a turn can emit."""

TERMINAL_KINDS = frozenset({"answer_finished", "turn_failed", "turn_cancelled"})
"""Kinds after which a turn emits nothing more."""


def event_to_dict(event: AgentEvent) -> dict[str, Any]:
    """Return a JSON-ready dict of an event, with its ``kind``.

    Args:
        event: Any event of the union.

    Returns:
        A plain dict; citations become dicts too.
    """
    return dataclasses.asdict(event)
