"""Fixtures for the Claude behaviour tests: the real embedded platform, a scripted Messages server.

The platform is the embedded one on 127.0.0.1 (the root conftest's ``ontul_server``);
the model is :class:`tests.claude.scripted_server.ScriptedMessages` speaking the
Messages API's real wire format over real HTTP. Retries wait 10 ms at most here
(``REGDESK_RETRY_BASE_S``), and ``retry-after`` is scripted as 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from agent_core.config import Endpoints
from agent_core.model_catalog import forget_model_lists
from tests.claude.scripted_server import ScriptedMessages

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from embedded.ontul.server import OntulServer

API_KEY = "sk-ant-test-key"


@pytest.fixture(autouse=True)
def _fast_retries(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("REGDESK_RETRY_BASE_S", "0.001")
    monkeypatch.setenv("REGDESK_RETRY_MAX_S", "0.01")
    for name in (
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "REGDESK_MODEL",
        "REGDESK_MAX_TOKENS",
        "REGDESK_EFFORT",
        "REGDESK_THINKING",
        "REGDESK_THREADS",
    ):
        monkeypatch.delenv(name, raising=False)
    forget_model_lists()
    yield
    forget_model_lists()


@pytest.fixture
def claude() -> Iterator[Callable[..., ScriptedMessages]]:
    """``claude(models=..., planner=...)``: a started scripted Messages server."""
    started: list[ScriptedMessages] = []

    def make(**kwargs: Any) -> ScriptedMessages:
        server = ScriptedMessages(**kwargs).__enter__()
        started.append(server)
        return server

    yield make
    for server in started:
        server.__exit__(None, None, None)


@pytest.fixture
def endpoints_for(
    ontul_server: OntulServer, ground_truth: dict[str, Any]
) -> Callable[..., Endpoints]:
    """``endpoints_for(server, model=None, **fields)``: Endpoints of the platform and the server."""

    def make(server: ScriptedMessages, model: str | None = None, **fields: Any) -> Endpoints:
        return Endpoints(
            ontul_url=ontul_server.url,
            model_base_url=server.url,
            api_key=API_KEY,
            model=model or "claude-sonnet-5-5",
            embedded=True,
            ground_truth=ground_truth,
            model_chosen=model is not None,
            **fields,
        )

    return make
