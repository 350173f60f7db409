"""One PNG of the benchmark results, drawn with Qt's QPainter offscreen (no matplotlib).

Panels: regulation-search latency (p50 and p95) against corpus size; the
timeline of one split turn (hong and cho at once: tool calls and the streamed
answer); RSS over the soak's split turns.
"""

from __future__ import annotations

import itertools
import math
import os
from typing import TYPE_CHECKING, Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

if TYPE_CHECKING:
    from pathlib import Path

    from PySide6.QtGui import QPainter

WIDTH, HEIGHT = 1500, 480
PANEL_W = WIDTH // 3
COLORS = {
    "p50": "#1565c0",
    "p95": "#c62828",
    "tool": "#2e7d32",
    "model": "#90a4ae",
    "rss": "#6a1b9a",
}


def _frame(painter: QPainter, left: int, title: str) -> tuple[int, int, int, int]:
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QFont, QPen

    font = QFont()
    font.setPointSize(11)
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(QPen(Qt.GlobalColor.black))
    painter.drawText(QRect(left, 8, PANEL_W, 24), Qt.AlignmentFlag.AlignCenter, title)
    font.setBold(False)
    font.setPointSize(8)
    painter.setFont(font)
    x0, y0, x1, y1 = left + 60, 50, left + PANEL_W - 20, HEIGHT - 60
    painter.drawLine(x0, y1, x1, y1)
    painter.drawLine(x0, y0, x0, y1)
    return x0, y0, x1, y1


def _search_panel(painter: QPainter, platform: dict[str, Any]) -> None:
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QColor, QPen

    x0, y0, x1, y1 = _frame(painter, 0, "regulation_search latency vs corpus")
    search = platform.get("regulation_search") or {}
    points = sorted((v["chunks"], v["p50_ms"], v["p95_ms"]) for v in search.values())
    if not points:
        painter.drawText(x0 + 10, y0 + 20, "no platform results")
        return
    top = max(p[2] for p in points) * 1.15 or 1.0
    lo, hi = math.log10(points[0][0]), math.log10(points[-1][0])
    span = (hi - lo) or 1.0

    def at(chunks: float, value: float) -> QPointF:
        x = x0 + (math.log10(chunks) - lo) / span * (x1 - x0 - 20) + 10
        return QPointF(x, y1 - value / top * (y1 - y0))

    for step in range(5):
        value = top * step / 4
        painter.drawText(x0 - 55, int(y1 - value / top * (y1 - y0)) + 4, f"{value:6.1f} ms")
    for chunks, _, _ in points:
        point = at(chunks, 0)
        painter.drawText(int(point.x()) - 30, y1 + 18, f"{chunks:,} chunks")
    for index, key in ((1, "p50"), (2, "p95")):
        painter.setPen(QPen(QColor(COLORS[key]), 2))
        line = [at(p[0], p[index]) for p in points]
        for a, b in itertools.pairwise(line):
            painter.drawLine(a, b)
        for p in line:
            painter.drawEllipse(p, 3, 3)
        painter.drawText(x1 - 60, y0 + 14 * index, key)
    painter.setPen(QPen(QColor("#000000")))
    painter.drawText(x0 + 4, y1 + 36, "corpus size (log scale), HTTP on loopback, as hong")


def _timeline_panel(painter: QPainter, timeline: dict[str, Any]) -> None:
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QColor, QPen

    x0, y0, x1, y1 = _frame(painter, PANEL_W, "one split turn (hong | cho), paced model")
    spans = timeline.get("spans") or {}
    if not spans:
        painter.drawText(x0 + 10, y0 + 20, "no timeline")
        return
    end = max((s.get("end", s["start"]) for rows in spans.values() for s in rows), default=1.0)
    scale = (x1 - x0 - 10) / (end or 1.0)
    lane = (y1 - y0) / max(1, len(spans))
    for number, (persona, rows) in enumerate(spans.items()):
        top = y0 + number * lane
        painter.setPen(QPen(QColor("#000000")))
        painter.drawText(x0 - 50, int(top + lane / 2), persona)
        tools_drawn = 0
        for row in rows:
            if row["kind"] not in ("tool", "model"):
                continue
            height = lane * (0.25 if row["kind"] == "model" else 0.3)
            offset = lane * (0.6 if row["kind"] == "model" else 0.2)
            rect = QRectF(
                x0 + row["start"] * scale,
                top + offset,
                max(2.0, (row["end"] - row["start"]) * scale),
                height,
            )
            painter.fillRect(rect, QColor(COLORS[row["kind"]]))
            if row["kind"] == "tool":
                # stagger labels: calls a few ms apart would print over each other
                label_y = int(rect.y()) - 2 - 12 * (tools_drawn % 3)
                painter.drawText(int(rect.x()) + 3, label_y, row["label"])
                tools_drawn += 1
    for step in range(5):
        value = end * step / 4
        painter.drawText(int(x0 + value * scale) - 10, y1 + 18, f"{value:.0f}")
    painter.drawText(
        x0 + 4, y1 + 36, "ms from the question · green: tool call · grey: model stream"
    )


def _soak_panel(painter: QPainter, soak: dict[str, Any]) -> None:
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QColor, QPen

    x0, y0, x1, y1 = _frame(painter, 2 * PANEL_W, "RSS over split turns (soak)")
    series = soak.get("rss_mb") or []
    if len(series) < 2:
        painter.drawText(x0 + 10, y0 + 20, "no soak results")
        return
    low, high = min(series) * 0.98, max(series) * 1.02
    span = (high - low) or 1.0

    def at(turn: int, value: float) -> QPointF:
        return QPointF(
            x0 + turn / (len(series) - 1) * (x1 - x0), y1 - (value - low) / span * (y1 - y0)
        )

    for step in range(5):
        value = low + span * step / 4
        painter.drawText(x0 - 55, int(y1 - (value - low) / span * (y1 - y0)) + 4, f"{value:.0f} MB")
    painter.setPen(QPen(QColor(COLORS["rss"]), 2))
    line = [at(i, v) for i, v in enumerate(series)]
    for a, b in itertools.pairwise(line):
        painter.drawLine(a, b)
    painter.setPen(QPen(QColor("#000000")))
    painter.drawText(x1 - 40, y1 + 18, str(len(series) - 1))
    painter.drawText(x0, y1 + 18, "0")
    painter.drawText(
        x0 + 4, y1 + 36, f"split turns · slope {soak.get('slope_kb_per_turn')} kB/turn"
    )


def render_chart(results: dict[str, dict[str, Any]], out: Path) -> Path:
    """Draw the three panels into a PNG.

    Args:
        results: Result documents by name (``platform``, ``soak``; missing ones
            leave their panel saying so).
        out: PNG path.

    Returns:
        ``out``.
    """
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter

    _app = QGuiApplication.instance() or QGuiApplication([])
    image = QImage(WIDTH, HEIGHT, QImage.Format.Format_ARGB32)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.GlobalColor.black)
    soak = results.get("soak") or {}
    _search_panel(painter, results.get("platform") or {})
    _timeline_panel(painter, soak.get("timeline") or {})
    _soak_panel(painter, soak.get("soak") or {})
    painter.end()
    out.parent.mkdir(parents=True, exist_ok=True)
    if not image.save(str(out)):  # format from the .png suffix
        raise OSError(f"could not write {out}")
    del _app
    return out
