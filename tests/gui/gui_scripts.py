"""Scripted event sequences for model/view tests (no services involved)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agent_core.events import (
    AnswerDelta,
    AnswerFinished,
    ApprovalRequested,
    ApprovalResolved,
    Citation,
    ToolCallFinished,
    ToolCallStarted,
    TurnCancelled,
    TurnStarted,
)

if TYPE_CHECKING:
    import threading
    from collections.abc import Iterator

    from agent_core.approval import Approver
    from agent_core.cancel import CancelToken
    from agent_core.events import AgentEvent

ANSWER = "육아휴직은 HR-REG-003 제3차 기준 20일입니다. 12일을 사용해 8일 남았습니다."


def scripted_turn(
    persona: str = "hong",
    answer: str = ANSWER,
    rows: int = 3,
    status: str = "ok",
    gate: threading.Event | None = None,
) -> Any:
    """A turn function: one tool call, then the answer in small deltas.

    Args:
        persona: Who asks.
        answer: The answer streamed word by word.
        rows: Row count of the tool call.
        status: Status of the tool call.
        gate: When given, the turn blocks after the tool call until it is set or
            the turn is cancelled (for stop and overlap tests).
    """

    def turn(approver: Approver, cancel: CancelToken) -> Iterator[AgentEvent]:
        yield TurnStarted("t1", persona, "q", "scripted")
        yield ToolCallStarted("c1", "query_hr", {"question_sql": "SELECT 1"}, "allow")
        yield ToolCallFinished(
            "c1",
            "query_hr",
            status,
            12.0,
            rows,
            "preview",
            '{"rows": []}',  # type: ignore[arg-type]
        )
        if gate is not None:
            while not gate.is_set():
                if cancel.wait(0.01):
                    yield TurnCancelled()
                    return
        for word in answer.split(" "):
            if cancel.cancelled:
                yield TurnCancelled()
                return
            yield AnswerDelta(word + " ")
        yield AnswerFinished(answer, (Citation("HR-REG-003", 3, "2025-03-15"),))

    return turn


def approval_turn(persona: str = "hong", call_id: str = "w1") -> Any:
    """A turn that asks for approval of a write and reports the decision."""

    def turn(approver: Approver, cancel: CancelToken) -> Iterator[AgentEvent]:
        yield TurnStarted("t2", persona, "q", "scripted")
        arguments = {"doc_no": "HR-REG-003", "version": 3, "reason": "date mismatch"}
        tool = "request_regulation_revision"
        yield ToolCallStarted(call_id, tool, arguments, "approval_required")
        request = ApprovalRequested(
            call_id, persona, "request_regulation_revision", arguments, "key-123"
        )
        yield request
        decision = approver(request)
        yield ApprovalResolved(call_id, decision.approved, decision.reason)
        status = "ok" if decision.approved else "denied"
        yield ToolCallFinished(
            call_id,
            "request_regulation_revision",
            status,
            5.0,
            None,
            status,
            "{}",  # type: ignore[arg-type]
        )
        text = "요청했습니다." if decision.approved else f"거부되었습니다: {decision.reason}"
        yield AnswerDelta(text)
        yield AnswerFinished(text)

    return turn


class ScriptedSession:
    """A stand-in for a logged-in persona whose turns follow a script.

    For model/view and threading tests only; end-to-end tests use the real
    ``PersonaSession`` against the embedded services.
    """

    def __init__(self, username: str, turn_factory: Any, display_name: str = "") -> None:
        self.username = username
        self.display_name = display_name or username
        self._turn_factory = turn_factory
        self.questions: list[str] = []
        self.histories: list[list[tuple[str, str]]] = []
        """The (question, answer) pairs each turn was given as context."""

    def run_turn(
        self,
        question: str,
        *,
        approver: Approver,
        cancel: CancelToken,
        history: list[tuple[str, str]] | None = None,
    ) -> Iterator[AgentEvent]:
        self.questions.append(question)
        self.histories.append(list(history or []))
        return self._turn_factory(question)(approver, cancel)

    def close(self) -> None:
        pass


def failing_turn() -> Any:
    """A turn whose generator raises after starting."""

    def turn(approver: Approver, cancel: CancelToken) -> Iterator[AgentEvent]:
        yield TurnStarted("t3", "hong", "q", "scripted")
        raise ConnectionError("platform went away")

    return turn


def document_anchors(document: Any) -> list[str]:
    """Every link target in a QTextDocument, in order (what a click on the text can open)."""
    hrefs: list[str] = []
    block = document.begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            fmt = iterator.fragment().charFormat()
            if fmt.isAnchor():
                hrefs.append(fmt.anchorHref())
            iterator += 1
        block = block.next()
    return hrefs
