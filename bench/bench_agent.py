"""Agent benchmarks: offline turn latency per scenario, and compare concurrency.

Writes ``bench/results/agent.json``. Run: ``.venv/bin/python bench/bench_agent.py``.

- Per scenario case: end-to-end turn latency (SDK → offline model → tools →
  platform, all over loopback HTTP), median and p95 over repeats, and the share
  of wall time spent in tool calls (platform HTTP).
- Compare: the same question as two personas at once vs one persona, with the
  model paced at 30 ms per chunk; the wall-time ratio should be ≤ 1.25.
"""

from __future__ import annotations

import json
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent_core.approval import approve_all  # noqa: E402
from agent_core.cancel import CancelToken  # noqa: E402
from agent_core.config import OFFLINE_MODEL_NAME, Endpoints  # noqa: E402
from agent_core.events import ToolCallFinished  # noqa: E402
from agent_core.scenarios import load_cases, persona_password  # noqa: E402
from agent_core.session import PersonaSession  # noqa: E402
from embedded.launcher import start_embedded  # noqa: E402

REPEATS = 5
PACE_S = 0.03
COMPARE_QUESTION = "육아휴직 며칠까지 쓸 수 있어? 곧 바뀌는 것도 있으면 알려줘."


def _endpoints(services: Any) -> Endpoints:
    return Endpoints(
        services.ontul_url,
        services.model_url,
        "offline",
        OFFLINE_MODEL_NAME,
        True,
        services.ground_truth,
    )


def _login(endpoints: Endpoints, persona: str) -> PersonaSession:
    truth = endpoints.ground_truth or {}
    return PersonaSession.login(endpoints, persona, persona_password(truth, persona), audit=False)


def _turn(endpoints: Endpoints, persona: str, question: str) -> tuple[float, float]:
    return _timed(_login(endpoints, persona), question)


def _timed(session: PersonaSession, question: str) -> tuple[float, float]:
    started = time.perf_counter()
    tool_ms = 0.0
    for event in session.run_turn(question, approver=approve_all, cancel=CancelToken()):
        if isinstance(event, ToolCallFinished):
            tool_ms += event.duration_ms
    elapsed = (time.perf_counter() - started) * 1000.0
    session.close()
    return elapsed, tool_ms


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def bench_scenarios() -> dict[str, Any]:
    services = start_embedded()
    try:
        endpoints = _endpoints(services)
        cases = load_cases(
            sorted((ROOT / "tests" / "scenarios").glob("*.yaml")), services.ground_truth
        )
        per_case: dict[str, Any] = {}
        all_ms: list[float] = []
        total_ms = total_tool_ms = 0.0
        for case in cases:
            runs = [_turn(endpoints, case.persona, case.ask) for _ in range(REPEATS)]
            wall = [r[0] for r in runs]
            tools = sum(r[1] for r in runs)
            all_ms.extend(wall)
            total_ms += sum(wall)
            total_tool_ms += tools
            per_case[case.name] = {
                "median_ms": round(statistics.median(wall), 1),
                "p95_ms": round(_p95(wall), 1),
                "platform_share": round(tools / sum(wall), 3) if sum(wall) else 0.0,
            }
        return {
            "repeats": REPEATS,
            "cases": per_case,
            "overall_median_ms": round(statistics.median(all_ms), 1),
            "overall_p95_ms": round(_p95(all_ms), 1),
            "platform_share": round(total_tool_ms / total_ms, 3) if total_ms else 0.0,
        }
    finally:
        services.stop()


def bench_compare() -> dict[str, Any]:
    services = start_embedded(model_pace_s=PACE_S)
    try:
        endpoints = _endpoints(services)
        singles = [_turn(endpoints, "hong", COMPARE_QUESTION)[0] for _ in range(3)]
        pairs = []
        for _ in range(3):
            sessions = [_login(endpoints, p) for p in ("hong", "cho")]
            started = time.perf_counter()
            threads = [
                threading.Thread(target=_timed, args=(s, COMPARE_QUESTION)) for s in sessions
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            pairs.append((time.perf_counter() - started) * 1000.0)
        one = statistics.median(singles)
        two = statistics.median(pairs)
        return {
            "pace_s": PACE_S,
            "one_persona_ms": round(one, 1),
            "two_personas_ms": round(two, 1),
            "ratio": round(two / one, 3),
            "target_ratio": 1.25,
        }
    finally:
        services.stop()


def main() -> int:
    """Run both benchmarks and write the JSON result."""
    result = {"scenarios": bench_scenarios(), "compare": bench_compare()}
    out = ROOT / "bench" / "results" / "agent.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result["scenarios"].items() if k != "cases"}, indent=2))
    print(json.dumps(result["compare"], indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
