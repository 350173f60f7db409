"""Transcript and tool-call models: qtmodeltester, streaming shape, linkified citations."""

from __future__ import annotations

from typing import Any

from gui_scripts import ANSWER, approval_turn, scripted_turn

from agent_core.approval import ApprovalDecision
from agent_core.cancel import CancelToken
from agent_core.events import AnswerDelta, ToolCallFinished, ToolCallStarted
from desktop.tool_call_model import COLUMNS, ToolCallModel
from desktop.transcript_model import (
    ROLE_HTML,
    TranscriptModel,
    linkify_citations,
    parse_cite_link,
)


def _feed_transcript(model: TranscriptModel) -> None:
    model.add_question("질문")
    for event in scripted_turn()(lambda r: ApprovalDecision(True), CancelToken()):
        if isinstance(event, AnswerDelta):
            model.append_delta(event.text)
        elif event.kind == "answer_finished":
            model.finish_answer(event.text, event.citations)  # type: ignore[union-attr]


def test_transcript_model_passes_qtmodeltester(qtmodeltester: Any) -> None:
    model = TranscriptModel()
    _feed_transcript(model)
    model.add_notice("Stopped.")
    qtmodeltester.check(model, force_py=True)


def test_tool_call_model_passes_qtmodeltester(qtmodeltester: Any) -> None:
    model = ToolCallModel()
    model.start_call(ToolCallStarted("a", "search_regulations", {"question": "육아"}, "allow"))
    model.start_call(ToolCallStarted("b", "query_hr", {"question_sql": "SELECT 1"}, "allow"))
    model.finish_call(ToolCallFinished("a", "search_regulations", "ok", 3.0, 5, "5 hits", "{}"))
    qtmodeltester.check(model, force_py=True)
    model.clear()


def test_streamed_answer_grows_one_row_with_data_changed_only(qtbot: Any) -> None:
    model = TranscriptModel()
    model.add_question("질문")
    resets: list[int] = []
    inserted: list[int] = []
    changed: list[tuple[int, int]] = []
    model.modelReset.connect(lambda: resets.append(1))
    model.rowsInserted.connect(lambda _p, first, _last: inserted.append(first))
    model.dataChanged.connect(lambda a, b, *_: changed.append((a.row(), b.row())))
    words = ANSWER.split(" ")
    for word in words:
        model.append_delta(word + " ")
        model.flush()  # one flush per delta: the worst case for the view
    model.finish_answer(ANSWER)
    assert resets == []
    assert inserted == [1]  # the answer row appeared once
    assert changed and all(pair == (1, 1) for pair in changed)
    assert len(changed) == len(words)  # first delta inserts; the rest + finish change row 1
    assert model.rowCount() == 2
    assert model.rows[1].text == ANSWER and not model.rows[1].streaming


def test_deltas_are_coalesced_until_the_flush_timer(qtbot: Any) -> None:
    model = TranscriptModel()
    model.append_delta("a")
    model.flush()
    changed: list[int] = []
    model.dataChanged.connect(lambda *_: changed.append(1))
    for _ in range(500):
        model.append_delta("b")
    assert model.rows[0].text == "a"  # nothing reached the row yet
    qtbot.waitUntil(lambda: model.rows[0].text == "a" + "b" * 500)
    assert len(changed) == 1


def test_citations_become_links_and_text_is_escaped() -> None:
    html = linkify_citations("<b>HR-REG-003 제3차</b> 및 FIN-GDL-001 v2, HR-REG-002")
    assert "&lt;b&gt;" in html
    assert '<a href="cite:HR-REG-003:3">HR-REG-003 제3차</a>' in html
    assert '<a href="cite:FIN-GDL-001:2">FIN-GDL-001 v2</a>' in html
    assert '<a href="cite:HR-REG-002:">HR-REG-002</a>' in html
    assert parse_cite_link("cite:HR-REG-003:3") == ("HR-REG-003", 3)
    assert parse_cite_link("cite:HR-REG-002:") == ("HR-REG-002", None)
    assert parse_cite_link("https://example.com") is None


def test_html_role_linkifies_finished_answer() -> None:
    model = TranscriptModel()
    model.add_answer("근거: HR-REG-003 제3차")
    assert "cite:HR-REG-003:3" in model.index(0).data(ROLE_HTML)


def test_approval_round_trip_updates_decision_badge() -> None:
    model = ToolCallModel()
    events = list(approval_turn()(lambda r: ApprovalDecision(False, "아직 아님"), CancelToken()))
    for event in events:
        if event.kind == "tool_call_started":
            model.start_call(event)  # type: ignore[arg-type]
        elif event.kind == "approval_requested":
            model.await_approval(event.call_id)  # type: ignore[union-attr]
            status = model.index(0, COLUMNS.index("status")).data()
            assert status == "awaiting approval"
        elif event.kind == "approval_resolved":
            model.resolve_approval(event)  # type: ignore[arg-type]
        elif event.kind == "tool_call_finished":
            model.finish_call(event)  # type: ignore[arg-type]
    assert model.index(0, COLUMNS.index("decision")).data() == "denied by you"
    assert model.index(0, COLUMNS.index("status")).data() == "denied"
