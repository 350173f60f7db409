"""A saved turn shown again: question, tool calls, answer with citations, and how it ended.

The history keeps every event of a turn (``agent_core.events.event_to_dict``);
replaying folds them into a ``TurnRecord`` (``TurnRecord.from_dicts``, the same
fold as a live turn) and shows that record, so a restored turn looks like it
did when it ran: its calls under its question, its citations as chips, and a
stopped or failed turn marked as such (not as an answer). Rows saved by older
versions load too: unknown event kinds and fields are skipped, and a turn saved
before events kept its answer shows the answer column.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from agent_core.record import TurnRecord
from desktop.verbatim import tool_values

if TYPE_CHECKING:
    from desktop.history_store import SavedTurn
    from desktop.persona_pane import PaneResult, PersonaPane


def replay_turn(pane: PersonaPane, saved: SavedTurn) -> PaneResult:
    """Show one saved turn in a pane and return it as a finished ``PaneResult``.

    Args:
        pane: The pane (its transcript and tool calls get the turn's rows).
        saved: The turn as the history store keeps it.

    Returns:
        The turn as the pane keeps it (for history pairs, regenerate, export).
    """
    from desktop.persona_pane import PaneResult

    record = TurnRecord.from_dicts(saved.events, persona=saved.persona, question=saved.question)
    record.persona, record.elapsed_ms = saved.persona, saved.elapsed_ms
    if not record.finished:
        # saved without its final event (older versions, a crash): the row's
        # status says how it ended
        if saved.status == "answered":
            record.status, record.answer = "answered", record.answer or saved.answer
        elif saved.status in ("failed", "cancelled"):
            record.status = "failed" if saved.status == "failed" else "cancelled"
    for call in record.calls:  # a saved turn is over: none of its calls still runs
        if not call.finished:
            call.status = "interrupted"
    result = PaneResult(
        record,
        saved.question,
        started_at=saved.started_at,
        saved=True,
        conversation_id=saved.conversation_id,
        turn_id=saved.id,
        row_start=pane.transcript.rowCount(),
        tool_start=pane.tools.rowCount(),
    )
    pane.transcript.add_question(saved.question)
    pane.tools.add_turn(record, saved.question)
    if record.status == "answered":
        text = record.answer or saved.answer
        verbatim = tool_values(call.result for call in record.calls)
        pane.transcript.add_answer(text, record.citations, verbatim)
    elif record.failure is not None:
        failure = record.failure
        pane.transcript.add_notice(pane.failure_notice(failure.failure, failure.message))
    elif record.status == "cancelled":
        pane.transcript.add_notice(QCoreApplication.translate("PersonaPane", "Stopped."))
    elif record.status == "failed":  # saved without its failure event: say it failed
        pane.transcript.add_notice(QCoreApplication.translate("PersonaPane", "The turn failed."))
    else:
        pane.transcript.add_notice(f"({saved.status})")
    pane.transcript.set_footer(pane.footer_text(result))
    return result
