"""Settings: the model picker is fed by the endpoint's model list; any endpoint is configurable."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from PySide6.QtCore import QSettings

from agent_core.config import NO_KEY, OFFLINE_MODEL_NAME, endpoints_from_env

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from desktop.settings import AppSettings
    from tests.claude.scripted_server import ScriptedMessages


@pytest.fixture
def settings(tmp_path: Path) -> AppSettings:
    from desktop.settings import AppSettings

    return AppSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))


@pytest.fixture
def keyring_in_memory() -> Iterator[None]:
    import keyring

    from tests.gui.keyrings import DictKeyring

    previous = keyring.get_keyring()
    keyring.set_keyring(DictKeyring())
    yield
    keyring.set_keyring(previous)


@pytest.mark.gui
def test_picker_lists_the_endpoints_models_with_display_names_and_saves_the_choice(
    qtbot: Any,
    claude: Callable[..., ScriptedMessages],
    settings: AppSettings,
    keyring_in_memory: None,
) -> None:
    from desktop.credentials import CredentialStore
    from desktop.settings import configured_model, configured_services
    from desktop.settings_dialog import SettingsDialog

    server = claude()
    dialog = SettingsDialog(settings, CredentialStore())
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData("endpoint"))
    dialog.base_url_edit.setText(server.url)
    dialog.key_edit.setText("sk-ant-test-key")
    dialog.load_models()
    qtbot.waitUntil(lambda: dialog.model_name_combo.count() > 1, timeout=10000)
    labels = [dialog.model_name_combo.itemText(i) for i in range(dialog.model_name_combo.count())]
    assert "Claude Sonnet 5.5 (claude-sonnet-5-5)" in labels
    assert any(label.startswith("Claude Sonnet 5 (") and "deprecated" in label for label in labels)
    dialog.model_name_combo.setCurrentIndex(dialog.model_name_combo.findData("claude-opus-5-5"))
    dialog.max_tokens_spin.setValue(32000)
    dialog.effort_combo.setCurrentIndex(dialog.effort_combo.findData("medium"))
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    model = configured_model(settings)
    assert model == {
        "configured_base_url": server.url,
        "configured_model": "claude-opus-5-5",
        "configured_max_tokens": 32000,
        "configured_effort": "medium",
    }
    _ontul, key = configured_services(settings, CredentialStore())
    endpoints = endpoints_from_env(
        "http://127.0.0.1:1", None, None, configured_api_key=key, **model
    )
    assert endpoints.model_base_url == server.url and endpoints.model == "claude-opus-5-5"
    assert endpoints.max_tokens == 32000 and endpoints.effort == "medium"
    assert endpoints.model_chosen


@pytest.mark.gui
def test_endpoint_without_a_model_list_asks_for_a_typed_name(
    qtbot: Any,
    claude: Callable[..., ScriptedMessages],
    settings: AppSettings,
    keyring_in_memory: None,
) -> None:
    from desktop.credentials import CredentialStore
    from desktop.settings_dialog import SettingsDialog

    server = claude(models=None)
    dialog = SettingsDialog(settings, CredentialStore())
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData("endpoint"))
    dialog.base_url_edit.setText(server.url)
    dialog.load_models()
    qtbot.waitUntil(lambda: "lists no models" in dialog.models_note.text(), timeout=10000)
    dialog.model_name_combo.setEditText("llama3.1:8b")
    dialog.accept()
    assert settings.model == "endpoint" and settings.model_name == "llama3.1:8b"


def test_local_endpoint_needs_no_key_and_environment_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    endpoints = endpoints_from_env(
        "http://127.0.0.1:1",
        "http://127.0.0.1:2",
        None,
        configured_base_url="http://localhost:11434",
        configured_model="qwen3:8b",
    )
    assert endpoints.model_base_url == "http://localhost:11434"
    assert endpoints.api_key == NO_KEY and endpoints.model == "qwen3:8b"
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:8080")
    monkeypatch.setenv("REGDESK_MODEL", "local-model")
    monkeypatch.setenv("REGDESK_MAX_TOKENS", "24000")
    env = endpoints_from_env("http://127.0.0.1:1", "http://127.0.0.1:2", None)
    assert (env.model_base_url, env.model, env.max_tokens) == (
        "http://127.0.0.1:8080",
        "local-model",
        24000,
    )
    monkeypatch.delenv("ANTHROPIC_BASE_URL")
    monkeypatch.delenv("REGDESK_MODEL")
    offline = endpoints_from_env("http://127.0.0.1:1", "http://127.0.0.1:2", None)
    assert offline.model == OFFLINE_MODEL_NAME
