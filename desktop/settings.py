"""UI preferences kept in ``QSettings`` (never secrets: those go to the keyring)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings

if TYPE_CHECKING:
    from desktop.credentials import CredentialStore

MODEL_CHOICES = ("offline", "claude", "endpoint")
"""Which model the app talks to: the offline planner, Claude (Anthropic's API), or any
other endpoint that speaks the Messages API (Ollama, llama.cpp's server, a gateway)."""

EFFORT_SETTING_CHOICES = ("", "low", "medium", "high", "xhigh", "max")
"""Thinking effort: '' leaves the model's default."""

LANGUAGE_CHOICES = ("system", "en", "ko")
"""UI language: follow the system, English, or Korean."""

THEME_CHOICES = ("system", "light", "dark")
"""Colour scheme: follow the system, or force light or dark."""


def _default_store() -> QSettings:
    data_dir = os.environ.get("REGDESK_DATA_DIR")
    if data_dir:
        return QSettings(str(Path(data_dir) / "settings.ini"), QSettings.Format.IniFormat)
    return QSettings("RegDesk", "RegDesk")


class AppSettings:
    """Typed access to the app's UI state in ``QSettings``.

    Unknown or corrupt values read back as the default, so a hand-edited
    settings file can never stop the app from starting.

    Args:
        settings: The store to use; defaults to ``QSettings("RegDesk", "RegDesk")``,
            or ``settings.ini`` in ``$REGDESK_DATA_DIR`` when that is set (a throw-away
            data directory keeps the UI settings too). Tests pass one with an INI file.
    """

    def __init__(self, settings: QSettings | None = None) -> None:
        self._settings = settings if settings is not None else _default_store()

    @property
    def qsettings(self) -> QSettings:
        """The underlying ``QSettings`` (for window geometry and similar UI state)."""
        return self._settings

    @property
    def ontul_url(self) -> str:
        """Platform URL; ``''`` means start the embedded platform."""
        return str(self._settings.value("platform/ontul_url", "") or "").strip()

    @ontul_url.setter
    def ontul_url(self, value: str) -> None:
        self._settings.setValue("platform/ontul_url", value.strip().rstrip("/"))

    @property
    def model(self) -> str:
        """``'offline'`` or ``'claude'``."""
        return self._choice("model/choice", MODEL_CHOICES)

    @model.setter
    def model(self, value: str) -> None:
        self._set_choice("model/choice", value, MODEL_CHOICES)

    @property
    def model_base_url(self) -> str:
        """Messages endpoint URL for ``endpoint``; '' means Anthropic's API."""
        return str(self._settings.value("model/base_url", "") or "").strip()

    @model_base_url.setter
    def model_base_url(self, value: str) -> None:
        self._settings.setValue("model/base_url", value.strip().rstrip("/"))

    @property
    def model_name(self) -> str:
        """The model chosen in the picker; '' means the newest Sonnet the endpoint lists."""
        return str(self._settings.value("model/name", "") or "").strip()

    @model_name.setter
    def model_name(self, value: str) -> None:
        self._settings.setValue("model/name", value.strip())

    @property
    def max_tokens(self) -> int:
        """Output budget per model call (thinking plus answer); 0 means the default (16k)."""
        try:
            value = int(str(self._settings.value("model/max_tokens", 0) or 0))
        except (TypeError, ValueError):
            return 0
        return value if value > 0 else 0

    @max_tokens.setter
    def max_tokens(self, value: int) -> None:
        self._settings.setValue("model/max_tokens", max(0, int(value)))

    @property
    def effort(self) -> str:
        """Thinking effort ('' for the model's default)."""
        value = str(self._settings.value("model/effort", "") or "")
        return value if value in EFFORT_SETTING_CHOICES else ""

    @effort.setter
    def effort(self, value: str) -> None:
        self._set_choice("model/effort", value, EFFORT_SETTING_CHOICES)

    @property
    def language(self) -> str:
        """``'system'``, ``'en'`` or ``'ko'``."""
        return self._choice("ui/language", LANGUAGE_CHOICES)

    @language.setter
    def language(self, value: str) -> None:
        self._set_choice("ui/language", value, LANGUAGE_CHOICES)

    @property
    def theme(self) -> str:
        """``'system'``, ``'light'`` or ``'dark'``."""
        return self._choice("ui/theme", THEME_CHOICES)

    @theme.setter
    def theme(self, value: str) -> None:
        self._set_choice("ui/theme", value, THEME_CHOICES)

    @property
    def text_zoom(self) -> float:
        """Text zoom of the chat, tool panel and comparison strip (1.0: the UI's size)."""
        from desktop.text_zoom import clamp_zoom

        try:
            return clamp_zoom(float(str(self._settings.value("ui/text_zoom", 1.0) or 1.0)))
        except (TypeError, ValueError):
            return 1.0

    @text_zoom.setter
    def text_zoom(self, value: float) -> None:
        from desktop.text_zoom import clamp_zoom

        self._settings.setValue("ui/text_zoom", round(clamp_zoom(value), 3))

    @property
    def enter_sends(self) -> bool:
        """Enter sends the question (Shift+Enter breaks the line); off: Ctrl+Enter sends."""
        return str(self._settings.value("ui/enter_sends", "true")).lower() not in ("false", "0")

    @enter_sends.setter
    def enter_sends(self, value: bool) -> None:
        self._settings.setValue("ui/enter_sends", "true" if value else "false")

    @property
    def last_username(self) -> str:
        """The user name last signed in with (a name, not a secret)."""
        return str(self._settings.value("login/last_username", "") or "")

    @last_username.setter
    def last_username(self, value: str) -> None:
        self._settings.setValue("login/last_username", value)

    def sync(self) -> None:
        """Write pending changes to permanent storage."""
        self._settings.sync()

    def _choice(self, key: str, choices: tuple[str, ...]) -> str:
        value = str(self._settings.value(key, choices[0]) or choices[0])
        return value if value in choices else choices[0]

    def _set_choice(self, key: str, value: str, choices: tuple[str, ...]) -> None:
        if value not in choices:
            raise ValueError(f"{key} must be one of {', '.join(choices)}, not {value!r}")
        self._settings.setValue(key, value)


def configured_services(
    settings: AppSettings | None = None, credentials: CredentialStore | None = None
) -> tuple[str | None, str | None]:
    """The platform URL and Claude API key the user chose in the settings dialog.

    Read once at start-up: a changed server or model applies on the next start.

    Args:
        settings: The UI settings; default the app's own.
        credentials: Where the API key lives; default the OS keyring.

    Returns:
        ``(ontul_url or None, api_key or None)``; the key only when Claude or another
        Messages endpoint is chosen.
    """
    from desktop.credentials import CredentialStore

    settings = settings or AppSettings()
    ontul_url = settings.ontul_url or None
    if settings.model not in ("claude", "endpoint"):
        return ontul_url, None
    store = credentials or CredentialStore()
    return ontul_url, store.load_api_key() or None


def configured_model(settings: AppSettings | None = None) -> dict[str, Any]:
    """The model settings as ``endpoints_from_env`` keyword arguments.

    Args:
        settings: The UI settings; default the app's own.

    Returns:
        ``configured_base_url``, ``configured_model``, ``configured_max_tokens`` and
        ``configured_effort`` (None where the default applies; all None offline).
    """
    settings = settings or AppSettings()
    chosen = settings.model
    remote = chosen in ("claude", "endpoint")
    return {
        "configured_base_url": (settings.model_base_url or None) if chosen == "endpoint" else None,
        "configured_model": (settings.model_name or None) if remote else None,
        "configured_max_tokens": settings.max_tokens or None,
        "configured_effort": (settings.effort or None) if remote else None,
    }
