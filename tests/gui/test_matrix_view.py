"""The Matrix view over the real embedded services: grid, colours, click-through, cancel.

With ``REGDESK_SCREENSHOT_DIR`` set, the probed view is saved there as
``matrix_view.png`` (the README's screenshot).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette

from agent_core.approval import ApprovalDecision
from agent_core.cancel import CancelToken
from agent_core.scenarios import persona_password
from agent_core.session import PersonaSession
from desktop.matrix_view import MatrixView, status_colors
from desktop.sessions import SessionRegistry

if TYPE_CHECKING:
    from collections.abc import Iterator

    from agent_core.config import Endpoints

PERSONAS = ("hong", "park", "cho")
CONTACT = "semantic.hr.employees.연락처"


@pytest.fixture
def registry(endpoints: Endpoints) -> Iterator[SessionRegistry]:
    truth = endpoints.ground_truth or {}
    sessions = SessionRegistry()
    for p in PERSONAS:
        sessions.add(PersonaSession.login(endpoints, p, persona_password(truth, p), audit=False))
    yield sessions
    for s in sessions:
        s.close()


@pytest.fixture
def view(qtbot: Any, registry: SessionRegistry) -> Iterator[MatrixView]:
    widget = MatrixView(registry)
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.shutdown()


def _index(model: Any, persona: str, kind: str, name: str) -> Any:
    row = model.rows.index((kind, name))
    return model.index(row, 1 + model.personas.index(persona))


def test_probe_fills_the_grid_with_personas_as_columns(
    qtbot: Any, view: MatrixView, tmp_path: Path
) -> None:
    assert view.selected_personas() == list(PERSONAS)
    with qtbot.waitSignal(view.run_finished, timeout=60000):
        assert view.start(with_questions=False)
    model = view.access_model
    assert [
        model.headerData(i, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
        for i in range(1, 4)
    ] == list(PERSONAS)
    park = _index(model, "park", "column", CONTACT)
    cho = _index(model, "cho", "column", CONTACT)
    assert "masked" in model.data(park, Qt.ItemDataRole.DisplayRole)
    assert "visible" in model.data(cho, Qt.ItemDataRole.DisplayRole)
    masked_bg = model.data(park, Qt.ItemDataRole.BackgroundRole)
    assert masked_bg != model.data(cho, Qt.ItemDataRole.BackgroundRole)
    # a live switch to a dark palette repaints the cells dark
    dark = QPalette(view.palette())
    dark.setColor(QPalette.ColorRole.Base, QColor("#1e1e1e"))
    light = view.palette()
    view.setPalette(dark)
    assert model.data(park, Qt.ItemDataRole.BackgroundRole).lightness() < 100
    view.setPalette(light)
    assert model.data(park, Qt.ItemDataRole.BackgroundRole) == masked_bg
    # click-through: the probing query and what came back
    view.access_table.clicked.emit(_index(model, "park", "relation", "semantic.hr.leave_balance"))
    detail = view.detail.toPlainText()
    assert "SELECT count(*) AS n FROM semantic.hr.leave_balance" in detail and "count =" in detail
    view.access_table.clicked.emit(park)
    assert "show a mask" in view.detail.toPlainText()
    out = os.environ.get("REGDESK_SCREENSHOT_DIR")
    if out:
        view.only_differing.setChecked(True)  # what a policy author looks at first
        park = _index(model, "park", "column", CONTACT)
        view.access_table.setCurrentIndex(park)
        view.access_table.clicked.emit(park)
        view.grab().save(str(Path(out) / "matrix_view.png"))
        view.only_differing.setChecked(False)
    # the same data the CLI prints: export it and read it back
    exported = json.loads(view.export(tmp_path / "run.json").read_text(encoding="utf-8"))
    assert exported["personas"] == list(PERSONAS)
    assert exported["cells"] == [c.to_dict() for c in view.run.cells] if view.run else False
    assert "<!DOCTYPE html>" in view.export(tmp_path / "run.html").read_text(encoding="utf-8")


def test_only_differing_rows_filter(qtbot: Any, view: MatrixView) -> None:
    with qtbot.waitSignal(view.run_finished, timeout=60000):
        view.start(with_questions=False)
    everything = view.access_model.rowCount()
    view.only_differing.setChecked(True)
    rows = view.access_model.rows
    assert 0 < len(rows) < everything
    assert ("column", CONTACT) in rows
    assert ("column", "semantic.hr.employees.주민등록번호") not in rows  # denied to all alike


def test_question_run_shows_progress_and_cancel_ends_it(qtbot: Any, view: MatrixView) -> None:
    view.question_edit.setText("육아휴직 며칠까지 쓸 수 있어?")
    with qtbot.waitSignal(view.run_finished, timeout=60000) as done:
        view.ask_button.click()
        assert view.cancel_button.isEnabled() and not view.ask_button.isEnabled()
    run = done.args[0]
    assert {q.persona for q in run.questions} == set(PERSONAS)
    assert view.progress.value() == view.progress.maximum() == 3
    assert view.tabs.currentWidget() is view.question_table
    view.question_table.clicked.emit(view.question_model.index(0, 1))
    assert "육아휴직" in view.detail.toPlainText()
    # cancelled right away: the run still ends, with cancelled cells
    with qtbot.waitSignal(view.run_finished, timeout=60000) as cancelled:
        view.ask_button.click()
        view.cancel_button.click()
    statuses = {q.status for q in cancelled.args[0].questions}
    assert "cancelled" in statuses or statuses <= {"answered", "pass"}
    assert view.ask_button.isEnabled() and not view.cancel_button.isEnabled()


def test_a_persona_busy_in_its_pane_is_waited_for(
    qtbot: Any, view: MatrixView, registry: SessionRegistry
) -> None:
    """hong's pane runs a turn (held at its approval): the matrix says it waits, and asks
    as hong only after that turn ended — never a second turn on one session."""
    hong = registry.get("hong")
    asked, release = threading.Event(), threading.Event()

    def approver(_request: Any) -> ApprovalDecision:
        asked.set()
        release.wait(60)
        return ApprovalDecision(False, "the test's person denies the write")

    pane_events: list[Any] = []
    pane = threading.Thread(
        target=lambda: pane_events.extend(
            hong.run_turn(
                "육아지원규정 3차 개정 요청 넣어줘", approver=approver, cancel=CancelToken()
            )
        ),
        name="pane-turn",
    )
    pane.start()
    try:
        assert asked.wait(60) and hong.busy
        view.question_edit.setText("육아휴직 며칠까지 쓸 수 있어?")
        with qtbot.waitSignal(view.run_finished, timeout=60000) as done:
            view.ask_button.click()
            qtbot.waitUntil(lambda: "busy — waiting" in view.progress.format(), timeout=30000)
            assert "(hong): busy — waiting" in view.status.text()
            assert view.progress.text().endswith("busy — waiting")
            release.set()
    finally:
        release.set()
        pane.join(60)
    cells = {q.persona: q for q in done.args[0].questions}
    assert cells["hong"].status == "answered", cells["hong"]  # not refused as a second turn
    assert cells["hong"].answer
    assert pane_events[-1].kind == "answer_finished"  # the pane's own turn was not disturbed
    assert "busy" not in view.progress.format() and "busy" not in view.status.text()


def test_status_colours_follow_light_and_dark_palettes() -> None:
    light, dark = QPalette(), QPalette()
    light.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
    dark.setColor(QPalette.ColorRole.Base, QColor("#1e1e1e"))
    access = ("visible", "masked", "denied", "hidden", "not_probed", "not_observed", "error")
    for status in (*access, "fail"):
        bg_light, fg_light = status_colors(status, light)
        bg_dark, fg_dark = status_colors(status, dark)
        assert bg_light.lightness() > 150 > bg_dark.lightness()
        # text stays readable on its own background in both themes
        assert abs(bg_light.lightness() - fg_light.lightness()) > 100
        assert abs(bg_dark.lightness() - fg_dark.lightness()) > 100
    for palette in (light, dark):  # every access status has its own colour
        backgrounds = {status_colors(s, palette)[0].name() for s in access}
        assert len(backgrounds) == len(access), backgrounds


# offscreen has neither window stacking nor size hints
@pytest.mark.qt_log_ignore("does not support raise", "does not support propagateSizeHints")
def test_main_window_action_opens_the_matrix_view(qtbot: Any, window_factory: Any) -> None:
    window = window_factory()
    window.open_matrix()
    view = window.matrix_view
    assert view.isVisible()
    assert not view.probe_button.isEnabled()  # nobody signed in yet
    window.open_matrix()
    assert window.matrix_view is view


def test_each_persona_column_shows_only_that_persona_s_data(
    qtbot: Any, view: MatrixView, endpoints: Endpoints
) -> None:
    """A persona's cells and their click-through detail hold none of that persona's canaries.

    Power: cho's cells of the same run show strings that are canaries for hong.
    """
    canaries = (endpoints.ground_truth or {})["canaries"]
    view.question_edit.setText("SELECT 사번, 비고 FROM semantic.hr.leave_balance 실행해줘")
    with qtbot.waitSignal(view.run_finished, timeout=60000):
        view.ask_button.click()
    texts: dict[str, list[str]] = {p: [] for p in PERSONAS}
    for model, table in (
        (view.access_model, view.access_table),
        (view.question_model, view.question_table),
    ):
        for row in range(model.rowCount()):
            for col, persona in enumerate(model.personas, start=1):
                index = model.index(row, col)
                table.clicked.emit(index)
                texts[persona] += [
                    str(model.data(index, Qt.ItemDataRole.DisplayRole)),
                    str(model.data(index, Qt.ItemDataRole.ToolTipRole)),
                    view.detail.toPlainText(),
                ]
    strangers = [c for c in canaries["hong"] if c not in canaries["cho"]]
    assert any(c in t for t in texts["cho"] for c in strangers), "cho's cells show hong-only rows"
    for persona in ("hong", "park"):
        leaked = {c for t in texts[persona] for c in canaries[persona] if c in t}
        assert not leaked, (persona, sorted(leaked)[:3])
