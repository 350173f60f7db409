"""Rosters: lists and filters of employees read from the question, one SELECT planned."""

from __future__ import annotations

import pytest

from embedded.model.compose import Ctx
from embedded.model.conversation import ToolCall, Turn
from embedded.model.entities import extract
from embedded.model.intents import detect_intent
from embedded.model.people import lookup_sql, named_people, roster_query
from embedded.model.plans_roster import plan_roster


@pytest.mark.parametrize(
    "question",
    [
        "List everyone in the sales team with their titles",
        "구매팀 직원 명단이랑 직급 알려줘",
        "우리 팀에서 대리 직급인 사람 누구야?",
        "Which people on my team hold the 대리 title?",
        "회사에서 차장인 사람 누구누구야?",
        "팀원 중 2010년 이전 입사자 알려줘",
        "Who on my team joined after 2022?",
        "What job title and department does the HR system have for me?",
        "보안팀 허은빈 과장 입사일이랑 연락처 좀",
        "우리 팀에서 육아휴직 남은 거 10일 이하인 사람 누구야?",
        "Show me the general managers in the security department",
        "과장 이상인 사람 누구야?",
        "SAL 팀 명단 보여줘",
        "부서별로 직원 몇 명인지 알려줘",
        "Show the staff list for DEV with contacts",
        "Who are the deputy general managers?",
        "2015년 이전에 입사한 사람 목록",
    ],
)
def test_roster_questions_are_rosters(question: str) -> None:
    assert detect_intent(question, extract(question)) == "roster"


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("내 입사일이 언제로 돼 있어?", "person_field"),
        ("우리 팀에서 입사 제일 빠른 사람 누구야?", "person_field"),
        ("우리 팀원들 연락처 전부 알려줘", "contact"),
        ("팀원 중에 연차 10일 이상 쓴 직원 누구야?", "usage"),
        ("나 육아휴직 며칠 남았어?", "remaining"),
    ],
)
def test_questions_other_plans_answer_stay_with_them(question: str, intent: str) -> None:
    assert detect_intent(question, extract(question)) == intent


@pytest.mark.parametrize(
    "question",
    [
        "Who is my manager?",
        "how often can people on my team wfh each week?",
        "How many paid sick days does the company give?",
        "과장 이상 출장 숙박비 한도는 얼마야?",
        "우리 팀 재택근무 승인은 누가 해?",
        "직급별 경조금 규정 알려줘",
        "우리 팀장님 누구야?",
    ],
)
def test_rule_questions_are_no_rosters(question: str) -> None:
    assert detect_intent(question, extract(question)) != "roster"


def test_filters_are_read() -> None:
    r = roster_query("Show me the general managers in the security department")
    assert (r.dept, r.ranks) == ("SEC", ("부장",))
    r = roster_query("과장 이상인 사람 누구야?")
    assert r.ranks == ("과장", "차장", "부장")
    r = roster_query("전 사원 명단 보여줘")
    assert r.everyone and r.ranks == ()
    r = roster_query("팀원 중 2010년 이전 입사자 알려줘")
    assert r.own_team and r.hire is not None
    assert (r.hire.op, r.hire.end, r.hire.either_way) == ("<=", "2010-12-31", True)
    r = roster_query("Who on my team joined after 2022?")
    assert r.hire is not None and (r.hire.op, r.hire.end) == (">", "2022-12-31")
    r = roster_query("2017년 5월에 입사한 사람 누구야?")
    assert r.hire is not None and (r.hire.start, r.hire.end) == ("2017-05-01", "2017-05-31")
    r = roster_query("우리 팀에서 육아휴직 남은 거 10일 이하인 사람 누구야?")
    assert (r.leave, r.left) == ("육아휴직", ("<=", 10))
    r = roster_query("Who in my team has fewer than 10 days of childcare leave left?")
    assert r.left == ("<", 10)


def test_more_filters_are_read() -> None:
    assert roster_query("Show the staff list for DEV with contacts").dept == "DEV"
    assert (
        roster_query("What job title and department does the HR system have for me?").dept is None
    )
    r = roster_query("부서별로 직원 몇 명인지 알려줘")
    assert r.per_dept and r.people
    assert roster_query("내 직급이랑 입사일, 부서 알려줘").fields == ("직급", "부서", "입사일")
    assert roster_query("팀원들 입사일 순으로 알려줘").by_hire


def test_roster_words_are_no_names() -> None:
    assert named_people("회사에서 차장인 사람 누구누구야?") == []
    assert named_people("팀원들 중 육아휴직 잔여일수가 10일 이하로 남은 사람 있어?") == []
    assert named_people("구매팀 직원 명단을 보여줘") == []
    assert named_people("2015년 이전에 입사한 사람 목록") == []


def _ctx(question: str, calls: list[ToolCall] | None = None) -> Ctx:
    return Ctx(
        turn=Turn(question=question, calls=calls or []),
        ents=extract(question),
        tools=frozenset({"query_hr"}),
        asker="홍지아",
    )


def _sql(blocks: list[dict[str, object]]) -> str:
    use = next(b for b in blocks if b["type"] == "tool_use")
    return str(use["input"]["question_sql"])  # type: ignore[index]


def test_one_select_carries_every_filter_and_never_the_national_id() -> None:
    sql = _sql(plan_roster(_ctx("영업팀 과장 이상 중에 2020년 이후 입사한 사람 연락처 알려줘")))
    assert sql.startswith(
        "SELECT 사번, 성명, 부서, 직급, 입사일, 연락처 FROM semantic.hr.employees"
    )
    assert "부서 = 'SAL'" in sql and "직급 IN ('과장', '차장', '부장')" in sql
    assert "CAST(입사일 AS VARCHAR) >= '18262'" in sql  # 2020-01-01
    assert "주민등록번호" not in sql


def test_my_team_is_the_askers_department_from_their_own_row() -> None:
    question = "Who on my team joined after 2022?"
    first = plan_roster(_ctx(question))
    assert _sql(first) == lookup_sql(["홍지아"])
    own = ToolCall(
        name="query_hr",
        input={"question_sql": lookup_sql(["홍지아"])},
        data={"columns": ["사번", "성명", "부서"], "rows": [["20150010", "홍지아", "DEV"]]},
    )
    second = _sql(plan_roster(_ctx(question, [own])))
    assert "부서 = 'DEV'" in second and "> '19357'" in second  # after 2022-12-31
    empty = ToolCall(
        name="query_hr", input={"question_sql": second}, data={"columns": [], "rows": []}
    )
    text = plan_roster(_ctx(question, [own, empty]))[0]["text"]
    assert "Nothing came back that you may see" in text
