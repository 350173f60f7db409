"""The planner completes on any question up to its size limit, and on any tool result.

Every parsing step is linear (issue 10: ``111111111111111111111111111!`` took
28 s and ``'규정' + 260 spaces + 'x'`` 33 s). These tests feed random and
adversarial input and assert each planner call returns a well-formed reply;
how long a call takes is measured in ``bench/bench_model.py`` (never asserted
here). Hypothesis runs derandomized, so the examples are the same every run.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from offered_tools import TOOLS, tool_definitions

from embedded.model.planner import MAX_QUESTION_CHARS, plan_reply
from embedded.model.results import read_result
from embedded.model.wire import MessagesRequest

OFFERED = tool_definitions()
N = MAX_QUESTION_CHARS
ADVERSARIAL = [
    "1" * 27 + "!",
    "규정" + " " * 260 + "x",
    "1" * (N - 1) + "!",
    "규정" + " " * (N - 3) + "x",
    ("1 " * N)[:N],
    ("이십" * N)[:N],
    ("select " * N)[:N],
    ("with " * N)[: N - 5] + " from",
    "사유는 " + " " * (N - 10) + "x 입니다",
    ("를 사유로 , " * N)[:N],
    ("에 대해 " * N)[:N],
    "(" * N,
    "2024년" + " " * (N - 6),
    "january " + " " * (N - 20) + "x",
    ("1," * N)[:N],
    "제" + "1" * (N - 1),
    "version " + "1" * (N - 10) + "a",
    ("because " * N)[:N],
    "만" * (N - 1) + "원",
    ("1 " * (N // 2 - 1)) + "x원",
    "1" * (N - 10) + " years",
    ("krw " + "1," * N)[:N],
    "select x from y" + " " * (N - 40) + "x 실행해줘",
    "select x from y" + "!" * (N - 20),
    "1" * 400 + "원 발주 결재",
    "1.2.3 won 구매 결재",
    "x" * (N + 1),
]
TOKENS = st.sampled_from(
    ["1", "0", " ", "원", "만", "천", "이", "십", "사유는", "사유로", ",", ".", "!", "select",
     "from", "with", "년", "월", "일", "차", "제", "version", "because", "krw", "won", "(", ")",
     "규정", "육아휴직", "에 대해", "를", "\n", "-", "HR-REG-003", "2024", "ago", "years", "나",
     "내", "my", "홍가은", "'s", "김", "|", "[", "]", "{", "}", "\t", "남았어", "썼어", "시행"]
)  # fmt: skip
QUESTIONS = st.one_of(
    st.lists(TOKENS, max_size=N // 2).map(lambda ts: "".join(ts)[:N]),
    # long ones too: Hypothesis prefers small examples, the limit is where quadratic shows
    st.tuples(st.lists(TOKENS, min_size=1, max_size=8), st.integers(N // 2, N)).map(
        lambda t: ("".join(t[0]) * N)[: t[1]]
    ),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=N),
)
RESULTS = st.one_of(
    st.lists(TOKENS, max_size=600).map("".join),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=3000),
)
FAST = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _request(messages: list[dict[str, Any]]) -> MessagesRequest:
    return MessagesRequest(model="m", max_tokens=64, messages=messages, system="", tools=OFFERED)


def _well_formed(blocks: list[dict[str, Any]]) -> None:
    assert blocks and all(b["type"] in ("text", "tool_use") for b in blocks)
    for block in blocks:
        if block["type"] == "tool_use":
            assert block["name"] in TOOLS and isinstance(block["input"], dict)


def _ask(question: str) -> list[dict[str, Any]]:
    blocks = plan_reply(
        _request([{"role": "user", "content": [{"type": "text", "text": question}]}])
    )
    _well_formed(blocks)
    return blocks


@pytest.mark.parametrize("question", ADVERSARIAL, ids=range(len(ADVERSARIAL)))
def test_adversarial_questions_complete(question: str) -> None:
    _ask(question)


def test_a_question_over_the_limit_is_asked_to_be_shorter() -> None:
    (block,) = _ask("가" * (N + 1))
    assert "너무 깁니다" in block["text"]


@FAST
@given(QUESTIONS)
def test_random_questions_complete(question: str) -> None:
    _ask(question)


@FAST
@given(QUESTIONS, RESULTS)
@example("나 육아휴직 며칠 남았어?", "사번 | 성명\n" + "1 | 2 | 3\n" * 500)
@example("육아지원규정은 지금 몇 차가 시행 중이야?", "[HR-REG-003 제3차" * 300)
def test_any_tool_result_is_read(question: str, result: str) -> None:
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": question or "?"}]}
    ]
    for _ in range(4):
        blocks = plan_reply(_request(messages))
        _well_formed(blocks)
        uses = [b for b in blocks if b["type"] == "tool_use"]
        if not uses:
            return
        messages.append({"role": "assistant", "content": blocks})
        messages.append(
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": u["id"], "content": result} for u in uses
                ],
            }
        )


@FAST
@given(st.sampled_from(TOOLS), RESULTS, st.booleans())
def test_readers_return_a_dict(tool: str, text: str, is_error: bool) -> None:
    assert isinstance(read_result(tool, text, is_error), dict)
