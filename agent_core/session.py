"""A persona session: one person's login, tools, model client and audit log."""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anthropic

from agent_core.audit import AuditLog
from agent_core.config import OFFLINE_MODEL_LABEL
from agent_core.errors import AdminRefusedError
from agent_core.events import TurnFailed
from agent_core.model_catalog import ModelChoice, known_choice, resolve_model
from agent_core.model_transport import AbortableHttpClient
from agent_core.platform_client import DEFAULT_TIMEOUT_S, PlatformClient
from agent_core.prompting import load_system_prompt
from agent_core.threads import make_threads
from agent_core.tools import build_tools
from agent_core.turn import TurnLimits, run_turn

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from agent_core.approval import Approver
    from agent_core.cancel import CancelToken
    from agent_core.config import Endpoints
    from agent_core.events import AgentEvent


_log = logging.getLogger(__name__)


@dataclass
class ModelCapabilities:
    """What this session sends the model beyond the basics; shrinks when the endpoint objects.

    An endpoint that does not know a parameter (a local LLM server, an older
    model) answers 400 naming it; the turn then stops sending it and tries again,
    so missing capabilities degrade quietly.
    """

    thinking: bool = False
    """Send ``thinking={"type": "adaptive", "display": "summarized"}``."""
    effort: str | None = None
    """Send ``output_config={"effort": ...}``."""
    prompt_cache: bool = True
    """Send ``cache_control`` breakpoints."""

    def degrade(self, exc: Exception) -> bool:
        """Stop sending what a 400 complains about.

        Args:
            exc: The failed call's error.

        Returns:
            True when something was dropped and the call should go again.
        """
        if not isinstance(exc, anthropic.APIStatusError) or exc.status_code != 400:
            return False
        words = str(exc.api_message or exc.message).lower()
        if not _REFUSES_A_PARAMETER.search(words):
            return False  # a 400 about something else (content order, size) is a real error
        dropped = None
        if self.thinking and "thinking" in words:
            self.thinking, dropped = False, "thinking"
        elif self.effort is not None and ("effort" in words or "output_config" in words):
            self.effort, dropped = None, "output_config.effort"
        elif self.prompt_cache and "cache_control" in words:
            self.prompt_cache, dropped = False, "cache_control"
        if dropped is None:
            return False
        _log.warning(
            "the endpoint refuses %s; not sending it again this session: %s", dropped, words
        )
        return True


_REFUSES_A_PARAMETER = re.compile(
    r"extra inputs are not permitted|not supported|unsupported|not allowed|unknown (field|param)"
    r"|unrecognized|does not support|invalid (field|param)"
)
"""How an endpoint says it does not take a request field at all."""


def capabilities_for(endpoints: Endpoints, choice: ModelChoice) -> ModelCapabilities:
    """What to send a model, from its listed (or known) capabilities and the settings.

    Args:
        endpoints: The configured endpoint (thinking on/off, effort).
        choice: The model's capabilities.

    Returns:
        The capabilities.
    """
    thinking = bool(endpoints.thinking and choice.adaptive_thinking)
    effort = endpoints.effort
    if effort is not None and not (effort in choice.efforts or (thinking and not choice.efforts)):
        effort = None
    return ModelCapabilities(thinking=thinking, effort=effort)


class PersonaSession:
    """One logged-in persona. Create with ``PersonaSession.login``.

    One turn at a time per session; run several sessions (one per persona) in
    parallel threads for a comparison.
    """

    def __init__(
        self,
        endpoints: Endpoints,
        client: PlatformClient,
        *,
        audit: AuditLog | None,
        limits: TurnLimits,
    ) -> None:
        self.endpoints = endpoints
        self.client = client
        self.audit = audit
        self.limits = limits
        self.username = client.username
        self.display_name = client.display_name or client.username
        self.tools = build_tools(client, client.username)
        self.system_prompt = load_system_prompt()
        self.model_http = AbortableHttpClient(timeout=limits.model_timeout_s)
        # The turn retries model calls itself, with the SDK's policy (statuses,
        # retry-after, backoff), so that a wait is announced and Stop ends it.
        self.model = anthropic.Anthropic(
            api_key=endpoints.api_key,
            base_url=endpoints.model_base_url,
            timeout=limits.model_timeout_s,
            max_retries=0,
            http_client=self.model_http,
        )
        self.model_name, self.model_choice = self._choose_model()
        self.capabilities = capabilities_for(endpoints, self.model_choice)
        budget = endpoints.max_tokens or limits.max_tokens
        if self.model_choice.max_tokens:
            budget = min(budget, int(self.model_choice.max_tokens))
        self.max_tokens = budget
        """Output budget per model call (thinking plus answer)."""
        self.threads = make_threads(self)
        self._turn_lock = threading.Lock()
        self._pending_model: dict[str, Any] | None = None

    @property
    def busy(self) -> bool:
        """True while a turn of this session runs (one at a time per session)."""
        return self._turn_lock.locked()

    def use_model(
        self, model: str | None, *, max_tokens: int | None = None, effort: str | None = None
    ) -> str:
        """Switch this session to another model of the same endpoint (between turns).

        Args:
            model: The model id, or None for the newest Sonnet the endpoint lists.
            max_tokens: A new output budget, or None to keep the default.
            effort: A thinking effort, or None for the model's default.

        Returns:
            The model now in use (the old one while a turn runs: the switch then
            waits for that turn to end, so no turn changes model midway).
        """
        if self.busy:
            self._pending_model = {"model": model, "max_tokens": max_tokens, "effort": effort}
            return self.model_name
        from dataclasses import replace

        self.endpoints = replace(
            self.endpoints,
            model=model or self.endpoints.model,
            model_chosen=model is not None,
            max_tokens=max_tokens,
            effort=effort,
        )
        self.model_name, self.model_choice = self._choose_model()
        self.capabilities = capabilities_for(self.endpoints, self.model_choice)
        budget = self.endpoints.max_tokens or self.limits.max_tokens
        if self.model_choice.max_tokens:
            budget = min(budget, int(self.model_choice.max_tokens))
        self.max_tokens = budget
        self.threads = make_threads(self)
        return self.model_name

    def _choose_model(self) -> tuple[str, ModelChoice]:
        endpoints = self.endpoints
        if endpoints.offline_model:
            return endpoints.model, known_choice(endpoints.model)
        return resolve_model(self.model, endpoints.model if endpoints.model_chosen else None)

    @property
    def model_label(self) -> str:
        """How the model in use is named to people."""
        return OFFLINE_MODEL_LABEL if self.endpoints.offline_model else self.model_name

    @classmethod
    def login(
        cls,
        endpoints: Endpoints,
        username: str,
        password: str,
        *,
        audit_path: Path | None = None,
        audit: bool = True,
        limits: TurnLimits | None = None,
        platform_timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> PersonaSession:
        """Log in to the platform as a person (never as an administrator).

        Args:
            endpoints: Platform and model.
            username: Login name.
            password: Password.
            audit_path: Local audit log file (default under the user data dir).
            audit: False to keep no local audit log.
            limits: Timeouts and bounds of turns.
            platform_timeout_s: Timeout of every platform call.

        Returns:
            The session.

        Raises:
            PlatformAuthError: Credentials refused.
            PlatformNetworkError: The platform is unreachable.
            AdminRefusedError: The account is an administrator.
        """
        client = PlatformClient(endpoints.ontul_url, username, password, timeout=platform_timeout_s)
        try:
            client.login()
        except BaseException:
            client.close()  # a refused or failed login keeps no connection open
            raise
        if client.is_admin:
            client.close()
            raise AdminRefusedError(
                f"{username} is an administrator account; RegDesk runs questions only as "
                "ordinary people so that the platform's policies apply"
            )
        log = AuditLog(audit_path) if audit else None
        return cls(endpoints, client, audit=log, limits=limits or TurnLimits())

    def run_turn(
        self,
        question: str,
        *,
        approver: Approver,
        cancel: CancelToken,
        history: list[tuple[str, str]] | None = None,
    ) -> Iterator[AgentEvent]:
        """Ask one question as this persona.

        Args:
            question: The question.
            approver: Asked before any write; may block.
            cancel: Cancellation token for this turn.
            history: Earlier (question, answer) pairs.

        Returns:
            A generator of the turn's events.
        """
        return self._one_turn_at_a_time(
            run_turn(self, question, approver=approver, cancel=cancel, history=history)
        )

    def _one_turn_at_a_time(self, turn: Iterator[AgentEvent]) -> Iterator[AgentEvent]:
        """Run ``turn`` holding the session's turn lock; a second concurrent turn is refused.

        Two turns on one session would share its sockets (Stop on one would cut
        the other) and its thread state, so the second one ends at once with a
        clear failure instead.
        """
        if not self._turn_lock.acquire(blocking=False):
            yield TurnFailed("refused", f"{self.username} is already running a turn; wait for it")
            return
        try:
            yield from turn
        finally:
            self._turn_lock.release()
            pending, self._pending_model = self._pending_model, None
            if pending is not None:
                self.use_model(**pending)

    def close(self) -> None:
        """Release HTTP connections."""
        self.client.close()
        self.model_http.close()
