"""The main window: start-up, personas, history across restarts, export of turns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gui_scripts import ScriptedSession, scripted_turn

from agent_core.config import OFFLINE_MODEL_LABEL


def test_status_line_says_starting_then_shows_services(qtbot: Any, provider: Any) -> None:
    from desktop.main_window import MainWindow

    window = MainWindow(provider, offer_login=False)
    qtbot.addWidget(window)
    assert "Starting embedded platform" in window.status_label.text()
    with qtbot.waitSignal(window.services_ready, timeout=10000):
        window.show()
    assert "127.0.0.1:9" in window.status_label.text()
    assert OFFLINE_MODEL_LABEL in window.status_label.text()
    assert window.connection_label.text() == "connected"
    window.shutdown()


def test_failed_start_is_shown_not_raised(qtbot: Any) -> None:
    from desktop.main_window import MainWindow

    class Broken:
        def start(self) -> Any:
            raise OSError("port in use")

        def stop(self) -> None:
            pass

    window = MainWindow(Broken(), offer_login=False)
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.services_failed, timeout=10000):
        window.show()
    assert "port in use" in window.status_label.text()
    window.shutdown()


def test_personas_each_keep_their_own_conversation(qtbot: Any, window_factory: Any) -> None:
    window = window_factory()
    hong = window.add_session(ScriptedSession("hong", lambda q: scripted_turn("hong")))
    cho = window.add_session(ScriptedSession("cho", lambda q: scripted_turn("cho")))
    assert window.current_pane() is cho
    window.persona_switcher.setCurrentIndex(window.persona_switcher.findData("hong"))
    assert window.current_pane() is hong
    window.question_edit.setPlainText("내 육아휴직?")
    with qtbot.waitSignal(hong.turn_finished, timeout=10000):
        assert window.send()
    assert hong.transcript.rowCount() == 2
    assert cho.transcript.rowCount() == 0
    window.new_chat()
    assert hong.transcript.rowCount() == 0


def test_history_survives_a_restart(qtbot: Any, window_factory: Any) -> None:
    first = window_factory()
    pane = first.add_session(ScriptedSession("hong", lambda q: scripted_turn("hong")))
    first.question_edit.setPlainText("육아휴직 며칠 남았어?")
    with qtbot.waitSignal(pane.turn_finished, timeout=10000):
        first.send()
    first.close()

    second = window_factory()
    again = second.add_session(ScriptedSession("hong", lambda q: scripted_turn("hong")))
    texts = [row.text for row in again.transcript.rows]
    assert texts[0] == "육아휴직 며칠 남았어?"
    assert "8일" in texts[1]
    other = second.add_session(ScriptedSession("cho", lambda q: scripted_turn("cho")))
    assert other.transcript.rowCount() == 0


def test_history_write_failure_is_shown_in_the_status_line(qtbot: Any, window_factory: Any) -> None:
    from desktop.history_store import HistoryWriteError

    window = window_factory()

    from desktop.history_store import HistoryStore

    class FullDisk(HistoryStore):
        def append_turn(self, *args: Any, **kwargs: Any) -> int:
            raise HistoryWriteError("Could not save the conversation history: disk full")

    path = window.history.path
    window.history.close()
    window.history = FullDisk(path)
    pane = window.add_session(ScriptedSession("hong", lambda q: scripted_turn("hong")))
    window.question_edit.setPlainText("질문")
    # the turn is written in the background; its failure reaches the status line
    with qtbot.waitSignal(window._history_failed, timeout=10000):
        with qtbot.waitSignal(pane.turn_finished, timeout=10000):
            window.send()
    assert "disk full" in window.statusBar().currentMessage()


def test_citation_chip_click_emits_doc_and_version(qtbot: Any, window_factory: Any) -> None:
    window = window_factory()
    pane = window.add_session(ScriptedSession("hong", lambda q: scripted_turn("hong")))
    from agent_core.events import Citation

    pane.transcript.add_answer("HR-REG-003 제3차", (Citation("HR-REG-003", 3, None),))
    window.resize(900, 600)
    view = pane.chat
    index = pane.transcript.index(0)
    rect = view.visualRect(index)
    clicked: list[tuple[str, Any]] = []
    pane.citation_clicked.disconnect()
    pane.citation_clicked.connect(lambda doc, version: clicked.append((doc, version)))
    from PySide6.QtCore import QPoint, Qt

    from desktop.chat_view import MARGIN, PADDING

    point = rect.topLeft() + QPoint(MARGIN + PADDING + 10, MARGIN // 2 + PADDING // 2 + 6)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert clicked == [("HR-REG-003", 3)]


def test_keyboard_shortcuts(qtbot: Any, window_factory: Any) -> None:
    import threading

    from PySide6.QtCore import Qt

    gate = threading.Event()
    window = window_factory()
    pane = window.add_session(ScriptedSession("hong", lambda q: scripted_turn(gate=gate)))
    window.activateWindow()
    window.question_edit.setFocus()
    window.question_edit.setPlainText("질문")
    qtbot.keyClick(window.question_edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: pane.running and pane.tools.rowCount() == 1)
    assert window.stop_action.isEnabled()
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        qtbot.keyClick(window.question_edit, Qt.Key.Key_Escape)
    assert blocker.args[0].status == "cancelled"
    qtbot.keyClick(window.question_edit, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert pane.transcript.rowCount() == 0
    qtbot.keyClick(window.question_edit, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    assert window.pages.currentWidget() is window.split_view
    gate.set()


def test_empty_states_title_and_suggestions(qtbot: Any, window_factory: Any) -> None:
    window = window_factory()
    assert window.single_stack.currentWidget() is window.placeholder  # call to action first
    assert window.windowTitle() == "RegDesk"
    questions: list[str] = []
    pane = window.add_session(
        ScriptedSession("hong", lambda q: questions.append(q) or scripted_turn("hong"))
    )
    # Qt appends the display name (" — RegDesk") itself: the title must not repeat it
    assert window.windowTitle() == "hong"
    assert pane.header.isHidden()  # the switcher already names the persona
    assert pane.chat_stack.currentWidget() is pane.suggestions
    suggestion = pane.suggestions.buttons[0]
    with qtbot.waitSignal(pane.turn_finished, timeout=10000):
        suggestion.click()
    assert questions == [suggestion.text()]
    assert pane.chat_stack.currentWidget() is pane.chat
    window.new_chat()
    assert pane.chat_stack.currentWidget() is pane.suggestions


def test_gui_history_and_cli_audit_share_one_data_directory(
    qtbot: Any, window_factory: Any, tmp_path: Any, monkeypatch: Any
) -> None:
    from agent_core.audit import AuditLog

    monkeypatch.delenv("REGDESK_DATA_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    window = window_factory()
    history = Path(window.history.path)
    cli_audit = AuditLog().path  # what `regdesk ask` and the MCP server write to
    assert history.parent == cli_audit.parent == tmp_path / "xdg" / "regdesk"
    assert history.exists()


_FIRST_PAINT_IMPORTS = """
import sys
from PySide6.QtWidgets import QApplication
from desktop.app import ensure_app
from desktop.main_window import MainWindow
app = ensure_app([])
class Waiting:
    def start(self):
        raise RuntimeError("not now")
    def stop(self):
        pass
window = MainWindow(Waiting(), offer_login=False)
window.show()
app.processEvents()
ours = ("desktop", "agent_core", "anthropic")
print(" ".join(sorted(m for m in sys.modules if m.startswith(ours))))
"""


def test_first_paint_imports_only_what_it_shows(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "REGDESK_DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_PAINT_IMPORTS],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    loaded = set(done.stdout.split())
    assert "desktop.main_window" in loaded  # the window was built and shown
    deferred = {
        "desktop.split_view",
        "agent_core.compare",
        "desktop.persona_pane",
        "desktop.chat_view",
        "desktop.tool_call_panel",
        "desktop.evidence_view",
        "desktop.export",
        "desktop.audit_view",
        "desktop.login_dialog",
        "agent_core.session",
        "agent_core.audit",
        "anthropic",
    }
    assert not loaded & deferred


def test_split_view_is_built_on_first_use(qtbot: Any, window_factory: Any) -> None:
    window = window_factory()
    assert window._split_view is None and window.all_panes() == []
    window.toggle_split(True)
    assert window._split_view is not None
    assert window.pages.currentWidget() is window.split_view
    assert len(window.split_view.panes) == 2


def _drain_posted(qtbot: Any) -> None:
    """Wait until every zero-delay callback posted so far has run."""
    from PySide6.QtCore import QTimer

    marker: list[bool] = []
    QTimer.singleShot(0, lambda: marker.append(True))
    qtbot.waitUntil(lambda: marker == [True])


def _ask(qtbot: Any, window: Any, pane: Any) -> None:
    window.question_edit.setPlainText("육아휴직 며칠 남았어?")
    with qtbot.waitSignal(pane.turn_finished, timeout=10000):
        assert window.send()


def _count_collections(monkeypatch: Any) -> list[Any]:
    from desktop.main_window import MainWindow

    collected: list[Any] = []
    original = MainWindow._collect_garbage

    def spy(self: Any) -> None:
        original(self)
        collected.append(self)

    monkeypatch.setattr(MainWindow, "_collect_garbage", spy)
    return collected


def test_garbage_is_collected_after_a_finished_turn_not_at_login_or_switching(
    qtbot: Any, window_factory: Any, monkeypatch: Any
) -> None:
    collected = _count_collections(monkeypatch)
    window = window_factory()
    hong = window.add_session(ScriptedSession("hong", lambda q: scripted_turn("hong")))
    window.add_session(ScriptedSession("cho", lambda q: scripted_turn("cho")))
    window.persona_switcher.setCurrentIndex(window.persona_switcher.findData("hong"))
    window.toggle_split(True)
    window.toggle_split(False)
    _drain_posted(qtbot)
    assert collected == []  # logging in, switching and splitting never collect
    _ask(qtbot, window, hong)
    qtbot.waitUntil(lambda: collected == [window])


def test_the_heap_is_frozen_once_per_process_not_per_window(
    qtbot: Any, window_factory: Any, monkeypatch: Any
) -> None:
    import gc

    import desktop.main_window

    collected = _count_collections(monkeypatch)
    first = window_factory()
    _ask(qtbot, first, first.add_session(ScriptedSession("hong", lambda q: scripted_turn("hong"))))
    qtbot.waitUntil(lambda: collected == [first])
    assert desktop.main_window._gc_frozen
    frozen = gc.get_freeze_count()
    assert frozen > 0
    second = window_factory()
    _ask(qtbot, second, second.add_session(ScriptedSession("cho", lambda q: scripted_turn("cho"))))
    qtbot.waitUntil(lambda: collected == [first, second])
    assert gc.get_freeze_count() == frozen  # the second window did not freeze again


def test_a_collection_pending_when_the_window_goes_is_dropped(qtbot: Any, provider: Any) -> None:
    import shiboken6

    from desktop.main_window import MainWindow

    window = MainWindow(provider, offer_login=False)
    with qtbot.waitSignal(window.services_ready, timeout=60000):
        window.show()
    window.shutdown()
    window._turn_finished()  # posts the collection
    shiboken6.delete(window)
    _drain_posted(qtbot)  # the posted collection did not run on the deleted window


def test_replacing_the_history_store_closes_the_previous_one(
    qtbot: Any, window_factory: Any, tmp_path: Path
) -> None:
    from desktop.history_store import HistoryStore, HistoryWriteError

    window = window_factory()
    _ask(
        qtbot, window, window.add_session(ScriptedSession("hong", lambda q: scripted_turn("hong")))
    )
    old = window.history
    assert [t.question for t in old.turns("hong")] == ["육아휴직 며칠 남았어?"]
    new = HistoryStore(tmp_path / "other.sqlite")
    window.history = new
    assert old.turns("hong") == []  # closed: its connection is gone
    errors: list[HistoryWriteError] = []
    old.submit_turn("hong", "q", "a", [], 0.0, 0.0, "answered", on_error=errors.append)
    assert len(errors) == 1 and "closed" in str(errors[0])
    window.history = new  # the same store again stays open
    assert new.submit_turn("hong", "q", "a", [], 0.0, 0.0, "answered").result(10) > 0
    assert [t.question for t in new.turns("hong")] == ["q"]
