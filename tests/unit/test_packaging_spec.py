"""The offline build's recipe and Linux desktop entry, checked without building.

The full build (``packaging/build``) takes minutes; these checks catch the
common breakages — a data file moved, an exclude dropped, UPX switched on, a
broken menu entry — in well under a second.
"""

from __future__ import annotations

import ast
import configparser
import glob
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "packaging" / "regdesk.spec"
DESKTOP_FILE = ROOT / "packaging" / "linux" / "regdesk.desktop"


def _spec_tree() -> ast.Module:
    return ast.parse(SPEC.read_text(encoding="utf-8"), filename=str(SPEC))


def _assigned_list(name: str) -> list[object]:
    """The literal value of a top-level ``NAME = [...]`` in the spec."""
    for node in _spec_tree().body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            assert isinstance(value, list)
            return value
    raise AssertionError(f"{name} is not assigned a literal list in {SPEC.name}")


def _data_pairs() -> list[tuple[str, str]]:
    """DATAS as (source pattern, bundle folder) pairs."""
    pairs: list[tuple[str, str]] = []
    for item in _assigned_list("DATAS"):
        assert isinstance(item, tuple) and len(item) == 2, item
        pairs.append((str(item[0]), str(item[1])))
    return pairs


def _calls(func_name: str) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(_spec_tree())
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == func_name
    ]


def _keyword(call: ast.Call, name: str) -> object:
    for keyword in call.keywords:
        if keyword.arg == name:
            return ast.literal_eval(keyword.value)
    raise AssertionError(f"{name}= missing from {ast.unparse(call.func)}(...)")


def test_spec_compiles_as_python() -> None:
    compile(SPEC.read_text(encoding="utf-8"), str(SPEC), "exec")


def test_spec_builds_one_folder_from_the_entry_script() -> None:
    (analysis,) = _calls("Analysis")
    script = ast.unparse(analysis.args[0])
    assert "regdesk_main.py" in script
    assert (ROOT / "packaging" / "regdesk_main.py").is_file()
    (exe,) = _calls("EXE")
    assert _keyword(exe, "exclude_binaries") is True, "one-folder build expected"
    assert len(_calls("COLLECT")) == 1


def test_every_data_pattern_matches_files_in_the_tree() -> None:
    datas = _data_pairs()
    assert datas, "DATAS must list the resources the app reads"
    for pattern, dest in datas:
        matches = [p for p in glob.glob(str(ROOT / pattern)) if Path(p).is_file()]
        assert matches, f"{pattern} matches no file (the build would fail)"
        assert dest.startswith("resources"), "bundle keeps the source layout"


def test_data_list_covers_every_resource_folder() -> None:
    """A new resources/ folder must be added to DATAS, or the bundle lacks it."""
    listed = {pattern.split("/")[1] for pattern, _ in _data_pairs()}
    folders = {
        p.name
        for p in (ROOT / "resources").iterdir()
        if p.is_dir() and p.name != "__pycache__" and any(f.is_file() for f in p.rglob("*"))
    }
    assert folders <= listed, f"resources folders missing from DATAS: {folders - listed}"


def test_every_resource_data_file_is_bundled() -> None:
    """Each non-Python file under resources/ is matched by a DATAS pattern (models.json too)."""
    bundled = {
        Path(p).resolve() for pattern, _ in _data_pairs() for p in glob.glob(str(ROOT / pattern))
    }
    wanted = {
        p.resolve()
        for p in (ROOT / "resources").rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc", ".ts") and "__pycache__" not in p.parts
    }
    missing = sorted(str(p.relative_to(ROOT)) for p in wanted - bundled)
    assert not missing, f"resource files the bundle would lack: {missing}"


def test_upx_is_off_everywhere() -> None:
    for kind in ("EXE", "COLLECT"):
        for call in _calls(kind):
            assert _keyword(call, "upx") is False, f"{kind} must not use UPX"


def test_unused_qt_and_toolkits_are_excluded() -> None:
    excludes = set(_assigned_list("EXCLUDES"))
    for module in (
        "tkinter",
        "PySide6.QtWebEngineCore",
        "PySide6.Qt3DCore",
        "PySide6.QtMultimedia",
        "PySide6.QtQuick",
        "PySide6.QtQml",
        "pytest",
    ):
        assert module in excludes


def test_lazily_imported_entry_modules_are_hidden_imports() -> None:
    hidden = set(_assigned_list("HIDDENIMPORTS"))
    lazy = {"desktop.app", "desktop.headless", "agent_core.cli", "sqlglot.dialects.sqlite"}
    assert lazy <= hidden


def _desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(DESKTOP_FILE, encoding="utf-8")
    assert parser.sections() == ["Desktop Entry"]
    return parser["Desktop Entry"]


def test_desktop_entry_has_the_required_keys() -> None:
    entry = _desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Name"] == "RegDesk"
    assert entry["Icon"] == "regdesk"
    assert entry["Exec"].split()[0] in ("regdesk", "regdesk-gui")
    assert "Office" in entry["Categories"].split(";")
    assert entry["Categories"].endswith(";")
    assert entry["Terminal"] == "false"


@pytest.mark.skipif(
    shutil.which("desktop-file-validate") is None, reason="desktop-file-utils not installed"
)
def test_desktop_entry_passes_desktop_file_validate() -> None:
    result = subprocess.run(
        ["desktop-file-validate", str(DESKTOP_FILE)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "error" not in result.stdout.lower()


def _strip_bundle_module() -> object:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "strip_bundle", ROOT / "packaging" / "strip_bundle.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_strip_reads_dependencies_of_a_real_shared_object(tmp_path: Path) -> None:
    """The trimmer decides what to delete from DT_NEEDED; check it reads them."""
    import _ssl  # an extension module linked against OpenSSL

    needed = _strip_bundle_module().needed_libraries  # type: ignore[attr-defined]
    names = needed(Path(_ssl.__file__))
    assert any(n.startswith("libssl") for n in names), names
    not_elf = tmp_path / "notes.txt"
    not_elf.write_text("plain text", encoding="utf-8")
    assert needed(not_elf) == []


def test_install_desktop_entry_installs_entry_and_icons_per_user(tmp_path: Path) -> None:
    script = ROOT / "packaging" / "install-desktop-entry"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    subprocess.run([str(script)], env=env, check=True, capture_output=True)
    installed = tmp_path / "applications" / "regdesk.desktop"
    assert installed.read_text(encoding="utf-8") == DESKTOP_FILE.read_text(encoding="utf-8")
    icons = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.glob("icons/**/regdesk.*"))
    assert "icons/hicolor/scalable/apps/regdesk.svg" in icons
    assert any(icon.endswith("48x48/apps/regdesk.png") for icon in icons), icons

    subprocess.run([str(script), "--uninstall"], env=env, check=True, capture_output=True)
    assert not installed.exists()
    assert not list(tmp_path.glob("icons/**/regdesk.*"))


def _korean_font_function() -> ast.Module:
    """The spec's ``_korean_font_entries``, with the constants it reads, run against ``ROOT``."""
    tree = _spec_tree()
    wanted = {"KOREAN_FONT_CANDIDATES", "KOREAN_FONT_LICENSE_CANDIDATES", "FONT_DIR"}
    body: list[ast.stmt] = [
        node
        for node in tree.body
        if (isinstance(node, ast.FunctionDef) and node.name == "_korean_font_entries")
        or (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id in wanted for t in node.targets)
        )
    ]
    assert len(body) == 4, "the spec's Korean font constants and function moved"
    return ast.Module(body=body, type_ignores=[])


def _run_korean_font_entries(root: Path) -> list[tuple[str, str]]:
    import glob as glob_module
    import os

    namespace: dict[str, object] = {
        "os": os,
        "glob": glob_module,
        "shutil": shutil,
        "ROOT": str(root),
    }
    exec(compile(_korean_font_function(), str(SPEC), "exec"), namespace)
    entries = namespace["_korean_font_entries"]()  # type: ignore[operator]
    assert isinstance(entries, list)
    return entries


def test_bundled_korean_font_goes_where_the_app_looks_for_it() -> None:
    from desktop.bundled_font import FONT_FOLDER

    (node,) = [
        n
        for n in _spec_tree().body
        if isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "FONT_DIR" for t in n.targets)
    ]
    assert ast.literal_eval(node.value) == FONT_FOLDER
    candidates = _assigned_list("KOREAN_FONT_CANDIDATES")
    assert candidates and all(str(c).startswith("/") for c in candidates)
    assert any("NotoSansCJK" in str(c) for c in candidates), "Noto Sans CJK (SIL OFL) expected"


def test_build_fails_with_a_clear_message_without_the_korean_font(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REGDESK_KOREAN_FONT", str(tmp_path / "absent.ttc"))
    with pytest.raises(SystemExit) as failure:
        _run_korean_font_entries(tmp_path)
    message = str(failure.value)
    assert "no Korean font to bundle" in message and "fonts-noto-cjk" in message


def test_korean_font_is_bundled_with_its_licence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    font = tmp_path / "fonts" / "Korean.otf"
    font.parent.mkdir()
    font.write_bytes(b"OTTO")
    (font.parent / "LICENSE-OFL.txt").write_text("SIL OPEN FONT LICENSE Version 1.1\n")
    monkeypatch.setenv("REGDESK_KOREAN_FONT", str(font))
    monkeypatch.delenv("REGDESK_KOREAN_FONT_LICENSE", raising=False)
    entries = _run_korean_font_entries(tmp_path)
    assert entries[0] == (str(font), "fonts")
    licence, folder = entries[1]
    assert folder == "fonts" and Path(licence).name == "LICENSE-NotoSansCJK.txt"
    assert "SIL OPEN FONT LICENSE" in Path(licence).read_text()
