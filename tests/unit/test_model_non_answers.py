"""The three honest non-answers (SPEC §5, issue 13 item 3), worded apart.

"did not understand" (a planner, not an LLM), "the regulations do not cover
this", and "nothing came back that you may see" — only the last speaks of
access, and only when a tool actually came back empty.
"""

from __future__ import annotations

from typing import Any

import pytest

from embedded.model.compose import NOT_UNDERSTOOD_EN, NOT_UNDERSTOOD_KO
from embedded.model.planner import plan_reply
from embedded.model.wire import MessagesRequest

TOOLS = [{"name": "search_regulations", "input_schema": {"type": "object"}}]
ACCESS_WORDS = ("권한", "access", "available to you", "may see")
COVERING = "\n".join(
    [
        "[HR-REG-003 제3차 제3조 시행 2025-03-15]",
        "자녀 1명당 연간 최대 20일의 육아휴직을 쓸 수 있다.",
    ]
)


def turn(
    question: str,
    result: str | None = None,
    is_error: bool = False,
    tools: list[dict[str, Any]] | None = None,
) -> tuple[str, int]:
    """(final text, tool calls made) for a question whose every tool call returns ``result``."""
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": question}]}
    ]
    calls = 0
    for _ in range(4):
        blocks = plan_reply(
            MessagesRequest(
                model="m", max_tokens=64, messages=messages, system="", tools=tools or TOOLS
            )
        )
        uses = [b for b in blocks if b["type"] == "tool_use"]
        if not uses:
            return "".join(b["text"] for b in blocks if b["type"] == "text"), calls
        calls += len(uses)
        assert result is not None, f"unexpected tool call {uses}"
        messages += [
            {"role": "assistant", "content": blocks},
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": u["id"], "content": result,
                     "is_error": is_error}
                    for u in uses
                ],
            },
        ]  # fmt: skip
    raise AssertionError("no answer")


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        ("qzxvwk plmoqj", NOT_UNDERSTOOD_EN),
        ("ㅁㄴㅇㄹ ㅋㅋ", NOT_UNDERSTOOD_KO),
        ("?!", NOT_UNDERSTOOD_EN),
    ],
)
def test_a_question_with_no_topic_is_not_understood(question: str, opening: str) -> None:
    answer, calls = turn(question)
    assert answer.startswith(opening) and calls == 0
    assert not any(w in answer for w in ACCESS_WORDS)
    assert "HR-REG" in answer or "?" in answer  # it offers questions it can answer


def test_a_topic_the_regulations_do_not_cover() -> None:
    # Searched for its topic words, then for the question as written (the last look
    # before 'not covered'); neither finds the topic, so no neighbouring figure is given.
    answer, calls = turn("반려동물 돌봄휴가는 며칠이야?", COVERING)
    assert calls == 2 and "다루지 않습니다" in answer and "20일" not in answer
    assert not any(w in answer for w in ACCESS_WORDS)
    english, _ = turn("How many days of pet care leave do I get?", COVERING)
    assert "do not cover" in english and not any(w in english for w in ACCESS_WORDS)


HR_TOOLS = [{"name": "query_hr", "input_schema": {"type": "object"}}]
EMPTY_ROWS = '{"columns": ["사번", "성명"], "rows": []}'


def test_an_empty_regulation_search_is_not_covered() -> None:
    # No regulation text matched the question's words: the regulations do not speak
    # of it (sick days), which is no question of access.
    answer, _ = turn("반려동물 돌봄휴가는 며칠이야?", "해당하는 규정을 찾지 못했습니다.")
    assert "다루지 않습니다" in answer and not any(w in answer for w in ACCESS_WORDS)
    english, _ = turn("How many sick days do we get per year?", '{"hits": []}')
    assert "do not cover" in english and not any(w in english for w in ACCESS_WORDS)


def test_an_empty_record_lookup_is_nothing_you_may_see() -> None:
    answer, calls = turn("나 구매요청 올린 거 있어?", EMPTY_ROWS, tools=HR_TOOLS)
    assert calls == 1 and "조회 가능한 결과가 없습니다" in answer and "권한" in answer


def test_the_real_platforms_empty_lexical_match_error_means_no_rows() -> None:
    error = 'RuntimeError: SQL parse error: Encountered "WHERE" at line 1, column 88.'
    answer, _ = turn("반려동물 돌봄휴가는 며칠이야?", error, is_error=True)
    assert "다루지 않습니다" in answer and "실패" not in answer


def test_the_three_are_worded_apart() -> None:
    understood, _ = turn("qzxvwk plmoqj")
    covered, _ = turn("How many days of pet care leave do I get?", COVERING)
    visible, _ = turn("Do I have any purchase orders pending?", EMPTY_ROWS, tools=HR_TOOLS)
    openings = {understood[:30], covered[:30], visible[:30]}
    assert len(openings) == 3
    assert [any(w in a for w in ACCESS_WORDS) for a in (understood, covered, visible)] == [
        False,
        False,
        True,
    ]
