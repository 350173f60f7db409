"""Agent-level fault survival: platform restart on the same port, token expiry mid-turn.

The GUI versions of these live in ``tests/gui/test_faults.py``; here the turn
generator is driven directly so the fault lands at an exact point of the turn.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from agent_core.approval import deny_all
from agent_core.cancel import CancelToken
from agent_core.events import AnswerFinished, ToolCallFinished, ToolCallStarted, TurnFailed
from agent_core.scenarios import persona_password
from agent_core.session import PersonaSession

if TYPE_CHECKING:
    from collections.abc import Callable

    from agent_core.events import AgentEvent
    from tests.integration.conftest import Stack

QUESTION = "나 육아휴직 며칠 남았어?"


def _login(stack: Stack, persona: str = "hong", **kwargs: Any) -> PersonaSession:
    password = persona_password(stack.truth, persona)
    return PersonaSession.login(stack.endpoints, persona, password, audit=False, **kwargs)


def test_platform_restarted_on_the_same_port_and_database_serves_the_retry(
    make_stack: Callable[..., Stack],
) -> None:
    from embedded.ontul.server import OntulServer

    stack = make_stack()
    old = stack.services.ontul
    port = int(old.url.rsplit(":", 1)[1])
    session = _login(stack, platform_timeout_s=5)
    events: list[AgentEvent] = []
    for event in session.run_turn(QUESTION, approver=deny_all, cancel=CancelToken()):
        events.append(event)
        if isinstance(event, ToolCallStarted) and old is not None:
            old.stop()
            old = None
            # a killed process resets its sockets; stop() keeps keep-alive handlers
            session.client.abort()
    assert isinstance(events[-1], TurnFailed) and events[-1].failure == "network"

    restarted = OntulServer(stack.db_path, port=port, today=old_today(stack)).start()
    stack.services.ontul = restarted  # stopped with the stack
    assert restarted.url == stack.endpoints.ontul_url
    # the same session retries: new process, new signing key, one re-login
    retry = list(session.run_turn(QUESTION, approver=deny_all, cancel=CancelToken()))
    assert isinstance(retry[-1], AnswerFinished), retry[-1]
    assert str(stack.truth["demo_employee"]["remaining"]) in retry[-1].text
    session.close()


def old_today(stack: Stack) -> Any:
    """The platform date the demo database was built for."""
    from datetime import date

    return date.fromisoformat(stack.truth["today"])


def test_token_expiring_between_tool_calls_is_renewed_mid_turn(
    make_stack: Callable[..., Stack],
) -> None:
    stack = make_stack(token_ttl_s=1)
    session = _login(stack)
    events: list[AgentEvent] = []
    waited = False
    for event in session.run_turn(QUESTION, approver=deny_all, cancel=CancelToken()):
        events.append(event)
        if isinstance(event, ToolCallFinished) and not waited:
            # Expiry is a clock; the generator is paused here, so the next call
            # of this same turn is made with a token that has certainly expired.
            threading.Event().wait(1.5)
            waited = True
    calls = [e for e in events if isinstance(e, ToolCallFinished)]
    assert waited and len(calls) >= 2, "the turn needs a call after the expiry"
    assert isinstance(events[-1], AnswerFinished), events[-1]
    assert all(c.status in ("ok", "empty") for c in calls), [c.error for c in calls]
    assert str(stack.truth["demo_employee"]["remaining"]) in events[-1].text
    session.close()
