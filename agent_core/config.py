"""Where the two services are and which model to use.

The model endpoint is any server speaking the Messages API: Claude (an API key),
a local LLM behind Ollama or llama.cpp's server (a base URL, a model name, a key
only if it wants one), or the offline planner started on loopback. The
environment wins over the user's settings: ``ANTHROPIC_BASE_URL``,
``ANTHROPIC_API_KEY``, ``REGDESK_MODEL``, ``REGDESK_MAX_TOKENS``,
``REGDESK_EFFORT`` and ``REGDESK_THINKING`` (``off`` sends no thinking settings).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from agent_core.model_catalog import fallback_model

OFFLINE_MODEL_NAME = "regdesk-offline-planner"
"""Model name the offline demo model answers to."""

OFFLINE_MODEL_LABEL = "Offline demo model (deterministic, no LLM)"
"""How the UI names the offline model, so nobody mistakes it for an LLM."""

DEFAULT_CLAUDE_MODEL = fallback_model()
"""The fallback model (``resources/models.json``): used when nobody chose a model and
the endpoint lists none. With a model list, the newest Sonnet listed is used instead."""

EFFORT_CHOICES = ("low", "medium", "high", "xhigh", "max")
"""Effort levels of the Messages API's ``output_config.effort``."""

NO_KEY = "no-key"
"""Sent as the API key to an endpoint configured without one (local LLM servers)."""


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
    model_chosen: bool = True
    """False when ``model`` is only the fallback: the session then takes the newest
    Sonnet of the endpoint's model list."""
    max_tokens: int | None = None
    """Output budget per model call (thinking plus answer); None for the default."""
    effort: str | None = None
    """``output_config.effort`` for models that support it; None for the model's default."""
    thinking: bool = True
    """Ask for adaptive thinking with summarized display where the model supports it."""

    @property
    def offline_model(self) -> bool:
        """True when the model is the offline planner rather than Claude."""
        return self.model == OFFLINE_MODEL_NAME

    @property
    def model_label(self) -> str:
        """Human-readable name of the model in use."""
        return OFFLINE_MODEL_LABEL if self.offline_model else self.model


def _int_or_none(raw: str | int | None) -> int | None:
    try:
        value = int(raw) if raw not in (None, "") else None
    except (TypeError, ValueError):
        return None
    return value if value is None or value > 0 else None


def remote_model_configured(
    configured_api_key: str | None = None, configured_base_url: str | None = None
) -> bool:
    """True when a model endpoint other than the offline planner is configured.

    Args:
        configured_api_key: A key from the user's keyring.
        configured_base_url: A Messages endpoint URL from the user's settings.

    Returns:
        Whether the offline model need not start.
    """
    return bool(
        os.environ.get("ANTHROPIC_API_KEY")
        or os.environ.get("ANTHROPIC_BASE_URL")
        or configured_api_key
        or configured_base_url
    )


def endpoints_from_env(
    ontul_url: str | None,
    model_url: str | None,
    ground_truth: dict[str, Any] | None = None,
    *,
    configured_ontul_url: str | None = None,
    configured_api_key: str | None = None,
    configured_base_url: str | None = None,
    configured_model: str | None = None,
    configured_max_tokens: int | None = None,
    configured_effort: str | None = None,
) -> Endpoints:
    """Combine the environment, the user's settings and embedded service URLs.

    The environment wins over settings, and both win over the embedded services.

    Args:
        ontul_url: URL of an embedded platform, used when no platform is configured.
        model_url: URL of the embedded offline model, used when no API key is configured.
        ground_truth: The embedded demo organisation's facts, if any.
        configured_ontul_url: A platform URL from the user's settings.
        configured_api_key: A Claude API key from the user's keyring.
        configured_base_url: A Messages endpoint URL from the user's settings.
        configured_model: A model name from the user's settings.
        configured_max_tokens: An output budget from the user's settings.
        configured_effort: An effort level from the user's settings.

    Returns:
        Where the platform and the model are.
    """
    chosen_ontul = os.environ.get("ONTUL_URL") or configured_ontul_url or None
    api_key = os.environ.get("ANTHROPIC_API_KEY") or configured_api_key or None
    platform = chosen_ontul or ontul_url
    if platform is None:
        raise ValueError("no platform URL: set ONTUL_URL or start the embedded platform")
    truth = None if chosen_ontul else ground_truth
    base_url = os.environ.get("ANTHROPIC_BASE_URL") or configured_base_url or None
    max_tokens = _int_or_none(os.environ.get("REGDESK_MAX_TOKENS")) or _int_or_none(
        configured_max_tokens
    )
    effort = os.environ.get("REGDESK_EFFORT") or configured_effort or None
    thinking = os.environ.get("REGDESK_THINKING", "auto").strip().lower() not in ("off", "0", "no")
    if api_key or base_url:
        chosen_model = os.environ.get("REGDESK_MODEL") or configured_model or None
        return Endpoints(
            ontul_url=platform.rstrip("/"),
            model_base_url=base_url.rstrip("/") if base_url else None,
            api_key=api_key or NO_KEY,
            model=chosen_model or DEFAULT_CLAUDE_MODEL,
            embedded=False,
            ground_truth=truth,
            model_chosen=chosen_model is not None,
            max_tokens=max_tokens,
            effort=effort if effort in EFFORT_CHOICES else None,
            thinking=thinking,
        )
    if model_url is None:
        raise ValueError(
            "no model: set ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL) or start the offline model"
        )
    return Endpoints(
        ontul_url=platform.rstrip("/"),
        model_base_url=model_url,
        api_key="offline",
        model=OFFLINE_MODEL_NAME,
        embedded=chosen_ontul is None,
        ground_truth=truth,
        max_tokens=max_tokens,
    )
