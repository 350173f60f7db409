"""What a GUI test left running: tasks, non-daemon threads, QThreads (``no_thread_left``)."""

from __future__ import annotations

import threading
import time
import traceback
import weakref
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

ENDING_GRACE_S = 10.0
"""How long, in all, threads may take to return once their test is over. A thread
that has delivered its result ends microseconds later, but on a loaded machine it
may not be scheduled at once; one still running after this is working or blocked."""

SESSION_THREADS = {
    "ontul-http": "the session's embedded platform (embedded_services), stopped at session end",
    "regdesk-model": "the session's embedded offline model, stopped at session end",
    "ontul-sql-watchdog": "one per process, started by the platform's first guarded statement",
}
"""Threads that are legitimately global: started once for the whole session (or the
process) and shared by every test. They are daemons today; named here so that the
test that happens to start one first is never blamed for it if that changes."""


class StartRecorder:
    """Remembers every thread started through the wrapped ``start`` methods, with its stack."""

    def __init__(self) -> None:
        self.started: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def wrap(self, start: Callable[..., None]) -> Callable[..., None]:
        """``start`` that records its thread once it runs (for ``monkeypatch.setattr``).

        Recorded after ``start`` returns: a thread recorded while another thread was
        still inside its ``start`` could not be joined yet ("cannot join thread before
        it is started"), which failed the check at random on a loaded machine.
        """

        def recording_start(thread: Any, *args: Any) -> None:
            stack = "".join(traceback.format_stack(limit=12)[:-1])
            start(thread, *args)
            with self._lock:
                self.started[thread] = stack

        return recording_start

    def snapshot(self) -> list[tuple[Any, str]]:
        """The threads recorded so far, with their start stacks (safe while others start)."""
        with self._lock:
            return list(self.started.items())


def threads_left(starts: StartRecorder, grace_s: float = ENDING_GRACE_S) -> list[str]:
    """What is still running of what ``starts`` saw start, after up to ``grace_s``.

    Returns:
        One description per leak (a task's name, or a thread's name and start stack).
        Daemon Python threads are not leaks (the tests' own fake servers use them,
        and the app's daemon work goes through ``desktop.tasks``, checked as tasks),
        except a server's connection handler: one still serving means some client
        (a session nobody closed) left its HTTP connection open.
    """
    from desktop.tasks import running_tasks, wait_for_tasks

    deadline = time.monotonic() + grace_s

    def remaining() -> float:
        return max(0.0, deadline - time.monotonic())

    leaks: list[str] = []
    if not wait_for_tasks(remaining()):
        leaks += [f"task {t.name!r} still running" for t in running_tasks()]
    for thread, stack in starts.snapshot():
        if isinstance(thread, threading.Thread):
            handler = _serves_a_connection(stack)
            if (thread.daemon and not handler) or thread.name in SESSION_THREADS:
                continue
            thread.join(remaining())
            if thread.is_alive():
                what = "connection handler (a client left it open)" if handler else "thread"
                leaks.append(f"{what} {thread.name!r} started at\n{stack}")
            continue
        try:
            if thread.isRunning() and not thread.wait(int(remaining() * 1000)):
                leaks.append(f"QThread {thread.objectName()!r} started at\n{stack}")
        except RuntimeError:  # its C++ object is gone, so it is not running
            continue
    return leaks


def _serves_a_connection(stack: str) -> bool:
    """True for a ``socketserver`` thread serving one client connection."""
    return "socketserver.py" in stack and "in process_request" in stack
