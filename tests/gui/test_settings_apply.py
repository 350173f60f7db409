"""The server and model chosen in the settings dialog decide where the app connects."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import QSettings

from agent_core.config import DEFAULT_CLAUDE_MODEL, OFFLINE_MODEL_NAME, endpoints_from_env
from desktop.credentials import CredentialStore
from desktop.settings import AppSettings, configured_services

if TYPE_CHECKING:
    from pathlib import Path

    from tests.gui.keyrings import DictKeyring

EMBEDDED = "http://127.0.0.1:1111"
MODEL = "http://127.0.0.1:2222"


@pytest.fixture
def settings(tmp_path: Path) -> AppSettings:
    return AppSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))


@pytest.fixture(autouse=True)
def _no_service_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ONTUL_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "REGDESK_MODEL"):
        monkeypatch.delenv(name, raising=False)


def test_defaults_keep_the_embedded_services(
    settings: AppSettings,
    test_keyring: DictKeyring,
) -> None:
    ontul, key = configured_services(settings, CredentialStore())
    endpoints = endpoints_from_env(
        EMBEDDED, MODEL, {"today": "x"}, configured_ontul_url=ontul, configured_api_key=key
    )
    assert (ontul, key) == (None, None)
    assert endpoints.ontul_url == EMBEDDED
    assert endpoints.model == OFFLINE_MODEL_NAME
    assert endpoints.embedded and endpoints.ground_truth == {"today": "x"}


def test_chosen_server_and_claude_key_are_used(
    settings: AppSettings,
    test_keyring: DictKeyring,
) -> None:
    settings.ontul_url = "https://ontul.example.com/"
    settings.model = "claude"
    store = CredentialStore()
    store.save_api_key("sk-test-123")
    ontul, key = configured_services(settings, store)
    endpoints = endpoints_from_env(
        EMBEDDED, None, {"today": "x"}, configured_ontul_url=ontul, configured_api_key=key
    )
    assert endpoints.ontul_url == "https://ontul.example.com"
    assert endpoints.model == DEFAULT_CLAUDE_MODEL and endpoints.api_key == "sk-test-123"
    assert not endpoints.embedded
    assert endpoints.ground_truth is None  # the demo's facts do not describe a real platform


def test_a_stored_key_is_ignored_while_the_offline_model_is_chosen(
    settings: AppSettings,
    test_keyring: DictKeyring,
) -> None:
    store = CredentialStore()
    store.save_api_key("sk-test-123")
    settings.model = "offline"
    assert configured_services(settings, store) == (None, None)


def test_environment_wins_over_settings(
    settings: AppSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ONTUL_URL", "http://env-ontul:8765")
    endpoints = endpoints_from_env(
        EMBEDDED, MODEL, None, configured_ontul_url="http://settings-ontul:8765"
    )
    assert endpoints.ontul_url == "http://env-ontul:8765"
