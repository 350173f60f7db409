"""The evidence dialog fetches off the GUI thread and shows a failure as text."""

from __future__ import annotations

import threading
from types import SimpleNamespace
from typing import Any

from desktop.evidence_view import EvidenceDialog


class _BrokenTools(dict[str, Any]):
    """Tools whose platform went away: every run raises in the fetching thread."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[int] = []

    def __missing__(self, name: str) -> Any:
        def run(_: dict[str, Any]) -> Any:
            self.threads.append(threading.get_ident())
            raise ConnectionError("platform went away")

        return SimpleNamespace(run=run)


def test_a_failed_fetch_is_shown_in_the_dialog(qtbot: Any) -> None:
    tools = _BrokenTools()
    dialog = EvidenceDialog(SimpleNamespace(tools=tools), "HR-REG-003", 2)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.loaded, timeout=10000):
        dialog.open()
    assert "ConnectionError: platform went away" in dialog.browser.toPlainText()
    assert tools.threads and tools.threads[0] != threading.get_ident()
