"""Ask a person to approve or deny the agent's one write tool.

Keyboard behaviour, chosen so that a stray key press never causes a write:

* **Enter** denies (Deny is the default button), also from the reason field.
* **Esc** or closing the window denies.
* **Alt+A** approves, as does Tab to *Approve* then Space or Enter.
* **Alt+D** denies; **Alt+R** focuses the reason field.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from agent_core.approval import ApprovalDecision

if TYPE_CHECKING:
    from agent_core.events import ApprovalRequested


class ApprovalDialog(QDialog):
    """Shows a pending write in full and returns the person's decision.

    Args:
        request: The write waiting for approval.
        parent: Parent widget.
    """

    def __init__(self, request: ApprovalRequested, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._request = request
        self._decision = ApprovalDecision(False, self._default_deny_reason())
        self.setWindowTitle(self.tr("Approve a change?"))
        self.setMinimumWidth(520)

        heading = QLabel(
            self.tr(
                "The agent, acting as <b>{persona}</b>, wants to make a change. "
                "Nothing is written unless you approve."
            ).format(persona=_escape(request.persona))
        )
        heading.setWordWrap(True)

        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.persona_label = _selectable(request.persona)
        self.tool_label = _selectable(request.tool)
        self.key_label = _selectable(request.idempotency_key)
        self.key_label.setFont(mono)
        self.key_label.setToolTip(
            self.tr("Retrying with the same key replays the change instead of repeating it.")
        )
        self.arguments_view = QPlainTextEdit(
            json.dumps(request.arguments, ensure_ascii=False, indent=2, sort_keys=True)
        )
        self.arguments_view.setReadOnly(True)
        self.arguments_view.setFont(mono)
        self.arguments_view.setTabChangesFocus(True)
        self.arguments_view.setMinimumHeight(120)
        self.reason_edit = QLineEdit()
        self.reason_edit.setPlaceholderText(
            self.tr("Optional; a denial's reason is told to the agent")
        )

        form = QFormLayout()
        form.addRow(self.tr("Persona:"), self.persona_label)
        form.addRow(self.tr("Tool:"), self.tool_label)
        arguments_label = QLabel(self.tr("Ar&guments:"))
        arguments_label.setBuddy(self.arguments_view)
        form.addRow(arguments_label, self.arguments_view)
        form.addRow(self.tr("Idempotency key:"), self.key_label)
        reason_label = QLabel(self.tr("&Reason:"))
        reason_label.setBuddy(self.reason_edit)
        form.addRow(reason_label, self.reason_edit)

        self.buttons = QDialogButtonBox()
        self.deny_button = QPushButton(self.tr("&Deny"))
        self.approve_button = QPushButton(self.tr("&Approve"))
        self.buttons.addButton(self.deny_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.buttons.addButton(self.approve_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.deny_button.setDefault(True)
        self.approve_button.setAutoDefault(True)
        self.deny_button.clicked.connect(self.reject)
        self.approve_button.clicked.connect(self._approve)

        hint = QLabel(self.tr("Enter or Esc denies. Alt+A approves."))
        hint.setObjectName("keyboardHint")
        hint.setEnabled(False)

        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addLayout(form)
        layout.addWidget(hint)
        layout.addWidget(self.buttons)

        self.setTabOrder(self.reason_edit, self.deny_button)
        self.setTabOrder(self.deny_button, self.approve_button)
        self.setTabOrder(self.approve_button, self.arguments_view)
        self.reason_edit.setFocus()

    @property
    def request(self) -> ApprovalRequested:
        """The write being decided."""
        return self._request

    @property
    def decision(self) -> ApprovalDecision:
        """The person's decision; a denial until they approve."""
        return self._decision

    def _default_deny_reason(self) -> str:
        return self.tr("{persona} denied this change.").format(persona=self._request.persona)

    def _approve(self) -> None:
        reason = self.reason_edit.text().strip() or self.tr("Approved in RegDesk.")
        self._decision = ApprovalDecision(True, reason)
        self.accept()

    def reject(self) -> None:
        """Deny (Deny button, Enter, Esc or closing the window)."""
        reason = self.reason_edit.text().strip() or self._default_deny_reason()
        self._decision = ApprovalDecision(False, reason)
        super().reject()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _selectable(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label
