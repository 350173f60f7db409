"""Routing of the desktop's suggested questions (and near neighbours) to the right plan."""

from __future__ import annotations

import pytest

from embedded.model.entities import extract
from embedded.model.intents import detect_intent, split_parts

CASES = [
    ("Which regulations derive from the HR rule?", "derived"),
    ("인사규칙을 근거로 만든 규정은 뭐가 있어?", "derived"),
    ("연차휴가 운영지침은 어떤 규정에 근거하고 있어?", "authority"),
    ("Are any revisions pending for the annual leave regulation?", "pending_status"),
    ("연차휴가 규정에 개정 예정인 게 있어?", "pending_status"),
    ("육아휴직 일수가 앞으로 바뀔 예정이 있나요?", "rule_days"),
    ("Which version of the childcare support rule is in force today?", "in_force_version"),
    ("육아지원규정은 지금 몇 차가 시행 중이야?", "in_force_version"),
    ("HR-REG-003이 무슨 규정이고 몇 차 개정까지 있어?", "describe"),
    ("What is the lodging limit for a business trip to Seoul?", "expense"),
    ("How many days of childcare leave do I have left?", "remaining"),
    ("우리 부서 육아휴직 얼마나 썼어?", "usage"),
    # a document named by number, asked what an article says (not only described)
    ("FIN-GDL-001 숙박비 상한", "search"),
    ("HR-GDL-010 제2조", "search"),
    ("HR-REG-003 개정 이력", "describe"),
    # a name holding a cue word ('남은서' holds '남은') is whom, not days left
    ("남은서 대리 어느부서야?", "person_field"),
    # 'what rules sit above X' asks its authority chain
    ("what rules sit above HR-GDL-002 in the hierarchy?", "authority"),
]


@pytest.mark.parametrize(("question", "intent"), CASES)
def test_question_routes_to_intent(question: str, intent: str) -> None:
    assert detect_intent(question, extract(question)) == intent


def test_english_title_phrases_map_to_korean_title_words() -> None:
    assert extract("Which regulations derive from the HR rule?").title_words == ["인사규정"]
    assert extract("pending for the annual leave regulation?").title_words == ["연차휴가", "규정"]


def test_entities_read_dates_and_amounts_presenters_type() -> None:
    assert extract("25년 2월에 육아휴직 썼으면 한도 몇일이었음?").as_of == "2025-02-28"
    assert extract("근속 25년 이상 직원").as_of is None  # years of service, no date
    assert extract("2021년 여름 재택 몇회").as_of == "2021-08-31"
    assert extract("who signs off on a 4.2 million purchase").amount == 4_200_000
    # a date ahead and a weekday are when, never the topic
    assert extract("다음주 월요일 연차 내려면 언제까지?").keywords[0] == "연차"
    assert "부터" not in extract("그럼 담달부터는 달라져?").keywords


# Parts behind blind sets 42-43 (issue 13).
@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "2024년 5월에 300만원짜리 노트북 샀을 때랑 지금이랑 결재권자 같아?",
            [
                "2024년 5월에 300만원짜리 노트북 샀을 때 결재권자 같아?",
                "지금 300만원짜리 노트북 샀을 때 결재권자 같아?",
            ],
        ),
        ("출장 숙박비 한도랑 일비 얼마야?", ["출장 숙박비 한도 얼마야?", "일비 얼마야?"]),
        ("서울이랑 부산 중에 어디가 더 비싸?", ["서울이랑 부산 중에 어디가 더 비싸?"]),
        ("숙박비 한도랑 일비 합치면 최대 얼마?", ["숙박비 한도랑 일비 합치면 최대 얼마?"]),
        (
            "on 2026-12-22 versus 2026-12-23, which limit applies?",
            ["on 2026-12-22, which limit applies?", "on 2026-12-23, which limit applies?"],
        ),
        (
            "장비 4,990,000원짜리면 팀장 전결로 되나? 딱 500만원이면?",
            ["장비 4,990,000원짜리면 팀장 전결로 되나?", "장비 500만원짜리면 팀장 전결로 되나?"],
        ),
        ("윤도주 대리님 육아휴직 며칠 남았는지 알 수 있어? 같은 팀인데", None),
    ],
)
def test_parts_of_a_question(question: str, parts: list[str] | None) -> None:
    found = split_parts(question)
    assert found == (parts or [question])


def test_this_months_days_are_dates() -> None:
    assert extract("이번달 23일 지나면 어떻게 돼?").relative == (0, "tm:23")
    assert extract("이달 말에 바뀐다던데").relative == (0, "tm:31")
    assert extract("after the 23rd of this month").relative == (0, "tm:23")
