"""A turn or a split-view comparison as Markdown (for people) and JSON (for scripts).

Pane and difference dicts come from the split view. A pane is
``{"persona", "display_name"?, "question"?, "answer", "status"?, "events"?: [event dicts]}``;
a difference is any flat dict, for example
``{"kind": "number", "value": "8", "hong": "yes", "cho": "no"}``: the Markdown
table shows the union of the keys, in first-seen order.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

if TYPE_CHECKING:
    from desktop.history_store import TurnRecord

TURN_FORMAT = "regdesk.turn/1"
"""Value of ``format`` in a turn exported as JSON."""

COMPARISON_FORMAT = "regdesk.comparison/1"
"""Value of ``format`` in a comparison exported as JSON."""


def _tr(text: str) -> str:
    return QCoreApplication.translate("Export", text)


def _when(started_at: float) -> str:
    return datetime.fromtimestamp(started_at, tz=UTC).isoformat(timespec="seconds")


def _cell(value: Any) -> str:
    """Render a value for one Markdown table cell (no pipes, no line breaks)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "✓" if value else ""
    if isinstance(value, list | tuple):
        text = ", ".join(str(v) for v in value)
    elif isinstance(value, dict):
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    else:
        text = str(value)
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    lines = [
        "| " + " | ".join(_cell(h) for h in header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
    ]
    lines.extend("| " + " | ".join(_cell(v) for v in row) + " |" for row in rows)
    return lines


def _quote(text: str) -> list[str]:
    return [f"> {line}" if line else ">" for line in text.splitlines()] or [">"]


def tool_calls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Pair tool call start and finish events into one summary per call.

    Args:
        events: Event dicts of a turn, in order.

    Returns:
        One dict per call: tool, arguments, decision, status, duration_ms,
        row_count, truncated, injection_suspected, error.
    """
    calls: dict[str, dict[str, Any]] = {}
    for event in events:
        kind = event.get("kind")
        if kind not in ("tool_call_started", "tool_call_finished"):
            continue
        call = calls.setdefault(
            str(event.get("call_id")), {"tool": event.get("tool"), "arguments": {}}
        )
        if kind == "tool_call_started":
            call["arguments"] = event.get("arguments") or {}
            call["decision"] = event.get("decision")
        else:
            for key in (
                "status",
                "duration_ms",
                "row_count",
                "truncated",
                "injection_suspected",
                "error",
            ):
                call[key] = event.get(key)
    return list(calls.values())


def _citations(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for event in events:
        if event.get("kind") == "answer_finished":
            return list(event.get("citations") or [])
    return []


def _tool_lines(events: list[dict[str, Any]]) -> list[str]:
    calls = tool_calls(events)
    if not calls:
        return []
    rows = []
    for call in calls:
        flags = [
            _tr("truncated") if call.get("truncated") else "",
            _tr("injection suspected") if call.get("injection_suspected") else "",
        ]
        duration = call.get("duration_ms")
        rows.append(
            [
                call.get("tool"),
                json.dumps(call.get("arguments") or {}, ensure_ascii=False, sort_keys=True),
                call.get("decision"),
                call.get("status"),
                call.get("row_count"),
                f"{duration:.0f} ms" if isinstance(duration, int | float) else "",
                ", ".join(f for f in flags if f) or call.get("error"),
            ]
        )
    header = [
        _tr("Tool"),
        _tr("Arguments"),
        _tr("Decision"),
        _tr("Status"),
        _tr("Rows"),
        _tr("Duration"),
        _tr("Notes"),
    ]
    return ["", f"### {_tr('Tool calls')}", "", *_table(header, rows)]


def _citation_lines(events: list[dict[str, Any]]) -> list[str]:
    citations = _citations(events)
    if not citations:
        return []
    lines = ["", f"### {_tr('Citations')}", ""]
    for cite in citations:
        parts = [str(cite.get("doc_no"))]
        if cite.get("version") is not None:
            parts.append(f"v{cite['version']}")
        if cite.get("effective_from"):
            parts.append(_tr("effective {date}").format(date=cite["effective_from"]))
        lines.append("- " + " · ".join(parts))
    return lines


def turn_to_markdown(record: TurnRecord) -> str:
    """Render one saved turn as a Markdown document.

    Args:
        record: The turn.

    Returns:
        Markdown with the question, the answer, its citations and a table of
        the tool calls.
    """
    lines = [
        f"## {_tr('RegDesk turn')} — {record.persona}",
        "",
        f"- **{_tr('Persona')}:** {record.persona}",
        f"- **{_tr('Started')}:** {_when(record.started_at)}",
        f"- **{_tr('Elapsed')}:** {record.elapsed_ms:.0f} ms",
        f"- **{_tr('Status')}:** {record.status}",
        "",
        f"### {_tr('Question')}",
        "",
        *_quote(record.question),
        "",
        f"### {_tr('Answer')}",
        "",
        record.answer or f"_{_tr('No answer.')}_",
        *_citation_lines(record.events),
        *_tool_lines(record.events),
    ]
    return "\n".join(lines) + "\n"


def turn_to_json(record: TurnRecord) -> str:
    """Render one saved turn as JSON (UTF-8 text, Korean left readable).

    Args:
        record: The turn.

    Returns:
        A JSON object with ``format``, the turn's fields, and ``tool_calls``.
    """
    document = {
        "format": TURN_FORMAT,
        "id": record.id,
        "persona": record.persona,
        "question": record.question,
        "answer": record.answer,
        "status": record.status,
        "started_at": _when(record.started_at),
        "elapsed_ms": record.elapsed_ms,
        "citations": _citations(record.events),
        "tool_calls": tool_calls(record.events),
        "events": record.events,
    }
    return json.dumps(document, ensure_ascii=False, indent=2, default=str) + "\n"


def comparison_to_markdown(panes: list[dict[str, Any]], differences: list[dict[str, Any]]) -> str:
    """Render a split-view comparison as Markdown.

    Args:
        panes: One dict per persona pane (see the module docstring).
        differences: What differs between the panes, one flat dict each.

    Returns:
        Markdown: the question, each persona's answer and tool calls, and a
        table of the differences.
    """
    names = [str(p.get("display_name") or p.get("persona") or "?") for p in panes]
    question = next((str(p["question"]) for p in panes if p.get("question")), "")
    lines = [f"## {_tr('RegDesk comparison')} — {' / '.join(names)}", ""]
    if question:
        lines += [f"### {_tr('Question')}", "", *_quote(question), ""]
    lines += [f"### {_tr('Differences')}", ""]
    if differences:
        header: list[str] = []
        for diff in differences:
            header.extend(k for k in diff if k not in header)
        lines += _table(header, [[diff.get(k) for k in header] for diff in differences])
    else:
        lines.append(f"_{_tr('No differences found.')}_")
    for name, pane in zip(names, panes, strict=True):
        persona = pane.get("persona")
        title = f"{name} ({persona})" if persona and persona != name else name
        lines += ["", f"## {title}", ""]
        if pane.get("status"):
            lines += [f"- **{_tr('Status')}:** {pane['status']}", ""]
        lines.append(str(pane.get("answer") or f"_{_tr('No answer.')}_"))
        events = list(pane.get("events") or [])
        lines += _citation_lines(events)
        lines += _tool_lines(events)
    return "\n".join(lines) + "\n"


def comparison_to_json(panes: list[dict[str, Any]], differences: list[dict[str, Any]]) -> str:
    """Render a split-view comparison as JSON.

    Args:
        panes: One dict per persona pane.
        differences: What differs between the panes.

    Returns:
        A JSON object with ``format``, ``exported_at``, ``panes`` (each with
        ``tool_calls`` added when it has events) and ``differences``.
    """
    out_panes = []
    for pane in panes:
        entry = dict(pane)
        if pane.get("events"):
            entry["tool_calls"] = tool_calls(list(pane["events"]))
        out_panes.append(entry)
    document = {
        "format": COMPARISON_FORMAT,
        "exported_at": datetime.now(tz=UTC).isoformat(timespec="seconds"),
        "panes": out_panes,
        "differences": differences,
    }
    return json.dumps(document, ensure_ascii=False, indent=2, default=str) + "\n"
