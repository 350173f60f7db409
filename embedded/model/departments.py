"""Records added up per department ('부서별 합계', 'which department used the most').

The platform returns one row per record; a question about departments is answered by
summing the rows the caller may see per 부서, so the row filter still decides what is
counted (a manager's sums cover only the departments they may see).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from embedded.model.lexicon import DEPARTMENTS

if TYPE_CHECKING:
    from embedded.model.compose import Ctx

_PER_DEPARTMENT = (
    "부서별",
    "팀별",
    "부서마다",
    "팀마다",
    "어느 부서",
    "어느 팀",
    "어떤 부서",
    "어떤 팀",
    "무슨 부서",
    "부서는",
    "by department",
    "per department",
    "each department",
    "which department",
    "which team",
    "what department",
)


_CODES = re.compile(
    r"(?<![A-Za-z])(" + "|".join(sorted(set(DEPARTMENTS.values()))) + r")(?![A-Za-z])"
)


def named_departments(question: str) -> list[str]:
    """The department codes the question names ('인사팀', 'the HR team', 'DEV'), in order."""
    lowered = question.lower()
    found: dict[str, int] = {}
    for word, code in DEPARTMENTS.items():
        at = lowered.find(word)
        if at >= 0:
            found[code] = min(at, found.get(code, at))
    for match in _CODES.finditer(question):  # a code written as such, in capitals
        found[match.group(1)] = min(match.start(), found.get(match.group(1), match.start()))
    return sorted(found, key=found.__getitem__)


_OF_PEOPLE = re.compile(
    r"누구|누가|사람|직원|입사|몇\s?명|\b(?:who|whom|hired?|joined|staff|people)\b", re.I
)
_OWN_SCOPE = re.compile(
    r"(?<![가-힣])(?:내|나|제|저|우리|저희)(?![가-힣])|\b(?:my|mine|our|me|i)\b", re.I
)


def department_carried(part: str, before: str) -> str:
    """A part about people that names no department of its own, after a part that named
    one, asks within it ('보안팀 몇 명이고 제일 최근 입사자 누구야?': SEC's latest hire)."""
    if named_departments(part) or _OWN_SCOPE.search(part) or not _OF_PEOPLE.search(part):
        return part
    named = named_departments(before)
    return f"{named[0]} {part}" if len(named) == 1 else part


def asks_per_department(question: str) -> bool:
    """Sums per department are asked, or two departments are set side by side."""
    lowered = question.lower()
    return any(w in lowered for w in _PER_DEPARTMENT) or len(named_departments(question)) > 1


def per_department(
    ctx: Ctx,
    values: dict[str, int],
    counts: dict[str, int],
    unit: tuple[str, str],
    counted: tuple[str, str] = ("건", " records"),
) -> str:
    """One line per department (sum, and how many records), the largest named.

    Args:
        ctx: The plan's context.
        values: Sum per department code.
        counts: Records per department code.
        unit: The unit after a sum, Korean and English ('일', ' days').
        counted: The unit after a count ('명', ' employees').
    """
    named = named_departments(ctx.turn.question)
    if len(named) > 1:
        values = {d: values.get(d, 0) for d in named}
    if not values:
        return ""
    ko, en = unit
    ordered = sorted(values.items(), key=lambda kv: (-kv[1], kv[0]))
    c_ko, c_en = counted
    listed_ko = ", ".join(f"{d} {v:,}{ko} ({counts.get(d, 0)}{c_ko})" for d, v in ordered)
    listed_en = ", ".join(f"{d} {v:,}{en} ({counts.get(d, 0)}{c_en})" for d, v in ordered)
    top = ordered[0][1]
    leaders = [d for d, v in ordered if v == top]
    most = ", ".join(leaders)
    return ctx.t(
        f"부서별 합계: {listed_ko}. 가장 많은 부서: {most} ({top:,}{ko}).",
        f"Per department: {listed_en}. The most: {most} ({top:,}{en}).",
    )
