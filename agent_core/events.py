"""The one event stream of a turn.

A turn is a sequence of small, frozen events. The GUI, the CLI, the scenario
runner and the tests consume the same objects; there is no second
representation of what happened. Events are immutable, so handing the same
reference to another thread is safe.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

ToolDecision = Literal["allow", "approval_required", "deny"]
"""What the tool runtime decided before running a call."""

ToolStatus = Literal["ok", "empty", "error", "denied"]
"""How a tool call ended: rows, no rows, a failure, or refused (policy or person)."""

FailureKind = Literal["auth", "network", "timeout", "model", "refused", "internal"]
"""Why a turn failed (``internal``: a bug in RegDesk, logged with its traceback)."""

RetryReason = Literal[
    "overloaded",
    "rate_limited",
    "server_error",
    "timeout",
    "connection",
    "stream_broken",
    "max_tokens",
]
"""Why a model call is sent again: a retryable API error, a broken stream, or a tool
call cut off by the output limit (sent again with a larger limit)."""


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens of one model call or of a whole turn, and what they cost (estimated)."""

    input_tokens: int = 0
    """Input tokens billed at the full price (not read from or written to the cache)."""
    output_tokens: int = 0
    """Output tokens, thinking included."""
    cache_read_input_tokens: int = 0
    """Input tokens read from the prompt cache."""
    cache_creation_input_tokens: int = 0
    """Input tokens written to the prompt cache."""
    model_calls: int = 0
    """Model calls counted (retried attempts that returned no message are not)."""
    cost_usd: float | None = None
    """Estimated cost from ``resources/models.json``; None when the model has no price."""

    @property
    def total_input_tokens(self) -> int:
        """Every input token, cached or not."""
        return self.input_tokens + self.cache_read_input_tokens + self.cache_creation_input_tokens

    @property
    def cache_read_share(self) -> float:
        """Share of input tokens read from the cache (0 when there were none)."""
        total = self.total_input_tokens
        return self.cache_read_input_tokens / total if total else 0.0

    def plus(self, other: Usage) -> Usage:
        """The sum of two usages (a cost is None only when both are)."""
        costs = [c for c in (self.cost_usd, other.cost_usd) if c is not None]
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_read_input_tokens + other.cache_read_input_tokens,
            self.cache_creation_input_tokens + other.cache_creation_input_tokens,
            self.model_calls + other.model_calls,
            round(sum(costs), 6) if costs else None,
        )


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
    """A model call ended with tool calls (or paused): its text was narration, not the answer.

    Whether a step's text is the answer is known only when its message ends, so
    this event closes the step: the text its ``AnswerDelta`` events (same
    ``step``) streamed is narration. It comes right after the step's
    ``ModelCallFinished`` and before its tool calls.
    """

    text: str
    """The whole narration text of that message."""
    step: int = 0
    """The model call (1-based) whose text this is; 0 in records older than steps,
    meaning the step that streamed last."""
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
    payload: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The structured result ``result`` was framed from (read-only), so consumers
    never parse the framed text back."""
    kind: Literal["tool_call_finished"] = "tool_call_finished"


@dataclass(frozen=True, slots=True)
class ThinkingDelta:
    """A piece of the model's summarized thinking, streamed (never part of the answer)."""

    text: str
    """The new thinking text."""
    step: int = 1
    """The model call (1-based) that is thinking."""
    kind: Literal["thinking_delta"] = "thinking_delta"


@dataclass(frozen=True, slots=True)
class Thinking:
    """A whole thinking block ended: its summary, shown apart from the answer.

    On current models the short notes written between tool calls arrive here too.
    """

    text: str
    """The summarized thinking ('' when the endpoint omits or redacts it)."""
    redacted: bool = False
    """True for a redacted thinking block (encrypted; nothing to show)."""
    kind: Literal["thinking"] = "thinking"


@dataclass(frozen=True, slots=True)
class ModelRetry:
    """A model call failed in a way worth another try; it is sent again from its start.

    When ``discard`` is true, every ``AnswerDelta`` and ``ThinkingDelta`` of the
    step that streamed last, since the previous boundary (the last Thinking, tool call or retry)
    belonged to the abandoned attempt: consumers drop that partial text. It is never an answer
    and never goes back to the model as history.
    """

    attempt: int
    """The attempt about to start (2 for the first retry)."""
    max_attempts: int
    """Attempts allowed for this model call."""
    delay_s: float
    """Seconds the turn waits before the next attempt (``retry-after`` when sent)."""
    reason: RetryReason
    """overloaded, rate_limited, server_error, timeout, connection, stream_broken, max_tokens."""
    message: str
    """What happened, in words."""
    discard: bool = False
    """True when text of the abandoned attempt was already streamed."""
    request_id: str | None = None
    """The API's request id of the failed attempt, when it sent one."""
    kind: Literal["model_retry"] = "model_retry"


@dataclass(frozen=True, slots=True)
class ModelCallFinished:
    """One model call returned a whole message (after any retries)."""

    call_index: int
    """1 for the first model call of the turn."""
    model: str
    """The model that answered."""
    stop_reason: str | None
    """end_turn, tool_use, max_tokens, pause_turn, refusal, stop_sequence, ..."""
    usage: Usage
    """Tokens of this call and their estimated cost."""
    request_id: str | None = None
    """The API's request id."""
    request_bytes: int = 0
    """Size of the request body sent (messages, system and tools), in bytes."""
    kind: Literal["model_call_finished"] = "model_call_finished"


@dataclass(frozen=True, slots=True)
class AnswerDelta:
    """A piece of streamed model text of one model call (a step).

    The text of a step is the answer when the step's message ends the turn, and
    narration when it ends with tool calls (a ``Narration`` with the same
    ``step`` says so). Consumers keep one streamed text per step.
    """

    text: str
    """The new text."""
    step: int = 1
    """The model call (1-based) that streams this text, as ``ModelCallFinished.call_index``
    numbers it: a call retried after a failed attempt keeps its step; one sent again
    after its tool call was cut off by ``max_tokens`` is the next step."""
    kind: Literal["answer_delta"] = "answer_delta"


@dataclass(frozen=True, slots=True)
class AnswerFinished:
    """The model finished its answer."""

    text: str
    """The whole answer (text of the final message)."""
    citations: tuple[Citation, ...] = field(default_factory=tuple)
    """Regulations the answer cites, parsed from its text."""
    cut_off: bool = False
    """True when the answer stopped at the output limit (or the context window): incomplete."""
    stop_reason: str | None = None
    """The last model call's stop reason."""
    usage: Usage | None = None
    """Tokens and estimated cost of the whole turn (every model call)."""
    kind: Literal["answer_finished"] = "answer_finished"


@dataclass(frozen=True, slots=True)
class TurnFailed:
    """The turn ended with an error; nothing follows."""

    failure: FailureKind
    """What went wrong: auth, network, timeout, model, refused."""
    message: str
    """A message for people."""
    action: Literal["settings"] | None = None
    """``settings`` when the fix is there (model not available, key rejected, endpoint)."""
    request_id: str | None = None
    """The API's request id of the failed model call, when there was one."""
    usage: Usage | None = None
    """Tokens the turn used before it failed."""
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
    | ThinkingDelta
    | Thinking
    | ModelRetry
    | ModelCallFinished
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
        A plain dict; citations, usage and payloads become dicts too.
    """
    return {f.name: plain(getattr(event, f.name)) for f in dataclasses.fields(event)}


def plain(value: Any) -> Any:
    """A JSON-ready copy of an event field: dataclasses and read-only mappings become dicts."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def usage_to_dict(usage: Usage | None) -> dict[str, Any] | None:
    """A JSON-ready dict of a usage (with the cache-read share), or None.

    Args:
        usage: Tokens of a call or a turn.

    Returns:
        The fields plus ``total_input_tokens`` and ``cache_read_share``.
    """
    if usage is None:
        return None
    return {
        **dataclasses.asdict(usage),
        "total_input_tokens": usage.total_input_tokens,
        "cache_read_share": round(usage.cache_read_share, 4),
    }
