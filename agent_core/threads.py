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

    def begin_turn(self) -> None:
        """A new turn starts."""

    def recover(self, exc: Exception) -> bool:
        """True when a thread rejection was handled and the call should go again."""
        return False


_REPLAY_CODES = frozenset(
    {"thread_not_found", "thread_already_continued", "thread_continue_in_flight"}
)
"""Thread rejections a full replay under a new thread recovers from."""


def _error_code(exc: Exception) -> str | None:
    body = getattr(exc, "body", None)
    error = body.get("error") if isinstance(body, dict) else None
    details = error.get("details") if isinstance(error, dict) else None
    code = details.get("error_code") if isinstance(details, dict) else None
    return str(code) if code else None


class MessageThreads(NoThreads):
    """Later calls of a turn continue the server-held thread with only the new messages."""

    active = True

    def __init__(self) -> None:
        self.previous_message_id: str | None = None
        self.held = 0
        """How many messages of the turn's conversation the server holds."""
        self.replays = 0

    def shape(self, params: dict[str, Any], messages: list[dict[str, Any]]) -> dict[str, Any]:
        """Add the ``thread`` field; on a continue drop what the thread already holds."""
        if not self.active:
            return params
        shaped = dict(params)
        shaped["betas"] = [MESSAGE_THREADS_BETA]
        if self.previous_message_id is None:
            shaped["thread"] = {"type": "create"}
            return shaped
        sent = params["messages"]
        shaped["messages"] = list(sent[self.held :]) if len(sent) == len(messages) else messages
        shaped.pop("system", None)
        shaped.pop("tools", None)
        shaped["thread"] = {"type": "continue", "previous_message_id": self.previous_message_id}
        return shaped

    def stream(self, session: PersonaSession, params: dict[str, Any], timeout: float) -> Any:
        """Open the streaming call (the beta Messages API when threading)."""
        if "thread" not in params:
            return super().stream(session, params, timeout)
        return session.model.beta.messages.stream(**params, timeout=timeout)

    def replied(self, message: Any, messages: list[dict[str, Any]]) -> None:
        """The next call continues from this reply."""
        if self.active:
            self.previous_message_id = str(message.id)
            self.held = len(messages)

    def reset(self) -> None:
        """Start a new thread with the whole conversation on the next call."""
        self.previous_message_id = None
        self.held = 0

    def begin_turn(self) -> None:
        """A new turn is a new conversation: nothing of the last turn's thread carries over.

        Whether the endpoint threads at all (``active``) is the session's to remember.
        """
        self.reset()
        self.replays = 0

    def recover(self, exc: Exception) -> bool:
        """A thread rejection: replay under a new thread once, else stop threading."""
        if not self.active:
            return False
        status = getattr(exc, "status_code", None)
        code = _error_code(exc)
        words = str(getattr(exc, "api_message", "") or "").lower()
        if code in _REPLAY_CODES and self.previous_message_id is not None and self.replays < 2:
            self.replays += 1
            self.reset()
            return True
        if code == "thread_unsupported_request" or (status == 400 and "thread" in words):
            self.active = False
            self.reset()
            return True
        return False


def make_threads(session: PersonaSession) -> NoThreads:
    """The thread strategy of a session.

    ``REGDESK_THREADS``: ``on`` threads wherever the endpoint lists models,
    ``off`` never; the default (``auto``) threads only against Anthropic's own
    API, whose model list the session read.

    Args:
        session: The session (its endpoint and model).

    Returns:
        The strategy.
    """
    mode = os.environ.get("REGDESK_THREADS", "auto").strip().lower()
    endpoints = session.endpoints
    if mode in ("off", "0", "no") or endpoints.offline_model:
        return NoThreads()
    from agent_core.model_catalog import list_models

    listed = list_models(session.model) is not None
    anthropic_api = endpoints.model_base_url in (None, "", "https://api.anthropic.com")
    if listed and (mode in ("on", "1", "yes") or anthropic_api):
        return MessageThreads()
    return NoThreads()
