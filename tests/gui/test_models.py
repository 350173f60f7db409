"""Transcript model: qtmodeltester, streaming shape, linkified citations."""

from __future__ import annotations

from typing import Any

from gui_scripts import ANSWER, document_anchors, scripted_turn

from agent_core.approval import ApprovalDecision
from agent_core.cancel import CancelToken
from agent_core.events import AnswerDelta, Citation
from desktop.transcript_model import (
    ROLE_HTML,
    TranscriptModel,
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
        model.append_delta(word + " ")  # one change per delta: the worst case for the view
    model.finish_answer(ANSWER)
    assert resets == []
    assert inserted == [1]  # the answer row appeared once
    assert changed and all(pair == (1, 1) for pair in changed)
    assert len(changed) == len(words)  # first delta inserts; the rest + finish change row 1
    assert model.rowCount() == 2
    assert model.rows[1].text == ANSWER and not model.rows[1].streaming


def test_cite_links_read_back() -> None:
    assert parse_cite_link("cite:HR-REG-003:3") == ("HR-REG-003", 3)
    assert parse_cite_link("cite:HR-REG-002:") == ("HR-REG-002", None)
    assert parse_cite_link("https://example.com") is None


def test_html_role_linkifies_finished_answer() -> None:
    model = TranscriptModel()
    model.add_answer("근거: HR-REG-003 제3차", (Citation("HR-REG-003", 3, None),))
    assert "cite:HR-REG-003:3" in model.index(0).data(ROLE_HTML)


def test_cited_hits_keep_one_document_version_in_article_order() -> None:
    from desktop.evidence_view import cited_hits, evidence_html

    hits = [
        {"doc_no": "HR-REG-003", "version": 3, "article_no": "제10조", "text": "열"},
        {"doc_no": "HR-REG-003", "version": 3, "article_no": "제2조", "text": "둘"},
        {"doc_no": "HR-REG-003", "version": 3, "article_no": "제2조", "text": "둘"},
        {"doc_no": "HR-REG-003", "version": 2, "article_no": "제1조", "text": "옛"},
        {"doc_no": "HR-REG-001", "version": 3, "article_no": "제1조", "text": "남"},
    ]
    assert [h["text"] for h in cited_hits(hits, "HR-REG-003", 3)] == ["둘", "열"]
    page = evidence_html(
        "HR-REG-003",
        3,
        {
            "describe": {
                "regulation": {"title": "육아지원규정"},
                "versions": [
                    {
                        "version": 3,
                        "effective_from": "2025-03-15",
                        "stated_from": "2025-01-01",
                        "date_mismatch": 1,
                        "summary": "개정",
                    }
                ],
            },
            "wanted": 3,
            "articles": cited_hits(hits, "HR-REG-003", 3),
            "articles_source": "turn",
        },
    )
    assert "제3차" in page and "2025-01-01" in page and "approved effective date" in page
    assert page.index("제2조") < page.index("제10조") and "옛" not in page


def _shown(html_text: str) -> Any:
    from PySide6.QtGui import QTextDocument

    document = QTextDocument()
    document.setHtml(html_text)
    return document


def test_finished_answer_renders_markdown_table_with_citation_links(qapp: Any) -> None:
    from PySide6.QtGui import QTextTable

    model = TranscriptModel()
    model.add_answer(
        "HR-REG-003 제3차:\n\n| 사번 | 부서 |\n|---|---|\n| 1001 | 인사 |\n\n- **하나**\n- 둘",
        (Citation("HR-REG-003", 3, None),),
    )
    document = _shown(model.index(0).data(ROLE_HTML))
    tables = [f for f in document.rootFrame().childFrames() if isinstance(f, QTextTable)]
    assert len(tables) == 1 and (tables[0].rows(), tables[0].columns()) == (2, 2)
    assert "| 사번" not in document.toPlainText()
    assert document_anchors(document) == ["cite:HR-REG-003:3"]
    assert parse_cite_link(document_anchors(document)[0]) == ("HR-REG-003", 3)


def test_raw_html_in_an_answer_shows_as_text_and_makes_no_link(qapp: Any) -> None:
    model = TranscriptModel()
    answer = (
        '<b>x</b> <img src="file:///etc/passwd"> <a href="file:///etc/passwd">y</a>'
        " [z](file:///etc/shadow) ![i](file:///etc/hosts) HR-REG-002"
    )
    model.add_answer(answer, (Citation("HR-REG-002", None, None),))
    rendered = model.index(0).data(ROLE_HTML)
    document = _shown(rendered)
    text = document.toPlainText()
    assert '<b>x</b> <img src="file:///etc/passwd"> <a href="file:///etc/passwd">y</a>' in text
    assert document_anchors(document) == ["cite:HR-REG-002:"]  # only the citation is a link
    assert "<img" not in rendered.replace("&lt;img", "")
    assert document.allFormats() and not any(f.isImageFormat() for f in document.allFormats())


def test_streaming_row_stays_plain_and_finished_render_is_cached(qapp: Any) -> None:
    model = TranscriptModel()
    model.append_delta("| a | b |\n|---|---|\n| 1 | 2 |")
    assert "<table" not in model.index(0).data(ROLE_HTML)
    model.finish_answer("| a | b |\n|---|---|\n| 1 | 2 |")
    row = model.rows[0]
    first = row.html()
    assert "<table" in first
    assert row.html() is first  # rendered once per revision


def test_answer_lines_stay_separate_lines() -> None:
    """One fact per line in the answer stays one per line on screen (not one paragraph)."""
    from PySide6.QtGui import QTextDocument

    from desktop.transcript_model import render_markdown

    document = QTextDocument()
    document.setHtml(render_markdown("합계 7일.\n권한 밖의 기록은 보이지 않습니다."))
    text = document.toPlainText()
    assert "합계 7일." in text and "권한 밖의 기록은" in text
    assert "합계 7일. 권한" not in text.replace("\u2028", "\n")
    assert "합계 7일.\u2028권한" in text or "합계 7일.\n권한" in text
