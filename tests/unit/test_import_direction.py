"""The import direction of docs/architecture.md, enforced by parsing every module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QT_BINDINGS = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "qtpy", "superqt")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def _modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def _top(name: str) -> str:
    return name.split(".")[0]


@pytest.mark.parametrize("package", ["agent_core", "embedded"])
def test_engine_packages_never_import_qt_or_desktop(package: str) -> None:
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in _modules(package)
        for name in _imports(path)
        if _top(name) in (*QT_BINDINGS, "desktop")
    ]
    assert _modules(package), f"{package} has no modules to check"
    assert offenders == []


def test_agent_core_never_imports_embedded() -> None:
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in _modules("agent_core")
        for name in _imports(path)
        if _top(name) == "embedded"
    ]
    assert offenders == []


def test_embedded_never_imports_agent_core() -> None:
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in _modules("embedded")
        for name in _imports(path)
        if _top(name) == "agent_core"
    ]
    assert offenders == []


def test_desktop_imports_embedded_only_from_its_launcher() -> None:
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in _modules("desktop")
        for name in _imports(path)
        if _top(name) == "embedded" and path.name != "launcher.py"
    ]
    assert offenders == []


def test_checker_sees_a_violation(tmp_path: Path) -> None:
    """The parser really finds imports, so an empty offender list means something."""
    sample = tmp_path / "m.py"
    sample.write_text("import PySide6.QtCore\nfrom embedded.ontul import server\n")
    assert _imports(sample) == ["PySide6.QtCore", "embedded.ontul"]
