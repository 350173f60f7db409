"""Windows open inside the screen they are on, whatever the scale factor.

``resize(1280, 800)`` is in device-independent pixels: at ``QT_SCALE_FACTOR=1.5``
on a 1440×900 screen (960×600 independent pixels) it opened a 1919×1200 window
with the question box, Send and the status line off-screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRect, QSize

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

SCREEN_SHARE = 0.92
"""Most of the available screen a new window takes (room for the frame and panels)."""


def fit_to_screen(window: QWidget, preferred: QSize | None = None) -> None:
    """Size (and move) a top-level window so that all of it is on its screen.

    Args:
        window: The window (shown or not).
        preferred: The size it would like; default its current size.
    """
    screen = window.screen()
    if screen is None:
        if preferred is not None:
            window.resize(preferred)
        return
    available: QRect = screen.availableGeometry()
    wanted = preferred if preferred is not None else window.size()
    room = QSize(int(available.width() * SCREEN_SHARE), int(available.height() * SCREEN_SHARE))
    size = wanted.boundedTo(room).expandedTo(window.minimumSize())
    window.resize(size)
    frame = window.frameGeometry()
    if not available.contains(frame):
        left = min(max(frame.left(), available.left()), available.right() - frame.width() + 1)
        top = min(max(frame.top(), available.top()), available.bottom() - frame.height() + 1)
        window.move(max(left, available.left()), max(top, available.top()))
