"""A turn or a split-view comparison as Markdown (for people) and JSON (for scripts).

A saved turn's events are folded into a ``TurnRecord`` (``TurnRecord.from_dicts``,
the fold every surface uses), and the tables, citations and usage are read from
that record. Pane and difference dicts come from the split view
(``agent_core.compare``). A pane is ``{"persona", "display_name"?, "question"?,
"answer", "status"?, "events"?: [event dicts], "tools"?: [call summaries]}``; the
tool table uses ``events`` when present, else ``tools``. A difference is
any dict, e.g. ``{"kind": "row_count", "tool": "query_hr", "counts": {"hong": 1,
"cho": 12}}``: the Markdown table shows the union of the keys in first-seen
order, with lists and dicts written out as ``hong: 1, cho: 12``.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

from agent_core.record import TurnRecord as Record
from desktop.verbatim import escape_markdown, protect_values, tool_values

if TYPE_CHECKING:
    from agent_core.record import CallRecord
    from desktop.history_store import SavedTurn

TURN_FORMAT = "regdesk.turn/1"
"""Value of ``format`` in a turn exported as JSON."""

COMPARISON_FORMAT = "regdesk.comparison/1"
"""Value of ``format`` in a comparison exported as JSON."""


def _labels() -> dict[str, str]:
    """Headings and labels of the exports, translated at export time."""
    return {
        "Answer": QCoreApplication.translate("Export", "Answer"),
        "Citations": QCoreApplication.translate("Export", "Citations"),
        "Differences": QCoreApplication.translate("Export", "Differences"),
        "Elapsed": QCoreApplication.translate("Export", "Elapsed"),
        "No answer.": QCoreApplication.translate("Export", "No answer."),
        "No differences found.": QCoreApplication.translate("Export", "No differences found."),
        "Persona": QCoreApplication.translate("Export", "Persona"),
        "Question": QCoreApplication.translate("Export", "Question"),
        "RegDesk comparison": QCoreApplication.translate("Export", "RegDesk comparison"),
        "RegDesk turn": QCoreApplication.translate("Export", "RegDesk turn"),
        "Started": QCoreApplication.translate("Export", "Started"),
        "Status": QCoreApplication.translate("Export", "Status"),
        "Tool calls": QCoreApplication.translate("Export", "Tool calls"),
        "Tokens": QCoreApplication.translate("Export", "Tokens"),
    }


def _record(saved: SavedTurn) -> Record:
    """The saved turn's events folded into a record (unknown kinds are skipped)."""
    return Record.from_dicts(saved.events, persona=saved.persona, question=saved.question)


def _usage(record: Record) -> dict[str, Any] | None:
    """The turn's usage as its events store it (``event_to_dict``)."""
    return dataclasses.asdict(record.usage) if record.usage is not None else None


def turn_usage(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The turn's token usage and estimated cost, from its answer or failure event."""
    return _usage(Record.from_dicts(events))


def _usage_lines(usage: dict[str, Any] | None, label: str) -> list[str]:
    if not usage or not usage.get("model_calls"):
        return []
    total_in = sum(
        int(usage.get(k) or 0)
        for k in ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
    )
    line = (
        f"- **{label}:** {total_in:,} in ({int(usage.get('cache_read_input_tokens') or 0):,} "
        f"from cache), {int(usage.get('output_tokens') or 0):,} out, "
        f"{usage.get('model_calls')} model calls"
    )
    if usage.get("cost_usd") is not None:
        line += f", ≈ ${float(usage['cost_usd']):.4f}"
    return [line]


def status_word(status: str) -> str:
    """A turn's or call's status in the export's language (JSON keeps the code)."""
    words = {
        "answered": QCoreApplication.translate("Export", "answered"),
        "cancelled": QCoreApplication.translate("Export", "cancelled"),
        "failed": QCoreApplication.translate("Export", "failed"),
        "ok": QCoreApplication.translate("Export", "ok"),
        "empty": QCoreApplication.translate("Export", "empty"),
        "error": QCoreApplication.translate("Export", "error"),
        "denied": QCoreApplication.translate("Export", "denied"),
        "interrupted": QCoreApplication.translate("Export", "interrupted"),
        "allow": QCoreApplication.translate("Export", "allow"),
        "approval_required": QCoreApplication.translate("Export", "approval_required"),
        "deny": QCoreApplication.translate("Export", "deny"),
    }
    return words.get(status, status)


def _difference_headers() -> dict[str, str]:
    """Column titles of the differences table: its keys, in the export's language.

    The English titles are the keys themselves (scripts read the Markdown table too).
    """
    return {
        "kind": QCoreApplication.translate("Export", "kind"),
        "value": QCoreApplication.translate("Export", "value"),
        "present": QCoreApplication.translate("Export", "present"),
        "absent": QCoreApplication.translate("Export", "absent"),
        "tool": QCoreApplication.translate("Export", "tool"),
        "counts": QCoreApplication.translate("Export", "counts"),
        "statuses": QCoreApplication.translate("Export", "statuses"),
    }


def _difference_value(key: str, value: Any) -> Any:
    """A differences-table cell in the export's language (English keeps the codes)."""
    if key == "kind" and isinstance(value, str):
        kinds = {
            "doc_no": QCoreApplication.translate("Export", "doc_no"),
            "version": QCoreApplication.translate("Export", "version"),
            "article": QCoreApplication.translate("Export", "article"),
            "date": QCoreApplication.translate("Export", "date"),
            "days": QCoreApplication.translate("Export", "days"),
            "amount": QCoreApplication.translate("Export", "amount"),
            "count": QCoreApplication.translate("Export", "count"),
            "period": QCoreApplication.translate("Export", "period"),
            "percent": QCoreApplication.translate("Export", "percent"),
            "number": QCoreApplication.translate("Export", "number"),
            "row_count": QCoreApplication.translate("Export", "row_count"),
            "call_status": QCoreApplication.translate("Export", "call_status"),
        }
        return kinds.get(value, value)
    if key == "statuses" and isinstance(value, dict):
        return {k: status_word(str(v)) if v else "—" for k, v in value.items()}
    return value


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
        text = ", ".join(f"{k}: {'—' if v is None else v}" for k, v in value.items())
    else:
        text = str(value)
    return escape_markdown(text.replace("\r", " ").replace("\n", " "))


def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    lines = [
        "| " + " | ".join(_cell(h) for h in header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
    ]
    lines.extend("| " + " | ".join(_cell(v) for v in row) + " |" for row in rows)
    return lines


def _quote(text: str) -> list[str]:
    """A question (plain text) as a Markdown block quote that shows it verbatim."""
    lines = [f"> {escape_markdown(line)}" if line else ">" for line in text.splitlines()]
    return lines or [">"]


def call_summary(call: CallRecord) -> dict[str, Any]:
    """One call of a turn record for the exports' tables and JSON.

    Returns:
        tool, arguments, decision, status, duration_ms, row_count, truncated,
        injection_suspected, error, approved (the framed result and payload stay
        in the turn's events).
    """
    return {
        "tool": call.tool,
        "arguments": dict(call.arguments),
        "decision": call.decision,
        "status": call.status,
        "duration_ms": call.duration_ms,
        "row_count": call.row_count,
        "truncated": call.truncated,
        "injection_suspected": call.injection_suspected,
        "error": call.error,
        "approved": call.approved,
    }


def tool_calls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One summary per call of a turn (:func:`call_summary`), from its event dicts.

    Args:
        events: Event dicts of a turn, in order.
    """
    return [call_summary(call) for call in Record.from_dicts(events).calls]


def _tool_lines(calls: list[dict[str, Any]]) -> list[str]:
    label = _labels()
    if not calls:
        return []
    rows = []
    for call in calls:
        flags = [
            QCoreApplication.translate("Export", "truncated") if call.get("truncated") else "",
            QCoreApplication.translate("Export", "injection suspected")
            if call.get("injection_suspected")
            else "",
        ]
        duration = call.get("duration_ms")
        rows.append(
            [
                call.get("tool"),
                json.dumps(call.get("arguments") or {}, ensure_ascii=False, sort_keys=True),
                status_word(str(call.get("decision") or "")),
                status_word(str(call.get("status") or "")),
                call.get("row_count"),
                f"{duration:.0f} ms" if isinstance(duration, int | float) else "",
                ", ".join(f for f in flags if f) or call.get("error"),
            ]
        )
    header = [
        QCoreApplication.translate("Export", "Tool"),
        QCoreApplication.translate("Export", "Arguments"),
        QCoreApplication.translate("Export", "Decision"),
        QCoreApplication.translate("Export", "Status"),
        QCoreApplication.translate("Export", "Rows"),
        QCoreApplication.translate("Export", "Duration"),
        QCoreApplication.translate("Export", "Notes"),
    ]
    return [
        "",
        f"### {label['Tool calls']}",
        "",
        *_table(header, rows),
    ]


def _citations(record: Record) -> list[dict[str, Any]]:
    return [dataclasses.asdict(cite) for cite in record.citations]


def _citation_lines(citations: list[dict[str, Any]]) -> list[str]:
    label = _labels()
    if not citations:
        return []
    lines = ["", f"### {label['Citations']}", ""]
    for cite in citations:
        parts = [str(cite.get("doc_no"))]
        if cite.get("version") is not None:
            parts.append(f"v{cite['version']}")
        if cite.get("effective_from"):
            parts.append(
                QCoreApplication.translate("Export", "effective {date}").format(
                    date=cite["effective_from"]
                )
            )
        lines.append("- " + " · ".join(parts))
    return lines


def turn_to_markdown(record: SavedTurn) -> str:
    """Render one saved turn as a Markdown document.

    Args:
        record: The turn.

    Returns:
        Markdown with the question, the answer, its citations and a table of
        the tool calls.
    """
    label = _labels()
    folded = _record(record)
    lines = [
        f"## {label['RegDesk turn']} — {record.persona}",
        "",
        f"- **{label['Persona']}:** {record.persona}",
        f"- **{label['Started']}:** {_when(record.started_at)}",
        f"- **{label['Elapsed']}:** {record.elapsed_ms:.0f} ms",
        f"- **{label['Status']}:** {status_word(record.status)}",
        *_usage_lines(_usage(folded), label["Tokens"]),
        "",
        f"### {label['Question']}",
        "",
        *_quote(record.question),
        "",
        f"### {label['Answer']}",
        "",
        protect_values(record.answer, tool_values(call.result for call in folded.calls))
        or f"_{label['No answer.']}_",
        *_citation_lines(_citations(folded)),
        *_tool_lines([call_summary(call) for call in folded.calls]),
    ]
    return "\n".join(lines) + "\n"


def turn_to_json(record: SavedTurn) -> str:
    """Render one saved turn as JSON (UTF-8 text, Korean left readable).

    Args:
        record: The turn.

    Returns:
        A JSON object with ``format``, the turn's fields, and ``tool_calls``.
    """
    folded = _record(record)
    document = {
        "format": TURN_FORMAT,
        "id": record.id,
        "persona": record.persona,
        "question": record.question,
        "answer": record.answer,
        "status": record.status,
        "started_at": _when(record.started_at),
        "elapsed_ms": record.elapsed_ms,
        "citations": _citations(folded),
        "tool_calls": [call_summary(call) for call in folded.calls],
        "usage": _usage(folded),
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
    label = _labels()
    names = [str(p.get("display_name") or p.get("persona") or "?") for p in panes]
    question = next((str(p["question"]) for p in panes if p.get("question")), "")
    lines = [
        f"## {label['RegDesk comparison']} — {' / '.join(names)}",
        "",
    ]
    if question:
        lines += [
            f"### {label['Question']}",
            "",
            *_quote(question),
            "",
        ]
    lines += [f"### {label['Differences']}", ""]
    if differences:
        header: list[str] = []
        for diff in differences:
            header.extend(k for k in diff if k not in header)
        names_of = _difference_headers()
        rows = [[_difference_value(k, diff.get(k)) for k in header] for diff in differences]
        lines += _table([names_of.get(k, k) for k in header], rows)
    else:
        lines.append(f"_{label['No differences found.']}_")
    for name, pane in zip(names, panes, strict=True):
        persona = pane.get("persona")
        title = f"{name} ({persona})" if persona and persona != name else name
        lines += ["", f"## {title}", ""]
        if pane.get("status"):
            lines += [
                f"- **{label['Status']}:** {status_word(str(pane['status']))}",
                "",
            ]
        events = list(pane.get("events") or [])
        folded = Record.from_dicts(events)
        verbatim = [*pane.get("verbatim", ()), *tool_values(c.result for c in folded.calls)]
        answer = protect_values(str(pane.get("answer") or ""), verbatim)
        lines.append(answer or f"_{label['No answer.']}_")
        lines += _citation_lines(_citations(folded))
        calls = [call_summary(c) for c in folded.calls] if events else pane.get("tools")
        lines += _tool_lines(list(calls or []))
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


CONVERSATION_FORMAT = "regdesk.conversation/1"
"""Value of ``format`` in a conversation exported as JSON."""


def conversation_to_markdown(conversation: tuple[str, list[SavedTurn]]) -> str:
    """Render a whole conversation as one Markdown document.

    Args:
        conversation: (title, its turns oldest first).

    Returns:
        Markdown: a heading with the title, then every turn as in :func:`turn_to_markdown`.
    """
    title, records = conversation
    heading = QCoreApplication.translate("Export", "RegDesk conversation")
    persona = records[0].persona if records else ""
    lines = [f"# {heading} — {escape_markdown(title)}", ""]
    if persona:
        lines += [f"- **{_labels()['Persona']}:** {persona}", ""]
    for record in records:
        lines.append(turn_to_markdown(record))
    return "\n".join(lines).rstrip("\n") + "\n"


def conversation_to_json(conversation: tuple[str, list[SavedTurn]]) -> str:
    """Render a whole conversation as JSON: ``format``, ``title``, ``persona``, ``turns``."""
    title, records = conversation
    turns = [json.loads(turn_to_json(record)) for record in records]
    document = {
        "format": CONVERSATION_FORMAT,
        "title": title,
        "persona": records[0].persona if records else "",
        "exported_at": datetime.now(tz=UTC).isoformat(timespec="seconds"),
        "turns": turns,
    }
    return json.dumps(document, ensure_ascii=False, indent=2, default=str) + "\n"
