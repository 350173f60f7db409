"""Agent integration fixtures: the real embedded platform and offline model on loopback.

A pristine demo database is built once per session; every stack runs on its own
copy, so tests that write (ledger rows, a disabled account, an injected chunk)
never disturb the others.
"""

from __future__ import annotations

import shutil
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

from agent_core.config import OFFLINE_MODEL_NAME, Endpoints

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path


@dataclass
class Stack:
    """Running services plus the endpoints an agent session needs."""

    services: Any
    endpoints: Endpoints
    truth: dict[str, Any]
    data_dir: Path

    @property
    def db_path(self) -> Path:
        """The platform's SQLite file."""
        return self.services.db_path  # type: ignore[no-any-return]


def _sqlite_ledger(db_path: Path) -> Callable[[str], Any]:
    """Run a SELECT straight on the platform's database file and return the first cell.

    The scenario ledger checks name the physical ``revision_requests`` table,
    which the embedded SQL endpoint does not expose even to admins; the file is
    the ground truth of what was written.
    """
    import sqlite3

    def first_cell(sql: str) -> Any:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as conn:
            row = conn.execute(sql).fetchone()
        return row[0] if row else None

    return first_cell


@pytest.fixture(scope="session")
def ledger_of() -> Callable[[Path], Callable[[str], Any]]:
    """``ledger_of(db_path)(sql)``: first cell of a SELECT on the platform's file."""
    return _sqlite_ledger


@pytest.fixture(scope="session")
def pristine_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding a freshly built demo database and ground truth."""
    from embedded.launcher import platform_today, prepare_demo_database

    target = tmp_path_factory.mktemp("agent-pristine")
    prepare_demo_database(target, platform_today())
    return target


def start_stack(source: Path, target: Path, **kwargs: Any) -> Stack:
    """Copy the pristine data to ``target`` and start the services on it (``start_embedded``
    keywords pass through: ``today=`` rebuilds the database for that day)."""
    from embedded.launcher import start_embedded

    shutil.copytree(source, target, dirs_exist_ok=True)
    services = start_embedded(data_dir=target, **kwargs)
    truth = services.ground_truth
    endpoints = Endpoints(
        ontul_url=services.ontul_url,
        model_base_url=services.model_url,
        api_key="offline",
        model=OFFLINE_MODEL_NAME,
        embedded=True,
        ground_truth=truth,
    )
    return Stack(services, endpoints, truth, target)


@pytest.fixture(scope="session")
def stack(pristine_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The shared stack (unpaced model, 15-minute tokens)."""
    running = start_stack(pristine_data_dir, tmp_path_factory.mktemp("agent-stack"))
    yield running
    running.services.stop()


@pytest.fixture
def make_stack(pristine_data_dir: Path, tmp_path: Path) -> Iterator[Callable[..., Stack]]:
    """Factory for a private stack: ``make_stack(token_ttl_s=1, model_pace_s=0.05)``."""
    started: list[Stack] = []

    def make(**kwargs: Any) -> Stack:
        running = start_stack(pristine_data_dir, tmp_path / f"stack{len(started)}", **kwargs)
        started.append(running)
        return running

    yield make
    for running in started:
        running.services.stop()


@pytest.fixture
def no_thread_left() -> Iterator[None]:
    """Fail a test that leaves a non-daemon or agent thread running."""
    before = set(threading.enumerate())
    yield
    after = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    leftover = [t.name for t in after if not t.daemon]
    assert not leftover, f"threads left running: {leftover}"
