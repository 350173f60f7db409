"""Run one agent turn off the GUI thread; the one buffer between the stream and the paint.

A :class:`TurnWorker` lives in its own ``QThread`` and iterates the turn's
event generator there. Its queue is the only buffering layer between the SDK
stream and the screen:

- **Coalescing in the worker.** Consecutive ``AnswerDelta`` (or ``ThinkingDelta``)
  events of one step are merged while they wait, so a flood of small deltas
  costs the GUI thread one event per frame, not one per delta. The work of
  joining text runs in the worker thread, on the other core.
- **One delivery per frame.** A queued ``wake`` tells the GUI that events wait;
  one shared :class:`_FrameClock` then delivers every streaming pane's queue in
  one tick, at most once per ``FRAME_MS`` and within ``FRAME_BUDGET_MS`` of GUI
  time, so the split view's panes cost one layout-and-paint pass per frame. An
  idle clock delivers at once, so the first text of an answer is not delayed.
- **Back-pressure.** A producer far ahead of the GUI (``HIGH_WATER`` events that
  cannot merge) waits, releasing the GIL, instead of burying the event loop.

An approval request blocks the worker on a ``threading.Event`` while the GUI
asks the person.
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
from agent_core.events import (
    TERMINAL_KINDS,
    AnswerDelta,
    ThinkingDelta,
    TurnCancelled,
    TurnFailed,
)

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
"""Events the worker may post between two takes of the GUI (merged or not), or keep
queued, before it waits for the GUI to catch up."""

LOW_WATER = 32
"""Queued events below which a waiting worker goes on (after the GUI took events)."""

FRAME_MS = 16
"""Shortest time between two deliveries to the GUI: one frame."""

FRAME_BUDGET_MS = 2.5
"""GUI time one delivery may spend on events; the rest waits for the next frame.

The events' own cost (a tool row inserted, a row grown) is the small part: the
layout and paint they cause follow in the same frame (5-8 ms for two panes on
the GUI benchmark's flood), and the frame must stay under 16 ms."""

DELIVERY_SLICE = 8
"""Events one pane takes per round of a tick (rounds continue while the budget lasts)."""

_MERGEABLE = (AnswerDelta, ThinkingDelta)


def running_turn_threads() -> int:
    """How many turn threads are still running (tests assert this is zero)."""
    return sum(1 for thread in list(_LIVE_THREADS) if thread.isRunning())


class TurnWorker(QObject):
    """Iterates a turn in its thread and queues its events, merging streamed text."""

    wake = Signal()
    """Events wait in ``take_events()`` (emitted when the queue stops being empty)."""
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
        # the text of a delta that may still grow: merged into ``_pending[-1]`` when taken
        self._tail: list[str] = []
        self._since_take = 0
        self._answered = threading.Event()
        self._decision: ApprovalDecision | None = None
        self._waiting_for: str | None = None

    def take_events(self, limit: int | None = None) -> tuple[list[AgentEvent], bool]:
        """Take queued events, oldest first, merged deltas whole (GUI thread).

        Args:
            limit: Most events to take; None for all.

        Returns:
            The events and whether more are still queued.
        """
        with self._lock:
            self._close_tail()
            if limit is None or len(self._pending) <= limit:
                batch, self._pending = self._pending, []
            else:
                batch = self._pending[:limit]
                del self._pending[:limit]
            self._since_take = 0
            if len(self._pending) < LOW_WATER:
                self._drained.notify_all()
            return batch, bool(self._pending)

    def _close_tail(self) -> None:
        if len(self._tail) > 1:
            last = self._pending[-1]
            assert isinstance(last, _MERGEABLE)
            self._pending[-1] = type(last)("".join(self._tail), last.step)
        self._tail = []

    def _post(self, event: AgentEvent) -> None:
        with self._lock:
            busy = self._since_take >= HIGH_WATER or len(self._pending) >= HIGH_WATER
            if busy and not self._cancel.cancelled:
                # A producer faster than the GUI waits here, releasing the GIL: a
                # thread that keeps it makes every Python call of a paint wait for
                # it. A bounded wait, so a GUI that stopped taking cannot hang the turn.
                if not self._drained.wait_for(
                    lambda: (
                        (self._since_take == 0 and len(self._pending) < LOW_WATER)
                        or self._cancel.cancelled
                    ),
                    timeout=0.25,
                ):
                    self._since_take = 0  # the GUI had its chance; wait again later
            self._since_take += 1
            if self._tail and _merges(self._pending[-1], event):
                self._tail.append(event.text)  # type: ignore[union-attr]
                return
            self._close_tail()
            was_empty = not self._pending
            self._pending.append(event)
            if isinstance(event, _MERGEABLE):
                self._tail = [event.text]
        if was_empty:
            self.wake.emit()

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

    def _wake_on_cancel(self) -> None:
        with self._lock:
            self._drained.notify_all()  # a producer waiting on the GUI stops waiting

    @Slot()
    def run(self) -> None:
        """Iterate the turn; exceptions become a ``TurnFailed`` event."""
        terminal = False
        unregister = self._cancel.on_cancel(self._wake_on_cancel)
        try:
            for event in self._turn(self._approve, self._cancel):
                self._post(event)
                if event.kind in TERMINAL_KINDS:
                    terminal = True
                    break
        except BaseException as exc:  # even SystemExit: the pane must hear the turn end
            _log.exception("turn worker stopped on an internal error")
            self._post(TurnFailed("internal", f"{type(exc).__name__}: {exc}"))
            terminal = True
        finally:
            unregister()
            if not terminal:
                # run_turn always ends with a final event; reaching here is a bug
                self._post(
                    TurnCancelled()
                    if self._cancel.cancelled
                    else TurnFailed("internal", "the turn ended without a final event")
                )
            self.done.emit()


def _merges(queued: AgentEvent, event: AgentEvent) -> bool:
    """True when ``event`` continues the streamed text ``queued`` holds (same kind, same step)."""
    if type(event) is not type(queued) or not isinstance(event, _MERGEABLE):
        return False
    return event.step == queued.step  # type: ignore[union-attr]


class _FrameClock(QObject):
    """Delivers every waiting turn's events in one tick, at most once per frame."""

    def __init__(self) -> None:
        super().__init__()
        self._waiting: dict[int, TurnController] = {}
        self._last_tick = -1.0e9
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._tick)

    def schedule(self, controller: TurnController) -> None:
        self._waiting[id(controller)] = controller
        if self._timer.isActive():
            return
        since = (time.perf_counter() - self._last_tick) * 1000.0
        # idle for a frame: deliver on the next loop turn (the first text is not delayed)
        self._timer.start(max(0, round(FRAME_MS - since)))

    def forget(self, controller: TurnController) -> None:
        self.forget_key(id(controller))

    def forget_key(self, key: int) -> None:
        self._waiting.pop(key, None)

    def _tick(self) -> None:
        started = time.perf_counter()
        self._last_tick = started
        deadline = started + FRAME_BUDGET_MS / 1000.0
        waiting, self._waiting = self._waiting, {}
        more = list(waiting.values())
        # Round robin in small slices, so a busy pane cannot starve the other. A
        # turn's final events (its answer rendered as Markdown and laid out again)
        # and its end handlers (history, comparison) each take a frame of their
        # own: two panes finishing in one tick would do all of it twice in one frame.
        while more and time.perf_counter() < deadline:
            still: list[TurnController] = []
            for controller in more:
                if not deadline:  # a turn ended in this tick: the others go next frame
                    still.append(controller)
                    continue
                queued, ended = controller._deliver(DELIVERY_SLICE)
                if ended:
                    deadline = 0.0
                if queued:
                    still.append(controller)
            more = still
        for controller in more:
            self.schedule(controller)


_clock: _FrameClock | None = None


def _frame_clock() -> _FrameClock:
    global _clock  # one per GUI thread, made with the first turn
    if _clock is None:
        _clock = _FrameClock()
    return _clock


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
        self._worker.wake.connect(self._schedule)
        self._worker.approval_needed.connect(self.approval_requested)
        # direct: quit() is thread-safe, and a GUI thread blocked in wait() could
        # never deliver a queued quit
        self._worker.done.connect(self._thread.quit, Qt.ConnectionType.DirectConnection)
        self._thread.finished.connect(self._schedule)
        self._running = False
        clock, key = _frame_clock(), id(self)
        self.destroyed.connect(lambda *_: clock.forget_key(key))
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
    def _schedule(self) -> None:
        if self._running:
            _frame_clock().schedule(self)

    def _deliver(self, limit: int | None = None) -> tuple[bool, bool]:
        """Hand up to ``limit`` queued events to ``events_arrived``, or end the turn.

        Returns:
            Whether this controller needs another round, and whether the turn's
            final event or its ``finished`` went out (the tick then ends).
        """
        finished = self._thread.isFinished()
        chunk, more = self._worker.take_events(limit)
        if chunk:
            self.events_arrived.emit(chunk)
        elif finished and not more and self._running:
            # only on a round that delivered nothing: the last events get a frame
            # of their own (layout, paint) before the turn's end handlers run
            self._running = False
            _frame_clock().forget(self)
            self.finished.emit()
            return False, True
        ended = any(event.kind in TERMINAL_KINDS for event in chunk)
        return more or (finished and bool(chunk)), ended

    def flush_backlog(self) -> None:
        """Deliver every queued event now (an approval to show, the window closing)."""
        while self._deliver()[0]:
            pass
