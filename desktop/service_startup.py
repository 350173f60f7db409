"""Starting the platform and the model off the GUI thread as the window opens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.tasks import run_in_background

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtCore import QObject

    from agent_core.config import Endpoints
    from desktop.services import ServiceProvider
    from desktop.tasks import Job, Task


def start_services(
    provider: ServiceProvider,
    on_ready: Callable[[Endpoints], None],
    on_failed: Callable[[str], None],
    owner: QObject | None = None,
) -> Task[Endpoints]:
    """Call ``provider.start()`` in the background (a ``desktop.tasks`` task).

    Args:
        provider: What to start.
        on_ready: Called in the GUI thread with the ``Endpoints``.
        on_failed: Called in the GUI thread with a message (the window shows it
            and keeps running).
        owner: Once it is deleted, neither is called.

    Returns:
        The task (wait on it when closing).
    """

    def start(_: Job) -> Endpoints:
        return provider.start()

    return run_in_background(
        start,
        name="regdesk-services",
        owner=owner,
        on_done=on_ready,
        on_failed=lambda exc: on_failed(f"{type(exc).__name__}: {exc}"),
    )
