"""Small client helpers for tests and benchmarks of the embedded platform.

They speak plain HTTP to a running server (nothing is mocked); kept in the
package so every test folder can import them whatever its conftest layout.
"""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING, Any

import requests

from embedded.ontul.demo_org.personas import persona_password as _derive

if TYPE_CHECKING:
    from pathlib import Path

DEMO_SEED = 20250315
"""Seed the demo database is built with in tests."""


def persona_password(user: str, truth: dict[str, Any] | None = None) -> str:
    """Return the demo password of ``user`` (from ground truth when given, else derived).

    Args:
        user: Login name.
        truth: Ground truth with ``personas.<user>.password``, optional.

    Returns:
        The clear-text demo password.
    """
    if truth is not None:
        entry = (truth.get("personas") or {}).get(user)
        if isinstance(entry, dict) and entry.get("password"):
            return str(entry["password"])
    return _derive(int((truth or {}).get("seed", DEMO_SEED)), user)


def login(url: str, user: str, password: str | None = None) -> str:
    """Log ``user`` in at ``url`` and return the access token.

    Raises:
        AssertionError: The login was refused.
    """
    resp = requests.post(
        f"{url}/admin/auth/login",
        json={"username": user, "password": password or persona_password(user)},
        timeout=10,
    )
    if resp.status_code != 200:
        raise AssertionError(f"login {user} failed: {resp.status_code} {resp.text}")
    return str(resp.json()["accessToken"])


def call(url: str, token: str, path: str, body: dict[str, Any]) -> requests.Response:
    """POST ``body`` to ``path`` with a bearer token."""
    return requests.post(
        f"{url}{path}", json=body, headers={"Authorization": f"Bearer {token}"}, timeout=30
    )


def copy_database(source: Path, target_dir: Path) -> Path:
    """Copy a database file into ``target_dir`` (for tests that write)."""
    target = target_dir / source.name
    shutil.copyfile(source, target)
    return target
