"""Where the two services are and which model to use."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

OFFLINE_MODEL_NAME = "regdesk-offline-planner"
"""Model name the offline demo model answers to."""

OFFLINE_MODEL_LABEL = "Offline demo model (deterministic, no LLM)"
"""How the UI names the offline model, so nobody mistakes it for an LLM."""

DEFAULT_CLAUDE_MODEL = "claude-sonnet-4-5"
"""Claude model used when an API key is present and REGDESK_MODEL is not set."""


@dataclass(frozen=True)
class Endpoints:
    """The platform and model a session talks to."""

    ontul_url: str
    """Base URL of the Ontul platform, e.g. ``http://127.0.0.1:8765``."""
    model_base_url: str | None
    """Messages endpoint base URL; None means Anthropic's default (Claude)."""
    api_key: str = field(repr=False)
    """API key for the model endpoint (any non-empty string for the offline model)."""
    model: str
    """Model name sent with every request."""
    embedded: bool = False
    """True when both services are the embedded stand-ins on loopback."""
    ground_truth: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    """The demo organisation's facts, when the platform is the embedded one."""

    @property
    def offline_model(self) -> bool:
        """True when the model is the offline planner rather than Claude."""
        return self.model == OFFLINE_MODEL_NAME

    @property
    def model_label(self) -> str:
        """Human-readable name of the model in use."""
        return OFFLINE_MODEL_LABEL if self.offline_model else self.model


def endpoints_from_env(
    ontul_url: str | None,
    model_url: str | None,
    ground_truth: dict[str, Any] | None = None,
    *,
    configured_ontul_url: str | None = None,
    configured_api_key: str | None = None,
) -> Endpoints:
    """Combine the environment, the user's settings and embedded service URLs.

    The environment wins over settings, and both win over the embedded services.

    Args:
        ontul_url: URL of an embedded platform, used when no platform is configured.
        model_url: URL of the embedded offline model, used when no API key is configured.
        ground_truth: The embedded demo organisation's facts, if any.
        configured_ontul_url: A platform URL from the user's settings.
        configured_api_key: A Claude API key from the user's keyring.

    Returns:
        Where the platform and the model are.
    """
    chosen_ontul = os.environ.get("ONTUL_URL") or configured_ontul_url or None
    api_key = os.environ.get("ANTHROPIC_API_KEY") or configured_api_key or None
    platform = chosen_ontul or ontul_url
    if platform is None:
        raise ValueError("no platform URL: set ONTUL_URL or start the embedded platform")
    truth = None if chosen_ontul else ground_truth
    if api_key:
        return Endpoints(
            ontul_url=platform.rstrip("/"),
            model_base_url=os.environ.get("ANTHROPIC_BASE_URL"),
            api_key=api_key,
            model=os.environ.get("REGDESK_MODEL", DEFAULT_CLAUDE_MODEL),
            embedded=False,
            ground_truth=truth,
        )
    if model_url is None:
        raise ValueError("no model: set ANTHROPIC_API_KEY or start the offline model")
    return Endpoints(
        ontul_url=platform.rstrip("/"),
        model_base_url=model_url,
        api_key="offline",
        model=OFFLINE_MODEL_NAME,
        embedded=chosen_ontul is None,
        ground_truth=truth,
    )
