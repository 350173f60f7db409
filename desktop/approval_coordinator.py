"""Approval dialogs, each bound to one tool call and closing with its turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from agent_core.approval import ApprovalDecision
    from agent_core.events import ApprovalRequested
    from desktop.persona_pane import PersonaPane


class ApprovalCoordinator:
    """Asks the user to approve a write, and routes the answer to the right call.

    A dialog answers only the call it was opened for (by ``call_id``); when that
    call's turn ends first (finished, failed, cancelled), the dialog closes
    without answering, so a late click cannot approve a later call.
    """

    def __init__(self, parent: QWidget) -> None:
        """Open dialogs over ``parent`` (the main window)."""
        self._parent = parent
        self.dialogs: list[Any] = []
        """Approval dialogs open now, oldest first."""
        self.auto_approval: ApprovalDecision | None = None
        """When set, every request gets this answer without a dialog (headless runs)."""

    def ask(self, pane: PersonaPane, request: ApprovalRequested) -> None:
        """Ask about one request of a pane's turn (a pane's ``approval_handler``)."""
        if self.auto_approval is not None:
            pane.answer_approval(request.call_id, self.auto_approval)
            return
        from desktop.approval_dialog import ApprovalDialog

        dialog = ApprovalDialog(request, self._parent)
        self.dialogs.append(dialog)
        turn_open = [True]

        def turn_over(*_: object) -> None:
            # the turn ended (finished, failed, cancelled): close without answering
            turn_open[0] = False
            dialog.reject()

        def answered(*_: object) -> None:
            if dialog in self.dialogs:
                self.dialogs.remove(dialog)
            pane.turn_finished.disconnect(turn_over)
            if turn_open[0]:
                pane.answer_approval(request.call_id, dialog.decision)
            dialog.deleteLater()

        pane.turn_finished.connect(turn_over)
        dialog.finished.connect(answered)
        dialog.open()

    def reject_all(self) -> None:
        """Close every open dialog, answering no (the window is closing)."""
        for dialog in list(self.dialogs):
            dialog.reject()
