"""The question matrix: questions × personas as real agent turns (offline model, real HTTP)."""

from __future__ import annotations

import dataclasses
import sqlite3
import threading
from typing import TYPE_CHECKING, Any

import pytest

from agent_core.cancel import CancelToken
from agent_core.matrix.baseline import diff_runs
from agent_core.matrix.catalog import catalog_from_dict
from agent_core.matrix.questions import adhoc_questions, answer_figures, load_questions
from agent_core.matrix.run import run_matrix
from agent_core.platform_client import PlatformClient
from agent_core.scenarios import persona_password
from agent_core.session import PersonaSession

if TYPE_CHECKING:
    from pathlib import Path

    from agent_core.matrix.cells import MatrixRun, QuestionCell
    from tests.integration.conftest import Stack

PERSONAS = ("hong", "park", "cho")
EMPTY_CATALOG = catalog_from_dict({"deployment": "questions only"})
SUITE = """
suite: mx
as: hong
cases:
  - id: restricted
    ask: 징계 양정기준 알려줘
    expect:
      says_not_found: true
      not_contains: ["${restricted.doc_no}"]
    expect_by_persona:
      cho:
        contains: ["${restricted.doc_no}"]
  - id: childcare
    ask: 육아휴직 며칠까지 쓸 수 있어?
    expect:
      contains: ["${childcare.current_days}일"]
  - id: idempotent_write
    ask: 육아지원규정 3차 개정 요청 다시 한 번 넣어줘
    approval: approve
    expect:
      tools_used: [request_regulation_revision]
      ledger_rows: {sql: "SELECT count(*) FROM revision_requests", equals: 1}
"""


def _run(stack: Stack, questions: Any, **kwargs: Any) -> MatrixRun:
    truth = stack.truth
    clients = [
        PlatformClient(stack.endpoints.ontul_url, p, persona_password(truth, p)) for p in PERSONAS
    ]
    try:
        return run_matrix(
            clients,
            EMPTY_CATALOG,
            platform_url=stack.endpoints.ontul_url,
            questions=questions,
            login=lambda p: PersonaSession.login(
                stack.endpoints, p, persona_password(truth, p), audit=False
            ),
            model_label=stack.endpoints.model_label,
            truth=truth,
            **kwargs,
        )
    finally:
        for c in clients:
            c.close()


@pytest.fixture(scope="module")
def suite_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mx") / "mx.yaml"
    path.write_text(SUITE, encoding="utf-8")
    return path


def test_every_question_as_every_persona_with_assertions(stack: Stack, suite_file: Path) -> None:
    questions = load_questions([suite_file], stack.truth) + adhoc_questions(["내 연락처 알려줘"])
    seen: list[tuple[int, int]] = []
    lock = threading.Lock()

    def progress(done: int, total: int, cell: QuestionCell) -> None:
        with lock:
            seen.append((done, total))

    ledger = f"file:{stack.db_path}?mode=ro"
    with sqlite3.connect(ledger, uri=True) as conn:
        writes_before = conn.execute("SELECT count(*) FROM revision_requests").fetchone()[0]
    run = _run(stack, questions, on_progress=progress, max_workers=3)
    cells = {q.key: q for q in run.questions}
    assert len(cells) == len(questions) * len(PERSONAS)
    # in order, so a progress bar's last value is the total
    assert seen == [(i, len(cells)) for i in range(1, len(cells) + 1)]
    # the case's own persona, and cho through expect_by_persona: power and absence
    assert cells[("cho", "mx/restricted")].status == "pass"
    assert stack.truth["restricted"]["doc_no"] in cells[("cho", "mx/restricted")].answer
    assert cells[("hong", "mx/restricted")].status == "pass", cells[("hong", "mx/restricted")]
    assert cells[("park", "mx/restricted")].status == "answered"  # no assertions for park
    assert cells[("hong", "mx/childcare")].status == "pass"
    for persona in PERSONAS:
        assert cells[(persona, "adhoc/1")].status == "answered"
        assert cells[(persona, "adhoc/1")].answer
    write = cells[("hong", "mx/idempotent_write")]
    assert "request_regulation_revision" in write.tools
    assert any("never writes" in n for n in write.notes)
    assert any(c.get("status") == "denied" for c in write.tool_calls)
    with sqlite3.connect(ledger, uri=True) as conn:
        writes_after = conn.execute("SELECT count(*) FROM revision_requests").fetchone()[0]
    assert writes_after == writes_before


def test_cancel_stops_the_run(stack: Stack, suite_file: Path, no_thread_left: None) -> None:
    questions = load_questions([suite_file], stack.truth)
    cancel = CancelToken()
    run = _run(
        stack, questions, cancel=cancel, max_workers=1, on_progress=lambda *a: cancel.cancel()
    )
    statuses = [q.status for q in run.questions]
    assert len(statuses) == len(questions) * len(PERSONAS)
    assert statuses[0] != "cancelled"
    assert statuses[-1] == "cancelled"


def test_a_changed_figure_and_a_new_failure_are_named(stack: Stack, suite_file: Path) -> None:
    questions = [q for q in load_questions([suite_file], stack.truth) if q.case == "mx/childcare"]
    current = _run(stack, questions)
    hong = next(q for q in current.questions if q.persona == "hong")
    days = f"{stack.truth['childcare']['current_days']}일"
    assert days in hong.figures
    older = f"{stack.truth['childcare']['superseded_days']}일"
    baseline = dataclasses.replace(
        current,
        questions=[
            dataclasses.replace(
                q,
                figures=tuple(sorted({*q.figures} - {days} | {older})),
                status="fail",
                failures=("answer lacks x",),
            )
            if q.persona == "hong"
            else q
            for q in current.questions
        ],
    )
    changes = diff_runs(baseline, current)
    assert {(c.persona, c.name, c.field) for c in changes} == {
        ("hong", "mx/childcare", "figures"),
        ("hong", "mx/childcare", "status"),
        ("hong", "mx/childcare", "failures"),
    }
    figures = next(c for c in changes if c.field == "figures")
    assert days in figures.after and days not in figures.before


def test_a_borrowed_session_busy_with_its_own_turn_is_waited_for(
    stack: Stack, no_thread_left: None
) -> None:
    """The app's session runs a turn (held at its approval); the matrix cell on that
    session waits, says so, and runs after it: never two turns at once on one session."""
    from agent_core.approval import ApprovalDecision
    from agent_core.matrix.questions import QuestionMatrixRunner

    truth = stack.truth
    session = PersonaSession.login(
        stack.endpoints, "hong", persona_password(truth, "hong"), audit=False
    )
    asked, release = threading.Event(), threading.Event()
    waits: list[tuple[str, bool]] = []

    def approver(_request: Any) -> ApprovalDecision:
        asked.set()
        release.wait(60)
        return ApprovalDecision(False, "the test's person denies the write")

    def on_busy(persona: str, waiting: bool) -> None:
        waits.append((persona, waiting))
        release.set()  # the cell is waiting: let the pane's turn finish

    own: list[Any] = []
    pane = threading.Thread(
        target=lambda: own.extend(
            session.run_turn(
                "육아지원규정 3차 개정 요청 넣어줘", approver=approver, cancel=CancelToken()
            )
        )
    )
    try:
        pane.start()
        assert asked.wait(60) and session.busy
        runner = QuestionMatrixRunner(
            lambda _p: session, truth, borrowed=True, on_busy=on_busy, max_workers=2
        )
        cells = runner.run(
            adhoc_questions(["육아휴직 며칠까지 쓸 수 있어?", "내 연락처 알려줘"]), ["hong"]
        )
    finally:
        release.set()
        pane.join(60)
        session.close()
    assert waits[0] == ("hong", True) and waits[-1] == ("hong", False)
    assert [c.status for c in cells] == ["answered", "answered"], [c.failures for c in cells]
    assert own[-1].kind == "answer_finished"


def test_answer_figures() -> None:
    text = "HR-REG-003 제3차(2025-03-15 시행)에 따라 20일, 남은 일수 8일; 220,000원"
    assert answer_figures(text) == ("2025-03-15", "20일", "220,000원", "8일", "HR-REG-003", "제3차")
