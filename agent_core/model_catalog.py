"""Which model to use, what it can do, and what its tokens cost.

Models retire, so no model name is hard-coded: the default is the newest Sonnet
the endpoint's model list (``GET /v1/models``, ``client.models.list()``) returns.
When the endpoint has no model list (the offline model, a local LLM server), the
name configured by the person is used, else the fallback in
``resources/models.json``. That file also holds prices per model (for the cost
estimate) and the capabilities of known models for endpoints that list none.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import anthropic

    from agent_core.events import Usage

MODELS_PATH = Path(__file__).resolve().parent.parent / "resources" / "models.json"
"""The model resource: fallback model, default output budget, prices."""

BUILT_IN_FALLBACK = "claude-sonnet-5-5"
"""Used only when ``resources/models.json`` cannot be read."""

_log = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def model_resource() -> dict[str, Any]:
    """The parsed ``resources/models.json`` (an empty table when it is missing).

    Returns:
        The resource as a dict.
    """
    try:
        data = json.loads(MODELS_PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        _log.warning("cannot read %s: %s", MODELS_PATH, exc)
        return {"fallback_model": BUILT_IN_FALLBACK, "models": {}}
    return data if isinstance(data, dict) else {"models": {}}


def fallback_model() -> str:
    """The model used when the endpoint lists none and nobody chose one."""
    return str(model_resource().get("fallback_model") or BUILT_IN_FALLBACK)


def default_max_tokens() -> int:
    """The default output budget per model call (thinking plus answer)."""
    try:
        return max(1024, int(model_resource().get("default_max_tokens") or 16000))
    except (TypeError, ValueError):
        return 16000


def _known(model: str) -> dict[str, Any]:
    models = model_resource().get("models") or {}
    entry = models.get(model)
    if entry is None:  # dated ids such as claude-sonnet-5-5-20261001 share their base's entry
        entry = next((v for k, v in models.items() if model.startswith(k + "-")), None)
    return entry if isinstance(entry, dict) else {}


@dataclass(frozen=True)
class ModelChoice:
    """One model an endpoint offers."""

    id: str
    """The model id sent with requests."""
    display_name: str
    """A human-readable name (the id when the endpoint gives none)."""
    created_at: str = ""
    """ISO release time, for ordering (newest first)."""
    line: str | None = None
    """sonnet, opus, haiku, ... when known."""
    lifecycle: str = "active"
    """active, deprecated or retired."""
    max_tokens: int | None = None
    """The largest ``max_tokens`` the model accepts, when known."""
    adaptive_thinking: bool | None = None
    """True when the model accepts ``thinking={"type": "adaptive"}``; None when unknown."""
    efforts: tuple[str, ...] = ()
    """Effort levels the model accepts (empty when unknown or unsupported)."""


def _supported(value: Any) -> bool:
    return bool(getattr(value, "supported", False)) if value is not None else False


def _choice_from_info(info: Any) -> ModelChoice:
    """A ``ModelChoice`` from the SDK's ``ModelInfo`` (tolerant of missing fields)."""
    model_id = str(getattr(info, "id", "") or "")
    known = _known(model_id)
    caps = getattr(info, "capabilities", None)
    adaptive: bool | None = None
    efforts: tuple[str, ...] = ()
    if caps is not None:
        thinking = getattr(caps, "thinking", None)
        types = getattr(thinking, "types", None)
        adaptive = _supported(getattr(types, "adaptive", None)) if types is not None else None
        effort = getattr(caps, "effort", None)
        if _supported(effort):
            efforts = tuple(
                level
                for level in ("low", "medium", "high", "xhigh", "max")
                if _supported(getattr(effort, level, None))
            )
    elif known:
        adaptive = known.get("thinking") == "adaptive"
    created = getattr(info, "created_at", None)
    created_text = created.isoformat() if isinstance(created, datetime) else str(created or "")
    line = getattr(info, "line", None) or known.get("line")
    if line is None and "sonnet" in model_id:
        line = "sonnet"
    return ModelChoice(
        id=model_id,
        display_name=str(
            getattr(info, "display_name", "") or known.get("display_name") or model_id
        ),
        created_at=created_text,
        line=str(line) if line else None,
        lifecycle=str(getattr(info, "lifecycle", None) or "active"),
        max_tokens=getattr(info, "max_tokens", None) or known.get("max_tokens"),
        adaptive_thinking=adaptive,
        efforts=efforts,
    )


def known_choice(model: str) -> ModelChoice:
    """What the resource file knows of a model (for endpoints without a model list).

    Args:
        model: The model id.

    Returns:
        A choice; capabilities None when the model is not in the resource.
    """
    known = _known(model)
    thinking = known.get("thinking") if known else None
    return ModelChoice(
        id=model,
        display_name=str(known.get("display_name") or model),
        line=known.get("line"),
        lifecycle="retired" if known.get("retired") else "active",
        max_tokens=known.get("max_tokens"),
        adaptive_thinking=(thinking == "adaptive") if known else None,
    )


_cache_lock = threading.Lock()
_listed: dict[str, tuple[list[ModelChoice] | None, float]] = {}
"""Per endpoint and key: the model list (None: the endpoint has none) and when it was asked."""
_RETRY_LIST_AFTER_S = 60.0
"""A failed listing is asked again after this long; a successful one is kept."""


def _cache_key(client: anthropic.Anthropic) -> str:
    key = hashlib.sha256(str(client.api_key or "").encode()).hexdigest()[:16]
    return f"{client.base_url}|{key}"


def list_models(client: anthropic.Anthropic, *, refresh: bool = False) -> list[ModelChoice] | None:
    """The endpoint's models, newest first; None when it has no model list.

    Any failure (404 from an endpoint without ``/v1/models``, a rejected key, an
    unreachable endpoint, a body in another format) counts as "no model list":
    the caller degrades quietly to the configured name. A list is cached per
    endpoint and key for the process; a failure only for a minute.

    Args:
        client: An SDK client for the endpoint.
        refresh: Ask again even when an answer is cached.

    Returns:
        The models, or None.
    """
    key = _cache_key(client)
    with _cache_lock:
        cached = _listed.get(key)
        if not refresh and cached is not None:
            choices_then, asked_at = cached
            # a failure may be passing (a flaky first login): ask again after a while
            if choices_then is not None or time.monotonic() - asked_at < _RETRY_LIST_AFTER_S:
                return choices_then
    try:
        page = client.with_options(max_retries=1, timeout=10.0).models.list(limit=100)
        infos = list(page)
        choices = [_choice_from_info(info) for info in infos if getattr(info, "id", None)]
    except Exception as exc:  # an endpoint without a model list is normal (offline, local LLMs)
        _log.info("no model list from %s: %s", client.base_url, exc)
        choices = None
    if choices is not None:
        choices.sort(key=lambda c: c.created_at, reverse=True)
    with _cache_lock:
        _listed[key] = (choices, time.monotonic())
    return choices


def newest_sonnet(models: list[ModelChoice]) -> ModelChoice | None:
    """The newest active (else deprecated) Sonnet of a model list.

    Args:
        models: From :func:`list_models`.

    Returns:
        The model, or None when the list has no usable Sonnet.
    """
    for lifecycle in ("active", "deprecated"):
        sonnets = [m for m in models if m.line == "sonnet" and m.lifecycle == lifecycle]
        if sonnets:
            return max(sonnets, key=lambda m: m.created_at)
    return None


def resolve_model(client: anthropic.Anthropic, configured: str | None) -> tuple[str, ModelChoice]:
    """The model a session uses and what it can do.

    Args:
        client: An SDK client for the endpoint.
        configured: The model the person chose (environment, Settings, ``--model``),
            or None for the default.

    Returns:
        (model id, its capabilities).
    """
    models = list_models(client)
    if configured:
        listed = next((m for m in models or [] if m.id == configured), None)
        return configured, listed or known_choice(configured)
    if models:
        best = newest_sonnet(models)
        if best is not None:
            return best.id, best
    name = fallback_model()
    return name, known_choice(name)


def forget_model_lists() -> None:
    """Drop the cached model lists (Settings changed the endpoint; tests)."""
    with _cache_lock:
        _listed.clear()


def prices(model: str) -> dict[str, float] | None:
    """USD per million tokens of a model, or None when it has no price on file."""
    table = _known(model).get("prices")
    return dict(table) if isinstance(table, dict) else None


def estimate_cost(model: str, usage: Usage) -> float | None:
    """The estimated cost of some usage in USD (5-minute cache writes).

    Args:
        model: The model id.
        usage: Tokens.

    Returns:
        The cost, or None when the model has no price on file.
    """
    table = prices(model)
    if not table:
        return None
    cost = (
        usage.input_tokens * table.get("input", 0.0)
        + usage.output_tokens * table.get("output", 0.0)
        + usage.cache_read_input_tokens * table.get("cache_read", 0.0)
        + usage.cache_creation_input_tokens * table.get("cache_write_5m", 0.0)
    ) / 1_000_000
    return round(cost, 6)
