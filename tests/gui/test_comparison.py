"""What differs between finished panes (pure Python)."""

from __future__ import annotations

from desktop.comparison import answer_tokens, compare_panes, describe_difference, row_count_table


def _pane(persona: str, answer: str, tools: list[dict[str, object]]) -> dict[str, object]:
    return {"persona": persona, "answer": answer, "tools": tools}


def test_tokens_keep_dates_and_doc_numbers_apart_from_figures() -> None:
    tokens = answer_tokens("HR-REG-003 제3차(2025-03-15 시행): 20일 중 12일 사용, 1,500,000원")
    assert tokens["doc_no"] == {"HR-REG-003"}
    assert tokens["date"] == {"2025-03-15"}
    assert tokens["number"] == {"3", "20", "12", "1500000"}


def test_numbers_on_one_side_only_are_named_with_both_sides() -> None:
    hong = _pane(
        "hong",
        "20090001 사번의 기록은 볼 수 없습니다.",
        [
            {"tool": "query_hr", "status": "empty", "row_count": 0},
        ],
    )
    cho = _pane(
        "cho",
        "20090001 사번 직원은 육아휴직 7일을 썼습니다 (HR-REG-003).",
        [
            {"tool": "query_hr", "status": "ok", "row_count": 2},
        ],
    )
    differences = compare_panes([hong, cho])
    numbers = [d for d in differences if d["kind"] == "number"]
    assert numbers == [{"kind": "number", "value": "7", "present": ["cho"], "absent": ["hong"]}]
    assert {"kind": "doc_no", "value": "HR-REG-003", "present": ["cho"], "absent": ["hong"]} in (
        differences
    )
    assert {"kind": "row_count", "tool": "query_hr", "counts": {"hong": 0, "cho": 2}} in (
        differences
    )
    statuses = [d for d in differences if d["kind"] == "call_status"]
    assert statuses == [
        {"kind": "call_status", "tool": "query_hr", "statuses": {"hong": "empty", "cho": "ok"}}
    ]
    assert "only cho" in describe_difference(numbers[0])


def test_identical_panes_have_no_differences() -> None:
    pane = {
        "answer": "8일 남았습니다",
        "tools": [{"tool": "query_hr", "status": "ok", "row_count": 1}],
    }
    assert compare_panes([{"persona": "a", **pane}, {"persona": "b", **pane}]) == []
    assert compare_panes([{"persona": "a", **pane}]) == []


def test_denied_call_and_tool_called_on_one_side_only() -> None:
    a = _pane("hong", "", [{"tool": "describe_regulation", "status": "denied", "row_count": None}])
    b = _pane(
        "cho",
        "",
        [
            {"tool": "describe_regulation", "status": "ok", "row_count": 3},
            {"tool": "trace_authority", "status": "ok", "row_count": 2},
        ],
    )
    differences = compare_panes([a, b])
    assert {
        "kind": "call_status",
        "tool": "trace_authority",
        "statuses": {"hong": None, "cho": "ok"},
    } in differences
    assert {
        "kind": "call_status",
        "tool": "describe_regulation",
        "statuses": {"hong": "denied", "cho": "ok"},
    } in differences
    table = row_count_table([a, b])
    assert table[0] == {
        "tool": "describe_regulation",
        "counts": {"hong": 0, "cho": 3},
        "differs": True,
    }
