"""The real window against the real embedded platform and offline model (loopback HTTP)."""

from __future__ import annotations

from typing import Any

import pytest

from desktop.demo_personas import demo_passwords


@pytest.fixture
def live_window(qtbot: Any, window_factory: Any, endpoints: Any) -> Any:
    from desktop.services import FixedEndpoints

    return window_factory(FixedEndpoints(endpoints))


def _login(window: Any, *personas: str) -> None:
    passwords = demo_passwords(window.endpoints.ground_truth)
    for persona in personas:
        window.add_session(window.login_persona(persona, passwords[persona]))


def test_admin_is_refused(live_window: Any) -> None:
    from agent_core.errors import AdminRefusedError

    passwords = demo_passwords(live_window.endpoints.ground_truth)
    assert {"hong", "park", "cho"} <= set(passwords)
    if "admin" not in passwords:
        pytest.skip("the ground truth does not publish the admin password")
    with pytest.raises(AdminRefusedError):
        live_window.login_persona("admin", passwords["admin"])
    assert len(live_window.sessions) == 0


def test_split_hong_vs_cho_names_the_differing_numbers(qtbot: Any, live_window: Any) -> None:
    truth = live_window.endpoints.ground_truth
    used = str(truth["hr"]["hr_officer_childcare_used"])
    _login(live_window, "hong", "cho")
    live_window.toggle_split(True)
    view = live_window.split_view
    assert [p.persona for p in view.panes] == ["hong", "cho"]
    starts: dict[str, bool] = {}
    for pane in view.panes:
        pane.turn_started.connect(
            lambda p=pane: starts.update({p.persona: all(x.running for x in view.panes)})
        )
    with qtbot.waitSignal(view.all_finished, timeout=60000) as blocker:
        assert view.ask_all(f"{truth['personas']['cho']['emp_no']} 사번 직원 육아휴직 얼마나 썼어?")
    panes, differences = blocker.args
    assert starts["cho"] is True  # the second pane started while the first ran
    by_persona = {p["persona"]: p for p in panes}
    # the privileged persona sees the figure; the employee does not (same question)
    assert used in by_persona["cho"]["answer"]
    assert used not in by_persona["hong"]["answer"].replace(truth["personas"]["cho"]["emp_no"], "")
    assert {"kind": "days", "value": f"{used}일", "present": ["cho"], "absent": ["hong"]} in (
        differences
    )
    assert any(d["kind"] == "row_count" and d["tool"] == "query_hr" for d in differences)
    strip = view.strip.text()
    assert "Only in cho" in strip and f"{used}일" in strip
    # tool rows streamed into each pane's own panel
    assert view.panes[0].tools.calls[0].status == "empty"
    assert view.panes[1].tools.calls[0].status == "ok"


def test_single_persona_turn_streams_and_is_saved(qtbot: Any, live_window: Any) -> None:
    truth = live_window.endpoints.ground_truth
    _login(live_window, "hong")
    pane = live_window.current_pane()
    inserted: list[str] = []
    pane.tools.rowsInserted.connect(lambda *_: inserted.append("tool"))
    pane.transcript.rowsInserted.connect(
        lambda _p, first, _l: inserted.append(pane.transcript.rows[first].kind)
    )
    changes: list[int] = []
    pane.transcript.dataChanged.connect(lambda a, b, *_: changes.append(a.row()))
    live_window.question_edit.setPlainText("육아휴직 며칠 남았어?")
    with qtbot.waitSignal(pane.turn_finished, timeout=60000) as blocker:
        assert live_window.send()
    result = blocker.args[0]
    assert result.status == "answered"
    assert str(truth["demo_employee"]["remaining"]) in result.answer
    assert inserted.index("tool") < len(inserted) - 1  # a tool row came before the answer row
    assert inserted[-1] == "assistant"
    answer_row = len(pane.transcript.rows) - 1
    assert changes.count(answer_row) >= 2  # the answer grew in place
    saved = live_window.history.turns("hong")
    assert saved[-1].answer == result.answer


def test_citation_opens_the_cited_version_as_that_persona(qtbot: Any, live_window: Any) -> None:
    truth = live_window.endpoints.ground_truth
    _login(live_window, "hong", "cho")
    restricted = truth["restricted"]["doc_no"]
    cho = live_window.panes["cho"]
    hong = live_window.panes["hong"]
    from desktop.evidence_view import EvidenceDialog

    shown = {}
    for persona, pane in (("cho", cho), ("hong", hong)):
        dialog = EvidenceDialog(pane.session, restricted, None, live_window)
        qtbot.addWidget(dialog)
        with qtbot.waitSignal(dialog.loaded, timeout=20000):
            dialog.open()
        shown[persona] = dialog.browser.toPlainText()
        dialog.wait_fetched()
        dialog.close()
    assert "차" in shown["cho"]  # the version table is there
    assert "Cited version" in shown["cho"]  # the effective version, with its articles or a word
    assert "Cited version" not in shown["hong"]
    assert restricted in shown["cho"] and "not available" not in shown["cho"]
    assert "not available" in shown["hong"]


def test_stop_mid_turn_against_the_real_model(qtbot: Any, live_window: Any) -> None:
    _login(live_window, "hong")
    pane = live_window.current_pane()
    live_window.question_edit.setPlainText("육아휴직 며칠 남았어?")
    assert live_window.send()
    qtbot.waitUntil(lambda: pane.tools.rowCount() > 0, timeout=30000)
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        live_window.stop()
    assert blocker.args[0].status == "cancelled"
    assert pane.transcript.rows[-1].kind == "notice"


@pytest.mark.parametrize("approve", [True, False])
def test_write_waits_for_the_approval_dialog(qtbot: Any, live_window: Any, approve: bool) -> None:
    _login(live_window, "park")
    pane = live_window.current_pane()
    live_window.question_edit.setPlainText(
        "연차휴가 규정 개정 요청 넣어줘, 사유는 이월 한도 조정"
        if not approve
        else "육아지원규정 3차에 대해 돌봄휴가 확대 사유로 개정 요청 넣어줘"
    )
    assert live_window.send()
    qtbot.waitUntil(lambda: bool(live_window.approval_dialogs), timeout=30000)
    dialog = live_window.approval_dialogs[0]
    assert dialog.request.persona == "park"
    assert dialog.request.tool == "request_regulation_revision"
    call = pane.tools.calls[-1]
    assert call.status == "awaiting_approval"
    with qtbot.waitSignal(pane.turn_finished, timeout=30000) as blocker:
        (dialog.approve_button if approve else dialog.deny_button).click()
    result = blocker.args[0]
    assert result.status == "answered"
    write = next(c for c in pane.tools.calls if c.tool == "request_regulation_revision")
    assert write.approved is approve
    assert (write.status == "denied") is (not approve)


def test_headless_driver_answers_as_two_personas(
    qtbot: Any, window_factory: Any, endpoints: Any, tmp_path: Any
) -> None:
    from desktop.headless import drive, parse_gui_args
    from desktop.services import FixedEndpoints

    window = window_factory(FixedEndpoints(endpoints))
    shot = tmp_path / "split.png"
    options = parse_gui_args(
        ["--split", "hong,cho", "--ask", "징계 양정기준 알려줘", "--screenshot", str(shot)]
    )
    output = drive(window, options)
    restricted = endpoints.ground_truth["restricted"]["doc_no"]
    answers = {pane["persona"]: pane["answer"] for pane in output["panes"]}
    assert restricted in answers["cho"]  # the HR officer sees the restricted guideline
    assert restricted not in answers["hong"]  # the same question as hong does not
    assert any(
        d["kind"] == "doc_no" and d["value"] == restricted and d["present"] == ["cho"]
        for d in output["differences"]
    )
    assert shot.stat().st_size > 10_000
