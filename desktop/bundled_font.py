"""The Korean font the offline build carries, used only where no Korean font is installed.

The packaged demo (``packaging/regdesk.spec``) ships Noto Sans CJK (SIL OFL 1.1,
licence beside it in ``fonts/``). At start-up the frozen app asks Qt's font
database whether any installed family covers Hangul; only when none does is the
bundled file registered, so a machine's own Korean font still wins. The file
holds the family ``Noto Sans CJK KR``, which :data:`desktop.fonts.KOREAN_FAMILIES`
already names first, so the UI font picks it up without further changes.

A source checkout never registers anything (the check is skipped, costing
nothing); ``REGDESK_FONT_DIR`` points a source run at a folder holding the font,
for trying the fallback by hand.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QFontMetrics

log = logging.getLogger(__name__)

FONT_FOLDER = "fonts"
"""Folder of the bundle (beside the frozen modules) that holds the font and its licence."""

FONT_SUFFIXES = (".ttc", ".otf", ".ttf")

_used: list[str] = []
_elapsed_ms: list[float] = []


def bundled_font_dir() -> Path | None:
    """The folder holding the bundled font: the frozen app's, or ``$REGDESK_FONT_DIR``."""
    override = os.environ.get("REGDESK_FONT_DIR")
    if override:
        return Path(override)
    if not getattr(sys, "frozen", False):
        return None
    base = getattr(sys, "_MEIPASS", None) or os.path.dirname(sys.executable)
    return Path(base) / FONT_FOLDER


def ensure_korean_font() -> str:
    """Register the bundled Korean font if no installed family covers Hangul.

    Call once, after the QApplication exists.

    Returns:
        What is used for Hangul: ``'installed: <family>'``, ``'bundled: <families>'``,
        ``'none'`` (nothing installed, nothing bundled) or ``'not checked'``
        (a source run).
    """
    started = time.perf_counter()
    try:
        return _remember(_choose())
    finally:
        _elapsed_ms[:] = [(time.perf_counter() - started) * 1000]


def _choose() -> str:
    folder = bundled_font_dir()
    if folder is None:
        return "not checked"
    installed = QFontDatabase.families(QFontDatabase.WritingSystem.Korean)
    if installed:
        return f"installed: {installed[0]}"
    files = sorted(p for p in folder.glob("*") if p.suffix.lower() in FONT_SUFFIXES)
    families: list[str] = []
    for path in files:
        font_id = QFontDatabase.addApplicationFont(str(path))
        if font_id < 0:
            log.warning("could not load the bundled font %s", path)
            continue
        families += QFontDatabase.applicationFontFamilies(font_id)
    if not families:
        log.warning(
            "no Korean font installed and none bundled in %s: Hangul shows as boxes", folder
        )
        return "none"
    korean = [f for f in families if f.endswith(" KR")] or families
    return f"bundled: {', '.join(korean)}"


def _remember(choice: str) -> str:
    _used[:] = [choice]
    log.info("Korean font: %s", choice)
    return choice


def font_report(font: QFont, texts: list[str]) -> dict[str, Any]:
    """Which characters of ``texts`` the font's primary family lacks (for the smoke test).

    Args:
        font: The font the text is shown in (the application font).
        texts: Strings shown in the window, e.g. each pane's answer.

    Returns:
        ``korean_font`` (what :func:`ensure_korean_font` chose), ``check_ms`` (what
        choosing it cost at start-up), ``family`` (the
        family Qt resolved), ``hangul`` (how many Hangul characters were checked)
        and ``missing`` (characters without a glyph, whitespace ignored).
    """
    metrics = QFontMetrics(font)
    chars = sorted({c for text in texts for c in text if not c.isspace() and c.isprintable()})
    missing = [c for c in chars if not metrics.inFontUcs4(ord(c))]
    hangul = sum(1 for text in texts for c in text if "\uac00" <= c <= "\ud7a3")
    return {
        "korean_font": _used[0] if _used else "not checked",
        "check_ms": round(_elapsed_ms[0], 2) if _elapsed_ms else None,
        "family": QFontInfo(font).family(),
        "hangul": hangul,
        "missing": missing,
    }
