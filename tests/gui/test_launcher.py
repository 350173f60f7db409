"""``regdesk`` without a display says what to do (exit 2); ``regdesk gui --help`` prints help."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _regdesk(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    clean.pop("QT_QPA_PLATFORM", None)
    return subprocess.run(
        [sys.executable, "-m", "desktop.launcher", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_gui_help_prints_help_and_opens_no_window() -> None:
    done = _regdesk("gui", "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: regdesk gui")
    assert "--offscreen" in done.stdout and "REGDESK_DATA_DIR" in done.stdout


def test_no_display_is_a_clear_message_and_exit_2() -> None:
    done = _regdesk()
    assert done.returncode == 2
    assert "DISPLAY" in done.stderr and "xvfb" in done.stderr.lower()
    assert "--offscreen" in done.stderr
    assert "Aborted" not in done.stderr and "platform plugin" not in done.stderr


def test_an_x_display_nobody_serves_is_named() -> None:
    done = _regdesk(DISPLAY=":4242")
    assert done.returncode == 2
    assert "':4242'" in done.stderr


def test_missing_libraries_name_their_packages() -> None:
    from desktop.display_check import debian_package, display_problem

    assert debian_package("libxcb-icccm.so.4") == "libxcb-icccm4"
    assert debian_package("libxcb-cursor.so.0") == "libxcb-cursor0"
    assert debian_package("libxkbcommon-x11.so.0") == "libxkbcommon-x11-0"
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}) is None
