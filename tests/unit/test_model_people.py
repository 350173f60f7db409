"""Who a question is about: the identity line, name candidates, safe lookups."""

from __future__ import annotations

import pytest

from embedded.model.compose import Ctx
from embedded.model.conversation import Turn
from embedded.model.entities import extract
from embedded.model.intents import detect_intent
from embedded.model.people import asker_name, asks_about_self, lookup_sql, named_people

_LINE = (
    "Today is 2025-06-01.\nThe person asking is {name} (username u). Their access is "
    'enforced by the platform; "I/my" in the question means this person.'
)


def test_asker_is_read_from_the_identity_line() -> None:
    assert asker_name("prompt\n" + _LINE.format(name="홍가은")) == "홍가은"
    assert asker_name("prompt without an identity") == ""


@pytest.mark.parametrize("name", ["x' OR '1'='1", "홍가은; DROP", "a--b", "20170003"])
def test_unsafe_display_names_are_never_used(name: str) -> None:
    assert asker_name(_LINE.format(name=name)) == ""


def test_lookup_sql_quotes_only_safe_names() -> None:
    assert lookup_sql(["홍가은"]).endswith("WHERE 성명 = '홍가은' ORDER BY 사번")
    sql = lookup_sql(["홍가은", "x' OR 1=1 --", "Park"])
    assert "성명 IN ('홍가은', 'Park')" in sql
    assert "OR 1=1" not in sql


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("홍가은 연차 얼마나 썼어?", ["홍가은"]),
        ("조태윤 육아휴직 며칠 썼어?", ["조태윤"]),
        ("김민수님 연차 사용일수 알려줘", ["김민수"]),
        ("How many annual leave days has 홍가은 used?", ["홍가은"]),
        ("How much annual leave has Park used?", ["Park"]),
        ("Show Kim Minsu's childcare leave", ["Kim Minsu"]),
    ],
)
def test_names_are_found(question: str, names: list[str]) -> None:
    assert all(n in named_people(question) for n in names)


@pytest.mark.parametrize(
    "question",
    [
        "나 육아휴직 며칠 남았어?",
        "우리 팀 직원들 육아휴직 얼마나 썼는지 알려줘",
        "제 육아휴직 잔여 일수가 어떻게 되나요?",
        "How many days of childcare leave do I have left?",
        "What's the nightly hotel cap for a business trip to Incheon?",
        "육아휴직남은거 몇일?",
    ],
)
def test_plain_hr_questions_name_nobody(question: str) -> None:
    assert named_people(question) == []


def _ctx(question: str) -> Ctx:
    return Ctx(turn=Turn(question=question), ents=extract(question), tools=frozenset())


def test_first_person_is_a_whole_word() -> None:
    assert asks_about_self(_ctx("내 육아휴직 며칠 남았어?"))
    assert asks_about_self(_ctx("How many days do I have left?"))
    assert not asks_about_self(_ctx("우리 팀 직원들 육아휴직 얼마나 썼는지 알려줘"))
    assert not asks_about_self(_ctx("Show childcare leave usage for my department."))


def test_a_named_persons_leave_record_is_usage_and_english_stays_english() -> None:
    question = "조태윤 육아휴직 사용일수 알려줘"
    assert detect_intent(question, extract(question)) == "usage"
    assert extract("How many annual leave days has 홍가은 used?").lang == "en"
    assert extract("홍가은 연차 얼마나 썼어?").lang == "ko"


def test_quote_refuses_anything_but_a_plain_name() -> None:
    from embedded.model.people import quote

    assert quote("홍가은") == "'홍가은'"
    for bad in ("홍가은\n", "x' OR '1'='1", "", "a;b"):
        with pytest.raises(ValueError):
            quote(bad)


def test_romanized_names_are_looked_up_as_the_hangul_names_they_may_be() -> None:
    from embedded.model.people import looked_up, named_people
    from embedded.model.romanized import hangul_names

    assert "김도원" in hangul_names("Kim Do-won")
    assert "김도현" in hangul_names("Do-hyun Kim")
    assert "김도현" in hangul_names("Kim Dohyeon")
    assert hangul_names("Seoul Trip") == []
    assert named_people("Which department is Hong Ga-eun in?") == ["Hong Ga-eun"]
    assert named_people("What is the Seoul lodging cap in May 2024?") == []
    assert "홍가은" in looked_up(["Hong Ga-eun"])
