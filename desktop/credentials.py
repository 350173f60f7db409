"""Passwords and the API key, kept in the OS keyring and nowhere else.

When the machine has no keyring backend (a headless box falls back to
``keyring.backends.fail.Keyring``), credentials live in a dict in memory for
this session only, and :attr:`CredentialStore.notice` says so in plain words.
There is deliberately no plaintext fallback on disk.
"""

from __future__ import annotations

import keyring
import keyring.backends.fail
from keyring.errors import KeyringError, NoKeyringError, PasswordDeleteError
from PySide6.QtCore import QCoreApplication

API_KEY_ACCOUNT = "anthropic-api-key"
"""Keyring account name under which the model API key is stored."""


def _account(server_url: str, username: str) -> str:
    """Return the keyring account for one user on one server."""
    return f"{username}@{server_url.strip().rstrip('/')}"


class CredentialStore:
    """Saves and loads secrets through ``keyring``, or in memory when there is none.

    Args:
        service: Keyring service name; one entry per ``user@server`` below it.
    """

    def __init__(self, service: str = "regdesk") -> None:
        self._service = service
        self._memory: dict[str, str] = {}
        self._available = True
        self._notice: str | None = None
        try:
            backend = keyring.get_keyring()
        except (KeyringError, RuntimeError) as exc:
            self._fall_back(str(exc))
        else:
            if isinstance(backend, keyring.backends.fail.Keyring):
                self._fall_back("")

    @property
    def available(self) -> bool:
        """True when secrets go to a real OS keyring."""
        return self._available

    @property
    def notice(self) -> str | None:
        """A plain explanation for the user when the keyring is missing, else None."""
        return self._notice

    @property
    def service(self) -> str:
        """Keyring service name in use."""
        return self._service

    def save(self, server_url: str, username: str, password: str) -> None:
        """Remember a password for ``username`` on ``server_url``.

        Args:
            server_url: Platform URL the user signs in to.
            username: Login name.
            password: The secret; goes to the keyring (or memory), never to disk.
        """
        self._set(_account(server_url, username), password)

    def load(self, server_url: str, username: str) -> str | None:
        """Return the remembered password, or None.

        Args:
            server_url: Platform URL the user signs in to.
            username: Login name.

        Returns:
            The password, or None when nothing is remembered.
        """
        return self._get(_account(server_url, username))

    def delete(self, server_url: str, username: str) -> None:
        """Forget a remembered password; forgetting nothing is not an error.

        Args:
            server_url: Platform URL the user signs in to.
            username: Login name.
        """
        self._delete(_account(server_url, username))

    def save_api_key(self, key: str) -> None:
        """Remember the model API key (an empty key forgets it).

        Args:
            key: The Anthropic API key.
        """
        if key:
            self._set(API_KEY_ACCOUNT, key)
        else:
            self._delete(API_KEY_ACCOUNT)

    def load_api_key(self) -> str | None:
        """Return the remembered model API key, or None."""
        return self._get(API_KEY_ACCOUNT)

    def _fall_back(self, detail: str) -> None:
        self._available = False
        text = QCoreApplication.translate(
            "CredentialStore",
            "No system keyring is available on this computer, so passwords and the "
            "API key are kept in memory only and are forgotten when RegDesk closes. "
            "Nothing is written to disk.",
        )
        self._notice = f"{text} ({detail})" if detail else text

    def _set(self, account: str, secret: str) -> None:
        if self._available:
            try:
                keyring.set_password(self._service, account, secret)
                return
            except NoKeyringError as exc:
                self._fall_back(str(exc))
        self._memory[account] = secret

    def _get(self, account: str) -> str | None:
        if self._available:
            try:
                return keyring.get_password(self._service, account)
            except NoKeyringError as exc:
                self._fall_back(str(exc))
        return self._memory.get(account)

    def _delete(self, account: str) -> None:
        self._memory.pop(account, None)
        if not self._available:
            return
        try:
            keyring.delete_password(self._service, account)
        except PasswordDeleteError:
            pass  # nothing was stored: forgetting it is already done
        except NoKeyringError as exc:
            self._fall_back(str(exc))
