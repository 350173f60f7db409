"""Presenter mode: sign the demo personas in at once, off the GUI thread."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

LoginFunction = Callable[[str, str], Any]
"""``login(username, password) -> PersonaSession``; may raise."""


class PresenterSignIn(QObject):
    """Signs several personas in, one after another, in a background thread.

    ``finished`` carries the sessions that signed in (in the order asked) and
    ``(username, error)`` pairs for those that did not; nothing is half-added: the
    window adds the sessions on the GUI thread.
    """

    finished = Signal(object, object)
    """(sessions, failures) once every persona was tried."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.running = False

    def start(self, login: LoginFunction, credentials: list[tuple[str, str]]) -> bool:
        """Sign ``credentials`` ((username, password) pairs) in.

        Returns:
            False when a sign-in of this kind is still running.
        """
        if self.running:
            return False
        self.running = True
        signal = self.finished

        def run() -> None:
            sessions: list[Any] = []
            failures: list[tuple[str, BaseException]] = []
            for username, password in credentials:
                try:
                    sessions.append(login(username, password))
                except Exception as exc:  # reported by the window, the others still go in
                    failures.append((username, exc))
            try:
                signal.emit(sessions, failures)
            except RuntimeError:
                pass  # the window was closed meanwhile

        self.finished.connect(self._done)
        threading.Thread(target=run, name="presenter-sign-in", daemon=True).start()
        return True

    def _done(self, *_: object) -> None:
        self.finished.disconnect(self._done)
        self.running = False
