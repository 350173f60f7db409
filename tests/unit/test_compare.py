"""What differs between finished panes (pure Python)."""

from __future__ import annotations

from agent_core.compare import (
    answer_figures,
    answer_tokens,
    compare_panes,
    describe_difference,
    row_count_table,
)


def _pane(persona: str, answer: str, tools: list[dict[str, object]]) -> dict[str, object]:
    return {"persona": persona, "answer": answer, "tools": tools}


def test_tokens_keep_dates_and_doc_numbers_apart_from_figures() -> None:
    tokens = answer_tokens("HR-REG-003 제3차(2025-03-15 시행): 20일 중 12일 사용, 1,500,000원")
    assert tokens["doc_no"] == {"HR-REG-003"}
    assert tokens["date"] == {"2025-03-15"}
    assert tokens["version"] == {"3차"}
    assert tokens["days"] == {"20일", "12일"}
    assert tokens["amount"] == {"1500000원"}
    assert tokens["number"] == set()


def test_figures_keep_their_unit_or_the_word_that_names_them() -> None:
    figures = answer_figures(
        "조회 가능한 현황입니다 (1건, 합계 7일).\n"
        "1. 사번 20090001, 연도 2025, 사용일수 7\n"
        "출장비 220000원, 2025년 3월 15일 청구, 숙박 2박"
    )
    assert figures["count"] == {"1건": "1건"}
    assert figures["days"] == {"7일": "7일"}
    assert figures["amount"] == {"220000원": "220,000원"}
    assert figures["date"] == {"2025년 3월 15일": "2025년 3월 15일"}
    assert figures["period"] == {"2박": "2박"}
    # bare figures keep their label; '사용일수 7' is the 7일 already listed; '1.' is numbering
    assert figures["number"] == {"20090001": "사번 20090001", "2025": "연도 2025"}


def test_an_english_function_word_is_no_label() -> None:
    """The strip read "have 8" and "to 25" for an English answer; "version 4" stays named."""
    figures = answer_figures("You have 8 left; version 4 changes it to 25 from then.")
    assert figures["number"] == {"8": "8", "4": "version 4", "25": "25"}


def test_the_same_figure_with_another_unit_is_a_difference() -> None:
    a = _pane("hong", "남은 일수 8일, 1건", [])
    b = _pane("cho", "남은 일수 8건, 1건", [])
    assert [(d["kind"], d["value"], d["present"]) for d in compare_panes([a, b])] == [
        ("days", "8일", ["hong"]),
        ("count", "8건", ["cho"]),
    ]


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
        "20090001 사번 직원은 육아휴직 7일을 썼습니다 (HR-REG-003, 1건, 연도 2025).",
        [
            {"tool": "query_hr", "status": "ok", "row_count": 2},
        ],
    )
    differences = compare_panes([hong, cho])
    numbers = [d for d in differences if d["kind"] in ("days", "count", "number")]
    assert numbers == [
        {"kind": "days", "value": "7일", "present": ["cho"], "absent": ["hong"]},
        {"kind": "count", "value": "1건", "present": ["cho"], "absent": ["hong"]},
        {"kind": "number", "value": "연도 2025", "present": ["cho"], "absent": ["hong"]},
    ]
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


def test_a_date_followed_by_a_particle_is_one_date_not_numbers() -> None:
    tokens = answer_tokens("제4차가 2026-12-22부터 시행될 예정입니다.")
    assert tokens["date"] == {"2026-12-22"}
    assert not any("2026" in n or n == "22" for n in tokens["number"])
