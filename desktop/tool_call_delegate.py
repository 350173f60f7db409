"""How one tool call looks in the list: a two-line row with a status mark and badges.

The status mark is a spinner while the call runs, a pulsing dot while it awaits
approval, a ring when it found nothing and a filled dot otherwise (crossed for
an error, a refusal or an interrupted call). Everything drawn comes from the
model's roles (``desktop.tool_call_model``); colours follow the palette, so rows
read on a dark theme.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from desktop.tool_call_model import (
    PHASES,
    ROLE_BADGES,
    ROLE_CALL,
    ROLE_METRICS,
    ROLE_PHASE,
    ROLE_QUESTION,
    ROLE_SECOND_LINE,
    ROLE_STATUS_TEXT,
    status_color,
)

if TYPE_CHECKING:
    from agent_core.record import CallRecord

ModelIndex = QModelIndex | QPersistentModelIndex

FAILED = ("error", "denied", "interrupted")
"""Statuses drawn as a crossed dot."""


class ToolCallDelegate(QStyledItemDelegate):
    """Paints a call as two lines: status, name, badges, metrics / arguments."""

    PADDING = 6

    def sizeHint(self, option: QStyleOptionViewItem, index: ModelIndex) -> QSize:
        """Two text lines and some air (and the question above a question's first call)."""
        metrics = QFontMetrics(option.font)
        header = self.header_height(metrics) if index.data(ROLE_QUESTION) else 0
        return QSize(200, metrics.height() * 2 + self.PADDING * 2 + 4 + header)

    def header_height(self, metrics: QFontMetrics) -> int:
        """Height of the question line that groups a question's calls."""
        return metrics.height() + self.PADDING

    def _paint_question(
        self, painter: QPainter, rect: QRect, question: str, palette: QPalette, font: QFont
    ) -> int:
        """Draw the question a group of calls answers; returns the height it took."""
        metrics = QFontMetrics(font)
        height = self.header_height(metrics)
        band = QRect(rect.left(), rect.top(), rect.width(), height)
        painter.fillRect(band, palette.color(QPalette.ColorRole.Window))
        painter.setPen(palette.color(QPalette.ColorRole.Mid))
        painter.drawLine(band.topLeft(), band.topRight())
        painter.setFont(font)
        painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
        line = " ".join(question.split())
        text = metrics.elidedText(f"❯ {line}", Qt.TextElideMode.ElideRight, band.width() - 12)
        painter.drawText(
            band.adjusted(self.PADDING, 0, -self.PADDING, 0),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
            text,
        )
        return height

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        """Draw one call."""
        call: CallRecord | None = index.data(ROLE_CALL)
        if call is None:
            super().paint(painter, option, index)
            return
        phase = int(index.data(ROLE_PHASE) or 0)
        rect: QRect = option.rect
        palette: QPalette = option.palette
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        question = str(index.data(ROLE_QUESTION) or "")
        if question:
            taken = self._paint_question(painter, rect, question, palette, option.font)
            rect = rect.adjusted(0, taken, 0, 0)
        if selected:
            painter.fillRect(rect, palette.color(QPalette.ColorRole.Highlight))
        elif index.row() % 2:
            painter.fillRect(rect, palette.color(QPalette.ColorRole.AlternateBase))
        text_color = palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        )
        dim_color = text_color if selected else palette.color(QPalette.ColorRole.PlaceholderText)
        font: QFont = QFont(option.font)
        metrics = QFontMetrics(font)
        pad = self.PADDING
        line_h = metrics.height()
        top = rect.top() + pad
        # status mark
        mark = QRect(rect.left() + pad, top + (line_h - 12) // 2, 12, 12)
        color = status_color(call.status, palette)
        if selected:
            color = text_color
        self._paint_mark(painter, mark, call.status, color, phase)
        x = mark.right() + 8
        right = rect.right() - pad
        # metrics on the right of line 1
        metrics_text = str(index.data(ROLE_METRICS) or "")
        small = QFont(font)
        small.setPointSizeF(max(font.pointSizeF() - 1, 7.0))
        small_metrics = QFontMetrics(small)
        if metrics_text:
            width = small_metrics.horizontalAdvance(metrics_text)
            painter.setFont(small)
            painter.setPen(dim_color)
            painter.drawText(
                QRect(right - width, top, width, line_h),
                int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                metrics_text,
            )
            right -= width + 8
        # tool name
        bold = QFont(font)
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(text_color)
        name = QFontMetrics(bold).elidedText(call.tool, Qt.TextElideMode.ElideRight, right - x)
        name_w = QFontMetrics(bold).horizontalAdvance(name)
        painter.drawText(QRect(x, top, name_w, line_h), int(Qt.AlignmentFlag.AlignVCenter), name)
        x += name_w + 8
        # status word unless plain ok
        if call.status != "ok" and x < right:
            word = small_metrics.elidedText(
                str(index.data(ROLE_STATUS_TEXT)), Qt.TextElideMode.ElideRight, right - x
            )
            painter.setFont(small)
            painter.setPen(color)
            word_w = small_metrics.horizontalAdvance(word)
            painter.drawText(
                QRect(x, top, word_w, line_h), int(Qt.AlignmentFlag.AlignVCenter), word
            )
            x += word_w + 8
        # badges
        painter.setFont(small)
        for text, fill in index.data(ROLE_BADGES) or []:
            width = small_metrics.horizontalAdvance(text) + 10
            if x + width > right:
                break
            pill = QRect(
                x,
                top + (line_h - small_metrics.height() - 2) // 2,
                width,
                small_metrics.height() + 2,
            )
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(fill))
            painter.drawRoundedRect(pill, pill.height() / 2, pill.height() / 2)
            painter.setPen(QColor("#ffffff"))
            painter.drawText(pill, int(Qt.AlignmentFlag.AlignCenter), text)
            x += width + 4
        # line 2: arguments summary, or the error in red
        second = QRect(
            mark.right() + 8, top + line_h + 1, rect.right() - pad - mark.right() - 8, line_h + 3
        )
        painter.setFont(font)
        line = str(index.data(ROLE_SECOND_LINE) or "")
        if call.error and call.status in ("error", "denied"):
            painter.setPen(text_color if selected else status_color("error", palette))
        else:
            painter.setPen(dim_color)
        painter.drawText(
            second,
            int(Qt.AlignmentFlag.AlignVCenter),
            metrics.elidedText(line, Qt.TextElideMode.ElideRight, second.width()),
        )
        painter.restore()

    @staticmethod
    def _paint_mark(painter: QPainter, mark: QRect, status: str, color: QColor, phase: int) -> None:
        if status == "running":
            pen = QPen(color, 2.0)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            start = -int(360 * 16 * phase / PHASES)
            painter.drawArc(mark.adjusted(1, 1, -1, -1), start, 270 * 16)
            return
        if status == "awaiting_approval":
            pulse = QColor(color)
            pulse.setAlphaF(0.35 + 0.65 * abs((phase % PHASES) - PHASES / 2) / (PHASES / 2))
            painter.setPen(QPen(color, 1.5))
            painter.setBrush(pulse)
            painter.drawEllipse(mark.adjusted(1, 1, -1, -1))
            return
        if status == "empty":
            painter.setPen(QPen(color, 1.5))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(mark.adjusted(2, 2, -2, -2))
            return
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawEllipse(mark.adjusted(1, 1, -1, -1))
        if status in FAILED:
            painter.setPen(QPen(QColor("#ffffff"), 1.6))
            inner = mark.adjusted(4, 4, -4, -4)
            painter.drawLine(inner.topLeft(), inner.bottomRight())
            painter.drawLine(inner.topRight(), inner.bottomLeft())
