"""Shared fixtures of the GUI tests: offscreen Qt, no leaked threads, real services."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from collections.abc import Iterator

    from agent_core.config import Endpoints


@pytest.fixture(autouse=True)
def no_turn_thread_left(qapp: Any) -> Iterator[None]:
    """Fail a test that leaves a turn thread running (napari's idea)."""
    from desktop.turn_worker import running_turn_threads

    yield
    assert running_turn_threads() == 0, "a turn thread is still running after the test"


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every test keeps its history and settings in its own directory."""
    path = tmp_path / "data"
    monkeypatch.setenv("REGDESK_DATA_DIR", str(path))
    return path


@pytest.fixture(scope="session")
def embedded_services() -> Iterator[Any]:
    """The real embedded platform and offline model on loopback, paced like a model."""
    launcher = pytest.importorskip("embedded.launcher")
    try:
        services = launcher.start_embedded(model_pace_s=0.02)
    except (ImportError, AttributeError) as exc:  # parts still being built in parallel
        pytest.skip(f"embedded services unavailable: {exc}")
    yield services
    services.stop()


@pytest.fixture(scope="session")
def endpoints(embedded_services: Any) -> Endpoints:
    """Endpoints of the embedded services."""
    from agent_core.config import OFFLINE_MODEL_NAME, Endpoints

    return Endpoints(
        ontul_url=embedded_services.ontul_url,
        model_base_url=embedded_services.model_url,
        api_key="offline",
        model=OFFLINE_MODEL_NAME,
        embedded=True,
        ground_truth=embedded_services.ground_truth,
    )
