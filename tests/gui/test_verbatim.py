"""Values from tool results show verbatim: masks, '*', '_', '|' and backslashes are never markup."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from agent_core.events import AnswerFinished, ToolCallFinished, ToolCallStarted, TurnStarted

if TYPE_CHECKING:
    from collections.abc import Iterator

ROWS = [
    {"성명": "홍가은", "연락처": "02-****-****", "주민등록번호": "850315-2******", "비고": "a_b_c"},
    {
        "성명": "홍지아",
        "연락처": "010-****-5678",
        "주민등록번호": "******-*******",
        "비고": "x|y \\ z",
    },
]
RESULT = (
    '<tool-data source="query_hr">\n'
    + json.dumps({"rows": ROWS}, ensure_ascii=False)
    + "\n</tool-data>"
)
ANSWER_LINES = [
    "홍가은: 연락처 02-****-****, 주민등록번호 850315-2******, 비고 a_b_c",
    "홍지아: 연락처 010-****-5678, 주민등록번호 ******-*******, 비고 x|y \\ z",
]
ANSWER = "\n".join(ANSWER_LINES)


def _turn(approver: Any, cancel: Any) -> Iterator[Any]:
    yield TurnStarted("t1", "hong", "q", "scripted")
    yield ToolCallStarted("c1", "query_hr", {"question_sql": "SELECT 연락처"}, "allow")
    yield ToolCallFinished("c1", "query_hr", "ok", 3.0, 2, "2 rows", RESULT)
    yield AnswerFinished(ANSWER)


@pytest.mark.parametrize("value", ["02-****-****", "850315-2******", "******-*******"])
def test_a_mask_alone_is_not_emphasis_even_without_tool_results(qapp: Any, value: str) -> None:
    from desktop.transcript_model import TranscriptRow, displayed_text

    row = TranscriptRow("assistant", f"연락처는 {value} 입니다. **굵게**도 그대로 굵게.")
    assert displayed_text(row) == f"연락처는 {value} 입니다. 굵게도 그대로 굵게."


def test_tool_values_show_verbatim_in_the_chat(qtbot: Any) -> None:
    from desktop.persona_pane import PersonaPane

    pane = PersonaPane("hong")
    qtbot.addWidget(pane)
    pane.turn_factory = lambda question: _turn
    with qtbot.waitSignal(pane.turn_finished, timeout=10000):
        assert pane.ask("연락처 알려줘")
    assert pane.displayed_text().splitlines() == ANSWER_LINES


def test_exports_keep_tool_values_verbatim(qapp: Any) -> None:
    from PySide6.QtGui import QTextDocument

    from agent_core.events import event_to_dict
    from desktop.export import comparison_to_markdown, turn_to_markdown
    from desktop.history_store import SavedTurn

    events = [event_to_dict(e) for e in _turn(None, None)]
    record = SavedTurn(
        1, "hong", "연락처 *모두* 알려줘 | a_b", ANSWER, events, 0.0, 12.0, "answered"
    )

    def rendered(markdown: str) -> str:
        document = QTextDocument()
        document.setMarkdown(markdown)
        return document.toPlainText()

    text = rendered(turn_to_markdown(record))
    for line in ANSWER_LINES:
        assert line in text
    assert "연락처 *모두* 알려줘 | a_b" in text  # the question too
    pane = {"persona": "hong", "answer": ANSWER, "status": "answered", "events": events}
    difference = {"kind": "number", "value": "02-****-****", "present": ["hong"], "absent": []}
    compared = rendered(comparison_to_markdown([pane, dict(pane, persona="cho")], [difference]))
    for line in ANSWER_LINES:
        assert line in compared
    assert "02-****-****" in compared.split(ANSWER_LINES[0])[0]  # the differences table


def test_tool_values_are_read_from_results_cut_at_the_size_limit() -> None:
    from desktop.verbatim import protect_values, tool_values

    values = tool_values([RESULT[: RESULT.index("010-")]])  # cut mid-way, as truncation does
    assert "a_b_c" in values and "02-****-****" in values
    assert protect_values("`a_b_c` and a_b_c", ["a_b_c"]) == "`a_b_c` and a\\_b\\_c"
