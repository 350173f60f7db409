"""One record of a turn, folded from its events by one method.

A turn is a stream of events (``agent_core.events``); everything that shows or
stores a turn afterwards — the CLI's JSON, the scenario runner, exports,
history, the benchmarks and the GUI's models — reads this record instead of
folding the events again. :meth:`TurnRecord.apply` is the only place that knows
how an event changes what a turn looks like, and it says what it changed, so a
Qt model can update one row instead of resetting (pydantic-ai's
``TextPartDelta.apply`` shape).

The record also works from event dicts (``event_to_dict``), as stored in
history and exports: :meth:`TurnRecord.from_dicts`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from agent_core.events import (
    AnswerDelta,
    AnswerFinished,
    ApprovalRequested,
    ApprovalResolved,
    Citation,
    ModelCallFinished,
    ModelRetry,
    Narration,
    Thinking,
    ThinkingDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnCancelled,
    TurnFailed,
    TurnStarted,
    Usage,
    event_to_dict,
    plain,
    usage_to_dict,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from agent_core.events import AgentEvent

CallStatus = Literal[
    "running", "awaiting_approval", "ok", "empty", "error", "denied", "interrupted"
]
"""A call's status in the record: live states, the runtime's end states, or cut off."""

TurnStatus = Literal["running", "answered", "failed", "cancelled"]
"""How the turn stands: still running, or its one real end."""

Change = tuple[str, int | None]
"""What :meth:`TurnRecord.apply` changed: ``("call", index)``, ``("answer", None)``,
``("narration", index)``, ``("thinking", None)``, ``("status", None)``, ``("usage", None)``
or ``("none", None)``."""

_EVENT_TYPES: dict[str, type[Any]] = {
    str(next(f.default for f in dataclasses.fields(cls) if f.name == "kind")): cls
    for cls in (
        TurnStarted,
        Narration,
        ToolCallStarted,
        ApprovalRequested,
        ApprovalResolved,
        ToolCallFinished,
        AnswerDelta,
        ThinkingDelta,
        Thinking,
        ModelRetry,
        ModelCallFinished,
        AnswerFinished,
        TurnFailed,
        TurnCancelled,
    )
}


@dataclass
class CallRecord:
    """Everything known about one tool call of a turn."""

    call_id: str
    """The model's tool_use id."""
    tool: str
    """Tool name."""
    arguments: dict[str, Any]
    """Arguments as the model gave them."""
    decision: str
    """Runtime decision: allow, approval_required, deny."""
    step: int
    """The model call (1-based) whose message asked for this call."""
    status: CallStatus = "running"
    """Live or final status."""
    duration_ms: float | None = None
    """Execution time once finished."""
    row_count: int | None = None
    """Rows returned, when the tool returns rows."""
    preview: str = ""
    """One-line summary."""
    result: str = ""
    """The framed result text exactly as the model saw it."""
    payload: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The structured result the framed text was made from (read-only)."""
    truncated: bool = False
    """The result was cut at the size limit."""
    injection_suspected: bool = False
    """The result contains text that looks like instructions."""
    error: str | None = None
    """Error or denial message."""
    idempotency_key: str | None = None
    """The write's idempotency key, when approval was asked."""
    approved: bool | None = None
    """A person's answer to an approval request, if one was asked."""
    approval_reason: str = ""
    """The reason given with that answer."""

    @property
    def finished(self) -> bool:
        """True once the call has its final status."""
        return self.status not in ("running", "awaiting_approval")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the framed text and payload included)."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["payload"] = plain(self.payload)
        if out["duration_ms"] is not None:
            out["duration_ms"] = round(out["duration_ms"], 1)
        return out


@dataclass
class TurnRecord:
    """A turn as it stands after the events applied so far."""

    persona: str = ""
    """Who asked."""
    question: str = ""
    """What was asked."""
    model: str = ""
    """The model label the turn ran with."""
    turn_id: str = ""
    """The session's turn id."""
    status: TurnStatus = "running"
    """Running, or how it ended."""
    answer: str = ""
    """The answer: while running, the text the latest step streamed (until a
    ``Narration`` of that step says it was narration); the final text after."""
    answer_step: int = 0
    """The step (model call, 1-based) whose streamed text ``answer`` holds; 0 before any."""
    narration: list[str] = field(default_factory=list)
    """Text the model wrote before calling tools (or pausing), one entry per such step."""
    narration_steps: list[int] = field(default_factory=list)
    """The step of each ``narration`` entry."""
    thinking: list[str] = field(default_factory=list)
    """Thinking summaries, in order (never part of the answer)."""
    calls: list[CallRecord] = field(default_factory=list)
    """Tool calls in the order they started."""
    citations: tuple[Citation, ...] = ()
    """Documents the final answer cites."""
    cut_off: bool = False
    """The answer was cut by the output limit."""
    stop_reason: str | None = None
    """The last model call's stop reason."""
    usage: Usage | None = None
    """Tokens and cost of the whole turn, once it ended."""
    model_calls: list[ModelCallFinished] = field(default_factory=list)
    """Every model call that returned a message."""
    retries: list[ModelRetry] = field(default_factory=list)
    """Every retried model call."""
    failure: TurnFailed | None = None
    """Why the turn failed, when it did."""
    events: list[AgentEvent] = field(default_factory=list)
    """Every event applied, in order."""
    elapsed_ms: float = 0.0
    """Wall time of the turn, as its runner measured it (0 until set)."""
    _pending_thinking: str = ""
    _by_id: dict[str, int] = field(default_factory=dict)

    @property
    def step(self) -> int:
        """The model call now streaming (1-based)."""
        return len(self.model_calls) + 1

    @property
    def finished(self) -> bool:
        """True once the turn reached its one final event."""
        return self.status != "running"

    @property
    def tools(self) -> list[str]:
        """Tool names in call order."""
        return [call.tool for call in self.calls]

    def call(self, call_id: str) -> CallRecord | None:
        """The call with this id, if it started."""
        index = self._by_id.get(call_id)
        return None if index is None else self.calls[index]

    def apply(self, event: AgentEvent) -> Change:
        """Fold one event into the record.

        Args:
            event: The next event of the turn.

        Returns:
            What changed, so a view can update just that part.
        """
        self.events.append(event)
        match event:
            case TurnStarted():
                self.turn_id, self.persona = event.turn_id, event.persona
                self.question, self.model = event.question, event.model
                return ("status", None)
            case AnswerDelta():
                if event.step != self.answer_step:  # a new step streams a text of its own
                    self.answer, self.answer_step = "", event.step
                self.answer += event.text
                return ("answer", None)
            case Narration():
                # The step ended with tool calls: what it streamed was narration.
                step = event.step or self.answer_step
                self.narration.append(event.text)
                self.narration_steps.append(step)
                if step == self.answer_step:
                    self.answer = ""
                return ("narration", len(self.narration) - 1)
            case ThinkingDelta():
                self._pending_thinking += event.text
                return ("thinking", None)
            case Thinking():
                self.thinking.append(event.text or self._pending_thinking)
                self._pending_thinking = ""
                return ("thinking", None)
            case ModelRetry():
                self.retries.append(event)
                if event.discard:
                    self.answer, self._pending_thinking = "", ""
                return ("answer", None)
            case ModelCallFinished():
                self.model_calls.append(event)
                self.stop_reason = event.stop_reason
                return ("usage", None)
            case ToolCallStarted():
                self._by_id[event.call_id] = len(self.calls)
                self.calls.append(
                    CallRecord(
                        event.call_id,
                        event.tool,
                        dict(event.arguments),
                        event.decision,
                        step=len(self.model_calls),
                    )
                )
                return ("call", len(self.calls) - 1)
            case ApprovalRequested():
                return self._update_call(
                    event.call_id, status="awaiting_approval", idempotency_key=event.idempotency_key
                )
            case ApprovalResolved():
                return self._update_call(
                    event.call_id,
                    status="running",
                    approved=event.approved,
                    approval_reason=event.reason,
                )
            case ToolCallFinished():
                return self._update_call(
                    event.call_id,
                    status=event.status,
                    duration_ms=event.duration_ms,
                    row_count=event.row_count,
                    preview=event.preview,
                    result=event.result,
                    payload=event.payload,
                    truncated=event.truncated,
                    injection_suspected=event.injection_suspected,
                    error=event.error,
                )
            case AnswerFinished():
                self.status = "answered"
                self.answer, self.citations = event.text, tuple(event.citations)
                self.cut_off, self.usage = event.cut_off, event.usage
                self.stop_reason = event.stop_reason or self.stop_reason
                return ("status", None)
            case TurnFailed():
                self.status, self.failure, self.usage = "failed", event, event.usage
                self._interrupt_open_calls()
                return ("status", None)
            case TurnCancelled():
                self.status = "cancelled"
                self._interrupt_open_calls()
                return ("status", None)
        return ("none", None)

    def _update_call(self, call_id: str, **changes: Any) -> Change:
        index = self._by_id.get(call_id)
        if index is None:
            return ("none", None)
        for name, value in changes.items():
            setattr(self.calls[index], name, value)
        return ("call", index)

    def _interrupt_open_calls(self) -> None:
        for call in self.calls:
            if not call.finished:
                call.status = "interrupted"

    @classmethod
    def from_events(cls, events: Iterable[AgentEvent], **known: Any) -> TurnRecord:
        """Fold a whole event list.

        Args:
            events: A turn's events in order.
            **known: Fields known without a TurnStarted (persona, question, model).

        Returns:
            The record.
        """
        record = cls(**known)
        for event in events:
            record.apply(event)
        return record

    @classmethod
    def from_dicts(cls, events: Iterable[Mapping[str, Any]], **known: Any) -> TurnRecord:
        """Fold event dicts (as ``event_to_dict`` wrote them, e.g. from history).

        Unknown kinds and fields are skipped, so older records still load.
        """
        return cls.from_events(
            (e for e in (event_from_dict(d) for d in events) if e is not None), **known
        )

    def to_dict(self, *, with_events: bool = True) -> dict[str, Any]:
        """The JSON shape scripts rely on (``regdesk ask --json``).

        Args:
            with_events: Include every event (as dicts).

        Returns:
            persona, question, model, status, answer, narration, thinking, tools,
            tool_calls, citations, cut_off, stop_reason, usage, model_calls,
            retries, failure (and events).
        """
        out: dict[str, Any] = {
            "persona": self.persona,
            "question": self.question,
            "model": self.model,
            "status": self.status,
            "answer": self.answer if self.status == "answered" else "",
            "narration": list(self.narration),
            "thinking": list(self.thinking),
            "tools": self.tools,
            "tool_calls": [call.to_dict() for call in self.calls],
            "citations": [dataclasses.asdict(c) for c in self.citations],
            "cut_off": self.cut_off,
            "stop_reason": self.stop_reason,
            "usage": usage_to_dict(self.usage),
            "model_calls": [
                {
                    "call": e.call_index,
                    "model": e.model,
                    "stop_reason": e.stop_reason,
                    "request_id": e.request_id,
                    "request_bytes": e.request_bytes,
                    "usage": usage_to_dict(e.usage),
                }
                for e in self.model_calls
            ],
            "retries": len(self.retries),
            "elapsed_ms": round(self.elapsed_ms, 1),
            "failure": None
            if self.failure is None
            else {
                "kind": self.failure.failure,
                "message": self.failure.message,
                "request_id": self.failure.request_id,
                "action": self.failure.action,
            },
        }
        if with_events:
            out["events"] = [event_to_dict(e) for e in self.events]
        return out


def event_from_dict(data: Mapping[str, Any]) -> AgentEvent | None:
    """Rebuild an event from its dict, or None for a kind this version does not know."""
    cls = _EVENT_TYPES.get(str(data.get("kind")))
    if cls is None:
        return None
    names = {f.name for f in dataclasses.fields(cls)} - {"kind"}
    values = {k: v for k, v in data.items() if k in names}
    if "citations" in values:
        values["citations"] = tuple(
            Citation(**{k: c.get(k) for k in ("doc_no", "version", "effective_from")})
            for c in values["citations"] or ()
        )
    if isinstance(values.get("usage"), dict):
        usage_names = {f.name for f in dataclasses.fields(Usage)}
        values["usage"] = Usage(**{k: v for k, v in values["usage"].items() if k in usage_names})
    if "payload" in values and isinstance(values["payload"], dict):
        values["payload"] = MappingProxyType(values["payload"])
    try:
        event: AgentEvent = cls(**values)
        return event
    except TypeError:
        return None
