"""Passwords go to the keyring only; without one they stay in memory, never on disk."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from typing import TYPE_CHECKING, Any

import keyring
import keyring.backends.fail
import pytest
from PySide6.QtCore import QSettings

from agent_core.errors import AdminRefusedError, PlatformAuthError
from desktop.credentials import CredentialStore
from desktop.history_store import HistoryStore
from desktop.login_dialog import LoginDialog
from desktop.settings import AppSettings

if TYPE_CHECKING:
    from pathlib import Path

    from tests.gui.keyrings import DictKeyring

URL = "http://127.0.0.1:8765"
SECRET = "hong-pw-7c1e9a"


class FakeSession:
    """What a successful login returns here; the dialog only hands it on."""

    def __init__(self, username: str) -> None:
        self.username = username


def _login(url: str, username: str, password: str) -> Any:
    if username == "admin":
        raise AdminRefusedError("admin")
    if password != SECRET:
        raise PlatformAuthError("invalid credentials", 401)
    return FakeSession(username)


def _files_containing(root: Path, needle: str) -> list[Path]:
    data = needle.encode("utf-8")
    return [p for p in root.rglob("*") if p.is_file() and data in p.read_bytes()]


def _sign_in(qtbot: Any, dialog: LoginDialog, user: str, password: str, remember: bool) -> None:
    dialog.user_combo.setCurrentText(user)
    dialog.password_edit.setText(password)
    dialog.remember_check.setChecked(remember)
    dialog.sign_in_button.click()
    qtbot.waitUntil(lambda: not dialog.busy)


def test_store_round_trips_through_the_keyring(test_keyring: DictKeyring) -> None:
    store = CredentialStore()
    assert store.available
    assert store.notice is None
    store.save(URL, "hong", SECRET)
    store.save_api_key("sk-ant-test")
    assert store.load(URL + "/", "hong") == SECRET
    assert store.load(URL, "park") is None
    assert store.load_api_key() == "sk-ant-test"
    assert SECRET in test_keyring.secrets.values()
    store.delete(URL, "hong")
    store.delete(URL, "hong")  # forgetting twice is fine
    assert store.load(URL, "hong") is None


def test_remembered_login_is_in_the_keyring_and_nowhere_on_disk(
    qtbot: Any, test_keyring: DictKeyring, tmp_path: Path
) -> None:
    settings = AppSettings(QSettings(str(tmp_path / "regdesk.ini"), QSettings.Format.IniFormat))
    history = HistoryStore(tmp_path / "history.db")
    dialog = LoginDialog(URL, CredentialStore(), _login, ["hong", "park", "cho"])
    qtbot.addWidget(dialog)
    dialog.show()

    _sign_in(qtbot, dialog, "hong", SECRET, remember=True)

    assert dialog.result() == LoginDialog.DialogCode.Accepted
    assert dialog.session is not None and dialog.session.username == "hong"
    # What the app does next with the session: UI state and a saved turn.
    settings.last_username = "hong"
    settings.sync()
    history.append_turn("hong", "질문", "답", [{"kind": "turn_started"}], 1.0, 2.0, "answered")
    history.close()

    assert test_keyring.secrets == {("regdesk", f"hong@{URL}"): SECRET}
    assert (tmp_path / "regdesk.ini").read_text(encoding="utf-8").count("hong") == 1
    assert _files_containing(tmp_path, SECRET) == []


def test_unchecking_remember_forgets_the_password(qtbot: Any, test_keyring: DictKeyring) -> None:
    store = CredentialStore()
    store.save(URL, "hong", SECRET)
    dialog = LoginDialog(URL, store, _login, ["hong"])
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.user_combo.setCurrentText("hong")
    assert dialog.password_edit.text() == SECRET  # pre-filled from the keyring
    assert dialog.remember_check.isChecked()

    dialog.remember_check.setChecked(False)
    dialog.sign_in_button.click()
    qtbot.waitUntil(lambda: not dialog.busy)

    assert dialog.session is not None
    assert test_keyring.secrets == {}


def test_without_a_keyring_secrets_stay_in_memory_and_off_disk(
    qtbot: Any, no_keyring: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    store = CredentialStore()
    assert not store.available
    assert store.notice is not None and "memory" in store.notice

    dialog = LoginDialog(URL, store, _login, ["hong"])
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.keyring_notice.isVisibleTo(dialog)
    assert dialog.keyring_notice.text() == store.notice
    _sign_in(qtbot, dialog, "hong", SECRET, remember=True)
    store.save_api_key("sk-ant-secret-key")

    assert dialog.session is not None
    assert store.load(URL, "hong") == SECRET  # remembered for this session
    assert store.load_api_key() == "sk-ant-secret-key"
    assert CredentialStore().load(URL, "hong") is None  # ... and for this session only
    assert _files_containing(tmp_path, SECRET) == []
    assert _files_containing(tmp_path, "sk-ant-secret-key") == []


def test_wrong_password_is_shown_inline_and_the_dialog_stays_open(
    qtbot: Any, test_keyring: DictKeyring
) -> None:
    dialog = LoginDialog(URL, CredentialStore(), _login, ["hong"])
    qtbot.addWidget(dialog)
    dialog.show()

    _sign_in(qtbot, dialog, "hong", "wrong", remember=True)

    assert dialog.isVisible()
    assert dialog.session is None
    assert dialog.error_label.isVisibleTo(dialog)
    assert "did not accept" in dialog.error_label.text()
    assert test_keyring.secrets == {}  # a refused password is never remembered

    dialog.password_edit.setText(SECRET)
    dialog.sign_in_button.click()
    qtbot.waitUntil(lambda: dialog.session is not None)
    assert not dialog.isVisible()


def test_admin_account_is_refused_with_an_explanation(
    qtbot: Any, test_keyring: DictKeyring
) -> None:
    dialog = LoginDialog(URL, CredentialStore(), _login)
    qtbot.addWidget(dialog)
    dialog.show()
    _sign_in(qtbot, dialog, "admin", SECRET, remember=False)
    assert dialog.session is None
    assert "administrator" in dialog.error_label.text()


def test_missing_fields_are_flagged_before_any_login(qtbot: Any, test_keyring: DictKeyring) -> None:
    calls: list[str] = []

    def login(url: str, user: str, password: str) -> Any:
        calls.append(user)
        return FakeSession(user)

    dialog = LoginDialog("", CredentialStore(), login)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.sign_in_button.click()
    assert "http://" in dialog.error_label.text()
    dialog.server_edit.setText(URL)
    dialog.sign_in_button.click()
    assert "user name" in dialog.error_label.text()
    dialog.user_combo.setCurrentText("hong")
    dialog.sign_in_button.click()
    assert "password" in dialog.error_label.text()
    assert calls == []


def test_demo_buttons_fill_in_the_persona(qtbot: Any, test_keyring: DictKeyring) -> None:
    dialog = LoginDialog(
        URL, CredentialStore(), _login, ["hong", "park", "cho"], demo_passwords={"cho": "c-pw"}
    )
    qtbot.addWidget(dialog)
    dialog.show()
    assert list(dialog.demo_buttons) == ["hong", "park", "cho"]
    dialog.demo_buttons["cho"].click()
    assert dialog.user_combo.currentText() == "cho"
    assert dialog.password_edit.text() == "c-pw"


def test_real_sign_in_against_the_embedded_platform(
    qtbot: Any, test_keyring: DictKeyring, endpoints: Any
) -> None:
    """The dialog driving the real PersonaSession.login over HTTP on loopback."""
    from dataclasses import replace

    from agent_core.session import PersonaSession

    personas = endpoints.ground_truth["personas"]

    def login(url: str, user: str, password: str) -> Any:
        return PersonaSession.login(replace(endpoints, ontul_url=url), user, password, audit=False)

    dialog = LoginDialog(
        endpoints.ontul_url,
        CredentialStore(),
        login,
        ["hong", "park", "cho"],
        demo_passwords={u: personas[u]["password"] for u in ("hong", "park", "cho")},
    )
    qtbot.addWidget(dialog)
    dialog.show()

    _sign_in(qtbot, dialog, "hong", "not-the-password", remember=True)
    assert dialog.session is None
    assert "did not accept" in dialog.error_label.text()

    if "admin" in personas:
        _sign_in(qtbot, dialog, "admin", personas["admin"]["password"], remember=False)
        assert dialog.session is None
        assert "administrator" in dialog.error_label.text()

    dialog.demo_buttons["hong"].click()
    dialog.remember_check.setChecked(True)
    dialog.sign_in_button.click()
    qtbot.waitUntil(lambda: dialog.session is not None)
    assert dialog.session.username == "hong"
    assert test_keyring.secrets == {
        ("regdesk", f"hong@{endpoints.ontul_url}"): personas["hong"]["password"]
    }
    dialog.session.close()  # its HTTP clients, which nobody else owns here


def test_real_secret_service_round_trip() -> None:
    """With a real OS keyring (e.g. gnome-keyring under dbus-run-session), secrets land there.

    Run: ``dbus-run-session -- sh -c 'echo -n pw | gnome-keyring-daemon --unlock
    --components=secrets; pytest tests/gui/test_credentials.py'``.
    """
    backend = keyring.get_keyring()
    if (
        isinstance(backend, keyring.backends.fail.Keyring)
        or "SecretService" not in type(backend).__module__ + type(backend).__name__
    ):
        pytest.skip(f"no Secret Service keyring here ({type(backend).__module__})")
    store = CredentialStore(service="regdesk-test")
    assert store.available
    store.save(URL, "hong", SECRET)
    try:
        assert keyring.get_password("regdesk-test", f"hong@{URL}") == SECRET
        assert CredentialStore(service="regdesk-test").load(URL, "hong") == SECRET
    finally:
        store.delete(URL, "hong")
    assert store.load(URL, "hong") is None


@pytest.mark.parametrize("user", ["hong", "admin"])
def test_enter_during_and_after_a_refused_sign_in_never_cancels(
    qtbot: Any, test_keyring: DictKeyring, user: str
) -> None:
    import threading

    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    tried: list[str] = []
    server = threading.Event()  # a slow server (or login backoff): the attempt takes a while

    def login(url: str, username: str, password: str) -> Any:
        tried.append(password)
        server.wait(10)
        return _login(url, username, password)

    dialog = LoginDialog(URL, CredentialStore(), login, ["hong"])
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitActive(dialog)
    dialog.user_combo.setCurrentText(user)
    dialog.password_edit.setFocus()
    qtbot.keyClicks(dialog.password_edit, "wrong")
    qtbot.keyClick(dialog.password_edit, Qt.Key.Key_Return)
    assert dialog.busy
    qtbot.keyClick(QApplication.focusWidget() or dialog, Qt.Key.Key_Return)  # impatient
    assert dialog.isVisible() and dialog.result() == 0
    server.set()
    qtbot.waitUntil(lambda: not dialog.busy)
    assert dialog.isVisible() and dialog.error_label.isVisibleTo(dialog)
    assert dialog.sign_in_button.isDefault()  # not Cancel
    qtbot.keyClick(QApplication.focusWidget() or dialog, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: len(tried) == 2 and not dialog.busy)
    assert dialog.isVisible()  # Enter retried; it did not cancel


def test_a_demo_button_signs_in_with_one_click_and_clears_an_old_error(
    qtbot: Any, test_keyring: DictKeyring
) -> None:
    dialog = LoginDialog(
        URL, CredentialStore(), _login, ["hong", "cho"], demo_passwords={"hong": SECRET}
    )
    qtbot.addWidget(dialog)
    dialog.show()
    _sign_in(qtbot, dialog, "cho", "wrong", remember=False)
    assert dialog.error_label.isVisibleTo(dialog)
    dialog.demo_buttons["hong"].click()
    assert not dialog.error_label.isVisibleTo(dialog)
    qtbot.waitUntil(lambda: dialog.session is not None)
    assert dialog.session.username == "hong"


def test_remember_is_disabled_without_a_keyring(qtbot: Any, no_keyring: None) -> None:
    store = CredentialStore()
    dialog = LoginDialog(URL, store, _login, ["hong"])
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.remember_check.isEnabled()
    assert "keyring" in dialog.remember_check.toolTip()
    _sign_in(qtbot, dialog, "hong", "wrong", remember=False)
    assert not dialog.remember_check.isEnabled()  # still, after a failed attempt


def test_a_superseded_sign_in_releases_its_session(qtbot: Any, test_keyring: DictKeyring) -> None:
    """Cancel while signing in: the session that arrives later is closed, not leaked."""
    import threading

    release = threading.Event()
    made: list[Any] = []

    class ClosingSession(FakeSession):
        closed = False

        def close(self) -> None:
            self.closed = True

    def slow_login(url: str, username: str, password: str) -> Any:
        release.wait(10)
        made.append(ClosingSession(username))
        return made[-1]

    dialog = LoginDialog(URL, CredentialStore(), slow_login, ["hong"])
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.user_combo.setCurrentText("hong")
    dialog.password_edit.setText(SECRET)
    dialog.sign_in_button.click()
    assert dialog.busy
    dialog.reject()  # the person gives up; the attempt is now superseded
    release.set()
    qtbot.waitUntil(lambda: bool(made) and made[0].closed, timeout=5000)
    assert dialog.session is None
