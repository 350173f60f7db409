"""Matrix reports: JSON, Markdown and one self-contained HTML file.

The HTML has no external resource (no script, font, image or stylesheet
link), so it opens the same in any browser, offline; colours follow the
reader's light or dark preference, and every status also has a symbol so the
grid reads without colour. Values are escaped, never interpreted (a mask
``02-****-****`` stays as typed).
"""

from __future__ import annotations

import hashlib
import html
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent_core.matrix.cells import Cell, MatrixRun, QuestionCell

SYMBOLS = {
    "visible": "✓",
    "allowed": "✓",
    "masked": "◐",
    "denied": "✕",
    "hidden": "∅",
    "not_probed": "?",
    "not_observed": "○",
    "pass": "✓",
    "fail": "✕",
    "answered": "•",
    "error": "!",
    "cancelled": "–",
}
"""A symbol per status, so the grid does not depend on colour alone."""

ACCESS_LEGEND = ("visible", "masked", "denied", "hidden", "not_observed", "not_probed", "error")
"""Access statuses in the HTML legend (``error``: a platform error, not a policy answer;
``not_observed``: a column with no value to see a mask in)."""

DETAILED = ("denied", "masked", "not_observed", "not_probed", "error")
"""Access statuses whose detail the Markdown report lists."""


def to_json(run: MatrixRun) -> str:
    """The run as the JSON document of ``--json`` (also the baseline format)."""
    return json.dumps(run.to_dict(), ensure_ascii=False, indent=1, default=str)


def cell_text(cell: Cell) -> str:
    """Short grid text of an access cell, e.g. ``✓ visible (19)``."""
    rows = f" ({cell.rows})" if cell.rows is not None else ""
    return f"{SYMBOLS.get(cell.status, '')} {cell.status}{rows}".strip()


def _md(text: Any) -> str:
    """Text safe inside a Markdown table cell (pipes and markup characters escaped)."""
    out = str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
    for ch in "*_`[]<>":
        out = out.replace(ch, "\\" + ch)
    return out


def _meta_lines(run: MatrixRun) -> list[tuple[str, str]]:
    meta = run.meta
    return [
        ("Platform", str(meta.get("platform_url", ""))),
        ("Time", str(meta.get("started_at", ""))),
        ("Personas", ", ".join(run.personas)),
        ("RegDesk", str(meta.get("regdesk_version", ""))),
        ("Model", str(meta.get("model") or "— (access probes use no model)")),
        ("Catalog", str(meta.get("catalog", ""))),
        ("Baseline", str(meta.get("baseline") or "—")),
    ]


def to_markdown(run: MatrixRun) -> str:
    """The run as Markdown: metadata, diff, access grid, question grid."""
    out = ["# RegDesk access matrix", ""]
    out += [f"- **{k}**: {_md(v)}" for k, v in _meta_lines(run)]
    if run.diff is not None:
        out += ["", "## Changes against the baseline", ""]
        out += [f"- {_md(c.describe())}" for c in run.diff] or ["- no changes"]
    out += ["", "## Effective access", ""]
    out.append("| kind | name | " + " | ".join(_md(p) for p in run.personas) + " |")
    out.append("|---|---|" + "---|" * len(run.personas))
    for kind, name in run.entries():
        row = []
        for persona in run.personas:
            cell = run.cell(persona, kind, name)
            row.append(_md(cell_text(cell)) if cell else "")
        out.append(f"| {kind} | {_md(name)} | " + " | ".join(row) + " |")
    details = [c for c in run.cells if c.detail and c.status in DETAILED]
    if details:
        out += ["", "### Details", ""]
        out += [f"- {c.persona} · {_md(c.name)}: {_md(c.detail)}" for c in details]
    if run.questions:
        out += ["", "## Questions", ""]
        out.append("| case | question | " + " | ".join(_md(p) for p in run.personas) + " |")
        out.append("|---|---|" + "---|" * len(run.personas))
        by_key = {q.key: q for q in run.questions}
        for case, ask in run.cases():
            row = []
            for p in run.personas:
                q = by_key.get((p, case))
                row.append(f"{SYMBOLS.get(q.status, '')} {q.status}" if q else "")
            out.append(f"| {_md(case)} | {_md(ask)} | " + " | ".join(row) + " |")
        failing = [q for q in run.questions if q.failures]
        if failing:
            out += ["", "### Failures", ""]
            out += [f"- {q.persona} · {_md(q.case)}: {_md('; '.join(q.failures))}" for q in failing]
    return "\n".join(out) + "\n"


_CSS = """
:root { color-scheme: light dark; --bg:#ffffff; --fg:#1d2430; --muted:#5b6675; --line:#d5dae1;
  --head:#f2f4f7; --visible:#d9f2df; --visible-fg:#14532d; --masked:#fdf0c4; --masked-fg:#6b4e00;
  --denied:#fbd9d7; --denied-fg:#8a1c14; --hidden:#e6e1f5; --hidden-fg:#42307d;
  --not_probed:#eceef1; --not_probed-fg:#3d4756; --not_observed:#cdeef3;
  --not_observed-fg:#0e4f5c; --answered:#dde9fb; --answered-fg:#1e3a8a;
  --error:#fde3cf; --error-fg:#7c2d12; --changed:#ffb020; }
@media (prefers-color-scheme: dark) { :root { --bg:#15181d; --fg:#e6e9ee; --muted:#9aa4b2;
  --line:#333a44; --head:#1f242b; --visible:#163b22; --visible-fg:#a7f3bf; --masked:#41360f;
  --masked-fg:#fde68a; --denied:#4a1d1a; --denied-fg:#fecaca; --hidden:#2e2650;
  --hidden-fg:#ddd6fe; --not_probed:#2a2f37; --not_probed-fg:#cbd2dc; --not_observed:#0f3a42;
  --not_observed-fg:#9be7f2; --answered:#1e2e4d;
  --answered-fg:#bfdbfe; --error:#4a2a14; --error-fg:#fed7aa; } }
body { background:var(--bg); color:var(--fg); font:14px/1.45 system-ui, "Noto Sans CJK KR",
  "Malgun Gothic", sans-serif; margin:24px; }
h1 { font-size:22px; margin:0 0 8px; } h2 { font-size:17px; margin:28px 0 8px; }
dl.meta { display:grid; grid-template-columns:max-content 1fr; gap:2px 14px; margin:0;
  color:var(--muted); } dl.meta dt { font-weight:600; } dl.meta dd { margin:0; color:var(--fg); }
table { border-collapse:collapse; margin-top:6px; } th, td { border:1px solid var(--line);
  padding:3px 8px; text-align:left; vertical-align:top; } th { background:var(--head); }
td.name { font-family:ui-monospace, monospace; font-size:12.5px; } td.kind { color:var(--muted); }
td.s a { color:inherit; text-decoration:none; display:block; }
.visible, .allowed, .pass { background:var(--visible); color:var(--visible-fg); }
.masked { background:var(--masked); color:var(--masked-fg); }
.denied, .fail { background:var(--denied); color:var(--denied-fg); }
.hidden { background:var(--hidden); color:var(--hidden-fg); }
.not_probed, .cancelled { background:var(--not_probed); color:var(--not_probed-fg); }
.not_observed { background:var(--not_observed); color:var(--not_observed-fg); }
.answered { background:var(--answered); color:var(--answered-fg); }
.error { background:var(--error); color:var(--error-fg); }
td.changed { outline:3px solid var(--changed); outline-offset:-3px; }
.legend span { display:inline-block; padding:1px 8px; margin-right:6px; border-radius:3px; }
.detail { border-top:1px solid var(--line); padding:6px 0; } .detail h3 { font-size:14px;
  margin:0 0 4px; } pre { white-space:pre-wrap; word-break:break-word; margin:2px 0 6px;
  font:12.5px/1.4 ui-monospace, monospace; background:var(--head); padding:4px 6px; }
ul.diff li { margin:2px 0; } .muted { color:var(--muted); }
"""


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _anchor(*parts: str) -> str:
    """A stable id for a cell (names are Korean and dotted; ids stay ASCII)."""
    return "c-" + hashlib.sha1("\t".join(parts).encode("utf-8")).hexdigest()[:12]


def _access_grid(run: MatrixRun, changed: set[tuple[str, str, str]]) -> list[str]:
    out = ["<table class='grid'><tr><th>kind</th><th>name</th>"]
    out += [f"<th>{_e(p)}</th>" for p in run.personas]
    out.append("</tr>")
    for kind, name in run.entries():
        out.append(f"<tr><td class='kind'>{_e(kind)}</td><td class='name'>{_e(name)}</td>")
        for p in run.personas:
            cell = run.cell(p, kind, name)
            if cell is None:
                out.append("<td></td>")
                continue
            mark = " changed" if (p, kind, name) in changed else ""
            out.append(
                f"<td class='s {_e(cell.status)}{mark}' title='{_e(cell.detail or '')}'>"
                f"<a href='#{_anchor(p, kind, name)}'>{_e(cell_text(cell))}</a></td>"
            )
        out.append("</tr>")
    out.append("</table>")
    return out


def _question_grid(run: MatrixRun, changed: set[tuple[str, str]]) -> list[str]:
    by_key: dict[tuple[str, str], QuestionCell] = {q.key: q for q in run.questions}
    out = ["<table class='grid'><tr><th>case</th><th>question</th>"]
    out += [f"<th>{_e(p)}</th>" for p in run.personas]
    out.append("</tr>")
    for case, ask in run.cases():
        out.append(f"<tr><td class='name'>{_e(case)}</td><td>{_e(ask)}</td>")
        for p in run.personas:
            q = by_key.get((p, case))
            if q is None:
                out.append("<td></td>")
                continue
            mark = " changed" if (p, case) in changed else ""
            text = f"{SYMBOLS.get(q.status, '')} {q.status}"
            out.append(
                f"<td class='s {_e(q.status)}{mark}' title='{_e('; '.join(q.failures))}'>"
                f"<a href='#{_anchor(p, 'question', case)}'>{_e(text)}</a></td>"
            )
        out.append("</tr>")
    out.append("</table>")
    return out


def _details(run: MatrixRun) -> list[str]:
    out = ["<h2>Cell details</h2>"]
    for cell in run.cells:
        out.append(f"<div class='detail' id='{_anchor(cell.persona, cell.kind, cell.name)}'>")
        out.append(
            f"<h3>{_e(cell.persona)} · {_e(cell.kind)} {_e(cell.name)}: "
            f"<span class='{_e(cell.status)}'>{_e(cell_text(cell))}</span></h3>"
        )
        if cell.detail:
            out.append(f"<div>{_e(cell.detail)}</div>")
        probe = run.probe(cell.persona, cell.kind, cell.name)
        for step in probe.steps if probe else ():
            out.append(f"<pre>{_e(step.request)}\n→ {_e(step.outcome)}</pre>")
        out.append("</div>")
    for q in run.questions:
        out.append(f"<div class='detail' id='{_anchor(q.persona, 'question', q.case)}'>")
        out.append(
            f"<h3>{_e(q.persona)} · {_e(q.case)}: <span class='{_e(q.status)}'>"
            f"{_e(q.status)}</span> <span class='muted'>{q.elapsed_ms:.0f} ms</span></h3>"
        )
        out.append(f"<div class='muted'>{_e(q.ask)}</div><pre>{_e(q.answer)}</pre>")
        for f in q.failures:
            out.append(f"<div class='denied'>{_e(f)}</div>")
        for n in q.notes:
            out.append(f"<div class='muted'>{_e(n)}</div>")
        for call in q.tool_calls:
            args = json.dumps(call.get("arguments"), ensure_ascii=False)
            out.append(
                f"<pre>{_e(call.get('name'))} {_e(args)}\n→ {_e(call.get('status'))}, "
                f"{_e(call.get('row_count'))} rows</pre>"
            )
        out.append("</div>")
    return out


def to_html(run: MatrixRun) -> str:
    """The run as one self-contained HTML page (grid, diff, per-cell details, metadata)."""
    changed_access = {(c.persona, c.kind, c.name) for c in run.diff or () if c.area == "access"}
    changed_q = {(c.persona, c.name) for c in run.diff or () if c.area == "question"}
    out = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>RegDesk access matrix — {_e(', '.join(run.personas))}</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>RegDesk access matrix</h1><dl class='meta'>",
    ]
    out += [f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in _meta_lines(run)]
    out.append("</dl><p class='legend'>")
    for status in ACCESS_LEGEND:
        out.append(f"<span class='{status}'>{SYMBOLS[status]} {status}</span>")
    out.append("</p>")
    if run.diff is not None:
        out.append(f"<h2>Changes against the baseline ({len(run.diff)})</h2><ul class='diff'>")
        out += [f"<li>{_e(c.describe())}</li>" for c in run.diff] or ["<li>no changes</li>"]
        out.append("</ul>")
    out.append("<h2>Effective access</h2>")
    out += _access_grid(run, changed_access)
    if run.questions:
        out.append("<h2>Questions</h2>")
        out += _question_grid(run, changed_q)
    out += _details(run)
    out.append("</body></html>")
    return "\n".join(out)
