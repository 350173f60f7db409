"""Keyring backends for the GUI tests: the real ``keyring`` API, nothing on disk."""

from __future__ import annotations

import keyring.errors
from keyring.backend import KeyringBackend


class DictKeyring(KeyringBackend):
    """A keyring backend for tests: real keyring API, secrets in a dict."""

    priority = -1  # type: ignore[assignment]  # below fail.Keyring: never auto-selected

    def __init__(self) -> None:
        super().__init__()
        self.secrets: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.secrets.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.secrets[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        # like a real keyring: deleting what is not there is an error
        if (service, username) not in self.secrets:
            raise keyring.errors.PasswordDeleteError(username)
        del self.secrets[(service, username)]
