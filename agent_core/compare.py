"""What differs between the answers of the same question asked as several personas.

One comparison for every surface: the split view's strip, its exports, the
headless driver's JSON and ``regdesk compare --json`` all read
:func:`compare_turns` (or :func:`compare_panes` on finished panes), so they
report the same differences for the same question.

Each pane is a dict ``{"persona", "answer", "tools": [{"tool", "status",
"row_count", ...}]}`` (:func:`pane_of` makes one from a turn record). The
differences are plain dicts:

- ``{"kind", "value", "present": [...], "absent": [...]}`` — a token in some
  answers but not others. ``kind`` is one of ``TOKEN_KINDS`` (``doc_no``,
  ``version``, ``article``, ``date``, ``days``, ``amount``, ``count``,
  ``period``, ``percent``, ``number``) and ``value`` reads as the answer wrote
  it, unit included: ``"HR-GDL-003"``, ``"제3차"``, ``"2025-03-15"``, ``"7일"``,
  ``"220,000원"``, ``"1건"``, ``"연도 2025"`` (a bare figure with the word
  that names it);
- ``{"kind": "row_count", "tool", "counts": {persona: rows}}`` — a tool's rows
  (summed over its calls) differ between personas;
- ``{"kind": "call_status", "tool", "statuses": {persona: "ok"|"empty"|"denied"|...}}``
  — a tool was denied, empty or failed for some personas only.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from agent_core.rules import DOC_NO_RE

if TYPE_CHECKING:
    from agent_core.record import TurnRecord

ISO_DATE = re.compile(r"(?<![\d-])\d{4}-\d{2}-\d{2}(?![\d-])")
"""ISO dates, also when a Korean particle follows (``2026-12-22부터``: Hangul counts as a
word character, so a word-boundary pattern would see no end to the date there)."""
KOREAN_DATE = re.compile(r"\d{4}년\s?\d{1,2}월(?:\s?\d{1,2}일)?|\d{4}년(?!\s?\d)")
"""Dates written the Korean way: 2025년 3월 15일, 2025년."""
NUMBER = re.compile(r"(?<![A-Za-z0-9_.])\d+(?:[.,]\d+)*(?![\d])")
"""Integers and decimals, with thousands separators."""
FIGURE = re.compile(
    r"(?<![A-Za-z0-9_.,])(?P<prefix>제\s?)?(?P<number>\d+(?:[.,]\d+)*)(?![\d])"
    r"(?P<unit>\s?만\s?원|\s?원|개월|시간|일|건|명|회|개|번|차|조|항|주|박|분|%)?"
)
"""A figure and the unit written right after it (``7일``, ``1건``, ``220,000원``, ``제3차``)."""
LABEL = re.compile(r"([가-힣A-Za-z_]{2,})\s*[:：=]?\s*$")
"""A word right before a bare figure that names it (``연도 2025``, ``사용일수: 7``)."""
NOT_LABELS = frozenset(
    "and or to of the an is are was were be been has have had so then from until "
    "in on at by for with as than about into over under after before now only".split()
)
"""English function words: the word before a figure, but no name for it ("have 8")."""
LIST_MARKER = re.compile(r"(?m)^\s*\d+[.)]\s")
"""``1.`` or ``2)`` at the start of a line: numbering, not a figure."""

UNIT_KINDS = {
    "원": "amount",
    "만원": "amount",
    "일": "days",
    "건": "count",
    "명": "count",
    "회": "count",
    "개": "count",
    "번": "count",
    "차": "version",
    "조": "article",
    "항": "article",
    "개월": "period",
    "주": "period",
    "박": "period",
    "시간": "period",
    "분": "period",
    "%": "percent",
}
"""The kind of figure a unit makes."""

TOKEN_KINDS = (
    "doc_no",
    "version",
    "article",
    "date",
    "days",
    "amount",
    "count",
    "period",
    "percent",
    "number",
)
"""Kinds of answer tokens, in the order differences are listed."""

STATUS_RANK = {"ok": 0, "empty": 1, "error": 2, "denied": 3}


def _figure_text(number: str, unit: str, prefix: str) -> str:
    plain = number.replace(",", "")
    if unit in ("원", "만원") and plain.isdigit():
        number = f"{int(plain):,}"
    return f"{'제' if prefix else ''}{number}{unit}"


def answer_figures(answer: str) -> dict[str, dict[str, str]]:
    """What an answer states, each token with how a person reads it.

    Document numbers, ISO and Korean dates are taken out first, so their digits
    are not read as figures too. A figure keeps the unit written after it
    (``7일``, ``1건``, ``220,000원``, ``제3차``); a bare figure keeps the word
    that names it (``연도 2025``) and is dropped when the same number also
    appears with a unit (``사용일수 7`` next to ``7일``) or is list numbering.

    Args:
        answer: Answer text.

    Returns:
        ``{kind: {key: display}}`` for every kind in ``TOKEN_KINDS``; ``key`` is
        what is compared (``"7일"``, ``"220000원"``, a bare ``"2025"``) and
        ``display`` what is shown (``"7일"``, ``"220,000원"``, ``"연도 2025"``).
    """
    found: dict[str, dict[str, str]] = {kind: {} for kind in TOKEN_KINDS}

    def take(kind: str, match: re.Match[str], key: str | None = None) -> str:
        # one pass per pattern: record the token and blank it out for the next pattern
        value = key or match.group(0)
        found[kind][value] = value
        return " "

    rest = DOC_NO_RE.sub(lambda m: take("doc_no", m, m.group(1)), answer)
    rest = ISO_DATE.sub(lambda m: take("date", m), rest)
    rest = KOREAN_DATE.sub(lambda m: take("date", m, re.sub(r"\s+", " ", m.group(0))), rest)
    rest = LIST_MARKER.sub(" ", rest)
    bare: list[tuple[str, str]] = []
    with_unit: set[str] = set()
    for match in FIGURE.finditer(rest):
        number = match.group("number")
        plain = number.replace(",", "")
        unit = re.sub(r"\s+", "", match.group("unit") or "")
        if unit:
            kind = UNIT_KINDS[unit]
            found[kind][f"{plain}{unit}"] = _figure_text(number, unit, match.group("prefix") or "")
            with_unit.add(plain)
            continue
        label = LABEL.search(rest[max(0, match.start() - 24) : match.start()])
        if label and label.group(1).lower() not in NOT_LABELS:
            bare.append((plain, f"{label.group(1)} {number}"))
        else:
            bare.append((plain, number))
    for plain, display in bare:
        if plain not in with_unit:
            found["number"].setdefault(plain, display)
    return found


def answer_tokens(answer: str) -> dict[str, set[str]]:
    """The comparison keys of an answer's tokens, by kind (see :func:`answer_figures`)."""
    return {kind: set(values) for kind, values in answer_figures(answer).items()}


def tool_row_counts(pane: dict[str, Any]) -> dict[str, int]:
    """Rows per tool, summed over the pane's calls of that tool."""
    counts: dict[str, int] = {}
    for call in pane.get("tools", []):
        counts[call["tool"]] = counts.get(call["tool"], 0) + int(call.get("row_count") or 0)
    return counts


def _worst_status(pane: dict[str, Any], tool: str) -> str | None:
    statuses = [c.get("status", "ok") for c in pane.get("tools", []) if c["tool"] == tool]
    if not statuses:
        return None
    return max(statuses, key=lambda status: STATUS_RANK.get(status, 2))


def compare_panes(panes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """List what differs between two or more finished panes.

    Args:
        panes: One dict per pane (persona, answer, tools).

    Returns:
        Differences in a stable order: answer tokens first (doc numbers, dates,
        numbers), then row counts, then call statuses.
    """
    if len(panes) < 2:
        return []
    personas = [str(pane["persona"]) for pane in panes]
    figures = [answer_figures(str(pane.get("answer", ""))) for pane in panes]
    differences: list[dict[str, Any]] = []
    for kind in TOKEN_KINDS:
        union: dict[str, str] = {}
        for side in figures:
            for key, display in side[kind].items():
                union.setdefault(key, display)
        for key in sorted(union, key=_sort_key):
            present = [p for p, f in zip(personas, figures, strict=True) if key in f[kind]]
            if len(present) != len(personas):
                absent = [p for p in personas if p not in present]
                differences.append(
                    {"kind": kind, "value": union[key], "present": present, "absent": absent}
                )
    counts = [tool_row_counts(pane) for pane in panes]
    tools = sorted(set().union(*(c.keys() for c in counts)))
    for tool in tools:
        per_persona = {p: c.get(tool) for p, c in zip(personas, counts, strict=True)}
        if len(set(per_persona.values())) > 1:
            differences.append({"kind": "row_count", "tool": tool, "counts": per_persona})
    for tool in tools:
        statuses = {p: _worst_status(pane, tool) for p, pane in zip(personas, panes, strict=True)}
        if len(set(statuses.values())) > 1:
            differences.append({"kind": "call_status", "tool": tool, "statuses": statuses})
    return differences


def pane_of(record: TurnRecord) -> dict[str, Any]:
    """The comparison's view of a turn: persona, status, answer and its calls."""
    return {
        "persona": record.persona,
        "status": record.status,
        "answer": record.answer if record.status == "answered" else "",
        "tools": [
            {"tool": c.tool, "status": c.status, "row_count": c.row_count} for c in record.calls
        ],
    }


def compare_turns(records: list[TurnRecord]) -> dict[str, Any]:
    """Compare the turns that answered; the others are named, not judged.

    A stopped or failed turn has no answer to compare, so counting its missing
    figures as differences would report policy where there is none.

    Args:
        records: One finished turn per persona, in display order.

    Returns:
        ``{"compared": [personas], "excluded": {persona: status}, "differences": [...],
        "row_counts": [...]}``.
    """
    panes = [pane_of(r) for r in records]
    answered = [p for p in panes if p["status"] == "answered"]
    return {
        "compared": [p["persona"] for p in answered],
        "excluded": {p["persona"]: p["status"] for p in panes if p["status"] != "answered"},
        "differences": compare_panes(answered),
        "row_counts": row_count_table(answered),
    }


def row_count_table(panes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-tool row counts side by side, for every tool any pane called.

    Returns:
        ``[{"tool", "counts": {persona: rows or None}, "differs": bool}]``.
    """
    personas = [str(pane["persona"]) for pane in panes]
    counts = [tool_row_counts(pane) for pane in panes]
    table = []
    for tool in sorted(set().union(*(c.keys() for c in counts))) if counts else []:
        per_persona = {p: c.get(tool) for p, c in zip(personas, counts, strict=True)}
        table.append(
            {"tool": tool, "counts": per_persona, "differs": len(set(per_persona.values())) > 1}
        )
    return table


def describe_difference(difference: dict[str, Any]) -> str:
    """One line of plain English for a difference (the strip translates its labels)."""
    kind = difference["kind"]
    if kind in TOKEN_KINDS:
        label = KIND_LABELS[kind]
        return (
            f"{label} {difference['value']}: only {', '.join(difference['present'])}"
            f" (not {', '.join(difference['absent'])})"
        )
    if kind == "row_count":
        sides = " vs ".join(
            f"{p} {'-' if n is None else n}" for p, n in difference["counts"].items()
        )
        return f"{difference['tool']} rows: {sides}"
    sides = " vs ".join(f"{p} {s or 'not called'}" for p, s in difference["statuses"].items())
    return f"{difference['tool']}: {sides}"


KIND_LABELS = {
    "doc_no": "document",
    "version": "version",
    "article": "article",
    "date": "date",
    "days": "days",
    "amount": "amount",
    "count": "count",
    "period": "period",
    "percent": "percent",
    "number": "number",
}
"""English labels of the token kinds (the strip translates its own)."""


def _sort_key(value: str) -> tuple[int, float, str]:
    match = re.match(r"\d+(?:\.\d+)?", value)
    if match:
        return (0, float(match.group(0)), value)
    return (1, 0.0, value)
