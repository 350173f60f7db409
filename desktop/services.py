"""How the GUI gets its endpoints without knowing where they come from."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from agent_core.config import Endpoints


class ServiceProvider(Protocol):
    """Starts (or locates) the platform and the model for the GUI.

    The launcher hands one to :func:`desktop.app.run_app`. ``start()`` may take
    seconds (the embedded platform builds its database), so the window calls it
    off the GUI thread.
    """

    def start(self) -> Endpoints:
        """Block until the services are ready and return where they are."""
        ...

    def stop(self) -> None:
        """Stop whatever ``start()`` started; safe to call twice."""
        ...


class FixedEndpoints:
    """A provider for services that are already running (tests, real deployments)."""

    def __init__(self, endpoints: Endpoints) -> None:
        self._endpoints = endpoints

    def start(self) -> Endpoints:
        """Return the endpoints given at construction."""
        return self._endpoints

    def stop(self) -> None:
        """Nothing to stop: these services belong to someone else."""
