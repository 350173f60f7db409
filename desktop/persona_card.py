"""A persona header card: who is asking and what they may see, readable on a projector."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from PySide6.QtGui import QResizeEvent

from desktop.demo_personas import demo_persona_card

NAME_SCALE = 2.0
"""The name's size relative to the card's font (it follows text zoom)."""
BODY_SCALE = 1.3
"""Role and visibility lines relative to the card's font."""
COMPACT_NAME_SCALE = 1.5
"""The name in a compact card."""
COMPACT_BELOW_LINES = 24
"""A pane shorter than this many lines of its chat's text gets a compact card."""


class PersonaCard(QFrame):
    """Name, role and what the persona may see (demo personas); name and user name
    only for any other persona."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("personaCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.AlternateBase)
        self.setAccessibleName(self.tr("Persona card"))
        self.name_label = QLabel(self)
        self.role_label = QLabel(self)
        self.sees_label = QLabel(self)
        for label in (self.name_label, self.role_label, self.sees_label):
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 6, 12, 6)
        layout.setSpacing(1)
        layout.addWidget(self.name_label)
        layout.addWidget(self.role_label)
        layout.addWidget(self.sees_label)
        layout.addStretch(1)  # a levelled card's extra height goes below its text
        self.username = ""
        self.compact = False
        """One line each for name and what the persona may see (the rest in the tooltip):
        for a pane too short to give the card its full height."""
        self._sees = ""
        self._scale_fonts()

    def set_persona(self, username: str, display_name: str = "") -> None:
        """Show a persona (``''``: nobody)."""
        self.username = username
        card = demo_persona_card(username)
        name = display_name or (card.name if card else "") or username
        self.name_label.setText(f"{name} ({username})" if name != username else username)
        self.role_label.setText(card.role if card else "")
        self._sees = card.sees if card else ""
        self.setToolTip("\n".join(t for t in (card.role, card.sees) if t) if card else "")
        self._layout_text()

    def set_compact(self, compact: bool) -> None:
        """Switch between the full card and its one-line-each form."""
        if compact != self.compact:
            self.compact = compact
            self._scale_fonts()

    def _layout_text(self) -> None:
        demo = bool(self._sees)
        self.role_label.setVisible(demo and not self.compact)
        self.sees_label.setVisible(demo)
        self.sees_label.setWordWrap(not self.compact)
        if self.compact:  # elided to the width it has; never wider than the pane
            self.sees_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            width = max(20, self.contentsRect().width() - 24)
            metrics = self.sees_label.fontMetrics()
            self.sees_label.setText(
                metrics.elidedText(self._sees, Qt.TextElideMode.ElideRight, width)
            )
            self.sees_label.setMinimumHeight(metrics.lineSpacing())
        else:
            policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
            policy.setHeightForWidth(True)  # wrapped: its height follows its width
            self.sees_label.setSizePolicy(policy)
            self.sees_label.setText(self._sees)
            # two lines for what the persona may see, however short: cards side by side
            # in the split view keep one height, so the panes' chats start level
            self.sees_label.setMinimumHeight(2 * self.sees_label.fontMetrics().lineSpacing())

    def resizeEvent(self, event: QResizeEvent) -> None:
        """A compact card elides its line again for the new width."""
        super().resizeEvent(event)
        if self.compact and event.size().width() != event.oldSize().width():
            self._layout_text()

    def text_height(self) -> int:
        """The height the card's text needs at its width (the split view levels cards)."""
        layout = self.layout()
        return layout.totalHeightForWidth(self.width()) if layout is not None else 0

    def text(self) -> str:
        """What the card says, as plain text (tests, accessibility)."""
        lines = (self.name_label.text(), self.role_label.text(), self._sees)
        return "\n".join(line for line in lines if line)

    def changeEvent(self, event: QEvent) -> None:
        """Text zoom sets the card's font: its lines follow, in proportion."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._scale_fonts()

    def _scale_fonts(self) -> None:
        base = self.font()
        name_scale = COMPACT_NAME_SCALE if self.compact else NAME_SCALE
        for label, scale, bold in (
            (self.name_label, name_scale, True),
            (self.role_label, BODY_SCALE, False),
            (self.sees_label, BODY_SCALE, False),
        ):
            font = QFont(base)
            if base.pointSizeF() > 0:
                font.setPointSizeF(base.pointSizeF() * scale)
            else:
                font.setPixelSize(max(1, round(base.pixelSize() * scale)))
            font.setBold(bold)
            label.setFont(font)
        self._layout_text()
