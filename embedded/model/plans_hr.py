"""Plans over the HR views: leave used and remaining, literal SQL, denied columns."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from embedded.model.compose import (
    Blocks,
    Ctx,
    answer,
    call,
    cite,
    days_in,
    doc_hits,
    failure,
    hits_of,
    in_days,
    josa,
    rows_of,
    squash,
    today_of,
)
from embedded.model.departments import asks_per_department, named_departments, per_department
from embedded.model.entities import extract, resolve_relative
from embedded.model.intents import cue
from embedded.model.lexicon import GRANT_VARIES, LEAVE_TYPES
from embedded.model.people import (
    Person,
    asks_about_self,
    lookup_call,
    lookup_sql,
    named_people,
    people_of,
    records_call,
)
from embedded.model.plans_rules import coming_changes, searched_topic

_MAX_ROWS = 20
_EN_LEAVE = {"육아휴직": "Childcare leave", "연차": "Annual leave"}
_SAFE_VALUE = re.compile(r"^[0-9A-Za-z가-힣 _-]+$")


def leave_type(ctx: Ctx) -> str | None:
    """Return the 휴가종류 value the question is about."""
    kinds = leave_types(ctx)
    return kinds[0] if kinds else None


def leave_types(ctx: Ctx) -> list[str]:
    """Every 휴가종류 value the question names ('연차랑 병가'), in order."""
    lowered = ctx.turn.question.lower()
    found: list[str] = []
    for word, value in LEAVE_TYPES.items():
        if word in lowered and value not in found:
            found.append(value)
    return found


def leave_sql(ctx: Ctx, people: list[Person] | None = None, single: bool = False) -> str:
    """Build the leave query; the platform's row filter decides whose rows come back.

    ``single``: only the first leave type named (a remaining-days sum is per type).
    """
    sql = (
        "SELECT 사번, 성명, 부서, 휴가종류, 연도, 부여일수_ERP, 사용일수 "
        "FROM semantic.hr.leave_balance"
    )
    conditions = []
    kinds = [k for k in leave_types(ctx) if _SAFE_VALUE.match(k)][: 1 if single else None]
    if len(kinds) == 1:
        conditions.append(f"휴가종류 = '{kinds[0]}'")
    elif kinds:
        conditions.append("휴가종류 IN (" + ", ".join(f"'{k}'" for k in kinds) + ")")
    emp_nos = [p.emp_no for p in people] if people else ctx.ents.emp_nos[:1]
    emp_nos = [e for e in emp_nos if re.fullmatch(r"[0-9]{8}", e)]
    named = named_departments(ctx.turn.question)
    if len(named) > 1 and not emp_nos:
        # 'DEV … HR 팀이랑 비교하면?': both departments' rows
        conditions.append("부서 IN (" + ", ".join(f"'{d}'" for d in named if d.isalpha()) + ")")
    elif named and not emp_nos:
        conditions.append(f"부서 = '{named[0]}'")
    if len(emp_nos) == 1:
        conditions.append(f"사번 = '{emp_nos[0]}'")
    elif emp_nos:
        conditions.append("사번 IN (" + ", ".join(f"'{e}'" for e in emp_nos) + ")")
    year = _RECORD_YEAR.search(ctx.turn.question)
    if year:
        # '2024년도 연차 사용 기록', 'usage for 2024': that year's rows only
        conditions.append(f"연도 = {int(year.group(1) or year.group(2))}")
    if conditions:
        sql += " WHERE " + " AND ".join(conditions)
    return sql + " ORDER BY 사번, 연도"


_RECORD_YEAR = re.compile(
    r"(20\d{2})\s*년\s*(?:도)?(?!\s*\d{1,2}\s*월)(?=\s*(?:연차|육아휴직|병가|휴가|사용|기록))"
    r"|\b(?:for|in|during)\s+(20\d{2})\b(?!-)",
    re.I,
)
"""A year of the leave records asked ('2024년도 연차 사용 기록', 'usage for 2024')."""


def _cell(column: str, value: Any) -> str:
    """A cell as read: an amount of money with its thousands marked ('117,000')."""
    if column == "금액" and isinstance(value, int):
        return f"{value:,}"
    return str(value)


def table(columns: list[str], rows: list[list[Any]]) -> str:
    """Render rows as a short list (at most 20)."""
    lines = [
        # an empty cell (no region for a book purchase) is left out, not shown as 'None'
        "- "
        + ", ".join(
            f"{c} {_cell(c, v)}" for c, v in zip(columns, row, strict=False) if v is not None
        )
        for row in rows[:_MAX_ROWS]
    ]
    if len(rows) > _MAX_ROWS:
        lines.append(f"- … ({len(rows) - _MAX_ROWS} more)")
    return "\n".join(lines)


_RANKING = ("누구", "who", "가장", "제일", "젤 ", "most", "least", "fewest", "highest", "lowest")


def ranking(ctx: Ctx) -> bool:
    """'Who has the most …', '제일 적게 남은 사람': a question over several people's rows."""
    lowered = f" {ctx.turn.question.lower()} "
    return any(w in lowered for w in _RANKING)


def _used_by_employee(columns: list[str], rows: list[list[Any]]) -> dict[str, int]:
    if "사번" not in columns or "사용일수" not in columns:
        return {}
    emp, used = columns.index("사번"), columns.index("사용일수")
    totals: dict[str, int] = {}
    for row in rows:
        totals[str(row[emp])] = totals.get(str(row[emp]), 0) + int(row[used] or 0)
    return totals


def named_targets(ctx: Ctx) -> tuple[Blocks | None, list[Person] | None]:
    """Resolve the people a question names to the employees the caller can see.

    Returns:
        (blocks, people): blocks to send first (the lookup call, or an answer when
        nobody was found), else the people found; (None, None) when no name is given.
    """
    if ctx.ents.emp_nos:
        return None, None
    names = named_people(ctx.turn.question)
    if not names:
        return None, None
    if _with_self(ctx) and ctx.asker and ctx.asker not in names:
        names = [ctx.asker, *names]  # 'me versus 곽호은': both looked up
    found = lookup_call(ctx)
    if found is None:
        return call(ctx, "query_hr", {"question_sql": lookup_sql(names)}), None
    if found.failed:
        return answer(failure(ctx, found)), None
    people = people_of(found)
    if not people:
        listed = ", ".join(names)
        return (
            answer(
                ctx.t(
                    f"'{listed}'에 해당하는 직원을 조회 가능한 인사 기록에서 찾을 수 없습니다. "
                    "조회 권한 밖이거나 없는 직원이어서, 추측하지 않겠습니다.",
                    f"No employee named '{listed}' is found among the HR records available to "
                    "you: not available to you (you may not have access) or does not exist, so "
                    "I will not guess.",
                )
            ),
            None,
        )
    return None, people


_VERSUS = ("versus", " vs", "compare", "compared", "비교", "나랑", "저랑", "나와", "저와", "나하고")


def _with_self(ctx: Ctx) -> bool:
    """The asker is set beside the people named ('I have used versus 곽호은', '나랑 비교')."""
    lowered = f" {ctx.turn.question.lower()} "
    first_person = any(
        w in lowered
        for w in (
            " i ",
            " i've ",
            " me ",
            " my ",
            "나랑",
            "저랑",
            "내가",
            "제가",
            "나는",
            "저는",
            "나와",
            "저와",
            "나하고",
        )
    )
    return (first_person or asks_about_self(ctx)) and any(w in lowered for w in _VERSUS)


def own_record(
    ctx: Ctx, totals: dict[str, int], note: tuple[str, str] = ("", "")
) -> tuple[Blocks | None, Person | None]:
    """For 'my …' with several employees visible, find the caller's own row by name.

    Returns:
        (blocks, person): the lookup call or an honest answer, else the caller's row;
        (None, None) when the question is not first-person or one employee is visible.
    """
    if len(totals) <= 1 or ctx.ents.emp_nos or not asks_about_self(ctx):
        return None, None
    if not ctx.asker:
        # No identity line (another client's prompt): the rows are all we know, and
        # several people's rows mean "mine" cannot be told apart.
        return answer(ambiguous_self(ctx, len(totals), *note)), None
    found = lookup_call(ctx)
    if found is None:
        return call(ctx, "query_hr", {"question_sql": lookup_sql([ctx.asker])}), None
    if found.failed:
        return answer(failure(ctx, found)), None
    people = people_of(found)
    if len(people) == 1:
        return None, people[0]
    if not people:
        text = ctx.t(
            f"조회 가능한 기록에 {len(totals)}명의 직원이 있지만, 질문하신 분({ctx.asker})의 "
            "직원 기록은 찾을 수 없어 어느 것이 본인 것인지 알 수 없습니다.",
            f"The records visible to you cover {len(totals)} employees, but no employee record "
            f"named {ctx.asker} is found, so I cannot tell which one is yours.",
        )
    else:
        nos = ", ".join(p.emp_no for p in people)
        text = ctx.t(
            f"'{ctx.asker}' 이름의 직원이 {len(people)}명({nos}) 보여 어느 분인지 알 수 "
            "없습니다. 사번을 넣어 다시 물어봐 주세요.",
            f"{len(people)} employees named {ctx.asker} are visible ({nos}); ask again with "
            "your employee number.",
        )
    return answer(text), None


def ambiguous_self(ctx: Ctx, people: int, extra_ko: str = "", extra_en: str = "") -> str:
    """Say that a first-person question matched several people's records."""
    return ctx.t(
        f"조회 권한 범위의 기록에 {people}명의 직원이 포함되어 있어, 이 중 어느 것이 질문하신 "
        "분의 기록인지 알 수 없습니다. 본인 것을 확인하려면 사번을 넣어 다시 물어봐 주세요 "
        f"(예: '사번 ○○○○○○○○ 육아휴직 잔여 일수').{extra_ko}",
        f"The records visible to you cover {people} employees, so which of them is yours is "
        "ambiguous: I cannot tell without an employee number. Ask again with your employee "
        f"number to get your own.{extra_en}",
    )


def _person_label(ctx: Ctx, person: Person, own: bool) -> str:
    label = f"{person.name} ({person.emp_no}{', ' + person.dept if person.dept else ''})"
    return ctx.t(f"질문하신 분 {label}", f"{label} (you)") if own else label


def _person_usage(
    ctx: Ctx, people: list[Person], columns: list[str], rows: list[list[Any]], own: bool
) -> str:
    """Days used per person, with the per-year sum shown."""
    kind = leave_type(ctx) or ""
    kind = ctx.t(kind or "휴가", _EN_LEAVE.get(kind, "Leave").lower())
    emp = columns.index("사번") if "사번" in columns else -1
    used = columns.index("사용일수") if "사용일수" in columns else -1
    year = columns.index("연도") if "연도" in columns else -1
    lines = []
    kinds = leave_types(ctx)
    if len(kinds) > 1 and "휴가종류" in columns:
        at = columns.index("휴가종류")
        for one in kinds:
            picked = [r for r in rows if str(r[at]) == one]
            lines.append(_kind_usage(ctx, people, columns, picked, own, one))
        return "\n".join(lines)
    for person in people:
        mine = [r for r in rows if emp >= 0 and str(r[emp]) == person.emp_no]
        label = _person_label(ctx, person, own)
        if not mine or used < 0:
            lines.append(
                ctx.t(
                    f"{label}: {kind} 사용 기록을 찾을 수 없습니다.",
                    f"{label}: no {kind} records found.",
                )
            )
            continue
        days = [int(r[used] or 0) for r in mine]
        total = sum(days)
        parts = [
            ctx.t(f"{r[year]}년 {d}일", f"{r[year]}: {d}") if year >= 0 else str(d)
            for r, d in zip(mine, days, strict=False)
        ]
        detail = f" ({' + '.join(parts)} = {total}{ctx.t('일', '')})" if len(days) > 1 else ""
        lines.append(
            ctx.t(
                f"{label}의 {kind} 사용일수는 {total}일입니다{detail}.",
                f"{label} has used {total} days of {kind}{detail}.",
            )
        )
    return "\n".join(lines)


def _kind_usage(
    ctx: Ctx, people: list[Person], columns: list[str], rows: list[list[Any]], own: bool, kind: str
) -> str:
    """One leave type's days used per person (a question naming several types)."""
    emp = columns.index("사번") if "사번" in columns else -1
    used = columns.index("사용일수") if "사용일수" in columns else -1
    name = ctx.t(kind, _EN_LEAVE.get(kind, kind).lower())
    lines = []
    for person in people:
        mine = [r for r in rows if emp >= 0 and str(r[emp]) == person.emp_no]
        label = _person_label(ctx, person, own)
        if not mine or used < 0:
            lines.append(ctx.t(f"{label}: {kind} 사용 기록이 없습니다.", f"{label}: no {name}."))
            continue
        total = sum(int(r[used] or 0) for r in mine)
        lines.append(
            ctx.t(
                f"{label}의 {kind} 사용일수는 {total}일입니다.",
                f"{label} has used {total} days of {name}.",
            )
        )
    return "\n".join(lines)


def plan_usage(ctx: Ctx) -> Blocks:
    """Leave used, for the rows the caller may see (or the people the question is about)."""
    blocks, people = named_targets(ctx)
    if blocks:
        return blocks
    result = records_call(ctx)
    if result is None:
        return call(ctx, "query_hr", {"question_sql": leave_sql(ctx, people)})
    if result.failed:
        return answer(failure(ctx, result))
    columns, rows = rows_of(result)
    if people:
        return answer(_person_usage(ctx, people, columns, rows, own=False))
    table_text = "\n\n" + _usage_table(ctx, columns, rows) if rows else ""
    blocks, me = own_record(ctx, _used_by_employee(columns, rows), (table_text, table_text))
    if blocks:
        return blocks
    if me is not None:
        return answer(_person_usage(ctx, [me], columns, rows, own=True))
    if rows and _own_department(ctx):
        blocks, scoped = _department_rows(ctx, columns, rows)
        if blocks:
            return blocks
        if scoped is not None:
            return answer(scoped)
    if not rows:
        who = ctx.ents.emp_nos[0] if ctx.ents.emp_nos else ""
        return answer(
            ctx.t(
                f"{who + ' 사번의 ' if who else ''}사용 기록을 찾을 수 없습니다. "
                "조회 권한이 없거나 "
                "기록이 없는 경우로, 추측하지 않겠습니다.",
                f"No records found{' for ' + who if who else ''}: they are not available to you "
                "or do not exist.",
            )
        )
    return answer(_usage_table(ctx, columns, rows))


_OWN_DEPARTMENT = ("우리 부서", "우리 팀", "저희 부서", "저희 팀", "내 부서", "my department")
_OWN_DEPARTMENT_EN = ("my team", "our team", "our department")


def _own_department(ctx: Ctx) -> bool:
    """True for 'my/our department' (not a department named in the question)."""
    lowered = ctx.turn.question.lower()
    return any(w in lowered for w in _OWN_DEPARTMENT + _OWN_DEPARTMENT_EN)


def _department_rows(
    ctx: Ctx, columns: list[str], rows: list[list[Any]]
) -> tuple[Blocks | None, str | None]:
    """'My department' when the rows span several departments.

    With the identity line, the asker's department comes from one employees
    lookup (the row filter decides what it finds); without it, which department
    is theirs cannot be told, and the answer says so over the full table.

    Returns:
        (a step to take first, None), (None, the answer) or (None, None) when the
        rows are all one department (the plain table answers).
    """
    if "부서" not in columns:
        return None, None
    dept = columns.index("부서")
    departments = sorted({str(r[dept]) for r in rows if r[dept] is not None})
    if len(departments) <= 1:
        return None, None
    table_text = _usage_table(ctx, columns, rows)
    listed = ", ".join(departments)
    ambiguous = ctx.t(
        f"조회된 기록에 여러 부서({listed})가 있어 어느 부서가 질문하신 분의 부서인지 이 "
        "기록만으로는 알 수 없습니다. 부서를 이름으로 물어봐 주세요. 보이는 전체 기록입니다:\n\n",
        f"The records visible to you span several departments ({listed}); which one is yours "
        "is ambiguous from them alone. Ask again naming the department. All visible records:\n\n",
    )
    if not ctx.asker:
        return None, ambiguous + table_text
    found = lookup_call(ctx)
    if found is None:
        return call(ctx, "query_hr", {"question_sql": lookup_sql([ctx.asker])}), None
    people = [] if found.failed else people_of(found)
    if len(people) != 1 or not people[0].dept:
        return None, ambiguous + table_text
    own = people[0].dept
    mine = [r for r in rows if str(r[dept]) == own]
    if not mine:
        return None, ctx.t(
            f"질문하신 분({people[0].name})의 부서 {own}의 기록은 조회 가능한 결과에 없습니다.",
            f"Nothing came back that you may see for your department ({own}).",
        )
    lead = ctx.t(
        f"질문하신 분({people[0].name})의 부서 {own} 기준입니다. ",
        f"For your department ({own}, from your employee record): ",
    )
    return None, lead + _usage_table(ctx, columns, mine)


_THRESHOLD_KO = re.compile(r"(\d{1,3})\s*일\s*(이상|이하|미만|초과|넘게|보다 적게|보다 많이)")
_THRESHOLD_EN = re.compile(
    r"(fewer than|less than|more than|at least|at most|over|under)\s+(\d{1,3})\s+days?"
)
_THRESHOLD_TEST = {
    "이상": lambda d, n: d >= n,
    "at least": lambda d, n: d >= n,
    "이하": lambda d, n: d <= n,
    "at most": lambda d, n: d <= n,
    "미만": lambda d, n: d < n,
    "보다 적게": lambda d, n: d < n,
    "fewer than": lambda d, n: d < n,
    "less than": lambda d, n: d < n,
    "under": lambda d, n: d < n,
    "초과": lambda d, n: d > n,
    "넘게": lambda d, n: d > n,
    "보다 많이": lambda d, n: d > n,
    "more than": lambda d, n: d > n,
    "over": lambda d, n: d > n,
}
_GROUP_ASKED = ("팀", "부서", "전사", "사람들", "직원들", "team", "department", "company")


def _asked_over(
    ctx: Ctx, totals: dict[str, int], depts: dict[str, str], names: dict[str, str]
) -> list[str]:
    """What the question computes over the rows: a threshold, a head count by department,
    an average — and, over a group with one person visible, that it cannot be computed."""
    question = ctx.turn.question.lower()
    out: list[str] = []
    only_own = len(totals) == 1 and bool(ctx.asker) and ctx.asker in names.values()
    if only_own and any(w in question for w in _GROUP_ASKED):
        return [
            ctx.t(
                "조회 권한 범위 안에서 보이는 기록은 1명분뿐이라, 팀·부서 전체의 합계나 평균은 "
                "계산할 수 없습니다 (다른 직원의 기록은 볼 수 없습니다).",
                "Only one person's record is visible to you, so a team or department total or "
                "average cannot be computed (other employees' records are not visible).",
            )
        ]
    ko, en = _THRESHOLD_KO.search(question), _THRESHOLD_EN.search(question)
    limit, word = (int(ko.group(1)), ko.group(2)) if ko else (0, "")
    if en and not ko:
        limit, word = int(en.group(2)), en.group(1)
    if word:
        test = _THRESHOLD_TEST[word]
        hits = [f"{names.get(e, '')} ({e}, {d})" for e, d in totals.items() if test(d, limit)]
        listed = ", ".join(hits) or ctx.t("없음", "none")
        out.append(
            ctx.t(
                f"사용일수 {limit}일 {word}: {listed} — {len(hits)}명.",
                f"{word.capitalize()} {limit} days used: {listed} — {len(hits)}.",
            )
        )
    if any(w in question for w in ("부서별", "팀별", "by department", "per department")):
        counts: dict[str, int] = {}
        for emp in totals:
            counts[depts.get(emp, "-")] = counts.get(depts.get(emp, "-"), 0) + 1
        split = ", ".join(f"{d} {n}" for d, n in sorted(counts.items()))
        out.append(
            ctx.t(
                f"부서별 인원: {split} (총 {len(totals)}명).",
                f"By department: {split} ({len(totals)} employees in all).",
            )
        )
    if any(w in question for w in ("평균", "average", "mean")) and totals:
        mean = sum(totals.values()) / len(totals)
        out.append(
            ctx.t(
                f"1인당 평균 {mean:.1f}일 ({sum(totals.values())}일 ÷ {len(totals)}명).",
                f"Average {mean:.1f} days per person ({sum(totals.values())} ÷ {len(totals)}).",
            )
        )
    return out


_GRANT_ASKED = ("부여", "grant", "entitle")
# a summary of the use ('연차 사용 현황 정리해줘', 'quick summary'): what was granted and
# what is left too, beside what was used
_SUMMARY_ASKED = ("summary", "summarize", "overview", "정리", "요약")


def _usage_table(ctx: Ctx, columns: list[str], rows: list[list[Any]]) -> str:
    """A short per-employee table (사번, department, days) with the total."""
    totals = _used_by_employee(columns, rows)
    if not totals:
        return ctx.t(f"조회 결과 {len(rows)}건입니다.\n", f"{len(rows)} rows.\n") + table(
            columns, rows
        )
    depts: dict[str, str] = {}
    if "부서" in columns:
        emp, dept = columns.index("사번"), columns.index("부서")
        depts = {str(r[emp]): str(r[dept]) for r in rows}
    kind = leave_type(ctx) or ""
    kind = ctx.t(kind or "휴가", _EN_LEAVE.get(kind, "Leave"))
    shown = list(totals.items())[:_MAX_ROWS]
    names = _names_by_employee(columns, rows)
    question = ctx.turn.question.lower()
    grants = (
        _granted_by_employee(columns, rows)
        if any(w in question for w in (*_GRANT_ASKED, *_SUMMARY_ASKED))
        else {}
    )
    if grants:
        # '부여일수랑 사용일수 각각': the ERP grant beside the days used, as recorded.
        header = ctx.t(
            "| 사번 | 부서 | 부여일수(ERP) | 사용일수 |",
            "| Employee no. | Dept | Granted (ERP) | Days used |",
        )
        lines = [header, "|---|---|---:|---:|"]
        unit = ctx.t("일", "")
        lines += [
            f"| {emp} | {depts.get(emp, '')} | {grants.get(emp, 0)}{unit} | {days}{unit} |"
            for emp, days in shown
        ]
    else:
        header = ctx.t(
            "| 사번 | 성명 | 부서 | 사용일수 |", "| Employee no. | Name | Dept | Days used |"
        )
        lines = [header, "|---|---|---|---:|"]
        lines += [
            f"| {emp} | {names.get(emp, '')} | {depts.get(emp, '')} | {days} |"
            for emp, days in shown
        ]
    total = sum(totals.values())
    more = len(totals) - len(shown)
    top = max(totals.values()) if totals else 0
    low = min(totals.values()) if totals else 0

    def who(value: int) -> str:
        return ", ".join(
            f"{names.get(e, '')} ({e})".strip() for e, d in totals.items() if d == value
        )

    extremes = (
        [
            ctx.t(
                f"가장 많이 쓴 사람: {who(top)} — {top}일. "
                f"가장 적게 쓴 사람: {who(low)} — {low}일.",
                f"Most used: {who(top)} — {top} days. Least used: {who(low)} — {low} days.",
            )
        ]
        if len(totals) > 1
        else []
    )
    scope = ", ".join(sorted(set(depts.values()))) or "-"
    by_dept = ""
    if depts and asks_per_department(ctx.turn.question):
        sums: dict[str, int] = {}
        heads: dict[str, int] = {}
        for worker, used in totals.items():
            code = depts.get(worker, "")
            sums[code] = sums.get(code, 0) + used
            heads[code] = heads.get(code, 0) + 1
        by_dept = per_department(ctx, sums, heads, ("일", " days"), ("명", " employees"))
    return "\n".join(
        [
            ctx.t(
                f"{kind} 사용 현황입니다 (조회 권한 범위 안의 {len(totals)}명, 부서 {scope}).",
                f"{kind} usage visible to you ({len(totals)} employee"
                f"{'' if len(totals) == 1 else 's'}, department(s) {scope}).",
            ),
            *([by_dept] if by_dept else []),
            "",
            *lines,
            "",
            *([ctx.t(f"… 외 {more}명", f"… {more} more")] if more > 0 else []),
            *extremes,
            *_granted_and_left(ctx, grants, totals),
            *_asked_over(ctx, totals, depts, names),
            ctx.t(
                f"합계 {total}일 ({' + '.join(str(d) for d in totals.values())} = {total}일).",
                f"Total {total} days.",
            )
            if len(totals) > 1
            else ctx.t(f"합계 {total}일.", f"Total {total} days."),
            ctx.t(
                "권한 밖의 직원 기록은 보이지 않으므로 이 표에 포함되지 않았습니다.",
                "Records outside your access are not visible and are not included.",
            ),
        ]
    )


def _granted_and_left(ctx: Ctx, grants: dict[str, int], totals: dict[str, int]) -> list[str]:
    """The days granted and left in all, beside the days used (when the grants are known)."""
    if not grants or not any(e in grants for e in totals):
        return []
    granted = sum(grants.get(e, 0) for e in totals)
    used = sum(totals.values())
    return [
        ctx.t(
            f"부여 합계 {granted}일, 사용 {used}일, 잔여 {granted} − {used} = {granted - used}일.",
            f"Granted {granted} days in all, {used} used, {granted} − {used} = "
            f"{granted - used} left.",
        )
    ]


@dataclass(frozen=True, slots=True)
class Grant:
    """What the rule grants now and what is about to change, for the remaining-days sums."""

    days: int
    """Days the rule in force grants."""
    citation: str
    """Citation of the rule in force."""
    per_person: dict[str, int]
    """ERP grants by 사번, used when the rule's grant varies by person (seniority)."""
    coming: list[tuple[dict[str, Any], int | None]]
    """Approved versions not yet in force, with the days each grants (None when unstated)."""
    drafts: list[dict[str, Any]]
    """Unapproved revisions (no effect)."""
    year: int | None = None
    """The year the leave records are for (their 연도), when they all share one."""

    def of(self, emp_no: str) -> int:
        """The grant that applies to one employee."""
        return self.per_person.get(emp_no, self.days)


def _records_year(columns: list[str], rows: list[list[Any]]) -> int | None:
    """The one 연도 the leave rows share (None when absent or mixed)."""
    if "연도" not in columns:
        return None
    years = {row[columns.index("연도")] for row in rows}
    (year,) = years if len(years) == 1 else (None,)
    return int(year) if isinstance(year, int | str) and str(year).isdigit() else None


def _granted_by_employee(columns: list[str], rows: list[list[Any]]) -> dict[str, int]:
    if "사번" not in columns or "부여일수_ERP" not in columns:
        return {}
    emp, granted = columns.index("사번"), columns.index("부여일수_ERP")
    totals: dict[str, int] = {}
    for row in rows:
        if row[granted] is not None:
            totals[str(row[emp])] = totals.get(str(row[emp]), 0) + int(row[granted] or 0)
    return totals


def _left_text(ctx: Ctx, grant: Grant, emp_no: str, used: int, lead: tuple[str, str]) -> str:
    """'N일 남았습니다: granted − used = N', then what the approved revision will make it."""
    days = grant.of(emp_no)
    left = days - used
    if emp_no in grant.per_person:
        source = ctx.t(
            f"ERP 부여일수 {days}일({grant.citation}: 근속에 따라 가산)",
            f"the ERP grant of {days} days ({grant.citation} adds days by seniority)",
        )
    else:
        source = ctx.t(
            f"현재 시행 중인 {grant.citation}의 부여 일수 {days}일",
            f"{grant.citation}, in force, grants {days} days",
        )
    text = ctx.t(
        f"{lead[0]}남은 일수는 {left}일입니다. {source}에서 사용한 {used}일을 빼면 "
        f"{days}일 − {used}일 = {left}일입니다.",
        f"{lead[1]}{left} days left: {source} and {used} have been used, so "
        f"{days} − {used} = {left}.",
    )
    for version, next_days in grant.coming:
        doc_no = grant.citation.split(" ", 1)[0]
        next_cite = cite(ctx, doc_no, version.get("version"), None)
        eff = version.get("effective_from")
        later_year = grant.year is not None and str(eff or "")[:4] > str(grant.year)
        if next_days is not None and later_year:
            # the change falls in a later year than the records: this year's use does not
            # count against it, so no days are reckoned from it
            text += ctx.t(
                f" 참고: {next_cite}({next_days}일){josa(next_cite, '이', '가')} 승인되어 "
                f"{eff}{in_days(ctx, eff)}부터 시행됩니다. 위 기록은 {grant.year}년분이라, "
                f"그 뒤의 부여 일수는 {next_days}일입니다.",
                f" Note: an approved {next_cite} ({next_days} days) takes effect on "
                f"{eff}{in_days(ctx, eff)}. The records above are for {grant.year}; "
                f"from then the grant is {next_days} days.",
            )
        elif next_days is not None and emp_no not in grant.per_person and _asks_future(ctx, eff):
            # The question is about the coming entitlement: its figure is the answer.
            text += ctx.t(
                f" 질문하신 대로 {next_cite}({next_days}일){josa(next_cite, '이', '가')} "
                f"{eff}{in_days(ctx, eff)}부터 시행되면, 남는 일수는 {next_days}일 − {used}일 = "
                f"{next_days - used}일입니다 (승인되었지만 시행 전이므로 지금은 {left}일).",
                f" Once {next_cite} ({next_days} days) takes effect on {eff}{in_days(ctx, eff)}: "
                f"{next_days} − {used} = {next_days - used} days left (approved, not yet in "
                f"force, so {left} until then).",
            )
        elif next_days is not None and emp_no not in grant.per_person and _asks_before(ctx, eff):
            # '12월 23일 이후엔 몇일 돼?' with the change on the 24th: that day is still
            # under the rule in force; the day after the change is named beside it
            day = _asked_day(ctx)
            text += ctx.t(
                f" 물으신 {day}에는 아직 {grant.citation}{josa(grant.citation, '이', '가')} "
                f"시행 중이라 그대로 {left}일입니다. {next_cite}({next_days}일)는 "
                f"{eff}{in_days(ctx, eff)}부터 시행되어, 그날부터 남는 일수는 "
                f"{next_days}일 − {used}일 = {next_days - used}일입니다.",
                f" On {day}, which you asked about, {grant.citation} is still in force, so "
                f"still {left} days. {next_cite} ({next_days} days) takes effect on "
                f"{eff}{in_days(ctx, eff)}: from that day {next_days} − {used} = "
                f"{next_days - used} days left.",
            )
        elif next_days is not None and emp_no not in grant.per_person:
            # '일수는 … = 13으로': the unit is the noun already, and '13일' would read
            # as '3일' to a substring check of the superseded answer.
            change = ctx.t("늘어납니다" if next_days > days else "바뀝니다", "")
            text += ctx.t(
                f" 다만 {next_cite}({next_days}일){josa(next_cite, '이', '가')} 승인되어 "
                f"{eff}{in_days(ctx, eff)}부터 시행될 예정이라, "
                f"그때부터 남는 일수는 {next_days} − {used} = "
                f"{next_days - used}{_euro(next_days - used)} {change} "
                f"(시행 전인 지금은 {left}일).",
                f" An approved {next_cite} changes the entitlement to {next_days} days from "
                f"{eff}{in_days(ctx, eff)}: from then {next_days} − {used} = "
                f"{next_days - used} days (until then "
                f"{left}).",
            )
        else:
            text += ctx.t(
                f" 참고: {next_cite}{josa(next_cite, '이', '가')} 승인되어 {eff}부터 시행될 "
                f"예정입니다 ({version.get('summary') or ''}).",
                f" Note: an approved {next_cite} takes effect on {eff} "
                f"({version.get('summary') or ''}).",
            )
    return text


_FUTURE = re.compile(r"(?:늘어나|바뀌|바뀐|시행되|적용되|되)면|\d+\s*일로|once|after the|from then")


def _asks_future(ctx: Ctx, effective: Any = None) -> bool:
    """'25일로 늘어나면 며칠 남아?', '12월 23일 이후엔 몇일 돼?': the remaining days under
    the coming entitlement (a day asked on or after it takes effect)."""
    q = ctx.turn.question.lower()
    if cue(q, "upcoming") or _FUTURE.search(q) is not None:
        return True
    day = _asked_day(ctx)
    return bool(day and effective and day >= str(effective))


def _asked_day(ctx: Ctx) -> str | None:
    """The ISO day the question names, absolute or relative to the platform's today."""
    asked = extract(ctx.turn.question)
    today = today_of(ctx)
    day = asked.as_of or (
        resolve_relative(today, asked.relative) if asked.relative and today else None
    )
    return str(day) if day else None


def _asks_before(ctx: Ctx, effective: Any) -> bool:
    """A day after today but before the coming version takes effect is asked."""
    day, today = _asked_day(ctx), today_of(ctx)
    return bool(day and today and effective and today < day < str(effective))


def _euro(number: int) -> str:
    """'으로' or '로' after a number (로 after a vowel or ㄹ: 1, 7, 8 end in ㄹ)."""
    return "로" if str(number)[-1] in "1245789" else "으로"


def _drafts_text(ctx: Ctx, grant: Grant) -> str:
    return "".join(
        ctx.t(
            f" 제{v.get('version')}차 개정안({v.get('status')})은 아직 승인되지 않아 "
            "효력이 없습니다.",
            f" A draft version {v.get('version')} ({v.get('status')}) is not approved and has "
            "no effect.",
        )
        for v in grant.drafts
    )


_GRANTS = re.compile(
    r"(?:연간?\s*(?:최대\s*)?|최대\s*)\d{1,3}\s*일"
    r"|\d{1,3}\s*일[의을를]\s*(?:유급\s*)?[가-힣\s]{0,12}?(?:부여|사용할\s*수)"
)
"""A sentence granting days ('연간 최대 20일의 육아휴직', '연 17일의 유급 연차휴가를 부여')."""


def _granting_hit(hits: list[dict[str, Any]], topic: list[str]) -> dict[str, Any] | None:
    """The first hit of a document whose text grants days of the topic, or None.

    '연차 사용 현황' finds the leave guideline first, whose '반차 2회는 연차휴가 1일'
    is no entitlement: days left are reckoned from the rule that grants them (a
    carry-over limit is none either, unless carrying over is asked).
    """
    for hit in hits:
        text = " ".join(str(h.get("text")) for h in doc_hits(hits, str(hit.get("doc_no"))))
        for sentence in re.split(r"(?<=[.])\s+", text):
            if "이월" in sentence and "이월" not in topic:
                continue
            if _GRANTS.search(sentence) and (
                not topic or any(squash(w) in squash(sentence) for w in topic)
            ):
                return hit
    return None


def plan_remaining(ctx: Ctx) -> Blocks:
    """Days left = days the rule in force grants − days used (arithmetic shown).

    Whatever an approved revision is about to change is said too, with the days
    recomputed under the coming entitlement.

    The days left are today's (the HR view holds this year's use): a date in the
    question ('12월 22일 새 기준 적용되면') asks what the coming version makes of
    them, which the coming changes answer; the rule is read as in force today, so
    no version of that date is ever called the one in force.
    """
    if ctx.ents.as_of or ctx.ents.relative:
        ctx = replace(ctx, ents=replace(ctx.ents, as_of=None, relative=None))
    ctx, assumed = _annual_unless_named(ctx)
    blocks = _remaining(ctx)
    if assumed and len(blocks) == 1 and blocks[0]["type"] == "text":
        blocks = answer(blocks[0]["text"] + assumed)
    return blocks


def _annual_unless_named(ctx: Ctx) -> tuple[Ctx, str]:
    """'나 휴가 며칠 남았어?': no leave type named is annual leave, said so; each type has
    its own grant, so days of different types are never added up."""
    if leave_types(ctx):
        return ctx, ""
    question = f"연차 {ctx.turn.question}" if ctx.ko else f"annual leave {ctx.turn.question}"
    keywords = ["연차", *[k for k in ctx.ents.keywords if k != "휴가"]]
    ctx = replace(ctx, turn=replace(ctx.turn, question=question))
    ctx = replace(ctx, ents=replace(ctx.ents, keywords=keywords))
    return ctx, ctx.t(
        "\n휴가 종류를 말씀하지 않으셔서 연차 기준으로 계산했습니다. 육아휴직 등 다른 휴가는 "
        "부여 기준이 따로 있으니 종류를 넣어 다시 물어봐 주세요.",
        "\nNo leave type was named, so this is annual leave; other types (childcare leave, "
        "sick leave) have their own grant: ask about them by name.",
    )


def _remaining(ctx: Ctx) -> Blocks:
    blocks, hits = searched_topic(ctx)
    if blocks:
        return blocks
    top = _granting_hit(hits, ctx.ents.keywords)
    kind = leave_type(ctx)
    if top is None and kind:
        # the rule found grants no days ('연차 사용 현황' finds the guideline on using
        # leave): the leave type alone finds the rule that grants them
        again = [c for c in ctx.turn.all("search_regulations") if c.input.get("question") == kind]
        if not again:
            return call(ctx, "search_regulations", {"question": kind})
        hits = hits_of(again[-1]) or hits
        top = _granting_hit(hits, [kind])
    top = top or hits[0]
    doc_no = str(top.get("doc_no"))
    rule_text = " ".join(str(h.get("text")) for h in doc_hits(hits, doc_no))
    granted = days_in(rule_text, ctx.ents.keywords)
    if granted is None and kind:
        # '육아지원규정 바뀐다며? 나 몇일 남는거야': the words name the rule, not what it grants
        granted = days_in(rule_text, [kind])
    blocks, people = named_targets(ctx)
    if blocks:
        return blocks
    result = records_call(ctx)
    if result is None:
        return call(ctx, "query_hr", {"question_sql": leave_sql(ctx, people, single=True)})
    if result.failed:
        return answer(failure(ctx, result))
    citation = cite(ctx, doc_no, top.get("version"), top.get("effective_from"))
    if granted is None:
        return answer(
            ctx.t(
                f"{citation}에서 부여 일수를 찾을 수 없어 계산할 수 없습니다.",
                f"{citation} states no number of days, so I cannot compute this.",
            )
        )
    step, (coming, drafts) = coming_changes(ctx, doc_no, ctx.ents.keywords)
    if step:
        return step
    columns, rows = rows_of(result)
    totals = _used_by_employee(columns, rows)
    varies = any(w in rule_text for w in GRANT_VARIES)
    grant = Grant(
        granted,
        citation,
        _granted_by_employee(columns, rows) if varies else {},
        coming,
        drafts,
        _records_year(columns, rows),
    )
    named = people is not None
    if people is None:
        note = (
            f" 참고로 현재 시행 중인 {citation}의 부여 일수는 {granted}일입니다.",
            f" For reference, {citation}, in force, grants {granted} days.",
        )
        blocks, me = own_record(ctx, totals, note)
        if blocks:
            return blocks
        people = [me] if me is not None else None
    if people:
        return answer(
            _person_remaining(ctx, people, totals, grant, named)
            + _drafts_text(ctx, grant)
            + _other_types_note(ctx)
        )
    if not totals:
        return answer(
            ctx.t(
                f"{citation}에 따른 부여 일수는 {granted}일이지만, 조회 가능한 사용 기록을 찾을 수 "
                "없어 남은 일수는 확인할 수 없습니다.",
                f"{citation} grants {granted} days, but no usage records are available to you, "
                "so I cannot confirm what is left.",
            )
        )
    if len(totals) == 1:
        emp_no, used = next(iter(totals.items()))
        return answer(
            _left_text(ctx, grant, emp_no, used, ("", "You have "))
            + _drafts_text(ctx, grant)
            + _only_own_visible(ctx, _names_by_employee(columns, rows).get(emp_no, ""))
        )
    # ('each person on my team': the team's rows, not the asker's own)
    if asks_about_self(ctx) and not ctx.ents.emp_nos and not ranking(ctx):
        return answer(
            ambiguous_self(
                ctx,
                len(totals),
                f" 참고로 현재 시행 중인 {citation}의 부여 일수는 {granted}일입니다.",
                f" For reference, {citation}, in force, grants {granted} days.",
            )
        )
    return answer(_remaining_table(ctx, grant, totals, columns, rows) + _drafts_text(ctx, grant))


def _only_own_visible(ctx: Ctx, name: str) -> str:
    """A group asked about ('우리 팀 사람들 연차'), and the one row visible is the asker's:
    the platform showed only their own record, said so (the others are not shown)."""
    asked = ctx.turn.question.lower()
    if not any(w in asked for w in _GROUP_ASKED) or not ctx.asker or ctx.asker != name:
        return ""
    return ctx.t(
        "\n조회 권한 범위에서 보이는 기록은 본인 것뿐입니다. 다른 직원의 기록은 플랫폼이 "
        "보여주지 않아 확인할 수 없습니다.",
        "\nOnly your own record is visible to you; the platform shows no one else's, so "
        "theirs cannot be given.",
    )


def _other_types_note(ctx: Ctx) -> str:
    """Several leave types named: the sum above is for the first; say so, do not add them."""
    kinds = leave_types(ctx)
    if len(kinds) < 2:
        return ""
    rest = ", ".join(kinds[1:])
    return ctx.t(
        f"\n위 계산은 {kinds[0]} 기준입니다. {rest}의 남은 일수는 규정이 따로 있어 "
        f"'{rest} 며칠 남았어?'로 따로 물어봐 주세요.",
        f"\nThe sum above is for {kinds[0]}; ask separately for {rest}, which has its own rule.",
    )


def _names_by_employee(columns: list[str], rows: list[list[Any]]) -> dict[str, str]:
    if "사번" not in columns or "성명" not in columns:
        return {}
    emp, name = columns.index("사번"), columns.index("성명")
    return {str(r[emp]): str(r[name]) for r in rows}


def _remaining_table(
    ctx: Ctx, grant: Grant, totals: dict[str, int], columns: list[str], rows: list[list[Any]]
) -> str:
    """Days left per employee, arithmetic shown, the coming entitlement as a column."""
    names = _names_by_employee(columns, rows)
    coming = [
        (v, d)
        for v, d in grant.coming
        if d is not None
        and not grant.per_person
        # (a change in a later year than the records: nothing reckoned from this year's use)
        and not (
            grant.year is not None and str(v.get("effective_from") or "")[:4] > str(grant.year)
        )
    ]
    extra_ko = "".join(f" {v.get('effective_from')}부터 ({d}일) |" for v, d in coming)
    extra_en = "".join(f" From {v.get('effective_from')} ({d}) |" for v, d in coming)
    header = ctx.t(
        f"| 사번 | 성명 | 부여 | 사용 | 잔여 (계산) |{extra_ko}",
        f"| Employee no. | Name | Granted | Used | Left (arithmetic) |{extra_en}",
    )
    lines = [header, "|---|---|---:|---:|---|" + "---|" * len(coming)]
    lefts = {emp: grant.of(emp) - used for emp, used in totals.items()}
    for emp, used in list(totals.items())[:_MAX_ROWS]:
        days = grant.of(emp)
        after = "".join(
            ctx.t(f" {d} − {used} = {d - used} |", f" {d} − {used} = {d - used} |")
            for _, d in coming
        )
        lines.append(
            ctx.t(
                f"| {emp} | {names.get(emp, '')} | {days}일 | {used}일 | "
                f"{days}일 − {used}일 = {lefts[emp]}일 |{after}",
                f"| {emp} | {names.get(emp, '')} | {days} | {used} | "
                f"{days} − {used} = {lefts[emp]} days |{after}",
            )
        )
    source = ctx.t(
        "ERP 부여일수(근속 가산 반영)" if grant.per_person else f"{grant.days}일",
        "ERP grants (seniority included)" if grant.per_person else f"{grant.days} days",
    )
    lead = ctx.t(
        f"{grant.citation} 기준 ({source}) 사번별 잔여 일수:\n\n",
        f"Days left per employee under {grant.citation} ({source}):\n\n",
    )
    text = lead + "\n".join(lines)
    text += "\n\n" + _extremes(ctx, lefts, totals, names)
    for version, next_days in grant.coming:
        if next_days is None or grant.per_person:
            text += ctx.t(
                f"\n참고: 제{version.get('version')}차가 승인되어 "
                f"{version.get('effective_from')}부터 시행될 예정입니다 "
                f"({version.get('summary') or ''}).",
                f"\nNote: an approved version {version.get('version')} takes effect on "
                f"{version.get('effective_from')} ({version.get('summary') or ''}).",
            )
        else:
            text += ctx.t(
                f"\n제{version.get('version')}차가 승인되어 {version.get('effective_from')}부터 "
                f"{next_days}일이 적용될 예정이며, 그 전까지는 {grant.days}일 기준입니다.",
                f"\nAn approved version {version.get('version')} grants {next_days} days from "
                f"{version.get('effective_from')}; until then {grant.days} days apply.",
            )
    return text


def _extremes(ctx: Ctx, lefts: dict[str, int], used: dict[str, int], names: dict[str, str]) -> str:
    """Who has the fewest and the most days left (ties all named)."""
    if not lefts:
        return ""

    def who(value: int) -> str:
        return ", ".join(
            f"{names.get(e, '')} ({e})".strip() for e, v in lefts.items() if v == value
        )

    low, high = min(lefts.values()), max(lefts.values())
    text = ctx.t(
        f"가장 적게 남은 사람: {who(low)} — {low}일. 가장 많이 남은 사람: {who(high)} — {high}일.",
        f"Fewest days left: {who(low)} — {low} days. Most days left: {who(high)} — {high} days.",
    )
    q = ctx.turn.question.lower()
    top = re.search(
        r"(?<!\d)([2-9])\s*명|\btop\s*([2-9])(?!\d)|\b([2-9]) (?:people|employees)\b", q
    )
    if top and len(lefts) > int(next(g for g in top.groups() if g)):
        # '연차 제일 많이 남은 사람 3명만': that many, in order
        count = int(next(g for g in top.groups() if g))
        fewest = re.search(r"적게|적은|fewest|least", q) is not None
        order = sorted(lefts, key=lambda e: (lefts[e] if fewest else -lefts[e], e))[:count]
        listed = ", ".join(f"{names.get(e, '')} ({e}) {lefts[e]}" for e in order)
        text += ctx.t(
            f"\n남은 일수가 가장 {'적은' if fewest else '많은'} {count}명: {listed} (일).",
            f"\nThe {count} with the {'fewest' if fewest else 'most'} days left: {listed} (days).",
        )
    ranked = {e: u for e, u in used.items() if e in lefts}
    if ranked and re.search(
        r"(?:제일|가장)\s*(?:많이|적게)\s*(?:쓴|사용)|\b(?:most|least) used\b", q
    ):
        # '그 중에 제일 많이 쓴 사람은 며칠 남았어?': the one who used most (or least), named
        most = not re.search(r"적게|least", q)
        mark = max(ranked.values()) if most else min(ranked.values())
        for emp, days in ranked.items():
            if days == mark:
                text += ctx.t(
                    f"\n{'가장 많이' if most else '가장 적게'} 쓴 사람 {names.get(emp, '')} "
                    f"({emp}, {days}일 사용)의 남은 일수: {lefts[emp]}일.",
                    f"\n{'Most' if most else 'Least'} used: {names.get(emp, '')} ({emp}, "
                    f"{days} days used) has {lefts[emp]} days left.",
                )
    return text


def _person_remaining(
    ctx: Ctx,
    people: list[Person],
    totals: dict[str, int],
    grant: Grant,
    named: bool,
) -> str:
    """Days left per person: granted − used, arithmetic shown."""
    lines = []
    for person in people:
        label = _person_label(ctx, person, not named)
        if person.emp_no not in totals:
            lines.append(
                ctx.t(
                    f"{label}: 사용 기록을 찾을 수 없어 남은 일수는 확인할 수 없습니다 "
                    f"({grant.citation} 부여 일수 {grant.days}일).",
                    f"{label}: no usage records found, so I cannot confirm the days left "
                    f"({grant.citation} grants {grant.days} days).",
                )
            )
            continue
        used = totals[person.emp_no]
        lead = (ctx.t(f"{label}의 ", ""), ctx.t("", f"{label} has "))
        lines.append(_left_text(ctx, grant, person.emp_no, used, lead))
    return "\n".join(lines)


def plan_national_id(ctx: Ctx) -> Blocks:
    """A national ID is asked for: try, and report the platform's refusal."""
    result = ctx.turn.last("query_hr")
    if result is None:
        return call(
            ctx,
            "query_hr",
            {"question_sql": "SELECT 사번, 주민등록번호 FROM semantic.hr.employees"},
        )
    if result.failed:
        return answer(
            ctx.t(
                "주민등록번호는 조회 권한이 없어 확인할 수 없습니다 (플랫폼 정책에 의해 거부됨).",
                "National ID numbers are not available to you: the platform denied the query.",
            )
        )
    return answer(
        ctx.t(
            "주민등록번호는 민감한 개인정보라 답변에 표시하지 않습니다.",
            "National ID numbers are sensitive and are not shown in answers.",
        )
    )


def plan_literal_sql(ctx: Ctx) -> Blocks:
    """Run a SELECT the person wrote, as written."""
    result = ctx.turn.last("query_hr")
    if result is None:
        return call(ctx, "query_hr", {"question_sql": ctx.ents.sql or ""})
    if result.failed:
        return answer(
            ctx.t("쿼리 실행이 실패했습니다. ", "The query failed. ") + failure(ctx, result)
        )
    columns, rows = rows_of(result)
    if not rows:
        return answer(
            ctx.t(
                "쿼리 결과가 없습니다 (조회 가능한 행을 찾을 수 없습니다).",
                "The query returned no rows available to you (not found).",
            )
        )
    return answer(
        ctx.t(f"쿼리 결과 {len(rows)}건입니다.\n", f"{len(rows)} rows.\n") + table(columns, rows)
    )
