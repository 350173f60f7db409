"""Markdown and JSON exports of a turn and of a comparison."""

from __future__ import annotations

import json

from desktop.export import (
    comparison_to_json,
    comparison_to_markdown,
    turn_to_json,
    turn_to_markdown,
)
from desktop.history_store import SavedTurn

EVENTS = [
    {"kind": "turn_started", "turn_id": "t1", "persona": "hong", "question": "q", "model": "m"},
    {
        "kind": "tool_call_started",
        "call_id": "c1",
        "tool": "query_hr",
        "arguments": {"question_sql": "SELECT 사용일수 FROM semantic.hr.leave_balance"},
        "decision": "allow",
    },
    {
        "kind": "tool_call_finished",
        "call_id": "c1",
        "tool": "query_hr",
        "status": "ok",
        "duration_ms": 12.4,
        "row_count": 1,
        "preview": "1 row",
        "result": "...",
        "truncated": True,
        "injection_suspected": False,
        "error": None,
    },
    {
        "kind": "answer_finished",
        "text": "8일 | 남음",
        "citations": [{"doc_no": "HR-REG-003", "version": 3, "effective_from": "2025-03-15"}],
    },
]

RECORD = SavedTurn(
    id=7,
    persona="hong",
    question="육아휴직 며칠 남았나요?\n두 줄",
    answer="8일 남았습니다.",
    events=EVENTS,
    started_at=1_735_689_600.0,
    elapsed_ms=1234.0,
    status="answered",
)


def test_turn_markdown_has_question_answer_citations_and_tool_table() -> None:
    text = turn_to_markdown(RECORD)
    assert "## RegDesk turn — hong" in text
    assert "> 육아휴직 며칠 남았나요?\n> 두 줄" in text
    assert "8일 남았습니다." in text
    assert "- HR-REG-003 · v3 · effective 2025-03-15" in text
    assert "2025-01-01T00:00:00+00:00" in text
    row = next(line for line in text.splitlines() if line.startswith("| query_hr"))
    assert "| allow | ok | 1 | 12 ms | truncated |" in row
    assert "semantic.hr.leave_balance" in row


def test_turn_json_round_trips_with_tool_calls_paired() -> None:
    document = json.loads(turn_to_json(RECORD))
    assert document["format"] == "regdesk.turn/1"
    assert document["persona"] == "hong"
    assert document["answer"] == "8일 남았습니다."
    assert document["events"] == EVENTS
    assert document["citations"][0]["doc_no"] == "HR-REG-003"
    [call] = document["tool_calls"]
    assert call["tool"] == "query_hr"
    assert call["status"] == "ok"
    assert call["row_count"] == 1
    assert call["decision"] == "allow"
    assert "육아휴직" in turn_to_json(RECORD)  # Korean stays readable, not \\u-escaped


PANES = [
    {
        "persona": "hong",
        "display_name": "홍가은",
        "question": "징계 기준?",
        "answer": "찾을 수 없습니다.",
        "status": "answered",
        "events": EVENTS[:3],
    },
    {
        "persona": "cho",
        "display_name": "조태윤",
        "question": "징계 기준?",
        "answer": "HR-GDL-003에 따르면…",
        "status": "answered",
        "events": [],
    },
]
DIFFERENCES = [
    {"kind": "doc_no", "value": "HR-GDL-003", "홍가은": False, "조태윤": True},
    {"kind": "row_count", "value": "query_hr", "홍가은": 1, "조태윤": 12},
]


def test_comparison_markdown_tables_the_differences_and_shows_each_pane() -> None:
    text = comparison_to_markdown(PANES, DIFFERENCES)
    assert "## RegDesk comparison — 홍가은 / 조태윤" in text
    assert "| kind | value | 홍가은 | 조태윤 |" in text
    assert "| doc_no | HR-GDL-003 |  | ✓ |" in text
    assert "| row_count | query_hr | 1 | 12 |" in text
    assert "## 홍가은 (hong)" in text
    assert "## 조태윤 (cho)" in text
    assert "HR-GDL-003에 따르면…" in text
    assert text.index("홍가은 (hong)") < text.index("조태윤 (cho)")


def test_comparison_markdown_says_when_nothing_differs() -> None:
    assert "No differences found." in comparison_to_markdown(PANES, [])


def test_comparison_json_keeps_panes_and_differences() -> None:
    document = json.loads(comparison_to_json(PANES, DIFFERENCES))
    assert document["format"] == "regdesk.comparison/1"
    assert [p["persona"] for p in document["panes"]] == ["hong", "cho"]
    assert document["panes"][0]["tool_calls"][0]["tool"] == "query_hr"
    assert document["differences"] == DIFFERENCES


def test_comparison_of_split_view_results_reads_well() -> None:
    """Panes and differences in the split view's own shape (agent_core.compare)."""
    from agent_core.compare import compare_panes

    panes = [
        {
            "persona": "hong",
            "question": "징계 기준?",
            "answer": "찾을 수 없습니다.",
            "status": "answered",
            "tools": [
                {
                    "tool": "search_regulations",
                    "arguments": {"question": "징계"},
                    "status": "empty",
                    "row_count": 0,
                    "duration_ms": 5.0,
                    "decision": "allow",
                }
            ],
        },
        {
            "persona": "cho",
            "question": "징계 기준?",
            "answer": "HR-GDL-003 v1에 따릅니다.",
            "status": "answered",
            "tools": [
                {
                    "tool": "search_regulations",
                    "arguments": {"question": "징계"},
                    "status": "ok",
                    "row_count": 4,
                    "duration_ms": 6.0,
                    "decision": "allow",
                }
            ],
        },
    ]
    differences = compare_panes(panes)
    text = comparison_to_markdown(panes, differences)

    assert "| doc_no | HR-GDL-003 | cho | hong |" in text
    assert "hong: 0, cho: 4" in text
    assert "hong: empty, cho: ok" in text
    assert "| search_regulations |" in text  # each pane's tool table, from "tools"
    assert '"question": "징계"' in text
    assert json.loads(comparison_to_json(panes, differences))["differences"] == differences
