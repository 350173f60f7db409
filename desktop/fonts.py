"""The UI font: one Korean-capable family for Hangul, no hinting.

With the system's default (DejaVu Sans), Qt falls back per script: Hangul (and
the digits written next to it) came from another font than the rest of the line,
and with full hinting that font's stems snapped to whole pixels, so Korean text
looked bold on the dark theme. Naming a Korean family (first when the UI speaks
Korean, so a whole line uses one font) and turning hinting off fixes both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QFont

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

KOREAN_FAMILIES = (
    "Noto Sans CJK KR",
    "Noto Sans KR",
    "Source Han Sans KR",
    "Malgun Gothic",
    "Apple SD Gothic Neo",
    "NanumGothic",
)
"""Korean sans-serif families, in order of preference (Linux, Windows, macOS)."""

_system_family: list[str] = []


def apply_ui_font(app: QApplication, language: str) -> QFont:
    """Set the application font for a UI language.

    Args:
        app: The application.
        language: ``'ko'`` or ``'en'`` (already resolved).

    Returns:
        The font now in use.
    """
    if not _system_family:  # the platform's own default, before we ever changed it
        _system_family.append(QFont(app.font()).family())
    font = QFont(app.font())
    # families a machine lacks are skipped by Qt itself (listing them costs 5 ms at start)
    korean = list(KOREAN_FAMILIES)
    base = _system_family[:1]
    font.setFamilies(korean + base if language == "ko" else base + korean)
    font.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    app.setFont(font)
    return font
