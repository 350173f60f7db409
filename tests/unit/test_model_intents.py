"""Routing of the desktop's suggested questions (and near neighbours) to the right plan."""

from __future__ import annotations

import pytest

from embedded.model.entities import extract
from embedded.model.intents import detect_intent

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
]


@pytest.mark.parametrize(("question", "intent"), CASES)
def test_question_routes_to_intent(question: str, intent: str) -> None:
    assert detect_intent(question, extract(question)) == intent


def test_english_title_phrases_map_to_korean_title_words() -> None:
    assert extract("Which regulations derive from the HR rule?").title_words == ["인사규정"]
    assert extract("pending for the annual leave regulation?").title_words == ["연차휴가", "규정"]
