"""Cooperative cancellation of a turn."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable


class CancelToken:
    """A flag a turn checks between stream chunks and tool calls.

    ``cancel()`` may be called from any thread. Callbacks registered with
    ``on_cancel`` run once, in the cancelling thread; the turn uses them to
    close an in-flight HTTP stream so that a blocked read ends at once.
    """

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []

    @property
    def cancelled(self) -> bool:
        """True once ``cancel()`` was called."""
        return self._event.is_set()

    def cancel(self) -> None:
        """Request cancellation and run the registered callbacks."""
        with self._lock:
            if self._event.is_set():
                return
            self._event.set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            try:
                callback()
            except Exception:  # a failing close must not stop the others
                pass

    def on_cancel(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Register a callback; runs now if already cancelled.

        Args:
            callback: Called once on cancellation.

        Returns:
            A function that unregisters the callback.
        """
        with self._lock:
            if not self._event.is_set():
                self._callbacks.append(callback)

                def remove() -> None:
                    with self._lock:
                        if callback in self._callbacks:
                            self._callbacks.remove(callback)

                return remove
        callback()
        return lambda: None

    def wait(self, timeout: float) -> bool:
        """Block up to ``timeout`` seconds; True when cancelled."""
        return self._event.wait(timeout)
