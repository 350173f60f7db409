"""desktop.tasks: results, failures and progress reach the GUI thread, in order."""

from __future__ import annotations

import subprocess
import sys
import threading
from typing import Any

import pytest
from PySide6.QtCore import QObject

from desktop.tasks import Job, TaskLane, run_in_background, running_tasks, wait_for_tasks


def test_the_result_arrives_in_the_gui_thread(qtbot: Any) -> None:
    ran_in: list[int] = []
    got: list[tuple[int, int]] = []

    def job(_: Job) -> int:
        ran_in.append(threading.get_ident())
        return 42

    task = run_in_background(
        job, name="t-result", on_done=lambda r: got.append((r, threading.get_ident()))
    )
    qtbot.waitUntil(lambda: bool(got))
    assert ran_in[0] != threading.get_ident()
    assert got == [(42, threading.get_ident())]
    assert task.future.result() == 42


def test_an_exception_arrives_as_data_in_the_gui_thread(qtbot: Any) -> None:
    errors: list[BaseException] = []

    def job(_: Job) -> None:
        raise AttributeError("a bug")

    run_in_background(
        job, name="t-fail", on_done=lambda _: pytest.fail("no result"), on_failed=errors.append
    )
    qtbot.waitUntil(lambda: bool(errors))
    assert isinstance(errors[0], AttributeError)


def test_progress_comes_in_order_in_batches_before_the_result(qtbot: Any) -> None:
    seen: list[Any] = []
    batches: list[int] = []

    def job(j: Job) -> str:
        for i in range(1000):
            j.report(i)
        return "end"

    def progress(items: list[Any]) -> None:
        batches.append(len(items))
        seen.extend(items)

    run_in_background(job, name="t-stream", on_progress=progress, on_done=seen.append)
    qtbot.waitUntil(lambda: "end" in seen, timeout=10000)
    assert seen == [*range(1000), "end"]
    assert sum(batches) == 1000 and len(batches) <= 1000


def test_a_deleted_owner_gets_no_callback_and_the_result_is_released(qtbot: Any) -> None:
    release = threading.Event()
    owner = QObject()
    called: list[str] = []
    orphaned: list[str] = []

    def job(_: Job) -> str:
        release.wait(10)
        return "session"

    task = run_in_background(
        job, name="t-owner", owner=owner, on_done=called.append, on_orphaned=orphaned.append
    )
    owner.deleteLater()
    qtbot.waitUntil(lambda: not _valid(owner))
    release.set()
    qtbot.waitUntil(lambda: bool(orphaned))
    assert called == [] and orphaned == ["session"]
    assert task.done()


def _valid(obj: QObject) -> bool:
    from shiboken6 import isValid

    return bool(isValid(obj))


def test_cancel_is_seen_by_the_job_and_a_queued_job_never_runs(qtbot: Any) -> None:
    lane = TaskLane("t-lane")
    started, ran = threading.Event(), []

    def blocking(j: Job) -> str:
        started.set()
        j.cancel.wait(10)
        return "stopped" if j.cancelled else "timed out"

    first = run_in_background(blocking, name="first", lane=lane)
    second = run_in_background(lambda _: ran.append(1), name="second", lane=lane)
    started.wait(10)
    second.cancel()
    first.cancel()
    assert lane.join(10)
    assert first.future.result() == "stopped"
    assert second.future.cancelled() and ran == []
    assert running_tasks() == []


def test_a_task_cancelled_as_it_starts_still_reports(qtbot: Any) -> None:
    """A caller waiting for on_done / on_failed hears back even if cancel beat the thread.

    Cancelling the future of a task with its own thread raced with the thread's start:
    the job then never ran and no callback ever came (a Matrix run cancelled at once
    stayed "Cancelling..." for good).
    """
    outcomes: list[str] = []
    lane = TaskLane("t-cancel-lane")
    hold = threading.Event()
    run_in_background(lambda _: hold.wait(10), name="holder", lane=lane)
    queued = run_in_background(
        lambda _: "ran",
        name="queued",
        lane=lane,
        on_done=outcomes.append,
        on_failed=lambda exc: outcomes.append(type(exc).__name__),
    )
    queued.cancel()  # still queued behind the holder: dropped, and told so
    hold.set()
    for _ in range(200):
        task = run_in_background(
            lambda j: "stopped" if j.cancelled else "ran",
            name="raced",
            on_done=outcomes.append,
            on_failed=lambda exc: outcomes.append(type(exc).__name__),
        )
        task.cancel()
    qtbot.waitUntil(lambda: len(outcomes) == 201, timeout=20000)
    assert outcomes.count("CancelledError") == 1
    assert set(outcomes) - {"CancelledError"} <= {"stopped", "ran"}
    assert lane.join(10)


def test_a_lane_runs_in_submission_order_in_one_thread_that_ends_when_idle() -> None:
    lane = TaskLane("t-order", daemon=False)
    order: list[tuple[int, int]] = []
    hold = threading.Event()
    run_in_background(lambda _: hold.wait(10), name="w", lane=lane)  # keeps the lane busy
    for i in range(20):
        run_in_background(
            lambda _, i=i: order.append((i, threading.get_ident())), name="w", lane=lane
        )
    hold.set()
    assert lane.join(10)
    assert [i for i, _ in order] == list(range(20))
    assert len({ident for _, ident in order}) == 1  # queued while busy: one thread ran them all
    assert not any(t.name == "t-order" for t in threading.enumerate())
    assert wait_for_tasks(1)


def test_a_task_without_gui_callbacks_needs_no_qt() -> None:
    """The command line starts its services through the helper without loading Qt."""
    code = (
        "import sys; from desktop.tasks import run_in_background;"
        "t = run_in_background(lambda j: 6 * 7, name='cli');"
        "print(t.future.result(10), 'PySide6' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.split() == ["42", "False"]


def test_the_leak_check_sees_a_task_a_thread_and_a_qthread_left_running(qtbot: Any) -> None:
    """``no_thread_left`` proves its power: each kind of leak is named."""
    from PySide6.QtCore import QThread

    from tests.gui.thread_leaks import StartRecorder, threads_left

    starts = StartRecorder()
    release = threading.Event()
    thread = threading.Thread(target=release.wait, name="left-thread")
    qthread = QThread()
    qthread.setObjectName("left-qthread")
    starts.wrap(threading.Thread.start)(thread)
    starts.wrap(QThread.start)(qthread)
    task = run_in_background(lambda _: release.wait(), name="left-task")
    try:
        leaks = threads_left(starts, grace_s=0.2)
    finally:
        release.set()
        qthread.quit()
        qthread.wait()
        thread.join()
        task.wait()
    assert [leak.split("\n")[0] for leak in leaks] == [
        "task 'left-task' still running",
        "thread 'left-thread' started at",
        "QThread 'left-qthread' started at",
    ]
    assert "test_the_leak_check_sees" in leaks[1]  # where it was started
    assert threads_left(starts, grace_s=0.2) == []


def test_the_leak_check_sees_a_connection_a_client_left_open(qtbot: Any) -> None:
    """A platform-style server's handler thread still serving names the open connection."""
    import socket
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from tests.gui.thread_leaks import StartRecorder, threads_left

    class Server(ThreadingHTTPServer):
        daemon_threads = True

    server = Server(("127.0.0.1", 0), BaseHTTPRequestHandler)
    starts = StartRecorder()
    serving = threading.Thread(target=server.serve_forever, name="t-server", daemon=True)
    serving.start()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(threading.Thread, "start", starts.wrap(threading.Thread.start))
        client = socket.create_connection(server.server_address[:2])
        qtbot.waitUntil(lambda: bool(starts.started))  # accepted: its handler started
        try:
            leaks = threads_left(starts, grace_s=0.5)
        finally:
            client.close()
            left_after_close = threads_left(starts)
            server.shutdown()
            server.server_close()
    assert len(leaks) == 1 and leaks[0].startswith("connection handler (a client left it open)")
    assert left_after_close == []
