"""Run one agent turn off the GUI thread.

A :class:`TurnWorker` lives in its own ``QThread`` and iterates the turn's
event generator there. Events cross to the GUI thread in batches: the worker
appends to a locked list and emits ``wake`` only when the list goes from empty
to non-empty, so 5,000 rapid deltas cost a handful of queued signals rather
than 5,000, and the GUI event loop never drowns. An approval request blocks the
worker on a ``threading.Event`` while the GUI asks the person.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal, Slot

from agent_core.approval import ApprovalDecision
from agent_core.cancel import CancelToken
from agent_core.events import TERMINAL_KINDS, TurnCancelled, TurnFailed

if TYPE_CHECKING:
    from collections.abc import Iterator

    from agent_core.approval import Approver
    from agent_core.events import AgentEvent, ApprovalRequested


class TurnFunction(Protocol):
    """Runs one turn: a generator of events, given an approver and a cancel token."""

    def __call__(self, approver: Approver, cancel: CancelToken) -> Iterator[AgentEvent]:
        """Yield the turn's events."""
        ...


_log = logging.getLogger(__name__)

_LIVE_THREADS: weakref.WeakSet[QThread] = weakref.WeakSet()

HIGH_WATER = 256
"""Queued events at which the worker waits for the GUI to catch up (back-pressure)."""

LOW_WATER = 32
"""Queued events below which a waiting worker goes on."""

YIELD_EVERY = 32
"""The worker lets other threads run after this many events."""

DELIVERY_CHUNK = 128
"""Events handed to the GUI per slot call; the rest follow on the next loop turn."""


def running_turn_threads() -> int:
    """How many turn threads are still running (tests assert this is zero)."""
    return sum(1 for thread in list(_LIVE_THREADS) if thread.isRunning())


class TurnWorker(QObject):
    """Iterates a turn in its thread and hands events to the GUI in batches."""

    wake = Signal()
    """New events are waiting in ``take_events()``."""
    approval_needed = Signal(object)
    """An ``ApprovalRequested``; answer with ``answer_approval``."""
    done = Signal()
    """The turn is over (after its last event was queued)."""

    def __init__(self, turn: TurnFunction, cancel: CancelToken) -> None:
        super().__init__()
        self._turn = turn
        self._cancel = cancel
        self._lock = threading.Lock()
        self._drained = threading.Condition(self._lock)
        self._pending: list[AgentEvent] = []
        self._posted = 0
        self._answered = threading.Event()
        self._decision: ApprovalDecision | None = None
        self._waiting_for: str | None = None

    def take_events(self, limit: int | None = None) -> tuple[list[AgentEvent], bool]:
        """Take queued events, oldest first (GUI thread).

        Args:
            limit: Most events to take; None for all.

        Returns:
            The events and whether more are still queued.
        """
        with self._lock:
            if limit is None or len(self._pending) <= limit:
                batch, self._pending = self._pending, []
            else:
                batch = self._pending[:limit]
                del self._pending[:limit]
            if len(self._pending) < LOW_WATER:
                self._drained.notify_all()
            return batch, bool(self._pending)

    def _post(self, event: AgentEvent) -> None:
        with self._lock:
            if len(self._pending) >= HIGH_WATER and not self._cancel.cancelled:
                # a producer faster than the GUI waits here (releasing the GIL)
                # instead of burying the event loop; a bounded wait, so a GUI
                # that stopped draining cannot hang the turn
                self._drained.wait_for(lambda: len(self._pending) < LOW_WATER, timeout=0.25)
            was_empty = not self._pending
            self._pending.append(event)
        if was_empty:
            self.wake.emit()
        self._posted += 1
        if self._posted % YIELD_EVERY == 0:
            # Hand the GIL over: a producer in a tight loop would otherwise keep
            # the GUI thread waiting a whole switch interval (5 ms) every time
            # it enters Python to paint or to take events.
            time.sleep(0)

    def answer_approval(self, call_id: str, decision: ApprovalDecision) -> bool:
        """Give the waiting worker a person's decision (any thread).

        Args:
            call_id: The ``call_id`` of the ``ApprovalRequested`` answered.
            decision: The person's decision.

        Returns:
            False (and nothing happens) unless the worker waits on that very call:
            a stale answer never approves another request.
        """
        with self._lock:
            if call_id != self._waiting_for:
                return False
            self._waiting_for = None
            self._decision = decision
        self._answered.set()
        return True

    def _approve(self, request: ApprovalRequested) -> ApprovalDecision:
        self._answered.clear()
        with self._lock:
            self._decision = None
            self._waiting_for = request.call_id
        unregister = self._cancel.on_cancel(self._answered.set)
        self.approval_needed.emit(request)
        self._answered.wait()
        unregister()
        with self._lock:
            self._waiting_for = None
        if self._decision is None or self._cancel.cancelled:
            return ApprovalDecision(False, "the turn was stopped before anyone answered")
        return self._decision

    @Slot()
    def run(self) -> None:
        """Iterate the turn; exceptions become a ``TurnFailed`` event."""
        terminal = False
        try:
            for event in self._turn(self._approve, self._cancel):
                self._post(event)
                if event.kind in TERMINAL_KINDS:
                    terminal = True
                    break
        except Exception as exc:  # crossing threads as data, never a silent death
            _log.exception("turn worker stopped on an internal error")
            self._post(TurnFailed("internal", f"{type(exc).__name__}: {exc}"))
            terminal = True
        if not terminal:
            # run_turn always ends with a final event; reaching here is a bug, not the model
            self._post(
                TurnCancelled()
                if self._cancel.cancelled
                else TurnFailed("internal", "the turn ended without a final event")
            )
        self.done.emit()


class TurnController(QObject):
    """Owns one turn's thread and worker, on the GUI side."""

    events_arrived = Signal(object)
    """A list of events, delivered in the GUI thread in order."""
    approval_requested = Signal(object)
    """An ``ApprovalRequested`` the GUI must answer with ``answer_approval``."""
    finished = Signal()
    """The thread has ended and every event was delivered."""

    def __init__(self, turn: TurnFunction, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.cancel_token = CancelToken()
        self._thread = QThread()
        self._thread.setObjectName("regdesk-turn")
        self._worker = TurnWorker(turn, self.cancel_token)
        self._worker.moveToThread(self._thread)
        self._thread.started.connect(self._worker.run)
        self._worker.wake.connect(self._drain)
        self._worker.approval_needed.connect(self.approval_requested)
        # direct: quit() is thread-safe, and a GUI thread blocked in wait() could
        # never deliver a queued quit
        self._worker.done.connect(self._thread.quit, Qt.ConnectionType.DirectConnection)
        self._thread.finished.connect(self._on_thread_finished)
        self._running = False
        self._delivery = QTimer(self)
        self._delivery.setSingleShot(True)
        self._delivery.setInterval(0)
        self._delivery.timeout.connect(self._deliver)
        _LIVE_THREADS.add(self._thread)

    @property
    def running(self) -> bool:
        """True from ``start()`` until ``finished``."""
        return self._running

    def start(self) -> None:
        """Start the turn's thread."""
        self._running = True
        self._thread.start()

    def cancel(self) -> None:
        """Ask the turn to stop; it ends within a second."""
        self.cancel_token.cancel()

    def answer_approval(self, call_id: str, decision: ApprovalDecision) -> bool:
        """Hand a decision to the worker waiting on approval ``call_id``.

        Returns:
            False when the worker waits on no such request (a stale answer).
        """
        return self._worker.answer_approval(call_id, decision)

    def wait(self, timeout_ms: int = 5000) -> bool:
        """Block until the thread ended (used when the window closes).

        Args:
            timeout_ms: Longest wait.

        Returns:
            True when the thread is no longer running.
        """
        ended = self._thread.wait(timeout_ms) if self._thread.isRunning() else True
        if ended:
            self.flush_backlog()
        return ended

    @Slot()
    def _drain(self) -> None:
        self._deliver()

    def _deliver(self) -> bool:
        # Small chunks keep each slot call short, so timers and paints run in
        # between; the rest stays with the worker, whose queue length is then
        # the true backlog its back-pressure sees.
        finished = self._thread.isFinished()
        chunk, more = self._worker.take_events(DELIVERY_CHUNK)
        if chunk:
            self.events_arrived.emit(chunk)
        if more:
            self._delivery.start()
        elif finished and self._running:
            self._finish()
        return more

    @Slot()
    def _on_thread_finished(self) -> None:
        if self._running and not self._delivery.isActive():
            self._deliver()

    def _finish(self) -> None:
        if not self._running:
            return
        self._running = False
        self._delivery.stop()
        self.finished.emit()

    def flush_backlog(self) -> None:
        """Deliver every queued event now (closing the window)."""
        while self._deliver():
            pass
