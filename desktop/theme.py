"""Light and dark palettes that follow the system colour scheme, and the app icon."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPalette

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

ICONS_DIR = Path(__file__).resolve().parent.parent / "resources" / "icons"
"""The app icon: ``regdesk.svg`` plus PNG renderings 16..256 px."""

ICON_SIZES = (16, 24, 32, 48, 64, 128, 256)
"""PNG sizes rendered from the SVG by ``scripts/render_icons``."""

_Role = QPalette.ColorRole
_Group = QPalette.ColorGroup

_following_system: list[QApplication] = []


def _palette(colors: dict[_Role, str], disabled_text: str) -> QPalette:
    palette = QPalette()
    for role, value in colors.items():
        palette.setColor(role, QColor(value))
    for role in (_Role.Text, _Role.WindowText, _Role.ButtonText):
        palette.setColor(_Group.Disabled, role, QColor(disabled_text))
    return palette


def light_palette() -> QPalette:
    """Return the light palette (RegDesk teal accents on near-white)."""
    return _palette(
        {
            _Role.Window: "#f5f6f7",
            _Role.WindowText: "#1d2125",
            _Role.Base: "#ffffff",
            _Role.AlternateBase: "#eef1f3",
            _Role.ToolTipBase: "#ffffff",
            _Role.ToolTipText: "#1d2125",
            _Role.PlaceholderText: "#6b7580",
            _Role.Text: "#1d2125",
            _Role.Button: "#e9ecef",
            _Role.ButtonText: "#1d2125",
            _Role.BrightText: "#c62828",
            _Role.Link: "#00695c",
            _Role.Highlight: "#00796b",
            _Role.HighlightedText: "#ffffff",
        },
        disabled_text="#9aa1a8",
    )


def dark_palette() -> QPalette:
    """Return the dark palette (teal accents on charcoal)."""
    return _palette(
        {
            _Role.Window: "#202326",
            _Role.WindowText: "#e6e8ea",
            _Role.Base: "#17191b",
            _Role.AlternateBase: "#26292d",
            _Role.ToolTipBase: "#2b2f33",
            _Role.ToolTipText: "#e6e8ea",
            _Role.PlaceholderText: "#8b949c",
            _Role.Text: "#e6e8ea",
            _Role.Button: "#2b2f33",
            _Role.ButtonText: "#e6e8ea",
            _Role.BrightText: "#ff8a80",
            _Role.Link: "#4db6ac",
            _Role.Highlight: "#26a69a",
            _Role.HighlightedText: "#0d1012",
        },
        disabled_text="#6b737a",
    )


def system_scheme() -> str:
    """Return ``'dark'`` when the system prefers dark, else ``'light'``."""
    hints = QGuiApplication.styleHints()
    return "dark" if hints.colorScheme() == Qt.ColorScheme.Dark else "light"


def apply_theme(app: QApplication, preference: str) -> str:
    """Apply a palette; with ``'system'``, keep following the system's scheme.

    Args:
        app: The application.
        preference: ``'system'``, ``'light'`` or ``'dark'``.

    Returns:
        The scheme now in use: ``'light'`` or ``'dark'``.
    """
    hints = app.styleHints()
    if app in _following_system:
        hints.colorSchemeChanged.disconnect(_on_system_scheme_changed)
        _following_system.remove(app)
    scheme = preference if preference in ("light", "dark") else system_scheme()
    if preference not in ("light", "dark"):
        hints.colorSchemeChanged.connect(_on_system_scheme_changed)
        _following_system.append(app)
    # Fusion draws every widget from the palette, so both schemes look the same
    # on every platform (native styles ignore parts of a custom palette).
    app.setStyle("Fusion")
    app.setPalette(dark_palette() if scheme == "dark" else light_palette())
    app.setProperty("regdeskScheme", scheme)
    return scheme


def _on_system_scheme_changed(scheme: Qt.ColorScheme) -> None:
    for app in _following_system:
        app.setPalette(dark_palette() if scheme == Qt.ColorScheme.Dark else light_palette())
        app.setProperty("regdeskScheme", "dark" if scheme == Qt.ColorScheme.Dark else "light")


def app_icon() -> QIcon:
    """Return the RegDesk icon with every rendered size (empty if files are missing)."""
    icon = QIcon()
    for size in ICON_SIZES:
        png = ICONS_DIR / f"regdesk-{size}.png"
        if png.exists():
            icon.addFile(str(png))
    svg = ICONS_DIR / "regdesk.svg"
    if icon.isNull() and svg.exists():
        icon.addFile(str(svg))
    return icon


def _is_dark() -> bool:
    app = QGuiApplication.instance()
    if not isinstance(app, QGuiApplication):
        return False
    return app.palette().color(_Role.Window).lightness() < 128


def error_color() -> str:
    """Colour for inline error text, readable on the current palette."""
    return "#ef9a9a" if _is_dark() else "#c62828"


def success_color() -> str:
    """Colour for "all good" status text, readable on the current palette."""
    return "#a5d6a7" if _is_dark() else "#2e7d32"


def problem_row_color() -> str:
    """Background for table rows that need attention (e.g. a broken audit chain)."""
    return "#5c2626" if _is_dark() else "#fde0e0"
