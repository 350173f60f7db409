"""Rosters: employees listed or filtered, with the fields asked, from one HR query.

'영업팀 직원 명단이랑 직급', 'Who on my team joined after 2022?', '과장 이상인 사람',
'What title and department does the HR system have for me?', '허은빈 과장 입사일이랑
연락처', '우리 팀에서 육아휴직 남은 거 10일 이하인 사람'. The filters of the question
(department, the asker's team, title, hire date, name) become ONE SELECT over the
employees view (or the leave balances); the platform's row filter decides which rows
come back, and the answer lists them as given (a masked number stays masked).
Days left over a threshold are the ERP grant minus the days used; an approved
revision of the leave rule about to take effect is said with the days recomputed.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from embedded.model.compose import (
    Blocks,
    Ctx,
    answer,
    call,
    cite,
    days_in,
    doc_hits,
    failure,
    hits_about,
    hits_of,
    nothing_visible,
    rows_of,
)
from embedded.model.lexicon import DEPARTMENTS, GRANT_VARIES, RANKS, RANKS_EN
from embedded.model.people import (
    EMPLOYEES_VIEW,
    HireBound,
    Roster,
    looked_up,
    lookup_sql,
    named_people,
    people_of,
    quote,
    roster_query,
)
from embedded.model.plans_hr import _granted_by_employee, _names_by_employee, _used_by_employee
from embedded.model.plans_rules import coming_changes

if TYPE_CHECKING:
    from collections.abc import Sequence

    from embedded.model.conversation import ToolCall

_LEAVE_VIEW = "semantic.hr.leave_balance"
_MAX_LINES = 30
_EPOCH = dt.date(1970, 1, 1)
_EN_RANKS = {ko: en for en, ko in reversed(RANKS_EN)}
_EN_LEAVE = {"육아휴직": "childcare leave", "연차": "annual leave", "병가": "sick leave"}
_KO_DEPT = {code: word for word, code in reversed(DEPARTMENTS.items()) if not word.isascii()}
_EN_DEPT = {
    code: word.replace("hr team", "HR team")
    for word, code in reversed(DEPARTMENTS.items())
    if word.endswith(" team")
}
_COMPARE = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}
_OP_KO = {"<": "미만", "<=": "이하", ">": "초과", ">=": "이상"}
_OP_EN = {"<": "fewer than", "<=": "at most", ">": "more than", ">=": "at least"}


def _epoch(iso: str) -> int:
    return (dt.date.fromisoformat(iso) - _EPOCH).days


def _call_with(ctx: Ctx, sql: str) -> ToolCall | None:
    """This turn's query_hr call of exactly ``sql`` (the plan is deterministic)."""
    return next(
        (c for c in ctx.turn.calls if c.name == "query_hr" and c.input.get("question_sql") == sql),
        None,
    )


def _hire_sql(bound: HireBound) -> str:
    """The hire-date condition: DATE columns compare as epoch-day strings (five digits)."""
    low, high = f"'{_epoch(bound.start)}'", f"'{_epoch(bound.end)}'"
    col = "CAST(입사일 AS VARCHAR)"
    if bound.op == "<":
        return f"{col} < {low}"
    if bound.op == "<=":
        return f"{col} <= {high}"
    if bound.op == ">":
        return f"{col} > {high}"
    if bound.op == ">=":
        return f"{col} >= {low}"
    return f"{col} >= {low} AND {col} <= {high}"


def _bound_ok(bound: HireBound) -> bool:
    """Epoch days compare as strings only with the same number of digits (1997-05-19 …)."""
    return 10_000 <= _epoch(bound.start) and _epoch(bound.end) < 100_000


def _employees_sql(r: Roster, names: list[str], dept: str | None) -> str:
    columns = ["사번", "성명", "부서", "직급", "입사일"]
    columns += [f for f in ("연락처", "비고") if f in r.fields]
    where = []
    if names:
        where.append("(" + " OR ".join(f"성명 = {quote(n)}" for n in looked_up(names)) + ")")
    else:
        if dept and dept.isalpha() and dept.isascii():
            where.append(f"부서 = '{dept}'")
        if len(r.ranks) == 1:
            where.append(f"직급 = '{r.ranks[0]}'")
        elif r.ranks:
            where.append("직급 IN (" + ", ".join(f"'{k}'" for k in r.ranks) + ")")
        if r.hire and _bound_ok(r.hire):
            where.append(_hire_sql(r.hire))
    sql = f"SELECT {', '.join(columns)} FROM {EMPLOYEES_VIEW}"
    if where:
        sql += " WHERE " + " AND ".join(where)
    order = "입사일, 사번" if r.hire or r.by_hire else "부서, 사번"
    return f"{sql} ORDER BY {order}"


def _leave_sql(r: Roster, dept: str | None) -> str:
    where = [f"휴가종류 = '{r.leave}'"] if r.leave and r.leave.isalnum() else []
    if dept and dept.isalpha() and dept.isascii():
        where.append(f"부서 = '{dept}'")
    sql = f"SELECT 사번, 성명, 부서, 휴가종류, 연도, 부여일수_ERP, 사용일수 FROM {_LEAVE_VIEW}"
    if where:
        sql += " WHERE " + " AND ".join(where)
    return sql + " ORDER BY 사번, 연도"


def _own_department(ctx: Ctx) -> tuple[Blocks | None, str | None]:
    """The asker's department, from their own row (looked up first)."""
    if not ctx.asker:
        return (
            answer(
                ctx.t(
                    "질문하신 분이 누구인지 알 수 없어 어느 팀인지 확인할 수 없습니다.",
                    "I cannot tell who is asking, so I cannot tell which team is yours.",
                )
            ),
            None,
        )
    mine = _call_with(ctx, lookup_sql([ctx.asker]))
    if mine is None:
        return call(ctx, "query_hr", {"question_sql": lookup_sql([ctx.asker])}), None
    if mine.failed:
        return answer(failure(ctx, mine)), None
    depts = {p.dept for p in people_of(mine) if p.dept}
    if not depts:
        what = ctx.t(f"{ctx.asker}님의 인사 기록", f"your own HR record ({ctx.asker})")
        return answer(nothing_visible(ctx, what)), None
    if len(depts) > 1:
        return (
            answer(
                ctx.t(
                    f"'{ctx.asker}' 이름의 직원 기록이 여러 부서({', '.join(sorted(depts))})에 "
                    "있어 어느 팀인지 알 수 없습니다. 부서 이름을 넣어 다시 물어봐 주세요.",
                    f"Employee records named '{ctx.asker}' are in several departments "
                    f"({', '.join(sorted(depts))}), so which team is yours is ambiguous; ask "
                    "again with the department's name.",
                )
            ),
            None,
        )
    return None, next(iter(depts))


def _scope(ctx: Ctx, r: Roster, dept: str | None) -> str:
    """Whom the list is over, in words ('영업팀(SAL)', 'your team (DEV)')."""
    if dept and r.own_team:
        return ctx.t(f"우리 팀({dept})", f"your team ({dept})")
    if dept:
        return ctx.t(
            f"{_KO_DEPT.get(dept, dept)}({dept})",
            f"the {_EN_DEPT.get(dept, dept)} ({dept})" if dept in _EN_DEPT else dept,
        )
    return ctx.t("회사 전체", "the company")


def _hire_words(ctx: Ctx, bound: HireBound) -> str:
    if bound.op == "=":
        period = bound.start if bound.start == bound.end else f"{bound.start} ~ {bound.end}"
        return ctx.t(f"입사일 {period}", f"hired {period}")
    ko = {"<": f"{bound.start} 전", "<=": f"{bound.end}까지", ">": f"{bound.end} 후"}
    en = {"<": f"before {bound.start}", "<=": f"on or before {bound.end}"}
    en |= {">": f"after {bound.end}", ">=": f"on or after {bound.start}"}
    return ctx.t(f"입사일 {ko.get(bound.op, f'{bound.start}부터')}", f"hired {en[bound.op]}")


def _rank_words(ctx: Ctx, r: Roster) -> str:
    ranks = "·".join(r.ranks)
    if ctx.ko:
        return f"직급 {r.rank_said}" + (f" ({ranks})" if r.rank_said != ranks else "")
    english = ", ".join(f"{k} ({_EN_RANKS[k]})" if k in _EN_RANKS else k for k in r.ranks)
    return f"title {english}"


def _what(ctx: Ctx, r: Roster, dept: str | None) -> str:
    parts = [_scope(ctx, r, dept)]
    if r.ranks:
        parts.append(_rank_words(ctx, r))
    if r.hire:
        parts.append(_hire_words(ctx, r.hire))
    return ", ".join(parts)


def _line(ctx: Ctx, rec: dict[str, Any], fields: Sequence[str]) -> str:
    rank = str(rec.get("직급") or "")
    if not ctx.ko and rank in _EN_RANKS:
        rank = f"{rank}/{_EN_RANKS[rank]}"
    label = f"{rec.get('성명')} ({rec.get('사번')}, {rec.get('부서')} {rank})".replace(" )", ")")
    names = {"입사일": ("입사일", "hired"), "연락처": ("연락처", "contact")}
    names["비고"] = ("비고", "note")
    said = [
        ctx.t(f"{names[f][0]} {rec.get(f)}", f"{names[f][1]} {rec.get(f)}")
        for f in fields
        if f in names and f in rec
    ]
    return f"- {label}" + (f" — {', '.join(said)}" if said else "")


def _masked_note(ctx: Ctx, records: list[dict[str, Any]]) -> str:
    if not any("*" in str(rec.get("연락처") or "") for rec in records):
        return ""
    return ctx.t(
        "\n연락처의 일부는 조회 권한에 따라 플랫폼이 가려서(마스킹) 보여준 그대로이며, "
        "가려진 자리(****)의 숫자는 볼 수 없습니다.",
        "\nContact numbers are shown as the platform gave them: part of each is masked for "
        "your access level, and the masked digits (****) cannot be shown.",
    )


def _records(result: ToolCall) -> list[dict[str, Any]]:
    columns, rows = rows_of(result)
    return [dict(zip(columns, row, strict=False)) for row in rows]


_PER_RANK = ("직급별", "직위별", "by title", "per title", "by rank", "per rank", "each title")


def _listed(ctx: Ctx, r: Roster, records: list[dict[str, Any]], dept: str | None) -> str:
    fields = [f for f in r.fields if f in ("입사일", "연락처", "비고")]
    if (r.hire or r.by_hire) and "입사일" not in fields:
        fields.insert(0, "입사일")
    what = _what(ctx, r, dept)
    # Counted per department: the counts answer; the people are not listed one by one.
    shown = [] if r.per_dept else records[:_MAX_LINES]
    lines = [_line(ctx, rec, fields) for rec in shown]
    if shown and len(records) > _MAX_LINES:
        more = len(records) - _MAX_LINES
        lines.append(ctx.t(f"- … 외 {more}명", f"- … and {more} more"))
    count = len(records)
    head = ctx.t(
        f"{what}: 조회 가능한 직원은 {count}명입니다.",
        f"{count} employee{'s' if count != 1 else ''} visible to you in {what}:",
    )
    text = head + "".join("\n" + line for line in lines)
    text += _boundary(ctx, r, records)
    if r.per_dept:
        counts: dict[str, int] = {}
        for rec in records:
            counts[str(rec.get("부서"))] = counts.get(str(rec.get("부서")), 0) + 1
        per = ", ".join(ctx.t(f"{d} {n}명", f"{d} {n}") for d, n in sorted(counts.items()))
        text += ctx.t(f"\n부서별: {per}.", f"\nPer department: {per}.")
        if len(counts) > 1:
            most = max(counts.values())
            biggest = ", ".join(d for d, n in sorted(counts.items()) if n == most)
            text += ctx.t(
                f" 가장 많은 부서: {biggest} ({most}명).",
                f" The largest: {biggest} ({most}).",
            )
    lowered = ctx.turn.question.lower()
    if any(w in lowered for w in _PER_RANK) and records:
        # '직급별로도 나눠줘': the head count per title, highest first.
        ranks: dict[str, int] = {}
        for rec in records:
            ranks[str(rec.get("직급"))] = ranks.get(str(rec.get("직급")), 0) + 1
        order = {rank: i for i, rank in enumerate(reversed(RANKS))}
        per = ", ".join(
            ctx.t(f"{k} {n}명", f"{k} {n}")
            for k, n in sorted(ranks.items(), key=lambda kv: order.get(kv[0], len(order)))
        )
        text += ctx.t(f"\n직급별: {per}.", f"\nPer title: {per}.")
    text += _masked_note(ctx, records)
    text += ctx.t(
        "\n(플랫폼의 행 필터가 보여준 행만 나열했습니다.)",
        "\n(Only the rows the platform's row filter lets you see are listed.)",
    )
    return text


def _boundary(ctx: Ctx, r: Roster, records: list[dict[str, Any]]) -> str:
    """'2010년 이전': counted with 2010 included; the count without it is said as well."""
    bound = r.hire
    if bound is None or not bound.either_way:
        return ""
    inside = [
        rec for rec in records if bound.start <= str(rec.get("입사일") or "")[:10] <= bound.end
    ]
    if not inside:
        return ""
    year, month = bound.start[:4], int(bound.start[5:7])
    yearly = bound.start.endswith("-01-01") and bound.end.endswith("-12-31")
    label_ko = f"{year}년" if yearly else f"{year}년 {month}월"
    label_en = year if yearly else bound.start[:7]
    names = ", ".join(str(rec.get("성명")) for rec in inside)
    rest = len(records) - len(inside)
    return ctx.t(
        f"\n{label_ko}에 입사한 사람({names})도 포함한 수입니다. 빼면 {rest}명입니다.",
        f"\nThis includes those hired in {label_en} itself ({names}); without them, {rest}.",
    )


def _coming(ctx: Ctx, kind: str) -> tuple[Blocks | None, str, list[tuple[dict[str, Any], int]]]:
    """The rule on the leave type and what an approved revision is about to change.

    Returns (a step to take first, '', []) or (None, the rule's citation or '', the
    approved versions with the days each grants). Nothing when the tools are not
    offered, the rule is not found, or its grant varies by person (seniority).
    """
    if not (ctx.has("search_regulations") and ctx.has("pending_revision")):
        return None, "", []
    searches = ctx.turn.all("search_regulations")
    if not searches:
        return call(ctx, "search_regulations", {"question": kind}), "", []
    hits = hits_about(hits_of(searches[0]), [kind])
    if not hits:
        return None, "", []
    doc_no = str(hits[0].get("doc_no"))
    text = " ".join(str(h.get("text")) for h in doc_hits(hits, doc_no))
    if any(w in text for w in GRANT_VARIES) or days_in(text, [kind]) is None:
        return None, "", []
    step, (approved, _drafts) = coming_changes(ctx, doc_no, [kind])
    if step:
        return step, "", []
    citation = cite(ctx, doc_no, hits[0].get("version"), hits[0].get("effective_from"))
    return None, citation, [(v, d) for v, d in approved if d is not None]


def _coming_note(
    ctx: Ctx,
    r: Roster,
    citation: str,
    coming: list[tuple[dict[str, Any], int]],
    used: dict[str, int],
    listed: list[str],
    names: dict[str, str],
) -> str:
    """Days left recomputed under each approved version, and who meets the threshold then."""
    op, days = r.left or ("<=", 0)
    doc_no = citation.split(" ", 1)[0]
    text = ""
    for version, next_days in coming:
        eff = version.get("effective_from")
        next_cite = cite(ctx, doc_no, version.get("version"), None)
        then = [e for e, u in used.items() if _COMPARE[op](next_days - u, days)]
        figures = ", ".join(
            ctx.t(
                f"{names.get(e, e)} {next_days - used[e]}일",
                f"{names.get(e, e)} {next_days - used[e]}",
            )
            for e in listed[:_MAX_LINES]
        )
        who = ", ".join(names.get(e, e) for e in then[:_MAX_LINES])
        text += ctx.t(
            f"\n다만 {next_cite}가 승인되어 {eff}부터 부여 일수가 {next_days}일이 되면, 남는 "
            f"일수는 {next_days}일 − 사용일수로 바뀝니다"
            + (f" ({figures})" if figures else "")
            + f". 그때 {days}일 {_OP_KO[op]}인 사람은 "
            + (f"{len(then)}명입니다: {who}." if then else "없습니다."),
            f"\nAn approved {next_cite} grants {next_days} days from {eff}: days left then are "
            f"{next_days} − used"
            + (f" ({figures})" if figures else "")
            + (
                f", and {len(then)} will have {_OP_EN[op]} {days} days left: {who}."
                if then
                else f", and nobody will have {_OP_EN[op]} {days} days left."
            ),
        )
    return text


def _left_answer(ctx: Ctx, r: Roster, result: ToolCall, dept: str | None) -> Blocks:
    """Days left per employee from the ERP rows (granted − used), filtered by the threshold.

    What an approved revision of the leave rule is about to change is said too, with
    the days left recomputed under the coming entitlement.
    """
    columns, rows = rows_of(result)
    if not rows:
        return answer(nothing_visible(ctx, ctx.t(f"{r.leave} 잔여 기록", f"{r.leave} balances")))
    step, citation, coming = _coming(ctx, str(r.leave))
    if step:
        return step
    granted = _granted_by_employee(columns, rows)
    used = _used_by_employee(columns, rows)
    names = _names_by_employee(columns, rows)
    op, days = r.left or ("<=", 0)
    kind = str(r.leave)
    matched, no_grant = [], []
    for emp, spent in used.items():
        if emp not in granted:
            no_grant.append(emp)
            continue
        left = granted[emp] - spent
        if _COMPARE[op](spent if r.left_of_used else left, days):
            matched.append((emp, granted[emp], spent, left))
    scope = _scope(ctx, r, dept)
    lines = [
        ctx.t(
            f"- {names.get(emp, '')} ({emp}): {g}일 − {s}일 = {left}일",
            f"- {names.get(emp, '')} ({emp}): {g} − {s} = {left} days",
        )
        for emp, g, s, left in matched[:_MAX_LINES]
    ]
    kind_en = _EN_LEAVE.get(kind, kind)
    if r.left_of_used:
        # '10일 이상 쓴 사람들 각자 몇 일 남았는지': those who used that many, their days left
        head = ctx.t(
            f"{scope}에서 {kind}를 {days}일 {_OP_KO[op]} 쓴 사람은 {len(matched)}명입니다 "
            f"(조회 가능한 {len(used)}명 중). 각자 남은 일수:",
            f"In {scope}, {len(matched)} of the {len(used)} people visible to you used "
            f"{_OP_EN[op]} {days} days of {kind_en}; days left each:",
        )
        if not matched:
            head = ctx.t(
                f"{scope}에서 조회 가능한 {len(used)}명 중 {kind}를 {days}일 {_OP_KO[op]} 쓴 "
                "사람은 없습니다.",
                f"In {scope}, none of the {len(used)} people visible to you used {_OP_EN[op]} "
                f"{days} days of {kind_en}.",
            )
    elif matched:
        head = ctx.t(
            f"{scope}에서 {kind} 남은 일수가 {days}일 {_OP_KO[op]}인 사람은 "
            f"{len(matched)}명입니다 (조회 가능한 {len(used)}명 중):",
            f"In {scope}, {len(matched)} of the {len(used)} people visible to you "
            f"{'has' if len(matched) == 1 else 'have'} "
            f"{_OP_EN[op]} {days} days of {kind_en} left:",
        )
    else:
        head = ctx.t(
            f"{scope}에서 조회 가능한 {len(used)}명 중 {kind} 남은 일수가 {days}일 "
            f"{_OP_KO[op]}인 사람은 없습니다.",
            f"In {scope}, none of the {len(used)} people visible to you has {_OP_EN[op]} "
            f"{days} days of {kind_en} left.",
        )
    text = "\n".join([head, *lines])
    text += ctx.t(
        "\n남은 일수는 ERP에 기록된 부여일수(부여일수_ERP)에서 사용일수를 뺀 값입니다"
        + (f" (현재 시행 중인 규정: {citation})." if coming else "."),
        "\nDays left are the ERP grant (부여일수_ERP) minus the days used, as the rows hold "
        "them" + (f" (the rule in force: {citation})." if coming else "."),
    )
    listed = [emp for emp, _g, _s, _left in matched]
    text += _coming_note(ctx, r, citation, coming, used, listed, names)
    if no_grant:
        text += ctx.t(
            f"\nERP 부여일수가 없는 {len(no_grant)}명은 계산에서 뺐습니다.",
            f"\n{len(no_grant)} people with no ERP grant are left out.",
        )
    return answer(text)


def _self_answer(ctx: Ctx, r: Roster, records: list[dict[str, Any]]) -> Blocks:
    fields = [f for f in ("부서", "직급", "사번", "입사일", "연락처", "비고") if f in r.fields]
    fields = fields or ["부서", "직급"]
    lines = []
    for rec in records[:_MAX_LINES]:
        said = ", ".join(f"{f} {rec.get(f)}" for f in fields if f in rec)
        lines.append(f"{rec.get('성명')} ({rec.get('사번')}): {said}")
    text = ctx.t("인사 시스템의 기록: ", "The HR system has: ") + "\n".join(lines)
    if len(records) > 1:
        text += ctx.t(
            f"\n같은 이름의 기록이 {len(records)}건 보여 모두 나열했습니다.",
            f"\n{len(records)} records with your name are visible, so all are listed.",
        )
    return answer(text + _masked_note(ctx, records))


def plan_roster(ctx: Ctx) -> Blocks:
    """Employees listed or filtered with the fields asked, from one SELECT (see the module)."""
    r = roster_query(ctx.turn.question)
    leave = bool(r.leave and r.left)
    names = [] if leave else named_people(ctx.turn.question)
    own = not names and not (r.dept or r.own_team or r.everyone or r.ranks or r.hire or r.per_dept)
    if own and r.self_ and ctx.asker:
        names = [ctx.asker]
    dept = r.dept
    if r.own_team and not names:
        blocks, dept = _own_department(ctx)
        if blocks:
            return blocks
    if r.hire and not _bound_ok(r.hire):
        return answer(
            ctx.t(
                "그 날짜로는 입사일을 비교할 수 없습니다 (1998년부터 2200년 사이의 날짜로 "
                "물어봐 주세요).",
                "I cannot compare hire dates with that date; ask with a date from 1998 to 2200.",
            )
        )
    sql = _leave_sql(r, dept) if leave else _employees_sql(r, names, dept)
    result = _call_with(ctx, sql)
    if result is None:
        return call(ctx, "query_hr", {"question_sql": sql})
    if result.failed:
        return answer(failure(ctx, result))
    if leave:
        return _left_answer(ctx, r, result, dept)
    records = _records(result)
    if not records:
        who = ", ".join(names)
        what = (
            ctx.t(f"{who}의 인사 기록", f"the HR record of {who}")
            if names
            else ctx.t(f"{_what(ctx, r, dept)} 직원 명단", f"employees of {_what(ctx, r, dept)}")
        )
        return answer(nothing_visible(ctx, what))
    if own and names:
        return _self_answer(ctx, r, records)
    if names:
        fields = [f for f in ("입사일", "연락처", "비고") if f in r.fields]
        lines = [_line(ctx, rec, fields) for rec in records[:_MAX_LINES]]
        return answer("\n".join(lines) + _masked_note(ctx, records))
    if r.ranks and dept and _counts_twice(ctx.turn.question):
        # 'How many people are in DEV, and how many of them are 사원?': the group too
        group_sql = _employees_sql(replace(r, ranks=()), [], dept)
        group = _call_with(ctx, group_sql)
        if group is None:
            return call(ctx, "query_hr", {"question_sql": group_sql})
        if not group.failed:
            total, group_name = len(_records(group)), _what(ctx, replace(r, ranks=()), dept)
            rank = r.rank_said or ", ".join(r.ranks)
            return answer(
                ctx.t(
                    f"{group_name} {total}명 중 {rank} {len(records)}명입니다.\n",
                    f"{group_name[:1].upper()}{group_name[1:]}: {total} employees, "
                    f"{len(records)} of them {rank}.\n",
                )
                + _listed(ctx, r, records, dept)
            )
    if dept and _asks_everyone_too(ctx.turn.question):
        # 'how many in total, and how many in DEV?': the count of all visible as well
        everyone = _call_with(ctx, _COUNT_ALL)
        if everyone is None:
            return call(ctx, "query_hr", {"question_sql": _COUNT_ALL})
        return answer(_listed(ctx, r, records, dept) + _all_counted(ctx, everyone))
    return answer(_listed(ctx, r, records, dept))


_COUNT_ALL = f"SELECT COUNT(*) AS 인원 FROM {EMPLOYEES_VIEW}"
_EVERYONE_TOO = (
    "in total",
    "on the books",
    "company-wide",
    "whole company",
    "overall",
    "altogether",
    "회사 전체",
    "전체 직원",
    "전 직원",
    "전직원",
    "총 몇",
    "모두 몇",
    "전체 몇",
    "전체는",
)


def _counts_twice(question: str) -> bool:
    """Two counts asked ('몇 명이고 그중 사원은 몇 명', 'how many …, and how many of them')."""
    lowered = question.lower()
    return lowered.count("how many") + len(re.findall(r"몇\s?명", lowered)) >= 2


def _asks_everyone_too(question: str) -> bool:
    lowered = question.lower()
    return any(w in lowered for w in _EVERYONE_TOO)


def _all_counted(ctx: Ctx, result: ToolCall) -> str:
    """The employees visible in all, from a COUNT the platform's row filter applied to."""
    if result.failed:
        return ""
    rows = _records(result)
    count = next(iter(rows[0].values()), None) if rows else None
    if count is None:
        return ""
    return ctx.t(
        f"\n조회 가능한 전체 직원은 {count}명입니다.",
        f"\nEmployees visible to you in all: {count}.",
    )
