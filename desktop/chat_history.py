"""The window's conversation history: opened lazily, replayed into a new pane, saved per turn."""

from __future__ import annotations

from concurrent.futures import CancelledError, Future
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

if TYPE_CHECKING:
    from collections.abc import Callable

    from desktop.persona_pane import PaneResult, PersonaPane


def _written(result: PaneResult, turn_id: int, conversation_id: int) -> None:
    """The writer committed the turn: remember where (before the pane is told)."""
    result.turn_id, result.conversation_id = turn_id, conversation_id or None


def _error_of(future: Future[Any]) -> BaseException | None:
    """The exception a finished write ended with (None when it was committed)."""
    try:
        return future.exception()
    except CancelledError as exc:
        return exc


class ChatHistory:
    """Keeps each persona's finished turns in the ``HistoryStore``.

    History is a convenience: when the store cannot be opened or read, the
    status line says so and the app runs without it. Its messages keep the
    ``MainWindow`` translation context they were written in.
    """

    def __init__(
        self,
        show_message: Callable[[str, int], None],
        on_write_error: Callable[[str], None],
    ) -> None:
        """Report problems to the status line.

        Args:
            show_message: Shows a message for some milliseconds (the status bar's
                ``showMessage``).
            on_write_error: Called from the store's thread when a background write
                fails (a signal's ``emit``, so the message reaches the GUI thread).
        """
        self._show_message = show_message
        self._on_write_error = on_write_error
        self._store: Any = None
        self._opened = False
        self.may_open = True
        """False once the window is closing: a store never opened stays closed."""

    @property
    def store(self) -> Any:
        """The ``HistoryStore`` (opened on first use), or None when unavailable or closed."""
        if not self._opened and self.may_open:
            self._open()
        return self._store

    @store.setter
    def store(self, store: Any) -> None:
        """Use another store (or None); the previous one is closed unless it is the same."""
        previous, self._store = self._store, store
        self._opened = True
        if previous is not None and previous is not store:
            previous.close()  # its connection and writer thread would stay open

    def _open(self) -> None:
        self._opened = True
        try:
            from agent_core.paths import user_data_dir
            from desktop.history_store import HistoryStore

            self._store = HistoryStore(user_data_dir() / "history.sqlite")
        except Exception as exc:  # history is a convenience; the app runs without it
            self._store = None
            self._show_message(
                QCoreApplication.translate("MainWindow", "History unavailable: {0}").format(exc),
                10000,
            )

    def load_into(self, pane: PersonaPane) -> None:
        """Show a persona's most recent conversation in its new, empty pane."""
        if self.store is None or pane.transcript.rowCount():
            return
        try:
            latest = self.store.conversations(pane.persona, limit=1)
            if latest:
                pane.show_conversation(latest[0].id, self.store.conversation_turns(latest[0].id))
        except Exception as exc:
            self._unavailable(exc)

    def open_conversation(self, pane: PersonaPane, conversation_id: int) -> None:
        """Show one saved conversation in a pane (the sidebar's choice)."""
        if self.store is None:
            return
        try:
            pane.show_conversation(conversation_id, self.store.conversation_turns(conversation_id))
        except Exception as exc:
            self._unavailable(exc)

    def forget_turns(self, turns: list[PaneResult]) -> None:
        """Delete turns that were regenerated or edited away."""
        ids = [t.turn_id for t in turns if t.turn_id is not None]
        if self.store is None or not ids:
            return
        try:
            self.store.delete_turns(ids)
        except Exception as exc:
            self._on_write_error(str(exc))

    def _unavailable(self, exc: BaseException) -> None:
        self._show_message(
            QCoreApplication.translate("MainWindow", "History unavailable: {0}").format(exc),
            10000,
        )

    def save(self, result: PaneResult, done: Callable[[BaseException | None], None]) -> None:
        """Save a finished turn in the background; ``done`` is told once it is committed.

        Args:
            result: The finished turn.
            done: Called with None once the turn is in the file, or with the error
                that kept it out (from the writer's thread; at once when there is
                no history at all).
        """
        if self.store is None:
            done(RuntimeError("no history"))
            return
        # written by the store's own thread: a long turn's JSON and the commit
        # would otherwise stall the GUI just as the answer completes
        future = self.store.submit_turn(
            result.persona,
            result.question,
            result.answer,
            result.stored_events(),
            result.started_at,
            result.elapsed_ms,
            result.status,
            on_error=lambda exc: self._on_write_error(str(exc)),
            conversation_id=result.conversation_id,
            on_written=lambda turn_id, conversation_id: _written(result, turn_id, conversation_id),
        )
        future.add_done_callback(lambda written: done(_error_of(written)))

    def close(self) -> None:
        """Close the store if it was opened; never open it again."""
        self.store = None  # closes the previous store
