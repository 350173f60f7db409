"""The question matrix: questions × personas, each cell a real agent turn, checked.

Questions come from a scenario YAML (``tests/scenarios/README.md``) or are typed
ad hoc. A case's assertions were written for the persona it names (``as:``), so
they are applied in that persona's cell only; a case may add
``expect_by_persona: {park: {...}}`` for the others. Every cell is also checked
for the asking persona's canaries (``no_canary_leak``). The matrix never writes
unless asked to: approvals are denied, and ``ledger_rows`` assertions are then
reported as not checked.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from agent_core import compare
from agent_core.approval import ApprovalDecision, approve_all
from agent_core.cancel import CancelToken
from agent_core.events import TurnFailed, event_to_dict
from agent_core.matrix.cells import QuestionCell, QuestionStatus
from agent_core.record import TurnRecord
from agent_core.scenarios import Case, check_answer, load_cases

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path

    from agent_core.approval import Approver
    from agent_core.events import AgentEvent, ApprovalRequested
    from agent_core.session import PersonaSession

DEFAULT_WORKERS = 4
"""Turns running at once (the offline model and platform share two cores)."""

BUSY_POLL_S = 0.1
"""How often a cell waiting for a busy borrowed session looks again."""


def answer_figures(answer: str) -> tuple[str, ...]:
    """The figures, dates and document numbers an answer states (sorted, unique).

    Read by ``agent_core.compare.answer_figures`` (the split view's reading), so
    the matrix and the comparison strip agree on what a figure is.

    Args:
        answer: The answer text.

    Returns:
        What a baseline diff compares, e.g. ``("20일", "2025-03-15", "HR-REG-003")``.
    """
    found = compare.answer_figures(answer)
    return tuple(sorted({shown for kind in found.values() for shown in kind.values()}))


@dataclass(frozen=True)
class MatrixQuestion:
    """One row of the question matrix."""

    case: str
    """``suite/id`` or ``adhoc/N``."""
    ask: str
    """The question."""
    persona: str | None = None
    """The persona the case's ``expect`` was written for (None: ad hoc)."""
    expect: dict[str, Any] = field(default_factory=dict)
    """Assertions for ``persona``."""
    expect_by_persona: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Assertions for other personas."""
    approval: str | None = None
    """``approve`` / ``deny``, honoured only when writes are allowed."""

    def expectations(self, persona: str) -> dict[str, Any]:
        """The assertions that apply in ``persona``'s cell (may be empty)."""
        if persona in self.expect_by_persona:
            return dict(self.expect_by_persona[persona])
        return dict(self.expect) if persona == self.persona else {}


def load_questions(paths: Sequence[Path | str], truth: dict[str, Any]) -> list[MatrixQuestion]:
    """Read scenario suites as matrix questions (placeholders from the ground truth).

    The suites are read by ``agent_core.scenarios.load_cases``, the scenario
    runner's reader, so both see the same cases.

    Args:
        paths: Scenario YAML files.
        truth: Ground truth for ``${...}`` placeholders.

    Returns:
        Questions in file order.
    """
    return [
        MatrixQuestion(
            case=c.name,
            ask=c.ask,
            persona=c.persona,
            expect=c.expect,
            expect_by_persona=c.expect_by_persona,
            approval=c.approval,
        )
        for c in load_cases(paths, truth)
    ]


def adhoc_questions(texts: Sequence[str]) -> list[MatrixQuestion]:
    """Typed questions, with no assertions but the canary check.

    Args:
        texts: The questions.

    Returns:
        Questions named ``adhoc/1``, ``adhoc/2``, ...
    """
    return [MatrixQuestion(f"adhoc/{i}", t) for i, t in enumerate(texts, 1) if t.strip()]


def _refused_as_busy(event: AgentEvent | None) -> bool:
    """True for the answer of a session already running a turn: refused before it began
    (``PersonaSession`` runs one turn at a time and refuses a second one at once)."""
    return isinstance(event, TurnFailed) and event.failure == "refused"


def _deny_writes(request: ApprovalRequested) -> ApprovalDecision:
    return ApprovalDecision(False, "the question matrix never writes (approvals are denied)")


class _SessionPool:
    """Sessions per persona, each running one turn at a time.

    Owned sessions are logged in on demand (several per persona when the
    bound allows) and closed at the end. Borrowed ones (the app's signed-in
    sessions) are one per persona: a second cell of that persona waits for
    the first, and nothing is closed.
    """

    def __init__(self, login: Callable[[str], PersonaSession], borrowed: bool) -> None:
        self._login = login
        self._borrowed = borrowed
        self._idle: dict[str, list[PersonaSession]] = {}
        self._count: dict[str, int] = {}
        self._all: list[PersonaSession] = []
        self._cond = threading.Condition()

    def acquire(self, persona: str, cancel: CancelToken) -> PersonaSession | None:
        """A free session of ``persona``; None when cancelled while waiting."""
        with self._cond:
            while True:
                idle = self._idle.setdefault(persona, [])
                if idle:
                    return idle.pop()
                if not self._borrowed or not self._count.get(persona):
                    self._count[persona] = self._count.get(persona, 0) + 1
                    break
                if cancel.cancelled:
                    return None
                self._cond.wait(0.2)
        try:
            session = self._login(persona)
        except BaseException:
            with self._cond:
                self._count[persona] -= 1
            raise
        with self._cond:
            self._all.append(session)
        return session

    def release(self, persona: str, session: PersonaSession) -> None:
        with self._cond:
            self._idle[persona].append(session)
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            sessions, self._all = self._all, []
        if not self._borrowed:
            for s in sessions:
                s.close()


class QuestionMatrixRunner:
    """Runs questions × personas concurrently, with a bound, cancellable.

    Args:
        login: Logs a persona in (returns a new ``PersonaSession``; never admin).
        truth: Ground truth (canaries), or None.
        max_workers: Turns at once.
        allow_writes: Honour a case's ``approval: approve`` (writes to the platform).
        borrowed: ``login`` hands out sessions someone else owns (one per persona,
            never closed here) instead of logging in new ones. While such a session
            runs a turn of its own (its persona pane), the cell waits for it: never a
            second turn at once on one session.
        on_busy: Called ``(persona, True)`` when a cell starts waiting for a busy
            session and ``(persona, False)`` when the wait ends.
    """

    def __init__(
        self,
        login: Callable[[str], PersonaSession],
        truth: dict[str, Any] | None = None,
        *,
        max_workers: int = DEFAULT_WORKERS,
        allow_writes: bool = False,
        borrowed: bool = False,
        on_busy: Callable[[str, bool], None] | None = None,
    ) -> None:
        self.login = login
        self.borrowed = borrowed
        self.on_busy = on_busy
        self.truth = truth or {}
        self.max_workers = max(1, max_workers)
        self.allow_writes = allow_writes

    def _approver(self, question: MatrixQuestion) -> Approver:
        if self.allow_writes and question.approval == "approve":
            return approve_all
        return _deny_writes

    def _check(
        self, question: MatrixQuestion, persona: str, record: TurnRecord
    ) -> tuple[QuestionStatus, list[str], list[str]]:
        expect = question.expectations(persona)
        notes: list[str] = []
        if "ledger_rows" in expect and not self.allow_writes:
            expect.pop("ledger_rows")
            notes.append("ledger_rows not checked: the question matrix never writes")
        asserted = bool(expect)
        if self.truth.get("canaries"):
            expect["no_canary_leak"] = True
        case = Case("matrix", question.case, persona, question.ask, expect, question.approval)
        dicts = [event_to_dict(e) for e in record.events]
        fails = check_answer(case, record.answer, record.tools, dicts, self.truth, None)
        if fails:
            return "fail", fails, notes
        return ("pass" if asserted else "answered"), [], notes

    def _wait_until_free(self, session: PersonaSession, persona: str, cancel: CancelToken) -> bool:
        """Wait while ``session`` runs a turn someone else started; False when cancelled."""
        if not session.busy:
            return True
        if self.on_busy is not None:
            self.on_busy(persona, True)
        try:
            while session.busy:
                if cancel.wait(BUSY_POLL_S):
                    return False
            return True
        finally:
            if self.on_busy is not None:
                self.on_busy(persona, False)

    def run_cell(
        self, pool: _SessionPool, question: MatrixQuestion, persona: str, cancel: CancelToken
    ) -> QuestionCell:
        """Ask one question as one persona and check the answer."""
        if cancel.cancelled:
            return QuestionCell(persona, question.case, question.ask, "cancelled")
        started = time.perf_counter()
        try:
            session = pool.acquire(persona, cancel)
        except Exception as exc:  # a refused login is this cell's result, not a crash
            return QuestionCell(
                persona, question.case, question.ask, "error", failures=(f"login failed: {exc}",)
            )
        if session is None:
            return QuestionCell(persona, question.case, question.ask, "cancelled")
        turn_cancel = CancelToken()
        remove = cancel.on_cancel(turn_cancel.cancel)
        record = TurnRecord(persona=persona, question=question.ask)
        try:
            while True:
                if not self._wait_until_free(session, persona, cancel):
                    return QuestionCell(persona, question.case, question.ask, "cancelled")
                events = session.run_turn(
                    question.ask, approver=self._approver(question), cancel=turn_cancel
                )
                first = next(events, None)
                if _refused_as_busy(first):
                    continue  # its pane began a turn after the check: wait for that one too
                if first is not None:
                    record.apply(first)
                for event in events:
                    record.apply(event)
                break
        finally:
            remove()
            pool.release(persona, session)
        elapsed = (time.perf_counter() - started) * 1000.0
        calls = tuple(
            {"name": c.tool, "arguments": c.arguments, "status": c.status, "row_count": c.row_count}
            for c in record.calls
        )
        base = QuestionCell(
            persona,
            question.case,
            question.ask,
            "answered",
            answer=record.answer,
            tools=tuple(record.tools),
            tool_calls=calls,
            figures=answer_figures(record.answer),
            elapsed_ms=elapsed,
        )
        if record.status == "cancelled" or cancel.cancelled:
            return replace(base, status="cancelled")
        if record.failure is not None:
            reason = f"turn failed ({record.failure.failure}): {record.failure.message}"
            return replace(base, status="error", failures=(reason,))
        status, fails, notes = self._check(question, persona, record)
        return replace(base, status=status, failures=tuple(fails), notes=tuple(notes))

    def run(
        self,
        questions: Sequence[MatrixQuestion],
        personas: Sequence[str],
        cancel: CancelToken | None = None,
        on_progress: Callable[[int, int, QuestionCell], None] | None = None,
    ) -> list[QuestionCell]:
        """Run every question as every persona.

        Args:
            questions: Rows.
            personas: Columns.
            cancel: Cancels the run: running turns stop, queued cells come back
                ``cancelled``.
            on_progress: Called (from a worker thread) as ``(done, total, cell)``
                after each cell.

        Returns:
            Cells in question-major order (the order of the grid).
        """
        cancel = cancel or CancelToken()
        tasks = [(q, p) for q in questions for p in personas]
        total = len(tasks)
        done = 0
        lock = threading.Lock()
        pool = _SessionPool(self.login, self.borrowed)

        def work(task: tuple[MatrixQuestion, str]) -> QuestionCell:
            nonlocal done
            cell = self.run_cell(pool, task[0], task[1], cancel)
            with lock:  # reported under the lock, so counts arrive in order (the last is total)
                done += 1
                if on_progress is not None:
                    on_progress(done, total, cell)
            return cell

        try:
            with ThreadPoolExecutor(self.max_workers, thread_name_prefix="matrix-q") as ex:
                return list(ex.map(work, tasks))
        finally:
            pool.close()
