"""The window survives real faults: a killed platform, a stalled model, a full disk.

Every fault here is real, not simulated inside the product: the platform is a
``regdesk serve`` process killed with SIGKILL and started again on the same
port and database; the model endpoint is a socket that accepts and never
answers; the history lives on a 1 MiB tmpfs that is filled up (root ignores
file modes, not a full file system), or under a path whose parent is a file.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from agent_core.config import OFFLINE_MODEL_NAME, Endpoints
from agent_core.scenarios import persona_password

if TYPE_CHECKING:
    from collections.abc import Iterator

QUESTION = "나 육아휴직 며칠 남았어?"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory with the demo database for today (copied per test)."""
    from embedded.launcher import platform_today, prepare_demo_database

    target = tmp_path_factory.mktemp("faults-pristine")
    prepare_demo_database(target, platform_today())
    return target


@pytest.fixture(scope="module")
def paced_model() -> Iterator[str]:
    """The offline model alone, paced so a turn lasts long enough to interrupt."""
    from embedded.launcher import start_embedded

    services = start_embedded(platform=False, model_pace_s=0.02)
    yield str(services.model_url)
    services.stop()


class ServeProcess:
    """``regdesk serve`` in a child process: the platform as a real, killable process."""

    def __init__(self, data_dir: Path, port: int = 0) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "desktop.launcher", "serve"),
                *("--port", str(port), "--data-dir", str(data_dir)),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()  # blocks until the platform listens
        assert line.startswith("ontul: "), line
        self.url = line.split(" ", 1)[1].strip()
        self.port = int(self.url.rsplit(":", 1)[1])

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, connections reset."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def _endpoints(ontul_url: str, model_url: str, truth: dict[str, Any]) -> Endpoints:
    return Endpoints(ontul_url, model_url, "offline", OFFLINE_MODEL_NAME, True, truth)


def _truth(data_dir: Path) -> dict[str, Any]:
    import json

    truth: dict[str, Any] = json.loads((data_dir / "ground_truth.json").read_text("utf-8"))
    return truth


def _session(endpoints: Endpoints, persona: str = "hong", **kwargs: Any) -> Any:
    from agent_core.session import PersonaSession

    password = persona_password(endpoints.ground_truth, persona)
    return PersonaSession.login(endpoints, persona, password, audit=False, **kwargs)


def test_platform_killed_mid_turn_fails_then_retry_answers_and_history_keeps_both(
    qtbot: Any, window_factory: Any, pristine: Path, paced_model: str, tmp_path: Path
) -> None:
    from desktop.services import FixedEndpoints

    data = tmp_path / "platform"
    shutil.copytree(pristine, data)
    server = ServeProcess(data)
    restarted: ServeProcess | None = None
    try:
        endpoints = _endpoints(server.url, paced_model, _truth(data))
        window = window_factory(FixedEndpoints(endpoints))
        pane = window.add_session(_session(endpoints, platform_timeout_s=5))
        window.question_edit.setPlainText(QUESTION)
        with qtbot.waitSignal(pane.turn_finished, timeout=30000) as failed:
            assert window.send()
            server.kill()  # while the model streams, before its first tool call lands
        result = failed.args[0]
        assert result.status == "failed"
        notice = pane.transcript.rows[-1]
        assert notice.kind == "notice" and "network" in notice.text
        assert window.isVisible() and not pane.running

        restarted = ServeProcess(data, port=server.port)
        assert restarted.url == server.url
        window.question_edit.setPlainText(QUESTION)
        with qtbot.waitSignal(pane.turn_finished, timeout=30000) as retried:
            assert window.send()
        again = retried.args[0]
        assert again.status == "answered", again.message
        remaining = str(endpoints.ground_truth["demo_employee"]["remaining"])  # type: ignore[index]
        assert remaining in again.answer
        saved = window.history.turns("hong")
        assert [t.status for t in saved] == ["failed", "answered"]
        assert saved[0].question == saved[1].question == QUESTION
    finally:
        for process in (server, restarted):
            if process is not None and process.proc.poll() is None:
                process.kill()


class NeverAnswers:
    """A stdlib TCP server that accepts connections and never sends a byte."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.accepted: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, name="never-answers", daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.accepted.append(conn)

    def close(self) -> None:
        self.listener.close()
        for conn in self.accepted:
            conn.close()


def test_stalled_model_times_out_while_the_window_keeps_ticking(
    qtbot: Any, window_factory: Any, pristine: Path, tmp_path: Path
) -> None:
    from PySide6.QtCore import QTimer

    from agent_core.turn import TurnLimits
    from desktop.services import FixedEndpoints
    from embedded.launcher import start_embedded

    data = tmp_path / "platform"
    shutil.copytree(pristine, data)
    services = start_embedded(data_dir=data, model=False)
    stall = NeverAnswers()
    try:
        endpoints = _endpoints(str(services.ontul_url), stall.url, services.ground_truth or {})
        window = window_factory(FixedEndpoints(endpoints))
        session = _session(endpoints, limits=TurnLimits(model_timeout_s=1.0))
        pane = window.add_session(session)
        ticks_while_running: list[bool] = []
        timer = QTimer(window)
        timer.setInterval(20)
        timer.timeout.connect(lambda: ticks_while_running.append(pane.running))
        timer.start()
        window.question_edit.setPlainText(QUESTION)
        with qtbot.waitSignal(pane.turn_finished, timeout=30000) as blocker:
            assert window.send()
        timer.stop()
        result = blocker.args[0]
        assert result.status == "failed"
        assert stall.accepted, "the model endpoint was never contacted"
        assert "timeout" in pane.transcript.rows[-1].text
        # the GUI thread kept running its timers while the worker waited on the socket
        assert sum(ticks_while_running) >= 5
        # and the window still works: the same persona can ask again (and fail again)
        window.question_edit.setPlainText("다시")
        with qtbot.waitSignal(pane.turn_finished, timeout=30000):
            assert window.send()
    finally:
        stall.close()
        services.stop()


def _mount_tiny_tmpfs(path: Path) -> bool:
    path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(path)],
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


def _fill(directory: Path) -> Path:
    """Write until the file system says it is full."""
    filler = directory / "filler.bin"
    block = b"\0" * 65536
    with filler.open("wb") as fh:
        try:
            while True:
                fh.write(block)
                fh.flush()
        except OSError:
            pass
    return filler


def test_full_disk_when_saving_history_is_shown_and_the_app_keeps_running(
    qtbot: Any, window_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gui_scripts import ScriptedSession, scripted_turn

    mount_point = tmp_path / "tiny"
    if not _mount_tiny_tmpfs(mount_point):
        pytest.skip("cannot mount a tmpfs here (needs CAP_SYS_ADMIN)")
    try:
        monkeypatch.setenv("REGDESK_DATA_DIR", str(mount_point))
        window = window_factory()
        pane = window.add_session(ScriptedSession("hong", lambda q: scripted_turn("hong")))
        window.question_edit.setPlainText("첫 질문")
        with qtbot.waitSignal(pane.turn_finished, timeout=10000):
            window.send()
        assert [t.question for t in window.history.turns("hong")] == ["첫 질문"]

        filler = _fill(mount_point)
        window.question_edit.setPlainText("디스크가 가득 찬 뒤의 질문")
        with qtbot.waitSignal(window._history_failed, timeout=10000):  # written in background
            with qtbot.waitSignal(pane.turn_finished, timeout=10000) as blocker:
                window.send()
        assert blocker.args[0].status == "answered"  # the turn itself is fine
        message = window.statusBar().currentMessage()
        assert "Could not save the conversation history" in message
        assert "full" in message.lower()
        assert [t.question for t in window.history.turns("hong")] == ["첫 질문"]

        filler.unlink()  # space again: the app was never broken
        window.question_edit.setPlainText("공간이 생긴 뒤의 질문")
        with qtbot.waitSignal(pane.turn_finished, timeout=10000):
            window.send()
        assert window.history.turns("hong")[-1].question == "공간이 생긴 뒤의 질문"
        window.shutdown()
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


def test_data_dir_under_a_file_is_reported_and_turns_still_run(
    qtbot: Any, window_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gui_scripts import ScriptedSession, scripted_turn

    blocker_file = tmp_path / "not-a-directory"
    blocker_file.write_text("x")
    monkeypatch.setenv("REGDESK_DATA_DIR", str(blocker_file / "data"))  # ENOTDIR, even for root
    window = window_factory()
    pane = window.add_session(ScriptedSession("hong", lambda q: scripted_turn("hong")))
    window.question_edit.setPlainText("질문")
    with qtbot.waitSignal(window._history_failed, timeout=10000):  # written in background
        with qtbot.waitSignal(pane.turn_finished, timeout=10000) as blocker:
            window.send()
    assert blocker.args[0].status == "answered"
    message = window.statusBar().currentMessage()
    assert "Could not save the conversation history" in message


def test_fifty_rapid_questions_started_and_stopped_leave_no_thread(
    qtbot: Any, window_factory: Any, pristine: Path, paced_model: str, tmp_path: Path
) -> None:
    from desktop.services import FixedEndpoints
    from embedded.launcher import start_embedded

    data = tmp_path / "platform"
    shutil.copytree(pristine, data)
    services = start_embedded(data_dir=data, model=False)
    try:
        endpoints = _endpoints(str(services.ontul_url), paced_model, services.ground_truth or {})
        window = window_factory(FixedEndpoints(endpoints))
        pane = window.add_session(_session(endpoints))
        before = threading.active_count()
        statuses: list[str] = []
        pane.turn_finished.connect(lambda r: statuses.append(r.status))
        refused = 0
        for number in range(50):
            window.question_edit.setPlainText(f"{QUESTION} ({number})")
            if not window.send():  # the previous turn still winding down: a queued ask
                refused += 1
                qtbot.waitUntil(lambda: not pane.running, timeout=10000)
                assert window.send()
            window.stop()
        qtbot.waitUntil(lambda: not pane.running and len(statuses) == 50, timeout=30000)
        assert set(statuses) <= {"cancelled", "answered", "failed"}
        assert statuses.count("cancelled") >= 40
        window.question_edit.setPlainText(QUESTION)
        with qtbot.waitSignal(pane.turn_finished, timeout=30000) as last:
            assert window.send()
        assert last.args[0].status == "answered"
        assert len(window.history.turns("hong", limit=100)) == 51
        qtbot.waitUntil(lambda: threading.active_count() <= before + 2, timeout=10000)
    finally:
        services.stop()
