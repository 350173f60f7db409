"""Every off-thread job of the desktop: one helper (Anki's TaskManager shape).

``run_in_background(fn, ...)`` runs ``fn(job)`` in a thread and hands back a
:class:`Task`. Its result or exception reaches ``on_done`` / ``on_failed`` in
the GUI thread, and whatever ``fn`` passes to ``job.report`` reaches
``on_progress`` there first, in order, in batches. Every delivery goes through
one queued signal of one object living in the GUI thread, so a call site needs
no relay ``QObject`` and a callback can never run in the worker thread.
A :class:`TaskLane` runs its jobs one after another in one thread (history
writes must commit in the order they were submitted).

Cancelling is cooperative: ``task.cancel()`` sets ``job.cancel`` (a
:class:`~agent_core.cancel.CancelToken`, whose ``on_cancel`` callbacks can close
a blocked HTTP stream). A task in its own thread always runs its function, so
its callbacks always come; only a task still queued in a lane is dropped, and
it gets ``on_failed(CancelledError())``. ``running_tasks`` and
``wait_for_tasks`` let the window wait for every job when it closes, and
``Task.abandon`` lets it give up on one (its callbacks are dropped;
``on_orphaned`` still gets a result, to release it).

Qt is imported only when a job has GUI callbacks: a job without them (the
command line starting the services) runs with no Qt loaded and is waited for
with ``task.future``. That keeps the command line fast and keeps shiboken's
import hook out of its startup (see ``desktop/__init__.py``).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from concurrent.futures import CancelledError, Future
from concurrent.futures import wait as wait_futures
from typing import TYPE_CHECKING, Any, Generic, NoReturn, TypeVar

from agent_core.cancel import CancelToken

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtCore import QObject

T = TypeVar("T")

_log = logging.getLogger(__name__)


class Job:
    """What a background function is given: its cancel flag and a progress channel."""

    def __init__(self, task: Task[Any]) -> None:
        self._task = task

    @property
    def cancel(self) -> CancelToken:
        """Set when the task was cancelled; check it between steps."""
        return self._task.cancel_token

    @property
    def cancelled(self) -> bool:
        """True once the task was cancelled."""
        return self._task.cancel_token.cancelled

    def report(self, item: object) -> None:
        """Queue ``item`` for ``on_progress`` (GUI thread, in order, in batches)."""
        self._task._report(item)


class Task(Generic[T]):
    """One background job: its future, its cancel flag, its GUI callbacks."""

    def __init__(
        self,
        fn: Callable[[Job], T],
        name: str,
        *,
        on_done: Callable[[T], object] | None = None,
        on_failed: Callable[[BaseException], object] | None = None,
        on_progress: Callable[[list[Any]], object] | None = None,
        on_orphaned: Callable[[T], object] | None = None,
        owner: QObject | None = None,
        cancel: CancelToken | None = None,
    ) -> None:
        self.name = name
        """The thread's name while it runs (shown in leak reports and debuggers)."""
        self.cancel_token = cancel or CancelToken()
        """Set by ``cancel()``; the job checks it."""
        self.future: Future[T] = Future()
        """Completes (in the worker thread) when ``fn`` returned or raised."""
        self._fn = fn
        self._on_done = on_done
        self._on_failed = on_failed
        self._on_progress = on_progress
        self._on_orphaned = on_orphaned
        self._owner = owner
        self._abandoned = False
        self._queued = False  # waiting in a lane: the only state in which cancel drops it
        self._lock = threading.Lock()
        self._backlog: list[Any] = []
        self._gui = any(c is not None for c in (on_done, on_failed, on_progress, on_orphaned))

    # -- any thread --------------------------------------------------------------------
    def cancel(self) -> None:
        """Ask the job to stop (it checks ``job.cancel``).

        A job still queued in a lane never runs (``on_failed`` gets a
        ``CancelledError``); any other job runs and its callbacks come as usual.
        Cancelling a thread's future too would race with its start, and a caller
        waiting for ``on_done`` / ``on_failed`` would never hear again.
        """
        self.cancel_token.cancel()
        if self._queued:
            self.future.cancel()  # fails harmlessly if the lane started it meanwhile

    def abandon(self) -> None:
        """Cancel and drop the GUI callbacks (their receiver is going away).

        ``on_orphaned`` still receives a result that arrives, so it can be released.
        """
        self._abandoned = True
        self.cancel()

    def done(self) -> bool:
        """True once ``fn`` returned or raised (or the task was cancelled before it ran)."""
        return self.future.done()

    def wait(self, timeout_s: float | None = None) -> bool:
        """Block until ``fn`` ended; True when it did within ``timeout_s``."""
        return not wait_futures([self.future], timeout_s).not_done

    # -- the worker thread -------------------------------------------------------------
    def _run(self) -> None:
        self._queued = False
        if not self.future.set_running_or_notify_cancel():
            _untrack(self)
            if self._gui:
                _post(self._finish)  # on_failed hears of it
            return
        try:
            result = self._fn(Job(self))
        except BaseException as exc:  # crosses to on_failed as data, never a silent death
            if self._gui and self._on_failed is None:  # nobody would hear of it
                _log.error("background task %s failed", self.name, exc_info=exc)
            self.future.set_exception(exc)
        else:
            self.future.set_result(result)
        finally:
            self._fn = _ran  # what it closed over (a turn's events) is not kept with the task
            _untrack(self)
        if self._gui:
            _post(self._finish)

    def _report(self, item: object) -> None:
        if self._on_progress is None:
            return  # nobody listens
        with self._lock:
            was_empty = not self._backlog
            self._backlog.append(item)
        if was_empty:
            _post(self._deliver_progress)

    # -- the GUI thread ----------------------------------------------------------------
    def _orphaned(self) -> bool:
        if self._abandoned:
            return True
        if self._owner is None:
            return False
        from shiboken6 import isValid

        return not isValid(self._owner)

    def _deliver_progress(self) -> None:
        with self._lock:
            batch, self._backlog = self._backlog, []
        if batch and self._on_progress is not None and not self._orphaned():
            self._on_progress(batch)

    def _finish(self) -> None:
        if self._on_progress is not None:
            self._deliver_progress()  # every progress item before the result
        orphaned = self._orphaned()
        if self.future.cancelled():
            if not orphaned and self._on_failed is not None:
                self._on_failed(CancelledError())
            return
        error = self.future.exception()
        if error is not None:
            if not orphaned and self._on_failed is not None:
                self._on_failed(error)
        elif orphaned:
            if self._on_orphaned is not None:
                self._on_orphaned(self.future.result())
        elif self._on_done is not None:
            self._on_done(self.future.result())


def _ran(_: Job) -> NoReturn:
    raise RuntimeError("a task runs once")


# -- tracking ----------------------------------------------------------------------------
_TRACK_LOCK = threading.Lock()
_RUNNING: set[Task[Any]] = set()


def _track(task: Task[Any]) -> None:
    with _TRACK_LOCK:
        _RUNNING.add(task)


def _untrack(task: Task[Any]) -> None:
    with _TRACK_LOCK:
        _RUNNING.discard(task)


def running_tasks() -> list[Task[Any]]:
    """Tasks whose function has not ended yet (queued in a lane or running)."""
    with _TRACK_LOCK:
        return list(_RUNNING)


def wait_for_tasks(timeout_s: float | None = None) -> bool:
    """Block until every task's function ended (the window is closing).

    Returns:
        True when none is left within ``timeout_s``.
    """
    return not wait_futures([t.future for t in running_tasks()], timeout_s).not_done


# -- delivery to the GUI thread ------------------------------------------------------------
_DELIVERY_LOCK = threading.Lock()
_QUEUE: deque[Callable[[], object]] = deque()
_deliverer: Any = None


def _post(closure: Callable[[], object]) -> None:
    with _DELIVERY_LOCK:
        was_empty = not _QUEUE
        _QUEUE.append(closure)
        deliverer = _deliverer
    if was_empty and deliverer is not None:
        try:
            deliverer.wake.emit()
        except RuntimeError:  # the application is gone: nothing can be delivered
            _log.debug("no application to deliver a task's callback to")


def deliver_pending() -> None:
    """Run the GUI callbacks already queued (GUI thread; the window is closing)."""
    # Only what is queued now: a batch re-posted meanwhile waits for the next turn
    # of the event loop, so paints and timers run between batches.
    with _DELIVERY_LOCK:
        count = len(_QUEUE)
    for _ in range(count):
        with _DELIVERY_LOCK:
            if not _QUEUE:
                return  # a nested event loop delivered the rest
            closure = _QUEUE.popleft()
        try:
            closure()
        except Exception:  # one failing callback must not strand the others
            _log.exception("a background task's callback failed")
    with _DELIVERY_LOCK:
        # posted while this ran, they found the queue non-empty and woke nobody
        left, deliverer = bool(_QUEUE), _deliverer
    if left and deliverer is not None:
        deliverer.wake.emit()


def _ensure_deliverer() -> None:
    """Create the one delivering object in the application's thread (first GUI task)."""
    global _deliverer
    from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal, Slot
    from shiboken6 import isValid

    with _DELIVERY_LOCK:
        if _deliverer is not None and isValid(_deliverer):
            return
    app = QCoreApplication.instance()
    if app is None:
        raise RuntimeError("a task with GUI callbacks needs a running QApplication")

    class _Deliverer(QObject):
        wake = Signal()

        @Slot()
        def deliver(self) -> None:
            deliver_pending()

    deliverer = _Deliverer()
    deliverer.moveToThread(app.thread())
    # queued even when emitted in the GUI thread: a re-posted batch waits for paints
    deliverer.wake.connect(deliverer.deliver, Qt.ConnectionType.QueuedConnection)
    with _DELIVERY_LOCK:
        _deliverer = deliverer
        pending = bool(_QUEUE)
    if pending:
        deliverer.wake.emit()


# -- starting ---------------------------------------------------------------------------
def run_in_background(
    fn: Callable[[Job], T],
    *,
    name: str,
    on_done: Callable[[T], object] | None = None,
    on_failed: Callable[[BaseException], object] | None = None,
    on_progress: Callable[[list[Any]], object] | None = None,
    on_orphaned: Callable[[T], object] | None = None,
    owner: QObject | None = None,
    cancel: CancelToken | None = None,
    lane: TaskLane | None = None,
    daemon: bool = True,
) -> Task[T]:
    """Run ``fn(job)`` in another thread; its callbacks run in the GUI thread.

    Args:
        fn: The job. It may check ``job.cancel`` and call ``job.report(item)``.
        name: The thread's name (a lane's threads take the lane's).
        on_done: Called with the result.
        on_failed: Called with the exception (a task with GUI callbacks but without
            this logs it; otherwise ``future`` holds it).
        on_progress: Called with the items reported since its last call, oldest
            first, always before ``on_done`` / ``on_failed``.
        on_orphaned: Called with the result instead of ``on_done`` when the task was
            abandoned or ``owner`` was deleted meanwhile (to release what it holds).
        owner: Once this object is deleted, no callback but ``on_orphaned`` runs.
        cancel: The token ``job.cancel`` is (a new one by default).
        lane: Run after the lane's earlier jobs, in its thread (default: a new thread).
        daemon: False for a job the interpreter must finish before it exits.

    Returns:
        The task (running, or queued in its lane).
    """
    task: Task[T] = Task(
        fn,
        name,
        on_done=on_done,
        on_failed=on_failed,
        on_progress=on_progress,
        on_orphaned=on_orphaned,
        owner=owner,
        cancel=cancel,
    )
    if task._gui:
        _ensure_deliverer()
    _track(task)
    if lane is not None:
        lane._submit(task)
    else:
        threading.Thread(target=task._run, name=name, daemon=daemon).start()
    return task


class TaskLane:
    """Runs its tasks one at a time, in submission order, in one thread.

    The thread starts with the first task and ends when the lane is idle, so an
    idle lane holds no thread. Give it to ``run_in_background(..., lane=...)``.

    Args:
        name: The thread's name.
        daemon: False when the interpreter must finish queued tasks before exiting.
    """

    def __init__(self, name: str, *, daemon: bool = True) -> None:
        self.name = name
        self._daemon = daemon
        self._lock = threading.Lock()
        self._queue: deque[Task[Any]] = deque()
        self._thread: threading.Thread | None = None

    def _submit(self, task: Task[Any]) -> None:
        task._queued = True
        with self._lock:
            self._queue.append(task)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._work, name=self.name, daemon=self._daemon
                )
                self._thread.start()

    def _work(self) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    self._thread = None
                    return
                task = self._queue.popleft()
            task._run()

    def join(self, timeout_s: float | None = None) -> bool:
        """Block until the queued tasks ran and the lane's thread ended.

        Returns:
            True when it ended within ``timeout_s``.
        """
        while True:
            with self._lock:
                thread = self._thread
            if thread is None:
                return True
            thread.join(timeout_s)
            if thread.is_alive():
                return False
