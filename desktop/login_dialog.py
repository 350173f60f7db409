"""Sign in as one persona: server URL, user name, password, "remember"."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt, QUrl
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.tasks import run_in_background
from desktop.theme import error_color

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from agent_core.session import PersonaSession
    from desktop.credentials import CredentialStore
    from desktop.session_like import SessionLike
    from desktop.tasks import Job, Task


_log = logging.getLogger(__name__)


def describe_login_error(exc: BaseException, server_url: str) -> str:
    """Return a message for people about why signing in failed.

    Args:
        exc: What ``login`` raised.
        server_url: The URL that was tried.

    Returns:
        One or two plain sentences, translated.
    """
    from agent_core.errors import (
        AdminRefusedError,
        PlatformAuthError,
        PlatformNetworkError,
        PlatformTimeoutError,
    )

    if isinstance(exc, AdminRefusedError):
        return QCoreApplication.translate(
            "LoginDialog",
            "This is an administrator account. RegDesk never runs the agent with "
            "administrator rights; sign in as a regular person instead.",
        )
    if isinstance(exc, PlatformAuthError):
        return QCoreApplication.translate(
            "LoginDialog", "The server did not accept this user name and password."
        )
    if isinstance(exc, PlatformTimeoutError):
        return QCoreApplication.translate(
            "LoginDialog", "The server at {url} did not answer in time. Try again."
        ).format(url=server_url)
    if isinstance(exc, PlatformNetworkError | OSError):
        message = QCoreApplication.translate(
            "LoginDialog",
            "Could not reach the server at {url}. Check the address and your network.",
        )
        return message.format(url=server_url)
    return QCoreApplication.translate("LoginDialog", "Signing in failed: {message}").format(
        message=str(exc) or type(exc).__name__
    )


class LoginDialog(QDialog):
    """Asks for a persona's credentials and signs in off the GUI thread.

    Args:
        server_url: Platform URL to pre-fill.
        credentials: Where remembered passwords live (keyring or memory).
        login: ``login(url, username, password) -> PersonaSession``; may raise.
            It runs in a background thread so a slow server never freezes the window.
        suggested_users: User names offered in the combo box and as demo buttons.
        parent: Parent widget.
        demo_passwords: Passwords the demo buttons fill in, by user name.
        present: Presenter mode (the window's F5); given, the demo row offers it.
    """

    def __init__(
        self,
        server_url: str,
        credentials: CredentialStore,
        login: Callable[[str, str, str], PersonaSession],
        suggested_users: Iterable[str] = (),
        parent: QWidget | None = None,
        demo_passwords: dict[str, str] | None = None,
        present: Callable[[], object] | None = None,
    ) -> None:
        super().__init__(parent)
        self._credentials = credentials
        self._login = login
        self._demo_passwords = dict(demo_passwords or {})
        self._session: PersonaSession | None = None
        self._attempt: Task[PersonaSession] | None = None
        """The running sign-in; abandoned (its session closed) when superseded."""

        self.setWindowTitle(self.tr("Sign in to RegDesk"))
        self.setMinimumWidth(440)

        intro = QLabel(self.tr("The agent works with exactly this person's permissions."))
        intro.setWordWrap(True)

        self.server_edit = QLineEdit(server_url)
        self.server_edit.setPlaceholderText("http://127.0.0.1:8765")
        self.user_combo = QComboBox()
        self.user_combo.setEditable(True)
        self.user_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        users = list(suggested_users)
        self.user_combo.addItems(users)
        self.user_combo.setCurrentText("")
        line = self.user_combo.lineEdit()
        assert line is not None
        line.setPlaceholderText(self.tr("e.g. hong"))
        self.password_edit = QLineEdit()
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.remember_check = QCheckBox(self.tr("&Remember password"))
        self.remember_check.setToolTip(
            self.tr("Stored in the system keyring, never in a settings file.")
            if credentials.available
            else self.tr(
                "No system keyring on this computer: RegDesk cannot remember passwords "
                "(it keeps them in memory until it closes)."
            )
        )
        # without a keyring there is nothing to remember a password in across restarts
        self.remember_check.setEnabled(credentials.available)

        form = QFormLayout()
        server_label = QLabel(self.tr("&Server:"))
        server_label.setBuddy(self.server_edit)
        user_label = QLabel(self.tr("&User name:"))
        user_label.setBuddy(self.user_combo)
        password_label = QLabel(self.tr("&Password:"))
        password_label.setBuddy(self.password_edit)
        form.addRow(server_label, self.server_edit)
        form.addRow(user_label, self.user_combo)
        form.addRow(password_label, self.password_edit)
        form.addRow("", self.remember_check)

        self.demo_buttons: dict[str, QPushButton] = {}
        demo_row = QHBoxLayout()
        if users:
            demo_row.addWidget(QLabel(self.tr("Demo personas:")))
            for user in users:
                button = QPushButton(user)
                button.setAutoDefault(False)
                tip = self.tr("Sign in as {user}")
                button.setToolTip(tip.format(user=user))
                button.clicked.connect(lambda _=False, u=user: self._fill_demo(u))
                self.demo_buttons[user] = button
                demo_row.addWidget(button)
            demo_row.addStretch(1)
        self.present_button: QPushButton | None = None
        """Presenter mode from the dialog: every demo persona at once, side by side."""
        if users and present is not None:
            self.present_button = QPushButton(self.tr("All, side by side"))
            self.present_button.setAutoDefault(False)
            self.present_button.setToolTip(
                self.tr("Presenter mode: sign in every demo persona and compare them (F5)")
            )
            self.present_button.clicked.connect(lambda *_: self._present(present))
            demo_row.addWidget(self.present_button)

        self.keyring_notice = QLabel(credentials.notice or "")
        self.keyring_notice.setWordWrap(True)
        self.keyring_notice.setObjectName("keyringNotice")
        self.keyring_notice.setVisible(bool(credentials.notice))

        self.error_label = QLabel()
        self.error_label.setObjectName("errorLabel")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"color: {error_color()};")
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.hide()

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.sign_in_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.sign_in_button.setText(self.tr("&Sign in"))
        self.sign_in_button.setDefault(True)
        # Cancel never takes the default (Enter) from Sign in, not even after the
        # disabled Sign in button passed the focus on to it during an attempt
        cancel = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setAutoDefault(False)
        cancel.setDefault(False)
        self.buttons.accepted.connect(self._try_sign_in)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        if users:
            layout.addLayout(demo_row)
        layout.addWidget(self.keyring_notice)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)

        self.setTabOrder(self.server_edit, self.user_combo)
        self.setTabOrder(self.user_combo, self.password_edit)
        self.setTabOrder(self.password_edit, self.remember_check)
        self.user_combo.currentTextChanged.connect(self._fill_remembered)
        self.server_edit.textChanged.connect(self._clear_error)
        self.password_edit.textChanged.connect(self._clear_error)
        (self.user_combo if server_url else self.server_edit).setFocus()

    @property
    def session(self) -> PersonaSession | None:
        """The signed-in session after the dialog was accepted, else None."""
        return self._session

    @property
    def busy(self) -> bool:
        """True while a sign-in attempt is running."""
        return not self.server_edit.isEnabled()

    def _fill_demo(self, user: str) -> None:
        """A demo persona button: one click signs in (when its password is known)."""
        self._clear_error()
        self.user_combo.setCurrentText(user)
        if user in self._demo_passwords:
            self.password_edit.setText(self._demo_passwords[user])
            self._try_sign_in()
        else:
            self.password_edit.setFocus()

    def _present(self, present: Callable[[], object]) -> None:
        """Close the dialog and start presenter mode (it signs the personas in itself)."""
        self.reject()
        present()

    def _fill_remembered(self, user: str) -> None:
        self._clear_error()
        url = self.server_edit.text().strip()
        remembered = self._credentials.load(url, user.strip()) if url and user.strip() else None
        if remembered is not None:
            self.password_edit.setText(remembered)
            self.remember_check.setChecked(True)
        elif self.remember_check.isChecked():
            self.password_edit.clear()
            self.remember_check.setChecked(False)

    def _validate(self) -> tuple[QWidget, str] | None:
        url = QUrl(self.server_edit.text().strip())
        if url.scheme() not in ("http", "https") or not url.host():
            return self.server_edit, self.tr(
                "Enter the server address, starting with http:// or https://."
            )
        if not self.user_combo.currentText().strip():
            return self.user_combo, self.tr("Enter a user name.")
        if not self.password_edit.text():
            return self.password_edit, self.tr("Enter the password.")
        return None

    def _show_error(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.show()

    def _clear_error(self) -> None:
        self.error_label.hide()

    def _set_busy(self, busy: bool) -> None:
        for widget in (
            self.server_edit,
            self.user_combo,
            self.password_edit,
            self.sign_in_button,
            *self.demo_buttons.values(),
        ):
            widget.setEnabled(not busy)
        self.remember_check.setEnabled(not busy and self._credentials.available)
        self.sign_in_button.setText(self.tr("Signing in…") if busy else self.tr("&Sign in"))
        if not busy:
            self.sign_in_button.setDefault(True)

    def _try_sign_in(self) -> None:
        if self.busy:
            return
        problem = self._validate()
        if problem is not None:
            widget, message = problem
            self._show_error(message)
            widget.setFocus()
            return
        self._clear_error()
        self._set_busy(True)
        url = self.server_edit.text().strip().rstrip("/")
        user = self.user_combo.currentText().strip()
        password = self.password_edit.text()
        login = self._login

        def sign_in(_: Job) -> PersonaSession:
            return login(url, user, password)

        # a dialog closed (or destroyed) meanwhile takes no session: it is released
        self._attempt = run_in_background(
            sign_in,
            name=f"login-{user}",
            owner=self,
            on_done=self._on_signed_in,
            on_failed=self._on_sign_in_failed,
            on_orphaned=_close_quietly,
        )

    def _on_sign_in_failed(self, error: BaseException) -> None:
        self._attempt = None
        self._set_busy(False)
        url = self.server_edit.text().strip().rstrip("/")
        self._show_error(describe_login_error(error, url))
        self.password_edit.setFocus()
        self.password_edit.selectAll()

    def _on_signed_in(self, session: PersonaSession) -> None:
        self._attempt = None
        self._set_busy(False)
        url = self.server_edit.text().strip().rstrip("/")
        user = self.user_combo.currentText().strip()
        try:
            if self.remember_check.isChecked() or not self._credentials.available:
                # no keyring: kept in memory for this session only (CredentialStore)
                self._credentials.save(url, user, self.password_edit.text())
            else:
                self._credentials.delete(url, user)
        except Exception as exc:  # a locked keyring must not block signing in
            self._show_error(
                self.tr("Signed in, but the password could not be remembered: {e}").format(e=exc)
            )
        self._session = session
        self.accept()

    def reject(self) -> None:
        """Close without a session; a running attempt's session is closed when it comes."""
        if self._attempt is not None:
            self._attempt.abandon()
            self._attempt = None
            self._set_busy(False)  # opened again, it starts afresh
        super().reject()


def _close_quietly(session: SessionLike | None) -> None:
    """Release a session nobody will use (its HTTP clients), ignoring a failing close."""
    if session is None:
        return
    try:
        session.close()
    except Exception:  # already closed or half made: nothing left to release
        _log.debug("closing an unused session failed", exc_info=True)
