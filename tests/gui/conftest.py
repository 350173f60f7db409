"""Shared fixtures of the GUI tests: offscreen Qt, no leaked threads, real services."""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, Any

import keyring
import keyring.backends.fail
import pytest

from tests.gui.keyrings import DictKeyring
from tests.gui.thread_leaks import StartRecorder, threads_left

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

if TYPE_CHECKING:
    from collections.abc import Iterator

    from agent_core.config import Endpoints


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Qt warnings fail GUI tests (qutebrowser's ``qt_log_level_fail = WARNING``)."""
    for item in items:
        if "tests/gui/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.qt_log_level_fail("WARNING"))
            # the offscreen platform plugin says this for every shown window
            item.add_marker(pytest.mark.qt_log_ignore("does not support propagateSizeHints"))


@pytest.fixture
def provider() -> Any:
    """A provider for windows whose panes run scripted turns (no services needed)."""
    from agent_core.config import OFFLINE_MODEL_NAME, Endpoints
    from desktop.services import FixedEndpoints

    return FixedEndpoints(
        Endpoints("http://127.0.0.1:9", "http://127.0.0.1:9", "offline", OFFLINE_MODEL_NAME)
    )


@pytest.fixture
def window_factory(qtbot: Any, provider: Any) -> Any:
    """Create main windows that are shut down (threads joined) after the test."""
    from desktop.main_window import MainWindow

    windows: list[Any] = []

    def create(service_provider: Any = None, **kwargs: Any) -> Any:
        window = MainWindow(service_provider or provider, offer_login=False, **kwargs)
        qtbot.addWidget(window)
        windows.append(window)
        with qtbot.waitSignal(window.services_ready, timeout=60000):
            window.show()
        return window

    yield create
    for window in windows:
        window.shutdown()


@pytest.fixture
def test_keyring() -> Iterator[DictKeyring]:
    """Secrets go to an in-memory keyring for the test (the real ``keyring`` API)."""
    previous = keyring.get_keyring()
    backend = DictKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def no_keyring() -> Iterator[None]:
    """No keyring at all, as on a desktop without a secret service."""
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    yield
    keyring.set_keyring(previous)


@pytest.fixture(autouse=True)
def no_thread_left(qapp: Any) -> Iterator[None]:
    """Fail a test that leaves a thread running (napari's ``dangling_qthreads`` idea).

    Every ``threading.Thread`` and ``QThread`` started during the test is recorded
    with the stack that started it. After the test and its fixtures are torn down
    (pytest-qt has closed its widgets, ``window_factory`` shut its windows), a
    ``desktop.tasks`` task whose function has not returned, a non-daemon Python
    thread, a running ``QThread`` or a server thread still serving a connection
    some client left open fails the test (``tests/gui/thread_leaks.py``).
    """
    from PySide6.QtCore import QThread

    starts = StartRecorder()
    with pytest.MonkeyPatch.context() as patch:  # its own: undone before the check
        patch.setattr(threading.Thread, "start", starts.wrap(threading.Thread.start))
        patch.setattr(QThread, "start", starts.wrap(QThread.start))
        yield
    leaks = threads_left(starts)
    assert not leaks, "left running after the test:\n" + "\n".join(leaks)


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
