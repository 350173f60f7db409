"""Starting the platform and the model off the GUI thread as the window opens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

if TYPE_CHECKING:
    from collections.abc import Callable

    from agent_core.config import Endpoints
    from desktop.services import ServiceProvider


class ServiceStarter(QObject):
    """Calls ``provider.start()`` in its own thread."""

    ready = Signal(object)
    """``Endpoints`` once the platform and model are reachable."""
    failed = Signal(str)
    """A message when they could not be started."""

    def __init__(self, provider: ServiceProvider) -> None:
        super().__init__()
        self._provider = provider

    @Slot()
    def run(self) -> None:
        """Start the services; report the endpoints or the failure."""
        try:
            self.ready.emit(self._provider.start())
        except Exception as exc:  # the window shows it; the app keeps running
            self.failed.emit(f"{type(exc).__name__}: {exc}")


def start_services(
    provider: ServiceProvider,
    on_ready: Callable[[Endpoints], None],
    on_failed: Callable[[str], None],
) -> tuple[QThread, ServiceStarter]:
    """Start the services in a new thread that ends once they are up (or failed).

    Args:
        provider: What to start.
        on_ready: Called in the caller's thread with the ``Endpoints``.
        on_failed: Called in the caller's thread with a message.

    Returns:
        The running thread (wait on it when closing) and the starter it runs.
    """
    thread = QThread()
    thread.setObjectName("regdesk-services")
    starter = ServiceStarter(provider)
    starter.moveToThread(thread)
    thread.started.connect(starter.run)
    # connected before the thread starts, so a fast start is never missed
    starter.ready.connect(on_ready)
    starter.failed.connect(on_failed)
    direct = Qt.ConnectionType.DirectConnection
    starter.ready.connect(thread.quit, direct)
    starter.failed.connect(thread.quit, direct)
    thread.start()
    return thread, starter
