"""The app killed with SIGKILL mid-turn loses nothing that was finished.

The real main window runs offscreen in a child process against the embedded
services of this process (loopback HTTP). It answers two questions, starts a
third, and is killed with SIGKILL while the third streams. The history
database must pass ``PRAGMA integrity_check`` and hold exactly the finished
turns; the audit log's hash chain must verify; and the app must start again on
the same data directory, show the old turns and save a new one.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.audit import verify_audit_log

if TYPE_CHECKING:
    from collections.abc import Callable

    from tests.integration.conftest import Stack

ROOT = Path(__file__).resolve().parents[2]

APP = r"""
import json, os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from agent_core.config import OFFLINE_MODEL_NAME, Endpoints
from desktop.app import ensure_app
from desktop.demo_personas import demo_passwords
from desktop.headless import _wait
from desktop.main_window import MainWindow
from desktop.services import FixedEndpoints

ontul, model, truth_path, mode = sys.argv[1:5]
questions = json.loads(sys.argv[5])
truth = json.loads(open(truth_path, encoding="utf-8").read())
ensure_app([])
window = MainWindow(
    FixedEndpoints(Endpoints(ontul, model, "offline", OFFLINE_MODEL_NAME, True, truth)),
    offer_login=False,
)
window.show()
_wait(lambda: window.endpoints is not None, 60)
pane = window.add_session(window.login_persona("hong", demo_passwords(truth)["hong"]))
print("LOADED", len(pane.transcript.rows), flush=True)
for number, question in enumerate(questions):
    window.question_edit.setPlainText(question)
    assert window.send()
    if mode == "hang-last" and number == len(questions) - 1:
        _wait(lambda: pane.tools.rowCount() > 0, 60)
        print("MIDTURN", flush=True)
        _wait(lambda: False, 120)  # the parent kills us here
    _wait(lambda: not pane.running, 60)
    print("DONE", number, pane.last_result.status, flush=True)
window.shutdown()
print("EXIT", flush=True)
"""


def _start_app(stack: Stack, data: Path, mode: str, questions: list[str]) -> subprocess.Popen[str]:
    env = {**os.environ, "REGDESK_DATA_DIR": str(data), "PYTHONUNBUFFERED": "1"}
    truth_path = stack.data_dir / "ground_truth.json"
    args = [stack.endpoints.ontul_url, str(stack.endpoints.model_base_url), str(truth_path)]
    return subprocess.Popen(
        [sys.executable, "-c", APP, *args, mode, json.dumps(questions, ensure_ascii=False)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _expect(proc: subprocess.Popen[str], prefix: str) -> str:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith(prefix):
        proc.kill()
        _, err = proc.communicate(timeout=10)
        raise AssertionError(f"expected {prefix!r}, got {line!r}; stderr:\n{err[-3000:]}")
    return line.strip()


def test_sigkill_mid_turn_keeps_finished_turns_and_the_app_restarts(
    make_stack: Callable[..., Stack], tmp_path: Path
) -> None:
    stack = make_stack(model_pace_s=0.03)
    data = tmp_path / "app-data"
    asked = ["육아휴직 며칠까지 쓸 수 있어?", "나 육아휴직 며칠 남았어?", "징계 양정기준 알려줘"]
    app = _start_app(stack, data, "hang-last", asked)
    try:
        assert _expect(app, "LOADED") == "LOADED 0"
        assert _expect(app, "DONE 0") == "DONE 0 answered"
        assert _expect(app, "DONE 1") == "DONE 1 answered"
        _expect(app, "MIDTURN")
        app.send_signal(signal.SIGKILL)
        assert app.wait(10) == -signal.SIGKILL
    finally:
        if app.poll() is None:
            app.kill()
        app.communicate(timeout=10)

    history = data / "history.sqlite"
    with sqlite3.connect(history) as conn:  # opening replays the WAL the kill left behind
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rows = conn.execute("SELECT question, status, answer FROM turns ORDER BY id").fetchall()
    assert [(q, s) for q, s, _ in rows] == [(asked[0], "answered"), (asked[1], "answered")]
    remaining = str(stack.truth["demo_employee"]["remaining"])
    assert remaining in rows[1][2]
    assert verify_audit_log(data / "audit.jsonl") == (True, None)

    again = _start_app(stack, data, "normal", ["연차휴가 운영지침의 상위 규정은?"])
    try:
        assert _expect(again, "LOADED") == "LOADED 4"  # two old turns: question + answer rows
        assert _expect(again, "DONE 0") == "DONE 0 answered"
        _expect(again, "EXIT")
        assert again.wait(30) == 0
    finally:
        if again.poll() is None:
            again.kill()
        again.communicate(timeout=10)
    with sqlite3.connect(history) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT count(*) FROM turns").fetchone() == (3,)
    assert verify_audit_log(data / "audit.jsonl") == (True, None)
