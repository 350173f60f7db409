"""The personas logged in right now, shared by the switcher and the split panes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

if TYPE_CHECKING:
    from collections.abc import Iterator

    from desktop.session_like import SessionLike


class SessionRegistry(QObject):
    """Logged-in persona sessions by username, in login order."""

    changed = Signal()
    """A persona logged in or out."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._sessions: dict[str, Any] = {}

    def add(self, session: SessionLike) -> None:
        """Register a session (replaces an older one of the same persona)."""
        self._sessions[session.username] = session
        self.changed.emit()

    def remove(self, username: str) -> None:
        """Forget a persona's session."""
        if self._sessions.pop(username, None) is not None:
            self.changed.emit()

    def get(self, username: str) -> Any | None:
        """The session of a persona, or None."""
        return self._sessions.get(username)

    def usernames(self) -> list[str]:
        """Logged-in personas, in login order."""
        return list(self._sessions)

    def label(self, username: str) -> str:
        """ "display name (username)" for menus."""
        session = self._sessions.get(username)
        name = getattr(session, "display_name", "") or username
        return f"{name} ({username})" if name != username else username

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self._sessions.values()))

    def __len__(self) -> int:
        return len(self._sessions)
