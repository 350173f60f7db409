"""Shared fixtures: a demo database, a running embedded platform, logins.

The platform runs for real on 127.0.0.1 over HTTP; nothing is mocked.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from embedded.ontul.server import OntulServer

DEMO_SEED = 20250315


@pytest.fixture(scope="session")
def demo_database(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A pristine demo database built for today, and its ground truth (do not write to it)."""
    from embedded.ontul.demo_org import build_demo_database

    path = tmp_path_factory.mktemp("demo") / "demo.sqlite"
    truth = build_demo_database(path, date.today(), seed=DEMO_SEED)
    return path, truth


@pytest.fixture(scope="session")
def ground_truth(demo_database: tuple[Path, dict[str, Any]]) -> dict[str, Any]:
    """The demo organisation's facts (``ground_truth.json``)."""
    return demo_database[1]


@pytest.fixture(scope="session")
def ontul_server(
    demo_database: tuple[Path, dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[OntulServer]:
    """A running platform on a session-private copy of the demo database, today = today."""
    from embedded.ontul.server import OntulServer
    from embedded.ontul.testing import copy_database

    db = copy_database(demo_database[0], tmp_path_factory.mktemp("ontul"))
    server = OntulServer(db, today=date.today()).start()
    yield server
    server.stop()


def login(url: str, user: str, password: str | None = None) -> str:
    """Log ``user`` in at ``url`` and return the access token (demo password by default)."""
    from embedded.ontul.testing import login as _login

    return _login(url, user, password)


@pytest.fixture(scope="session")
def token_of(ontul_server: OntulServer, ground_truth: dict[str, Any]) -> Any:
    """``token_of(user)``: a cached access token for ``user`` on the session server."""
    cache: dict[str, str] = {}

    def get(user: str) -> str:
        if user not in cache:
            from embedded.ontul.testing import persona_password

            cache[user] = login(ontul_server.url, user, persona_password(user, ground_truth))
        return cache[user]

    return get
