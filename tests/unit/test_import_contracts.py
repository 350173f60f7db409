"""The import contracts of pyproject.toml have teeth.

``scripts/test`` runs ``lint-imports`` on the real tree (SPEC §1, import
direction). This test runs the very same contracts on a throw-away tree that
breaks each one, directly or through another module, so a contract that can no
longer fail is noticed.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

VIOLATIONS = {
    "agent_core/__init__.py": "",
    "agent_core/turn.py": "from agent_core import helper\n",
    "agent_core/helper.py": "import PySide6.QtCore\n",  # indirect: turn -> helper -> Qt
    "agent_core/cheat.py": "def f():\n    from embedded.ontul import server\n",  # lazy import
    "embedded/__init__.py": "",
    "embedded/launcher.py": "",
    "embedded/ontul/__init__.py": "",
    "embedded/ontul/server.py": "import agent_core.turn\n",
    "desktop/__init__.py": "",
    "desktop/launcher.py": "from embedded import launcher\n",  # the one allowed path
    "desktop/pane.py": "import embedded.ontul.server\n",
    "PySide6/__init__.py": "",
    "PySide6/QtCore.py": "",
    "shiboken6/__init__.py": "",
}


def _config(target: Path) -> Path:
    """Our pyproject's [tool.importlinter] section, nothing else."""
    section = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "importlinter"
    ]
    lines = [
        "[tool.importlinter]",
        f"root_packages = {section['root_packages']!r}".replace("'", '"'),
        "include_external_packages = true",
    ]
    for contract in section["contracts"]:
        lines.append("\n[[tool.importlinter.contracts]]")
        for key, value in contract.items():
            lines.append(f"{key} = {value!r}".replace("'", '"'))
    path = target / "pyproject.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _lint(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"},
        check=False,
    )


def test_the_real_tree_keeps_every_contract() -> None:
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_each_contract_catches_a_violation(tmp_path: Path) -> None:
    for relative, text in VIOLATIONS.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    _config(tmp_path)
    result = _lint(tmp_path)
    assert result.returncode != 0
    assert "Contracts: 0 kept, 4 broken." in result.stdout, result.stdout
    assert "agent_core.turn -> agent_core.helper" in result.stdout  # an indirect chain
