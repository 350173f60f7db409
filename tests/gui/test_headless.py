"""The headless driver's stderr: the offscreen plugin's noise is dropped, nothing else."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

_SHOW_WINDOWS = """
import sys
from PySide6.QtCore import qWarning
from PySide6.QtWidgets import QApplication, QMainWindow
if sys.argv[1] == "quiet":
    from desktop.headless import quiet_offscreen_plugin
    quiet_offscreen_plugin()
app = QApplication([])
widgets = [QMainWindow() for _ in range(2)]
for widget in widgets:
    widget.show()
    widget.setMinimumSize(300, 200)  # a shown window that changes its size hints
app.processEvents()
qWarning("a warning of our own")
"""


@pytest.mark.parametrize("mode", ["loud", "quiet"])
def test_headless_drops_only_the_offscreen_plugin_warning(mode: str) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", _SHOW_WINDOWS, mode],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "a warning of our own" in done.stderr  # every other message still reaches stderr
    noise = done.stderr.count("does not support propagateSizeHints")
    if mode == "loud":
        assert noise == 2  # the plugin does say it, once per shown window
    else:
        assert noise == 0
