"""A saved turn shown again: question, tool calls, answer with citations, and how it ended.

The history keeps every event of a turn (``agent_core.events.event_to_dict``);
replaying rebuilds the same events and feeds them to the pane's models, so a
restored turn looks like it did when it ran: its calls under its question, its
citations as chips, and a stopped or failed turn marked as such (not as an answer).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

from agent_core.events import Citation, ToolCallFinished, ToolCallStarted
from desktop.verbatim import tool_values_of_events

if TYPE_CHECKING:
    from desktop.history_store import TurnRecord
    from desktop.persona_pane import PaneResult, PersonaPane


def _event(cls: type[Any], data: dict[str, Any]) -> Any:
    """An event dataclass from its dict (keys it does not know are left out)."""
    known = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in known})


def citations_of(data: dict[str, Any]) -> tuple[Citation, ...]:
    """The citations of an ``answer_finished`` event dict."""
    found = []
    for cite in data.get("citations") or []:
        if isinstance(cite, dict) and cite.get("doc_no"):
            found.append(
                Citation(str(cite["doc_no"]), cite.get("version"), cite.get("effective_from"))
            )
    return tuple(found)


def replay_turn(pane: PersonaPane, record: TurnRecord) -> PaneResult:
    """Show one saved turn in a pane and return it as a finished ``PaneResult``.

    Args:
        pane: The pane (its transcript and tool calls get the turn's rows).
        record: The saved turn.

    Returns:
        The turn as the pane keeps it (for history pairs, regenerate, export).
    """
    from desktop.persona_pane import PaneResult

    result = PaneResult(
        record.persona,
        record.question,
        answer=record.answer,
        status=record.status,
        started_at=record.started_at,
        elapsed_ms=record.elapsed_ms,
        events=list(record.events),
        saved=True,
        conversation_id=record.conversation_id,
        turn_id=record.id,
        row_start=pane.transcript.rowCount(),
        tool_start=pane.tools.rowCount(),
    )
    pane.transcript.add_question(record.question)
    pane.tools.begin_turn(record.question)
    answered = False
    for data in record.events:
        kind = data.get("kind")
        if kind == "tool_call_started":
            pane.tools.start_call(_event(ToolCallStarted, data))
        elif kind == "tool_call_finished":
            pane.tools.finish_call(_event(ToolCallFinished, data))
        elif kind == "approval_resolved":
            pane.tools.resolve_approval(_resolved(data))
        elif kind == "answer_finished":
            pane.transcript.add_answer(
                str(data.get("text") or record.answer),
                citations_of(data),
                tool_values_of_events(record.events),
            )
            answered = True
        elif kind == "turn_failed":
            result.message = str(data.get("message") or "")
            pane.transcript.add_notice(
                pane.failure_notice(str(data.get("failure") or "model"), result.message)
            )
        elif kind == "turn_cancelled":
            pane.transcript.add_notice(QCoreApplication.translate("PersonaPane", "Stopped."))
    if not answered and record.status == "answered" and record.answer:
        pane.transcript.add_answer(record.answer)  # saved before events kept the answer
    elif not answered and record.status not in ("answered", "failed", "cancelled"):
        pane.transcript.add_notice(f"({record.status})")
    pane.tools.abandon_running(failed=record.status == "failed")
    result.tools = [
        {
            "tool": call.tool,
            "arguments": call.arguments,
            "status": call.status,
            "row_count": call.row_count,
            "duration_ms": call.duration_ms,
            "decision": call.decision,
            "approved": call.approval,
        }
        for call in pane.tools.calls[result.tool_start :]
    ]
    pane.transcript.set_footer(pane.footer_text(result))
    return result


def _resolved(data: dict[str, Any]) -> Any:
    from agent_core.events import ApprovalResolved

    return _event(ApprovalResolved, data)
