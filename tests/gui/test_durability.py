"""A turn is shown as finished only once it is committed to the history file."""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

from gui_scripts import ScriptedSession, scripted_turn


def test_a_turn_finishes_only_once_it_is_in_the_history_file(
    qtbot: Any, window_factory: Any
) -> None:
    from PySide6.QtCore import QTimer

    from desktop.history_store import HistoryStore

    disk = threading.Event()

    class SlowDisk(HistoryStore):
        """A disk that is slow to commit (as under heavy load)."""

        def append_turn(self, *args: Any, **kwargs: Any) -> int:
            disk.wait(30)
            return super().append_turn(*args, **kwargs)

    window = window_factory()
    path = window.history.path
    window.history = SlowDisk(path)
    pane = window.add_session(ScriptedSession("hong", lambda q: scripted_turn("hong")))
    seen: list[tuple[int, str]] = []

    def finished(result: Any) -> None:
        with sqlite3.connect(path) as conn:
            seen.append((conn.execute("SELECT count(*) FROM turns").fetchone()[0], result.status))

    pane.turn_finished.connect(finished)
    saving_texts: list[str] = []

    def release_once_the_thread_is_done() -> None:
        # the turn's thread has ended and its events are delivered: let the disk go on
        if pane._controller is None and not disk.is_set():
            saving_texts.append(pane.activity.text() if pane.activity.isVisible() else "")
            disk.set()

    poll = QTimer()
    poll.timeout.connect(release_once_the_thread_is_done)
    poll.start(5)
    window.question_edit.setPlainText("육아휴직 며칠 남았어?")
    assert window.send()
    qtbot.waitUntil(lambda: bool(seen), timeout=10000)
    poll.stop()
    assert seen == [(1, "answered")]  # committed before it was reported finished
    assert saving_texts == ["Saving…"]  # and the pane said so meanwhile
    assert pane.last_result is not None and pane.last_result.saved
    assert not pane.running and not pane.activity.isVisible()
