"""Presenter mode: sign the demo personas in at once, off the GUI thread."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from desktop.tasks import run_in_background

if TYPE_CHECKING:
    from desktop.tasks import Job

LoginFunction = Callable[[str, str], Any]
"""``login(username, password) -> PersonaSession``; may raise."""

_SignedIn = tuple[list[Any], list[tuple[str, BaseException]]]

_log = logging.getLogger(__name__)


class PresenterSignIn(QObject):
    """Signs several personas in, one after another, in a background task.

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

        def sign_in(_: Job) -> _SignedIn:
            sessions: list[Any] = []
            failures: list[tuple[str, BaseException]] = []
            for username, password in credentials:
                try:
                    sessions.append(login(username, password))
                except Exception as exc:  # reported by the window, the others still go in
                    failures.append((username, exc))
            return sessions, failures

        # closed meanwhile: the sessions are nobody's, their HTTP clients are released
        run_in_background(
            sign_in,
            name="presenter-sign-in",
            owner=self,
            on_done=self._done,
            on_orphaned=_close_sessions,
        )
        return True

    def _done(self, signed_in: _SignedIn) -> None:
        self.running = False
        self.finished.emit(*signed_in)


def _close_sessions(signed_in: _SignedIn) -> None:
    for session in signed_in[0]:
        try:
            session.close()
        except Exception:  # already closed or half made: nothing left to release
            _log.debug("closing an unused session failed", exc_info=True)
