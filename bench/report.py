"""Render benchmark and leak-audit results (JSON) as the Markdown pages in docs/.

``docs/performance.md`` from ``bench/results/{platform,agent,gui,soak,model,claude,matrix}.json``;
``docs/leak_audit.md`` from the tallies the leak-audit tests write when
``REGDESK_LEAK_AUDIT_OUT`` is set. Every figure is shown next to its baseline
from the same run as a ratio where such a baseline exists.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path


def load_results(folder: Path, names: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Read ``<folder>/<name>.json`` for each name that exists."""
    found: dict[str, dict[str, Any]] = {}
    for name in names:
        path = folder / f"{name}.json"
        if path.exists():
            found[name] = json.loads(path.read_text(encoding="utf-8"))
    return found


def _ratio(value: float | None, baseline: float | None) -> str:
    if not value or not baseline:
        return "—"
    return f"×{value / baseline:.2f}"


def _target(value: float | None, limit: float, text: str, *, strict: bool = False) -> str:
    """``text`` with whether ``value`` met it (``<`` when strict, else ``<=``)."""
    if value is None:
        return f"{text}: not measured"
    met = value < limit if strict else value <= limit
    return f"{text}: {'met' if met else '**missed**'}"


def _ratio_value(value: float | None, baseline: float | None) -> float | None:
    return value / baseline if value and baseline else None


def _platform_rows(platform: dict[str, Any]) -> list[str]:
    rows: list[str] = []
    targets = platform.get("targets") or {}
    search = platform.get("regulation_search") or {}
    base = (search.get("x1") or {}).get("p95_ms")
    largest = max(search.values(), key=lambda cell: cell.get("chunks", 0), default=None)
    for _name, cell in sorted(search.items(), key=lambda kv: kv[1].get("chunks", 0)):
        limit = targets.get("search_p95_ms_at_x100", 50)
        target = (
            _target(cell["p95_ms"], limit, f"p95 ≤ {limit} ms at ×100") if cell is largest else "—"
        )
        rows.append(
            f"| platform | regulation_search p50 / p95 at {cell['chunks']:,} chunks | "
            f"{cell['p50_ms']} / {cell['p95_ms']} ms | p95 at demo corpus (x1) | "
            f"{_ratio(cell['p95_ms'], base)} | {target} |"
        )
    overhead = platform.get("policy_overhead") or {}
    if overhead:
        # The like-for-like baseline: the same hand-filtered SQL on an already open
        # SQLite connection (the platform pools its connections too).
        direct = overhead.get("direct_kept_median_ms")
        limit = targets.get("overhead_ratio", 1.5)
        for label, key in (("warm", "policy_warm_median_ms"), ("cold", "policy_cold_median_ms")):
            ratio = _ratio_value(overhead.get(key), direct)
            target = _target(ratio, limit, f"≤ {limit}× median") if label == "warm" else "—"
            rows.append(
                f"| platform | policy rewrite + guarded SQL, {label} rewrite cache | "
                f"{overhead.get(key)} ms | hand-filtered SQL, open connection ({direct} ms) | "
                f"{_ratio(overhead.get(key), direct)} | {target} |"
            )
    return rows


def _agent_rows(agent: dict[str, Any]) -> list[str]:
    rows: list[str] = []
    cases = (agent.get("scenarios") or {}).get("cases") or {}
    if cases:
        medians = sorted(c["median_ms"] for c in cases.values())
        fastest = medians[0]
        middle = medians[len(medians) // 2]
        rows.append(
            f"| agent | scenario turn, median over {len(cases)} cases (offline model, unpaced) | "
            f"{middle} ms | fastest case ({fastest} ms) | {_ratio(middle, fastest)} | — |"
        )
        shares = sorted(c.get("platform_share", 0.0) for c in cases.values())
        rows.append(
            f"| agent | share of turn time in platform calls (median case) | "
            f"{shares[len(shares) // 2]:.0%} | — | — | — |"
        )
    compare = agent.get("compare") or {}
    if compare:
        two, one = compare.get("two_personas_ms"), compare.get("one_persona_ms")
        rows.append(
            f"| agent | same question as two personas at once (pace {compare.get('pace_s')} s) | "
            f"{two} ms | one persona ({one} ms) | {_ratio(two, one)} | "
            f"{_target(_ratio_value(two, one), 1.25, '≤ 1.25×')} |"
        )
    return rows


def _gui_rows(gui: dict[str, Any]) -> list[str]:
    rows: list[str] = []
    cold = gui.get("cold_start") or {}
    if cold:
        app = cold.get("regdesk_first_paint_ms_median")
        bare = cold.get("bare_qmainwindow_first_paint_ms_median")
        rows.append(
            f"| gui | cold start to first paint (median of {cold.get('runs')}) | {app} ms | "
            f"bare QMainWindow ({bare} ms) | {_ratio(app, bare)} | "
            f"{_target(_ratio_value(app, bare), 2.0, '≤ 2×')} |"
        )
    stall = gui.get("event_loop_stall") or {}
    if stall:
        last = stall.get("last_run") or stall
        longest = stall.get("median_longest_stall_ms") or stall.get("longest_stall_ms")
        budget = stall.get("budget_ms")
        rows.append(
            f"| gui | longest event-loop stall (median of {stall.get('repeats', 1)} runs), "
            f"2 panes × {last.get('deltas_per_pane')} deltas | {longest} ms | "
            f"one frame ({budget} ms) | {_ratio(longest, budget)} | "
            f"{_target(longest, budget or 16.0, '< 16 ms', strict=True)} |"
        )
    stop = gui.get("stop_latency") or {}
    if stop:
        rows.append(
            f"| gui | stop to turn ended (median of {stop.get('runs')}) | "
            f"{stop.get('median_ms')} ms | budget ({stop.get('budget_ms')} ms) | "
            f"{_ratio(stop.get('median_ms'), stop.get('budget_ms'))} | "
            f"{_target(stop.get('median_ms'), stop.get('budget_ms') or 1000.0, '≤ 1 s')} |"
        )
    memory = gui.get("memory") or {}
    if memory:
        rows.append(
            f"| gui | RSS slope, {memory.get('split_turns')} split turns, transcripts kept | "
            f"{memory.get('slope_kb_per_turn')} kB/turn | — | — | — |"
        )
    return rows


def _soak_rows(soak: dict[str, Any]) -> list[str]:
    data = soak.get("soak") or {}
    if not data:
        return []
    warm = data.get("rss_after_warmup_mb")
    return [
        f"| soak | RSS slope over {data['split_turns']} split turns ({data['slope_window']}) | "
        f"{data['slope_kb_per_turn']} kB/turn | RSS after warm-up ({warm} MB) | "
        f"{_ratio(warm + data['slope_kb_per_turn'] * data['split_turns'] / 1000.0, warm)} "
        f"projected over the run | no growth trend |",
        f"| soak | RSS end of run | {data['rss_end_mb']} MB | after warm-up ({warm} MB) | "
        f"{_ratio(data['rss_end_mb'], warm)} | — |",
        f"| soak | split-turn time, last fifth (median) | {data['turn_ms_last_fifth_median']} ms"
        f" | first fifth ({data['turn_ms_first_fifth_median']} ms) | "
        f"×{data['latency_drift_ratio']:.2f} | — |",
        f"| soak | threads after / before; turn threads left | {data['threads_after']} / "
        f"{data['threads_before']}; {data['turn_threads_left']} | — | — | — |",
    ]


def _model_rows(model: dict[str, Any]) -> list[str]:
    planner = (model.get("planner") or {}).get("all") or {}
    if not planner:
        return []
    limit = (model.get("planner") or {}).get("target_worst_ms", 50.0)
    rows = [
        f"| model | planner call, worst of {planner['calls']} (scenario, random, adversarial, "
        f"turns) | {planner['worst_ms']} ms | — | — | "
        f"{_target(planner['worst_ms'], limit, f'≤ {limit:g} ms')} |",
        f"| model | planner call p95, all calls (p50 {planner['p50_ms']} ms) | "
        f"{planner['p95_ms']} ms | — | — | — |",
    ]
    scenario = (model.get("planner") or {}).get("scenario") or {}
    if scenario:
        p95_limit = (model.get("planner") or {}).get("target_scenario_p95_ms", 20.0)
        rows.append(
            f"| model | planner call p95 on the {scenario['calls']} scenario questions "
            f"(p50 {scenario['p50_ms']} ms, worst {scenario['worst_ms']} ms) | "
            f"{scenario['p95_ms']} ms | — | — | "
            f"{_target(scenario['p95_ms'], p95_limit, f'≤ {p95_limit:g} ms')} |"
        )
    return rows


def _claude_rows(claude: dict[str, Any]) -> list[str]:
    caching = (claude.get("caching") or {}).get("cached_first_turn") or {}
    share = caching.get("cache_read_share_calls_2_plus")
    if share is None:
        return []
    return [
        f"| claude | input read from cache, calls 2+ of a three-call turn (scripted server) | "
        f"{share:.1%} | — | — | ≥ 80%: {'met' if share >= 0.8 else '**missed**'} |",
    ]


def _matrix_rows(matrix: dict[str, Any]) -> list[str]:
    access, questions = matrix.get("access_matrix") or {}, matrix.get("question_matrix") or {}
    if not access:
        return []
    sequential = (matrix.get("question_matrix_sequential") or {}).get("wall_s")
    return [
        f"| matrix | access matrix, {len(access['personas'])} personas, {access['cells']} cells "
        f"(median of {access['repeats']}) | {access['median_s']} s | — | — | "
        f"{_target(access['median_s'], 2.0, '≤ 2 s')} |",
        f"| matrix | question matrix, {questions.get('cells')} cells, "
        f"{questions.get('workers')} workers | {questions.get('wall_s')} s | "
        f"1 worker ({sequential} s) | {_ratio(questions.get('wall_s'), sequential)} | "
        f"{_target(questions.get('wall_s'), 30.0, '≤ 30 s')} |",
    ]


def performance_markdown(results: dict[str, dict[str, Any]], chart_name: str, meta: str) -> str:
    """The performance page.

    Args:
        results: Result documents by benchmark name.
        chart_name: File name of the PNG beside the page.
        meta: One line saying how and where the numbers were made.

    Returns:
        Markdown.
    """
    rows = [
        *_platform_rows(results.get("platform") or {}),
        *_agent_rows(results.get("agent") or {}),
        *_gui_rows(results.get("gui") or {}),
        *_soak_rows(results.get("soak") or {}),
        *_model_rows(results.get("model") or {}),
        *_claude_rows(results.get("claude") or {}),
        *_matrix_rows(results.get("matrix") or {}),
    ]
    missing = [
        n
        for n in ("platform", "agent", "gui", "soak", "model", "claude", "matrix")
        if n not in results
    ]
    lines = [
        "# Performance",
        "",
        "Generated by `python -m bench` (do not edit by hand; rerun it). " + meta,
        "",
        "Ratios compare each figure with a baseline measured in the same run.",
        "",
        "| area | measure | value | baseline (same run) | ratio | target |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        f"![search latency, turn timeline, soak RSS]({chart_name})",
        "",
    ]
    platform = results.get("platform") or {}
    targets = platform.get("targets")
    if targets:
        lines += [f"Platform targets recorded by `bench_platform`: `{json.dumps(targets)}`.", ""]
    if missing:
        lines += [f"Missing results (benchmark failed or skipped): {', '.join(missing)}.", ""]
    lines += [
        "Notes:",
        "",
        "- The soak clears the chat before each split turn (a person starting new chats),",
        "  so a flat RSS slope means no per-turn leak; the GUI benchmark's memory figure",
        "  keeps every transcript, as one long conversation would.",
        "- Every service runs in-process on loopback; latencies exclude real network time.",
        "",
    ]
    return "\n".join(lines)


SURFACE_LABELS = {
    "answer": "answer text",
    "events": "events (event_to_dict JSON)",
    "history": "history SQLite (file bytes + rows)",
    "export": "turn export (Markdown + JSON)",
    "audit_log": "local audit log file",
    "app_log": "application logs (all loggers at DEBUG)",
    "tool_panel+chat": "GUI tool panel (all roles, expanded result) + chat",
    "strip": "split comparison strip",
    "comparison_export": "comparison export (Markdown + JSON)",
    "history_db": "GUI history database",
}


def leak_markdown(parts: list[dict[str, Any]], meta: str) -> str:
    """The leak-audit page from the tallies of the test run.

    Args:
        parts: ``leak_integration.json`` and ``leak_gui_*.json`` documents.
        meta: How the tallies were produced.

    Returns:
        Markdown.
    """
    lines = [
        "# Leak audit",
        "",
        "Generated by `python -m bench --leak-audit`, which runs "
        "`tests/integration/test_leak_audit.py` and `tests/gui/test_leak_audit_gui.py` "
        "with `REGDESK_LEAK_AUDIT_OUT` set and renders their tallies. " + meta,
        "",
        "A *canary* is a string recorded in `ground_truth.json` that a persona must never be "
        "shown. Each cell searched every turn's surface for that persona's canaries. On "
        "shared surfaces of the split view (strip, comparison export, the window's files) "
        "the forbidden set is what *no* logged-in persona may see: the intersection of "
        "their canaries. *Control* counts the strings that are canaries for hong but "
        "visible to the privileged persona found on the same surface for the same "
        "questions (proving the search can find data there); for the audit log and "
        "application log, which hold no row data, the control is a marker cho typed; for "
        "the strip, the number of values it named that only the privileged pane had.",
        "",
        "| part | surface | persona(s) | turns | canaries searched | leaks | control |",
        "|---|---|---|---|---|---|---|",
    ]
    total_leaks = 0
    for part in parts:
        name = part.get("part", "?")
        if part.get("pair"):
            name += " " + "+".join(part["pair"])
        for surface, by_persona in part["surfaces"].items():
            for persona, cell in by_persona.items():
                leaks = len(cell.get("leaks") or [])
                total_leaks += leaks
                control = cell.get("control_hits", 0)
                lines.append(
                    f"| {name} | {SURFACE_LABELS.get(surface, surface)} | {persona} | "
                    f"{cell['turns']} | {cell['canaries_searched']} | {leaks} | "
                    f"{control if control else '—'} |"
                )
    integration = next((p for p in parts if p.get("part") == "integration"), None)
    lines.append("")
    if integration:
        lines += [
            f"Questions per persona: {len(integration['questions'])} "
            f"({integration['scenario_questions']} scenario cases plus "
            f"{integration['adversarial_questions']} adversarial, repeats removed). Failed turns: "
            f"{json.dumps(integration['failed_turns'])}.",
            "",
        ]
    lines += [f"**Leaks found in total: {total_leaks}.**", ""]
    return "\n".join(lines)
