"""Split view: panes run at the same time; the strip names the differences."""

from __future__ import annotations

import threading
from typing import Any

from gui_scripts import ScriptedSession, scripted_turn

from agent_core.events import TurnFailed


def _rendezvous_turn(persona: str, arrived: dict[str, threading.Event], answer: str) -> Any:
    """A turn that waits until every persona's turn has started.

    If the panes ran one after another, the first would never see the second
    arrive and would fail — so an answered turn proves the two overlapped.
    """
    inner = scripted_turn(persona, answer=answer)

    def turn(approver: Any, cancel: Any) -> Any:
        arrived[persona].set()
        for other, event in arrived.items():
            if other != persona and not event.wait(10):
                yield TurnFailed("timeout", f"{other} never started while {persona} ran")
                return
        yield from inner(approver, cancel)

    return turn


def _split_window(window_factory: Any, answers: dict[str, str]) -> Any:
    window = window_factory()
    arrived = {persona: threading.Event() for persona in answers}
    for persona, answer in answers.items():
        window.add_session(
            ScriptedSession(
                persona,
                lambda q, p=persona, a=answer: _rendezvous_turn(p, arrived, a),
            )
        )
    window.toggle_split(True)
    return window


def test_ask_all_runs_both_panes_at_the_same_time(qtbot: Any, window_factory: Any) -> None:
    window = _split_window(
        window_factory, {"hong": "8일 남았습니다.", "cho": "20090001 직원은 7일 사용했습니다."}
    )
    view = window.split_view
    assert [pane.persona for pane in view.panes] == ["hong", "cho"]
    running_together: list[bool] = []
    view.panes[1].turn_started.connect(
        lambda: running_together.append(view.panes[0].running and view.panes[1].running)
    )
    with qtbot.waitSignal(view.all_finished, timeout=20000) as blocker:
        view.question.setText("육아휴직 얼마나 썼어?")
        view.ask_button.click()
    panes, differences = blocker.args
    assert running_together == [True]
    assert [p["status"] for p in panes] == ["answered", "answered"]
    assert {p["persona"] for p in panes} == {"hong", "cho"}
    values = {(d["value"], tuple(d["present"])) for d in differences if d["kind"] == "days"}
    assert ("7일", ("cho",)) in values
    assert ("8일", ("hong",)) in values
    strip = view.strip.text()
    assert "Only in cho" in strip and "7일" in strip
    assert view.strip.export_button.isEnabled()
    assert window.last_comparison == (panes, differences)


def test_the_strip_grows_to_show_every_difference(qtbot: Any, window_factory: Any) -> None:
    window = _split_window(
        window_factory, {"hong": "8일 남았습니다.", "cho": "20090001 직원은 7일 사용했습니다."}
    )
    window.resize(1400, 900)
    window.show()
    view = window.split_view
    before = view.vertical_splitter.sizes()[1]
    with qtbot.waitSignal(view.all_finished, timeout=20000):
        view.question.setText("육아휴직 얼마나 썼어?")
        view.ask_button.click()
    qtbot.waitUntil(lambda: view.strip.scroll_area.verticalScrollBar().maximum() == 0)
    assert view.vertical_splitter.sizes()[1] >= before


def test_panes_can_be_added_removed_and_rebound(qtbot: Any, window_factory: Any) -> None:
    window = _split_window(window_factory, {"hong": "a", "park": "b", "cho": "c"})
    view = window.split_view
    assert len(view.panes) == 2
    pane = view.add_pane()
    assert pane.persona == "cho"
    assert len(view.panes) == 3
    view.remove_pane(view.split_panes[0])
    assert [p.persona for p in view.panes] == ["park", "cho"]
    split = view.split_panes[0]
    split.persona_box.setCurrentIndex(split.persona_box.findData("hong"))
    assert view.panes[0].persona == "hong"


def test_toggle_split_with_shortcut_state(qtbot: Any, window_factory: Any) -> None:
    window = _split_window(window_factory, {"hong": "a", "cho": "b"})
    assert window.pages.currentWidget() is window.split_view
    window.toggle_split()
    assert window.pages.currentWidget() is window.single_page
    assert not window.split_action.isChecked()


def test_an_added_pane_opens_citations_once_and_keeps_stop_current(
    qtbot: Any, window_factory: Any
) -> None:
    window = _split_window(window_factory, {"hong": "a", "park": "b"})
    window.add_session(ScriptedSession("cho", lambda q: scripted_turn("cho")))
    view = window.split_view
    added = view.add_pane("cho")
    opened: list[tuple[str, object]] = []
    window.open_evidence = lambda doc_no, version: opened.append((doc_no, version))  # type: ignore[method-assign]
    assert added.approval_handler is not None
    for pane in view.panes:
        pane.citation_clicked.emit("HR-REG-003", 3)
    assert len(opened) == 3  # the first two panes were not connected a second time at login
    assert not window.stop_action.isEnabled()
    with qtbot.waitSignal(added.turn_finished, timeout=10000):
        added.ask("q")
        assert window.stop_action.isEnabled()
    assert not window.stop_action.isEnabled()


def test_three_panes_of_english_suggestions_fit_a_small_window(
    qtbot: Any, window_factory: Any
) -> None:
    window = _split_window(window_factory, {"hong": "a", "park": "b", "cho": "c"})
    window.split_view.add_pane("cho")
    assert len(window.split_view.panes) == 3
    assert window.minimumSizeHint().width() <= 1024
    assert window.minimumSizeHint().height() <= 700
    button = window.split_view.panes[0].suggestions.buttons[1]
    assert button.toolTip() == button.text()  # the full question when it is elided


def test_a_picked_suggestion_keeps_the_typed_question(qtbot: Any, window_factory: Any) -> None:
    window = _split_window(window_factory, {"hong": "a", "cho": "b"})
    view = window.split_view
    view.question.setText("아직 쓰는 중인 질문")
    button = view.panes[0].suggestions.buttons[0]
    with qtbot.waitSignal(view.all_finished, timeout=20000) as blocker:
        button.click()
    panes, _ = blocker.args
    assert {p["question"] for p in panes} == {button.toolTip()}
    assert view.question.text() == "아직 쓰는 중인 질문"
    # asked from the box, the box is cleared as before
    with qtbot.waitSignal(view.all_finished, timeout=20000):
        view.ask_button.click()
    assert view.question.text() == ""


def test_one_signed_in_persona_is_not_compared_with_itself(qtbot: Any, window_factory: Any) -> None:
    window = window_factory()
    window.add_session(ScriptedSession("hong", lambda q: scripted_turn("hong")))
    window.toggle_split(True)
    view = window.split_view
    first, second = view.split_panes
    assert first.pane.persona == "hong"
    assert second.pane.session is None  # not hong again
    assert second.persona_box.currentText() == "Sign in…"
    opened: list[bool] = []
    view.sign_in_requested.connect(lambda: opened.append(True))
    second.persona_box.setCurrentIndex(second.persona_box.count() - 1)
    second._chosen()
    assert opened  # the pane's menu signs another persona in
    window.add_session(ScriptedSession("cho", lambda q: scripted_turn("cho")))
    assert second.pane.persona == "cho"  # ... and the pane takes it
    assert window.windowTitle() == "Compare: hong, cho"
    first.persona_box.setCurrentIndex(first.persona_box.findData("cho"))
    assert window.windowTitle() == "Compare: cho, cho"  # the title follows the menus


def test_a_sign_in_after_removing_a_pane_does_not_reach_the_removed_pane(
    qtbot: Any, window_factory: Any
) -> None:
    """The removed pane's connection to the shared session registry goes with it."""
    from PySide6.QtCore import QCoreApplication, QEvent

    window = _split_window(window_factory, {"hong": "a", "park": "b", "cho": "c"})
    view = window.split_view
    view.add_pane()
    removed = view.split_panes[0]
    view.remove_pane(removed)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # deleteLater runs
    # what a new sign-in emits; pytest-qt fails the test on an exception in a slot
    window.sessions.changed.emit()
    assert [p.persona for p in view.panes] == ["park", "cho"]
