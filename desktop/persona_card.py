"""A persona header card: who is asking and what they may see, readable on a projector."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from desktop.demo_personas import demo_persona_card

NAME_SCALE = 1.7
"""The name's size relative to the card's font (it follows text zoom)."""
BODY_SCALE = 1.1
"""Role and visibility lines relative to the card's font."""


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
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 6, 12, 6)
        layout.setSpacing(1)
        layout.addWidget(self.name_label)
        layout.addWidget(self.role_label)
        layout.addWidget(self.sees_label)
        self.username = ""
        self._scale_fonts()

    def set_persona(self, username: str, display_name: str = "") -> None:
        """Show a persona (``''``: nobody)."""
        self.username = username
        card = demo_persona_card(username)
        name = display_name or (card.name if card else "") or username
        self.name_label.setText(f"{name} ({username})" if name != username else username)
        self.role_label.setText(card.role if card else "")
        self.sees_label.setText(card.sees if card else "")
        self.role_label.setVisible(card is not None)
        self.sees_label.setVisible(card is not None)

    def text(self) -> str:
        """What the card says, as plain text (tests, accessibility)."""
        labels = (self.name_label, self.role_label, self.sees_label)
        return "\n".join(label.text() for label in labels if label.text())

    def changeEvent(self, event: QEvent) -> None:
        """Text zoom sets the card's font: its lines follow, in proportion."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._scale_fonts()

    def _scale_fonts(self) -> None:
        base = self.font()
        for label, scale, bold in (
            (self.name_label, NAME_SCALE, True),
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
        # two lines for what the persona may see, however short: cards side by side
        # in the split view keep one height, so the panes' chats start level
        self.sees_label.setMinimumHeight(2 * self.sees_label.fontMetrics().lineSpacing())
