"""Qt's import hook and pydantic's lazy modules: the startup race stays closed.

``desktop/__init__.py`` explains the race. These tests pin both halves of it
in fresh interpreters: that shiboken's hook really does ask a freshly imported
module for ``__wrapped__`` (the lookup that runs pydantic's lazy
``__getattr__``), and that importing the desktop package leaves pydantic's
validators module fully initialised before any second thread can exist.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str, *, path: Path | None = None) -> str:
    env_path = [str(ROOT)] + ([str(path)] if path else [])
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": ":".join(env_path), "QT_QPA_PLATFORM": "offscreen"},
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_qt_import_hook_asks_new_modules_for_wrapped(tmp_path: Path) -> None:
    (tmp_path / "probe_module.py").write_text(
        "asked = []\n"
        "def __getattr__(name):\n"
        "    asked.append(name)\n"
        "    raise AttributeError(name)\n",
        encoding="utf-8",
    )
    without_qt = _run("import probe_module; print(probe_module.asked)", path=tmp_path)
    with_qt = _run(
        "import PySide6.QtCore; import probe_module; print(probe_module.asked)", path=tmp_path
    )
    assert without_qt == "[]"
    # If a PySide6 release stops doing this, the workaround can go.
    assert "__wrapped__" in with_qt


def test_importing_desktop_finishes_pydantic_validators_first() -> None:
    out = _run(
        """
        import sys
        import desktop
        module = sys.modules.get("pydantic._internal._validators")
        print(module is not None and hasattr(module, "import_string"))
        print("PySide6" in sys.modules)
        """
    )
    # Loaded and complete, and without pulling Qt into the CLI's import path.
    assert out.splitlines() == ["True", "False"]
