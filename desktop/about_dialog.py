"""About RegDesk: version, what it is connected to, and which model answers."""

from __future__ import annotations

import platform
from typing import TYPE_CHECKING

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, qVersion
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
)

from desktop.theme import app_icon

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget


class AboutDialog(QDialog):
    """Who made what, and where the answers come from.

    Args:
        version: RegDesk version string.
        platform_url: The data platform in use.
        model_label: How the model is named (the offline one says it is not an LLM).
        parent: Parent widget.
    """

    def __init__(
        self,
        version: str,
        platform_url: str,
        model_label: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("About RegDesk"))

        icon = QLabel()
        icon.setPixmap(app_icon().pixmap(64, 64))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        title = QLabel(f"<h2>RegDesk {version}</h2>")
        blurb = QLabel(
            self.tr(
                "Ask regulation and HR questions as a named person and see, tool call "
                "by tool call, how the answer was reached. The agent has no rights of "
                "its own: the platform's policies for that person decide what it sees."
            )
        )
        blurb.setWordWrap(True)

        self.platform_label = _selectable(platform_url)
        self.model_label = _selectable(model_label)
        form = QFormLayout()
        form.addRow(self.tr("Data platform:"), self.platform_label)
        form.addRow(self.tr("Model:"), self.model_label)
        form.addRow(
            self.tr("Built with:"),
            _selectable(
                f"Qt {qVersion()} · PySide6 {pyside_version} · Python {platform.python_version()}"
            ),
        )

        text = QVBoxLayout()
        text.addWidget(title)
        text.addWidget(blurb)
        text.addLayout(form)
        top = QHBoxLayout()
        top.addWidget(icon)
        top.addLayout(text, 1)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(buttons)
        self.setMinimumWidth(460)


def _selectable(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setWordWrap(True)
    return label
