"""What differs between the finished panes of a split comparison (no Qt).

Each pane is a dict ``{"persona", "answer", "tools": [{"tool", "status",
"row_count", ...}]}``. The differences are plain dicts so that export, the
headless driver's JSON and the strip widget all read the same thing:

- ``{"kind": "number"|"date"|"doc_no", "value", "present": [...], "absent": [...]}``
  — a figure, ISO date or document number in some answers but not others;
- ``{"kind": "row_count", "tool", "counts": {persona: rows}}`` — a tool's rows
  (summed over its calls) differ between personas;
- ``{"kind": "call_status", "tool", "statuses": {persona: "ok"|"empty"|"denied"|...}}``
  — a tool was denied, empty or failed for some personas only.
"""

from __future__ import annotations

import re
from typing import Any

DOC_NO = re.compile(r"\b[A-Z]{2,4}-[A-Z]{3}-\d{3}\b")
"""Document numbers such as HR-REG-003."""
ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
"""ISO dates."""
NUMBER = re.compile(r"(?<![A-Za-z0-9_.])\d+(?:[.,]\d+)*(?![\d])")
"""Integers and decimals, with thousands separators."""

STATUS_RANK = {"ok": 0, "empty": 1, "error": 2, "denied": 3}


def answer_tokens(answer: str) -> dict[str, set[str]]:
    """The document numbers, dates and numbers an answer mentions.

    Dates and document numbers are taken out before numbers are read, so the
    digits of ``2025-03-15`` or ``HR-REG-003`` are not counted as figures too.

    Args:
        answer: Answer text.

    Returns:
        ``{"doc_no": {...}, "date": {...}, "number": {...}}``.
    """
    doc_nos = set(DOC_NO.findall(answer))
    rest = DOC_NO.sub(" ", answer)
    dates = set(ISO_DATE.findall(rest))
    rest = ISO_DATE.sub(" ", rest)
    numbers = {value.replace(",", "") for value in NUMBER.findall(rest)}
    return {"doc_no": doc_nos, "date": dates, "number": numbers}


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
    tokens = [answer_tokens(str(pane.get("answer", ""))) for pane in panes]
    differences: list[dict[str, Any]] = []
    for kind in ("doc_no", "date", "number"):
        union = set().union(*(t[kind] for t in tokens))
        for value in sorted(union, key=_sort_key):
            present = [p for p, t in zip(personas, tokens, strict=True) if value in t[kind]]
            if len(present) != len(personas):
                absent = [p for p in personas if p not in present]
                differences.append(
                    {"kind": kind, "value": value, "present": present, "absent": absent}
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
    if kind in ("number", "date", "doc_no"):
        label = {"number": "number", "date": "date", "doc_no": "document"}[kind]
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


def _sort_key(value: str) -> tuple[int, float, str]:
    try:
        return (0, float(value), value)
    except ValueError:
        return (1, 0.0, value)
