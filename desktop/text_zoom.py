"""Text zoom (Ctrl+= / Ctrl+- / Ctrl+0): one factor for chat, tool panel and strip."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QFont

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

ZOOM_STEPS = (0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0)
"""The sizes Ctrl+= and Ctrl+- step through (as browsers do; 1.0 is the UI's own)."""
MIN_ZOOM = ZOOM_STEPS[0]
MAX_ZOOM = ZOOM_STEPS[-1]
_BASE = "regdeskUnzoomedFont"
"""Widget property: the font a widget had before it was first zoomed."""


def clamp_zoom(factor: float) -> float:
    """A factor within the steps' range (a hand-edited setting cannot make text vanish)."""
    return min(MAX_ZOOM, max(MIN_ZOOM, float(factor)))


def step_zoom(current: float, direction: int) -> float:
    """The next step up (``direction > 0``) or down from ``current``; 1.0 for 0."""
    if direction == 0:
        return 1.0
    if direction > 0:
        return next((s for s in ZOOM_STEPS if s > current + 1e-6), MAX_ZOOM)
    return next((s for s in reversed(ZOOM_STEPS) if s < current - 1e-6), MIN_ZOOM)


def zoom_widget(widget: QWidget, factor: float) -> None:
    """Give a widget its unzoomed font scaled by ``factor`` (children inherit it).

    The unzoomed font is remembered on the first call, so zooming in and out
    again returns to exactly the size the widget started with.
    """
    base = widget.property(_BASE)
    if not isinstance(base, QFont):
        base = QFont(widget.font())
        widget.setProperty(_BASE, base)
    font = QFont(widget.font())
    if base.pointSizeF() > 0:
        font.setPointSizeF(base.pointSizeF() * factor)
    else:
        font.setPixelSize(max(1, round(base.pixelSize() * factor)))
    if font != widget.font():
        widget.setFont(font)
