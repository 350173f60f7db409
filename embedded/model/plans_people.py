"""Plans about one employee's record: contact numbers (masking decided by the platform)."""

from __future__ import annotations

import re
from typing import Any

from embedded.model.compose import Blocks, Ctx, answer, call, failure, nothing_visible, rows_of
from embedded.model.departments import named_departments
from embedded.model.intents import cue
from embedded.model.people import (
    EMPLOYEES_VIEW,
    TEAM_WORDS,
    asked_fields,
    asks_about_self,
    looked_up,
    lookup_sql,
    named_people,
    people_of,
    quote,
)

_CONTACT_SQL = f"SELECT 사번, 성명, 부서, 직급, 연락처 FROM {EMPLOYEES_VIEW}"
_NATIONAL_ID_SQL = f"SELECT 사번, 주민등록번호 FROM {EMPLOYEES_VIEW}"


def _targets(ctx: Ctx) -> list[str]:
    """Whose record: the people named, else the asker (when 'my …')."""
    names = named_people(ctx.turn.question)
    if names:
        return names
    if asks_about_self(ctx) and ctx.asker:
        return [ctx.asker]
    return []


def _contact_sql(names: list[str]) -> str:
    if not names:
        return _CONTACT_SQL + " ORDER BY 사번"
    where = " OR ".join(f"성명 = {quote(n)}" for n in looked_up(names))
    return f"{_CONTACT_SQL} WHERE {where} ORDER BY 사번"


def _contact_call(ctx: Ctx) -> Any:
    return next(
        (
            c
            for c in reversed(ctx.turn.calls)
            if c.name == "query_hr" and "연락처" in str(c.input.get("question_sql"))
        ),
        None,
    )


def _national_id_call(ctx: Ctx) -> Any:
    return next(
        (
            c
            for c in reversed(ctx.turn.calls)
            if c.name == "query_hr" and "주민등록번호" in str(c.input.get("question_sql"))
        ),
        None,
    )


_CODE = re.compile(r"[A-Z]{2,5}")


def _team_contacts(ctx: Ctx) -> Blocks | None:
    """'우리 팀원들 연락처 전부': the asker's department, looked up first; None if not asked."""
    lowered = ctx.turn.question.lower()
    if named_people(ctx.turn.question) or not any(w in lowered for w in TEAM_WORDS):
        return None
    calls = [c for c in ctx.turn.calls if c.name == "query_hr"]
    if not calls:
        if not ctx.asker:
            return None
        return call(ctx, "query_hr", {"question_sql": _contact_sql([ctx.asker])})
    mine = calls[0]
    if mine.failed:
        return answer(failure(ctx, mine))
    columns, rows = rows_of(mine)
    depts = {str(r[columns.index("부서")]) for r in rows if "부서" in columns}
    if len(depts) != 1 or not _CODE.fullmatch(next(iter(depts))):
        return answer(nothing_visible(ctx, ctx.t("팀원들의 연락처", "your team's contacts")))
    dept = next(iter(depts))
    if len(calls) < 2:
        sql = f"{_CONTACT_SQL} WHERE 부서 = '{dept}' ORDER BY 사번"
        return call(ctx, "query_hr", {"question_sql": sql})
    return _contact_lines(ctx, calls[1], [dept], limit=30)


def plan_contact(ctx: Ctx) -> Blocks:
    """An employee's contact number from the employees view, as the platform shows it.

    The row filter decides whose rows come back and the column mask how the number
    reads; a national ID asked in the same breath is tried and its refusal reported.
    """
    team = _team_contacts(ctx)
    if team is not None:
        return team
    names = _targets(ctx)
    if not names and not asks_about_self(ctx):
        return answer(
            ctx.t(
                "누구의 연락처인지 알 수 없습니다. 이름을 넣어 다시 물어봐 주세요.",
                "I could not tell whose contact number you mean; ask again with a name.",
            )
        )
    result = _contact_call(ctx)
    if result is None:
        return call(ctx, "query_hr", {"question_sql": _contact_sql(names)})
    if result.failed:
        return answer(failure(ctx, result))
    national = cue(ctx.turn.question, "national_id")
    if national and _national_id_call(ctx) is None and ctx.has("query_hr"):
        return call(ctx, "query_hr", {"question_sql": _NATIONAL_ID_SQL})
    return _contact_lines(ctx, result, names, national)


def _contact_lines(
    ctx: Ctx, result: Any, names: list[str], national: bool = False, limit: int = 10
) -> Blocks:
    columns, rows = rows_of(result)
    records = [dict(zip(columns, r, strict=False)) for r in rows]
    if not records:
        who = ", ".join(names) or ctx.t("질문하신 분", "you")
        return answer(nothing_visible(ctx, ctx.t(f"{who}의 연락처", f"the contact of {who}")))
    if not names and len(records) > 1 and limit == 10:
        return answer(
            ctx.t(
                f"조회 가능한 직원 기록이 {len(records)}건이라 어느 것이 질문하신 분의 것인지 "
                "알 수 없습니다. 이름을 넣어 다시 물어봐 주세요.",
                f"{len(records)} employee records are visible to you, so which one is yours is "
                "ambiguous; ask again with your name.",
            )
        )
    lines = []
    masked = False
    for rec in records[:limit]:
        phone = str(rec.get("연락처") or "")
        masked = masked or "*" in phone
        label = f"{rec.get('성명')} ({rec.get('사번')}, {rec.get('부서')} {rec.get('직급') or ''})"
        lines.append(
            ctx.t(
                f"{label.replace(' )', ')')}의 연락처는 {phone}입니다.",
                f"{label.replace(' )', ')')}: contact number {phone}.",
            )
        )
    text = "\n".join(lines)
    if masked:
        text += ctx.t(
            "\n번호의 일부는 조회 권한에 따라 플랫폼이 가려서(마스킹) 보여준 것으로, 가려진 "
            "자리(****)의 숫자는 볼 수 없습니다.",
            "\nPart of the number is masked by the platform for your access level; the "
            "masked digits (****) cannot be shown.",
        )
    if national:
        refused = _national_id_call(ctx)
        text += "\n" + (
            ctx.t(
                "주민등록번호는 조회 권한이 없어 확인할 수 없습니다 (플랫폼이 거부함).",
                "The resident registration number is not available to you: the platform "
                "denied that query.",
            )
            if refused is None or refused.failed
            else ctx.t(
                "주민등록번호는 민감한 개인정보라 답변에 표시하지 않습니다.",
                "Resident registration numbers are sensitive and are not shown in answers.",
            )
        )
    return answer(text)


_FIELDS = f"SELECT 사번, 성명, 부서, 직급, 입사일 FROM {EMPLOYEES_VIEW}"


_FIRST = (
    "제일 빠른", "가장 빠른", "제일 먼저", "가장 먼저", "제일 오래", "가장 오래", "최고참",
    "최장기",
)  # fmt: skip
_FIRST_EN = ("earliest", "longest", "most senior", "first to join", "joined first")
_LAST = ("제일 늦", "가장 늦", "가장 최근", "제일 최근", "막내", "latest", "most recent", "newest")
_OWN_GROUP = ("우리 팀", "우리팀", "저희 팀", "우리 부서", "저희 부서", "my team", "our team")


def _hire_order(question: str) -> str | None:
    """'입사 제일 빠른 사람', 'most recent hire': the order asked over hire dates."""
    lowered = question.lower()
    if any(w in lowered for w in _FIRST + _FIRST_EN):
        return "ASC"
    if any(w in lowered for w in _LAST):
        return "DESC"
    return None


def _hire_extreme(ctx: Ctx, order: str) -> Blocks:
    """The first (or last) hire among the employees the caller may see, of a department
    named or the caller's own ('우리 팀에서 입사 제일 빠른 사람')."""
    lowered = ctx.turn.question.lower()
    named = named_departments(ctx.turn.question)  # '영업팀', 'the SEC department'
    dept = named[0] if named else None
    if dept is None and any(w in lowered for w in _OWN_GROUP) and ctx.asker:
        found = next(
            (c for c in ctx.turn.calls if c.name == "query_hr" and "입사일" not in str(c.input)),
            None,
        )  # (the caller's lookup, not the hire-date list)
        if found is None:
            return call(ctx, "query_hr", {"question_sql": lookup_sql([ctx.asker])})
        people = [] if found.failed else people_of(found)
        dept = people[0].dept if len(people) == 1 and people[0].dept else None
    listed = next(
        (c for c in ctx.turn.calls if c.name == "query_hr" and "입사일" in str(c.input)), None
    )
    if listed is None:
        where = f" WHERE 부서 = '{dept}'" if dept and dept.isalpha() else ""
        sql = f"{_FIELDS}{where} ORDER BY 입사일 {order}, 사번"
        return call(ctx, "query_hr", {"question_sql": sql})
    if listed.failed:
        return answer(failure(ctx, listed))
    columns, rows = rows_of(listed)
    records = [dict(zip(columns, r, strict=False)) for r in rows]
    if not records:
        return answer(nothing_visible(ctx, ctx.t("직원 인사 기록", "employee records")))
    top = records[0]
    scope = dept or ctx.t("조회 권한 범위 전체", "everyone visible to you")
    first = order == "ASC"
    return answer(
        ctx.t(
            f"{scope}에서 입사가 {'가장 빠른' if first else '가장 늦은'} 사람은 "
            f"{top.get('성명')} ({top.get('사번')}, {top.get('직급') or ''}) — 입사일 "
            f"{top.get('입사일')}입니다 (조회 가능한 {len(records)}명 기준).",
            f"The {'earliest' if first else 'most recent'} hire in {scope} is {top.get('성명')} "
            f"({top.get('사번')}, {top.get('직급') or ''}), hired {top.get('입사일')} (of "
            f"{len(records)} employees visible to you).",
        )
    )


_WHOLE_RECORD = re.compile(
    r"\b(?:pull up|look up|details|record|profile|info|information)\b"
    r"|인적사항|인사\s?기록|내\s*정보",
    re.I,
)


def plan_person_field(ctx: Ctx) -> Blocks:
    """A named employee's record field (입사일, 직급, 부서, 사번) as the platform shows it.

    An employee number asked about ('사번 X 누구야? 연락처도') is looked up by number:
    whose it is, the fields asked, and the contact number when asked.
    """
    names = named_people(ctx.turn.question)
    numbers = [] if names else list(ctx.ents.emp_nos)
    order = _hire_order(ctx.turn.question)
    if order and not names and not numbers:
        return _hire_extreme(ctx, order)
    if not names and not numbers and ctx.asker and asks_about_self(ctx):
        names = [ctx.asker]  # 'my hire date': the caller's own record
    if not names and not numbers:
        return answer(
            ctx.t(
                "누구의 인사 기록인지 알 수 없어 조회할 수 없습니다.",
                "I cannot tell whose HR record this is, so I cannot look it up.",
            )
        )
    fields = asked_fields(ctx.turn.question)
    if not fields and not numbers and _WHOLE_RECORD.search(ctx.turn.question):
        fields = ["입사일", "연락처"]  # '내 정보 어떻게 등록돼 있어?': the record's fields
    if numbers:
        fields = [f for f in fields if f != "사번"]
        if not fields and _WHOLE_RECORD.search(ctx.turn.question):
            fields = ["입사일", "연락처"]  # 'pull up employee X': the record's fields
        if cue(ctx.turn.question, "person_contact"):
            fields.append("연락처")
    result = next(
        (c for c in ctx.turn.calls if c.name == "query_hr" and "입사일" in str(c.input)), None
    )
    if result is None:
        if numbers:
            where = " OR ".join(f"사번 = '{n}'" for n in numbers if n.isdigit())
        else:
            where = " OR ".join(f"성명 = {quote(n)}" for n in looked_up(names))
        sql = _FIELDS.replace(" FROM", ", 연락처 FROM", 1) if "연락처" in fields else _FIELDS
        return call(ctx, "query_hr", {"question_sql": f"{sql} WHERE {where} ORDER BY 사번"})
    if result.failed:
        return answer(failure(ctx, result))
    columns, rows = rows_of(result)
    records = [dict(zip(columns, r, strict=False)) for r in rows]
    if not records:
        who = ", ".join(names or numbers)
        return answer(nothing_visible(ctx, ctx.t(f"{who}의 인사 기록", f"the HR record of {who}")))
    lines = []
    for rec in records[:10]:
        label = f"{rec.get('성명')} ({rec.get('사번')}, {rec.get('부서')} {rec.get('직급') or ''})"
        label = label.replace(" )", ")")
        said = ", ".join(f"{f} {rec.get(f)}" for f in fields)
        lines.append(ctx.t(f"{label}: {said}", f"{label}: {said}") if said else label)
    return answer("\n".join(lines))
