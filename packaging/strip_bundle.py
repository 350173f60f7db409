"""Trim a PyInstaller one-folder RegDesk bundle after the build.

PyInstaller's Qt hooks collect every plugin of the Qt modules we import and
every Qt translation; RegDesk needs few of them. Like Anki's installer, we
delete what the app never loads, then delete the shared libraries that only
those files needed, and refuse to leave a library whose dependency is gone.

Usage: ``python packaging/strip_bundle.py dist/regdesk [--report out.json]``
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import struct
import sys
from pathlib import Path
from typing import Any

QT_SUBDIR = Path("_internal/PySide6/Qt")

# Qt plugins RegDesk never loads, as globs under PySide6/Qt/plugins.
UNUSED_PLUGINS = (
    # Embedded-device platforms; the app runs on xcb, wayland or offscreen.
    "platforms/libqeglfs.so",
    "platforms/libqminimal.so",
    "platforms/libqminimalegl.so",
    "platforms/libqvnc.so",
    "platforms/libqlinuxfb.so",
    "platforms/libqvkkhrdisplay.so",
    "egldeviceintegrations/*",
    "generic/*",
    # The GTK3 theme links the host's GTK but would load our bundled cairo,
    # pango and glib: a version mix. The XDG portal theme follows the system.
    "platformthemes/libqgtk3.so",
    # Image formats the app never reads (icons are SVG and PNG).
    "imageformats/libqtiff.so",
    "imageformats/libqwebp.so",
    "imageformats/libqicns.so",
    "imageformats/libqtga.so",
    "imageformats/libqwbmp.so",
    "imageformats/libqpdf.so",
    # The app talks HTTP through Python, not QtNetwork.
    "networkinformation/*",
)

# Qt translations kept: the app's UI languages (Korean, English).
KEPT_QT_TRANSLATIONS = ("qt_ko.qm", "qtbase_ko.qm", "qt_en.qm", "qtbase_en.qm")

# Loaded with dlopen (Python's ssl, Qt's TLS backend), so absent from DT_NEEDED.
NEVER_REMOVE = ("libssl.so*", "libcrypto.so*", "libpython*")

ELF_MAGIC = b"\x7fELF"
DT_NEEDED = 1
SHT_DYNAMIC = 6


def needed_libraries(path: Path) -> list[str]:
    """The DT_NEEDED entries of an ELF64 little-endian file ([] if not ELF).

    Args:
        path: A file in the bundle.

    Returns:
        The sonames the dynamic linker loads for it.
    """
    data = path.read_bytes()
    if data[:4] != ELF_MAGIC or data[4] != 2 or data[5] != 1:
        return []
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [
        struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)
    ]
    names: list[str] = []
    for _name, kind, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
        if kind != SHT_DYNAMIC:
            continue
        strtab_offset = sections[link][4]
        for pos in range(offset, offset + size, entsize or 16):
            tag, value = struct.unpack_from("<qQ", data, pos)
            if tag == 0:
                break
            if tag == DT_NEEDED:
                end = data.index(b"\0", strtab_offset + value)
                names.append(data[strtab_offset + value : end].decode())
    return names


def _is_elf(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(4) == ELF_MAGIC


def _tree_size(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and not p.is_symlink())


def _is_library(bundle: Path, path: Path) -> bool:
    """A shared library the bundle carries for others (not a plugin or extension)."""
    rel = path.relative_to(bundle)
    in_top = rel.parent == Path("_internal")
    in_qt_lib = rel.parent == QT_SUBDIR / "lib"
    return (in_top or in_qt_lib) and path.name.startswith("lib") and ".so" in path.name


def _closure(roots: list[Path], by_name: dict[str, Path]) -> set[Path]:
    seen: set[Path] = set()
    stack = list(roots)
    while stack:
        path = stack.pop()
        if path in seen:
            continue
        seen.add(path)
        stack += [by_name[n] for n in needed_libraries(path) if n in by_name]
    return seen


def strip_bundle(bundle: Path) -> dict[str, Any]:
    """Delete unused Qt plugins, translations and the libraries only they needed.

    Args:
        bundle: The one-folder build (``dist/regdesk``).

    Returns:
        A report: sizes before and after, and the files removed.

    Raises:
        SystemExit: When a kept file would lose a library it links against.
    """
    before = _tree_size(bundle)
    plugins_dir = bundle / QT_SUBDIR / "plugins"
    removed_plugins = [
        path
        for pattern in UNUSED_PLUGINS
        for path in sorted(plugins_dir.glob(pattern))
        if path.is_file()
    ]
    translations_dir = bundle / QT_SUBDIR / "translations"
    removed_translations = [
        path
        for path in sorted(translations_dir.glob("*.qm"))
        if path.name not in KEPT_QT_TRANSLATIONS
    ]

    # Resolve every ELF (following PyInstaller's top-level symlinks) by name.
    elves = [p for p in bundle.rglob("*") if p.is_file() and not p.is_symlink() and _is_elf(p)]
    by_name: dict[str, Path] = {p.name: p for p in elves}
    for link in bundle.rglob("*"):
        if link.is_symlink() and link.resolve().exists():
            by_name.setdefault(link.name, link.resolve())

    removed_set = set(removed_plugins)
    roots = [p for p in elves if p not in removed_set and not _is_library(bundle, p)]
    kept = _closure(roots, by_name)
    only_for_removed = _closure(removed_plugins, by_name) - kept - removed_set
    removed_libraries = sorted(
        p for p in only_for_removed if not any(fnmatch.fnmatch(p.name, pat) for pat in NEVER_REMOVE)
    )

    for path in (*removed_plugins, *removed_translations, *removed_libraries):
        path.unlink()
    gone = {p.name for p in removed_libraries}
    for link in list(bundle.rglob("*")):
        if link.is_symlink() and not link.exists():
            link.unlink()
    for directory in sorted(plugins_dir.glob("*"), reverse=True):
        if directory.is_dir() and not any(directory.iterdir()):
            directory.rmdir()

    broken = [
        f"{p.relative_to(bundle)} needs {n}"
        for p in elves
        if p.exists()
        for n in needed_libraries(p)
        if n in gone
    ]
    if broken:
        raise SystemExit("strip_bundle: removed a library still in use:\n" + "\n".join(broken))

    after = _tree_size(bundle)
    return {
        "bytes_before": before,
        "bytes_after": after,
        "bytes_saved": before - after,
        "removed_plugins": [str(p.relative_to(bundle)) for p in removed_plugins],
        "removed_translations": len(removed_translations),
        "removed_libraries": [str(p.relative_to(bundle)) for p in removed_libraries],
    }


def main(argv: list[str] | None = None) -> int:
    """Command line: strip a bundle, print a summary, optionally write a JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle", type=Path, help="the one-folder build, e.g. dist/regdesk")
    parser.add_argument("--report", type=Path, help="write the report here as JSON")
    args = parser.parse_args(argv)
    report = strip_bundle(args.bundle)
    mib = 1024 * 1024
    print(
        f"stripped {report['bytes_saved'] / mib:.1f} MiB: "
        f"{report['bytes_before'] / mib:.1f} -> {report['bytes_after'] / mib:.1f} MiB "
        f"({len(report['removed_plugins'])} plugins, "
        f"{report['removed_translations']} translations, "
        f"{len(report['removed_libraries'])} libraries)"
    )
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
