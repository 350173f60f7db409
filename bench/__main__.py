"""``python -m bench [--quick] [--only NAME ...] [--leak-audit] [--render-only]``.

Runs every benchmark, each in its own process (so one's memory and Qt state do
not colour another's): ``bench_platform``, ``bench_agent``, ``bench_gui``,
``bench_soak``, ``bench_model``. Their JSON lands in ``bench/results/``; then
``docs/performance.md`` and ``docs/perf_chart.png`` are rendered from it.
``--quick`` keeps the whole run under two minutes (fewer repeats and turns).
``--leak-audit`` runs the two leak-audit test files and writes ``docs/leak_audit.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.chart import render_chart  # noqa: E402
from bench.report import leak_markdown, load_results, performance_markdown  # noqa: E402

RESULTS = ROOT / "bench" / "results"
DOCS = ROOT / "docs"
NAMES = ("platform", "agent", "gui", "soak", "model", "claude", "matrix")

# How each benchmark is started. The other engineers' modules expose ``main()``
# (not ``run(quick)``); quick mode lowers their module-level repeat counts.
_RUNNERS = {
    "platform": "import bench.bench_platform as m\nif {quick}: m.RUNS = 20\nm.main()",
    "agent": "import bench.bench_agent as m\nif {quick}: m.REPEATS = 1\nraise SystemExit(m.main())",
    "gui": "import sys, bench.bench_gui as m\nsys.argv = ['bench_gui'] + (['--quick'] if {quick} "
    "else [])\nraise SystemExit(m.main())",
    "soak": "import bench.bench_soak as m\nm.run({quick})",
    "model": "import bench.bench_model as m\nraise SystemExit(m.main({quick}))",
    "claude": "import bench.bench_claude as m\nraise SystemExit(m.main())",
    "matrix": "import bench.bench_matrix as m\nraise SystemExit(m.main({quick}))",
}


def run_benchmark(name: str, quick: bool) -> tuple[bool, float]:
    """Run one benchmark in a child process.

    Returns:
        (succeeded, seconds).
    """
    code = _RUNNERS[name].format(quick=quick)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=False)
    return done.returncode == 0, time.perf_counter() - started


def render_performance(meta: str) -> Path:
    """Write docs/performance.md and docs/perf_chart.png from bench/results."""
    results = load_results(RESULTS, NAMES)
    render_chart(results, DOCS / "perf_chart.png")
    page = DOCS / "performance.md"
    page.write_text(performance_markdown(results, "perf_chart.png", meta), encoding="utf-8")
    return page


def leak_audit() -> int:
    """Run the leak-audit tests with tallies on, then write docs/leak_audit.md."""
    out = Path(tempfile.mkdtemp(prefix="regdesk-leak-"))
    env = {**os.environ, "REGDESK_LEAK_AUDIT_OUT": str(out), "QT_QPA_PLATFORM": "offscreen"}
    tests = ["tests/integration/test_leak_audit.py", "tests/gui/test_leak_audit_gui.py"]
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
        cwd=ROOT,
        env=env,
        check=False,
    )
    seconds = time.perf_counter() - started
    parts = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(out.glob("leak_*.json"))]
    meta = (
        f"pytest exit code {done.returncode}; {seconds:.0f} s on {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}."
    )
    (DOCS / "leak_audit.md").write_text(leak_markdown(parts, meta), encoding="utf-8")
    print(f"wrote {DOCS / 'leak_audit.md'} ({len(parts)} parts)")
    return done.returncode


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--quick", action="store_true", help="fewer repeats; under two minutes")
    parser.add_argument("--only", nargs="*", choices=NAMES, help="run only these benchmarks")
    parser.add_argument("--render-only", action="store_true", help="just re-render the docs")
    parser.add_argument("--leak-audit", action="store_true", help="run the leak audit instead")
    options = parser.parse_args(argv)
    if options.leak_audit:
        return leak_audit()
    RESULTS.mkdir(parents=True, exist_ok=True)
    failed: list[str] = []
    timings: dict[str, float] = {}
    if not options.render_only:
        for name in options.only or NAMES:
            print(f"== {name}", flush=True)
            ok, seconds = run_benchmark(name, options.quick)
            timings[name] = round(seconds, 1)
            if not ok:
                failed.append(name)
    mode = "quick" if options.quick else "full"
    took = ", ".join(f"{k} {v} s" for k, v in timings.items())
    meta = (
        f"Mode: {mode}; {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}" + (f"; wall time: {took}" if took else "") + "."
    )
    page = render_performance(meta)
    print(f"wrote {page} and {DOCS / 'perf_chart.png'}")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
