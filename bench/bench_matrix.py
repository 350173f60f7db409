"""Access-matrix benchmarks; writes ``bench/results/matrix.json``.

Run: ``.venv/bin/python bench/bench_matrix.py [--quick]``.

- Access matrix: three personas (hong, park, cho) over the demo catalog, each
  through their own token, median / max over repeats (logins excluded: the
  matrix runs for people already signed in). Target ≤ 2 s.
- Question matrix: the 28 public scenarios × 3 personas with the offline model
  (unpaced), 84 real agent turns at the default bound of 4. Target ≤ 30 s.
  Baseline: the same cells one after another (bound 1).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent_core.config import OFFLINE_MODEL_NAME, Endpoints  # noqa: E402
from agent_core.matrix.access import probe_access  # noqa: E402
from agent_core.matrix.catalog import load_catalog  # noqa: E402
from agent_core.matrix.questions import (  # noqa: E402
    DEFAULT_WORKERS,
    QuestionMatrixRunner,
    load_questions,
)
from agent_core.platform_client import PlatformClient  # noqa: E402
from agent_core.scenarios import persona_password  # noqa: E402
from agent_core.session import PersonaSession  # noqa: E402
from embedded.launcher import start_embedded  # noqa: E402

PERSONAS = ("hong", "park", "cho")
REPEATS = 7
SCENARIOS = sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))
TARGETS = {"access_matrix_s": 2.0, "question_matrix_s": 30.0}


def bench_access(endpoints: Endpoints, truth: dict[str, Any], repeats: int) -> dict[str, Any]:
    """Time the access matrix for three signed-in personas."""
    catalog = load_catalog()
    times: list[float] = []
    calls = cells = 0
    for _ in range(repeats):
        clients = [
            PlatformClient(endpoints.ontul_url, p, persona_password(truth, p)) for p in PERSONAS
        ]
        for c in clients:
            c.login()
        before = sum(c.call_count for c in clients)
        started = time.perf_counter()
        found, _ = probe_access(clients, catalog)
        times.append(time.perf_counter() - started)
        calls = sum(c.call_count for c in clients) - before
        cells = len(found)
        for c in clients:
            c.close()
    return {
        "personas": list(PERSONAS),
        "repeats": repeats,
        "median_s": round(statistics.median(times), 3),
        "max_s": round(max(times), 3),
        "cells": cells,
        "platform_requests": calls,
    }


def bench_questions(endpoints: Endpoints, truth: dict[str, Any], workers: int) -> dict[str, Any]:
    """Time the 28 public scenarios × 3 personas as real offline-model turns."""
    questions = load_questions(SCENARIOS, truth)

    def login(p: str) -> PersonaSession:
        return PersonaSession.login(endpoints, p, persona_password(truth, p), audit=False)

    runner = QuestionMatrixRunner(login, truth, max_workers=workers)
    started = time.perf_counter()
    cells = runner.run(questions, PERSONAS)
    elapsed = time.perf_counter() - started
    statuses: dict[str, int] = {}
    for c in cells:
        statuses[c.status] = statuses.get(c.status, 0) + 1
    turns = sorted(c.elapsed_ms for c in cells)
    return {
        "questions": len(questions),
        "cells": len(cells),
        "workers": workers,
        "wall_s": round(elapsed, 2),
        "turn_median_ms": round(statistics.median(turns), 1),
        "turn_p95_ms": round(turns[int(0.95 * (len(turns) - 1))], 1),
        "statuses": statuses,
    }


def main(quick: bool = False) -> int:
    """Run both benchmarks and write the JSON."""
    services = start_embedded()
    try:
        truth = services.ground_truth
        endpoints = Endpoints(
            services.ontul_url, services.model_url, "offline", OFFLINE_MODEL_NAME, True, truth
        )
        access = bench_access(endpoints, truth, 3 if quick else REPEATS)
        print(f"access matrix: {access}")
        questions = bench_questions(endpoints, truth, DEFAULT_WORKERS)
        print(f"question matrix: {questions}")
        sequential = None if quick else bench_questions(endpoints, truth, 1)
        if sequential:
            print(f"question matrix, one at a time: {sequential}")
    finally:
        services.stop()
    results = {
        "today": truth.get("today"),
        "cpus": os.cpu_count(),
        "access_matrix": access,
        "question_matrix": questions,
        "question_matrix_sequential": sequential,
        "targets": TARGETS,
        "met": {
            "access_matrix_s": access["max_s"] <= TARGETS["access_matrix_s"],
            "question_matrix_s": questions["wall_s"] <= TARGETS["question_matrix_s"],
        },
    }
    out = ROOT / "bench" / "results" / "matrix.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, ensure_ascii=False, indent=2), encoding="utf-8")
    print(f"wrote {out}")
    return 0 if all(results["met"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main("--quick" in sys.argv))
