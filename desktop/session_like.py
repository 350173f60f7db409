"""What the desktop needs from a signed-in persona.

``agent_core.session.PersonaSession`` is the one implementation in the
product; tests and benchmarks hand the panes scripted stand-ins. Typing the
panes against this protocol instead of ``Any`` lets mypy check every use, and
names exactly what a stand-in has to provide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Iterator

    from agent_core.approval import Approver
    from agent_core.cancel import CancelToken
    from agent_core.config import Endpoints
    from agent_core.events import AgentEvent


class SessionLike(Protocol):
    """A signed-in persona that runs turns (``PersonaSession``'s shape)."""

    @property
    def username(self) -> str:
        """Login name (the persona)."""
        ...

    @property
    def display_name(self) -> str:
        """The person's name as the platform gives it."""
        ...

    @property
    def endpoints(self) -> Endpoints:
        """Platform and model the turns use."""
        ...

    @property
    def busy(self) -> bool:
        """True while one of its turns runs."""
        ...

    def run_turn(
        self,
        question: str,
        *,
        approver: Approver,
        cancel: CancelToken,
        history: list[tuple[str, str]] | None = None,
    ) -> Iterator[AgentEvent]:
        """Ask one question; the events of the turn, ending with exactly one final event."""
        ...

    def use_model(
        self, model: str | None, *, max_tokens: int | None = None, effort: str | None = None
    ) -> str:
        """Switch to another model of the same endpoint; returns the model now in use."""
        ...

    def close(self) -> None:
        """Release its connections."""
        ...


if TYPE_CHECKING:
    from agent_core.session import PersonaSession

    def _persona_session_is_session_like(session: PersonaSession) -> SessionLike:
        # mypy checks here that the real session keeps the shape the panes use
        return session
