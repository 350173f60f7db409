"""A persona session: one person's login, tools, model client and audit log."""

from __future__ import annotations

from typing import TYPE_CHECKING

import anthropic

from agent_core.audit import AuditLog
from agent_core.errors import AdminRefusedError
from agent_core.model_transport import AbortableHttpClient
from agent_core.platform_client import DEFAULT_TIMEOUT_S, PlatformClient
from agent_core.tools import build_tools
from agent_core.turn import TurnLimits, load_system_prompt, run_turn

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from agent_core.approval import Approver
    from agent_core.cancel import CancelToken
    from agent_core.config import Endpoints
    from agent_core.events import AgentEvent


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
        self.model = anthropic.Anthropic(
            api_key=endpoints.api_key,
            base_url=endpoints.model_base_url,
            timeout=limits.model_timeout_s,
            max_retries=0,
            http_client=self.model_http,
        )

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
        client.login()
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
        return run_turn(self, question, approver=approver, cancel=cancel, history=history)

    def close(self) -> None:
        """Release HTTP connections."""
        self.client.close()
        self.model_http.close()
