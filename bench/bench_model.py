"""Benchmark the offline model; writes ``bench/results/model.json``.

* Planner time per call (worst case, p95, p50) on every question of the
  scenario set (public and extra suites), on adversarial questions at the size
  limit (the shapes that took 28–33 s before the parsing was made linear), on
  seeded random questions, and on whole turns with prose tool results.
  Targets (issue 13): p95 on the scenario set at most 20 ms, worst case under 50 ms.
* Message threads: request bytes of the SDK's ``tool_runner`` for one
  multi-tool question with threads (the SDK default) and without.
* Isolation: the platform's p50/p95 for a SQL read while a separate process
  keeps the model busy with 4 MiB conversations, for the model in its own
  process (the default) and on a thread of the platform's process (before).

Run: ``.venv/bin/python bench/bench_model.py [--quick]`` or ``python -m bench --only model``.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from datetime import date
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from embedded.model.planner import MAX_QUESTION_CHARS, plan_reply  # noqa: E402
from embedded.model.wire import MessagesRequest  # noqa: E402

TOOLS = [
    "search_regulations",
    "get_effective_version",
    "trace_authority",
    "impact_of_change",
    "query_hr",
    "pending_revision",
    "describe_regulation",
    "related_regulations",
    "request_regulation_revision",
]
OFFERED = [{"name": n, "input_schema": {"type": "object"}} for n in TOOLS]
N = MAX_QUESTION_CHARS
TARGET_WORST_MS = 50.0
TARGET_SCENARIO_P95_MS = 20.0
SCENARIO_SUITES = [ROOT.parent / "shared" / "scenarios", ROOT / "tests" / "scenarios" / "extra"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def adversarial() -> dict[str, str]:
    """The shapes that backtracked (issue 10 item 4), stretched to the size limit."""
    return {
        "digits_bang_28": "1" * 27 + "!",
        "rule_260_spaces": "규정" + " " * 260 + "x",
        "digits_bang": "1" * (N - 1) + "!",
        "rule_spaces": "규정" + " " * (N - 3) + "x",
        "digit_space_runs": ("1 " * N)[:N],
        "korean_numerals": ("이십" * N)[:N],
        "select_words": ("select " * N)[:N],
        "with_words_from": ("with " * N)[: N - 5] + " from",
        "reason_spaces": "사유는 " + " " * (N - 10) + "x 입니다",
        "reason_markers": ("를 사유로 , " * N)[:N],
        "about_markers": ("에 대해 " * N)[:N],
        "parens": "(" * N,
        "year_spaces": "2024년" + " " * (N - 6),
        "month_spaces": "january " + " " * (N - 20) + "x",
        "digit_commas": ("1," * N)[:N],
        "version_digits": "제" + "1" * (N - 1),
        "version_word": "version " + "1" * (N - 10) + "a",
        "because_words": ("because " * N)[:N],
        "won_units": "만" * (N - 1) + "원",
        "spaced_digits_won": ("1 " * (N // 2 - 1)) + "x원",
        "years_ago_digits": "1" * (N - 10) + " years",
        "krw_commas": ("krw " + "1," * N)[:N],
        "sql_spaces": "select x from y" + " " * (N - 40) + "x 실행해줘",
        "sql_bangs": "select x from y" + "!" * (N - 20),
        "hangul_words": ("육아휴직 남은 일수 " * N)[:N],
    }


ALPHABET = (
    ["1", "0", " ", "  ", "원", "만", "천", "이", "십", "사유는", "사유로", ",", ".", "!", "select",
     "from", "with", "년", "월", "일", "차", "제", "version", "v", "because", "krw", "won", "(",
     ")", "규정", "육아휴직", "에 대해", "를", "\n", "-", "HR-REG-003", "2024", "ago", "years",
     "months", "나", "내", "my", "홍가은", "'s", "김", "\t", "남았어", "썼어"]
)  # fmt: skip


def random_questions(count: int, seed: int = 20250315) -> list[str]:
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        size = rnd.choice([20, 200, 800, 1500, N])
        parts: list[str] = []
        total = 0
        while total < size:
            token = rnd.choice(ALPHABET) if rnd.random() < 0.9 else chr(rnd.randint(32, 0xD7A3))
            parts.append(token)
            total += len(token)
        out.append("".join(parts)[:size])
    return out


def _request(messages: list[dict[str, Any]]) -> MessagesRequest:
    return MessagesRequest(model="m", max_tokens=64, messages=messages, system="", tools=OFFERED)


def time_first_round(question: str, repeats: int) -> tuple[float, float]:
    """(CPU ms, wall ms) of the question's first-round planner call, median of ``repeats``.

    CPU time is the figure the target is judged on: on a shared machine, wall time
    also counts the moments another process had the core.
    """
    messages = [{"role": "user", "content": [{"type": "text", "text": question}]}]
    cpu, wall = [], []
    for _ in range(repeats):
        started, started_cpu = time.perf_counter(), time.process_time()
        plan_reply(_request(messages))
        cpu.append((time.process_time() - started_cpu) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
    return statistics.median(cpu), statistics.median(wall)


PROSE = {
    "search_regulations": (
        "[HR-REG-003 제3차 제3조 시행 2025-03-15]\n① 대상 직원은 자녀 1명당 연간 최대 20일의 "
        "육아휴직을 유급으로 사용할 수 있다.\n\n[FIN-GDL-001 제2차 제3조 시행 2024-01-01]\n"
        "숙박비는 실제 숙박한 일수에 따라 지급하되, 1박당 상한은 서울 1박당 100,000원(10만원), "
        "광역시 1박당 90,000원(9만원), 기타 지역 1박당 80,000원(8만원)으로 한다."
    ),
    "describe_regulation": "HR-REG-003 육아지원규정 (구분 REGULATION, 위계 2, 소관 HR)\n"
    "  제3차 [APPROVED] 시행 2025-03-15\n  제4차 [APPROVED] 시행 2026-12-22",
    "get_effective_version": "HR-REG-003 육아지원규정 제3차 개정, 시행 2025-03-15",
    "pending_revision": "[HR-REG-003 제4차 개정 — APPROVED] 확대 (예정 시행일 2026-12-22, 기안 "
    "20090001)",
    "query_hr": "사번 | 성명 | 부서 | 휴가종류 | 연도 | 사용일수\n"
    + "\n".join(f"2017{i:04d} | 홍가은 | DEV | 육아휴직 | 2026 | {i % 20}" for i in range(20)),
    "trace_authority": "  └ HR-REG-002 근로시간 및 휴가규정\n    └ GEN-RUL-001 취업규칙",
    "impact_of_change": "2건이 영향을 받습니다:\n  SEC-GDL-001 보안지침 (SEC)",
    "related_regulations": "HR-REG-002 근로시간 및 휴가규정 (위계 2)",
    "request_regulation_revision": "HR-REG-003 제3차에 대한 개정 요청을 접수했습니다.",
}
TURN_QUESTIONS = [
    "나 육아휴직 며칠 남았어?",
    "육아지원규정은 지금 몇 차가 시행 중이야?",
    "서울 출장 숙박비 한도가 얼마야?",
    "인사규칙을 근거로 만든 규정은 뭐가 있어?",
    "연차휴가 규정에 개정 예정인 게 있어?",
    "우리 부서 육아휴직 얼마나 썼어?",
    "How many days of childcare leave do I have left?",
    "HR-REG-003 제3차 개정 요청해줘. 사유는 육아휴직 일수 확대 검토입니다.",
]


def time_turn(question: str) -> list[float]:
    """Planner CPU ms for each round of a whole turn with prose tool results."""
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": question}]}
    ]
    rounds = []
    for _ in range(14):
        started = time.process_time()
        blocks = plan_reply(_request(messages))
        rounds.append((time.process_time() - started) * 1000)
        uses = [b for b in blocks if b["type"] == "tool_use"]
        if not uses:
            break
        messages.append({"role": "assistant", "content": blocks})
        messages.append(
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": u["id"], "content": PROSE[u["name"]]}
                    for u in uses
                ],
            }
        )
    return rounds


def _summary(values: list[float]) -> dict[str, float]:
    return {
        "worst_ms": round(max(values), 2),
        "p95_ms": round(percentile(values, 0.95), 2),
        "p50_ms": round(percentile(values, 0.5), 2),
        "calls": len(values),
    }


def scenario_questions() -> list[str]:
    """Every question the scenario suites ask, placeholders filled from a fresh demo build."""
    from agent_core.scenarios import load_cases
    from embedded.ontul.demo_org import build_demo_database

    paths = sorted(p for folder in SCENARIO_SUITES for p in folder.glob("*.yaml"))
    with tempfile.TemporaryDirectory() as tmp:
        truth = build_demo_database(Path(tmp) / "demo.sqlite", date.today())
    return [case.ask for case in load_cases(paths, truth)]


def bench_planner(quick: bool) -> dict[str, Any]:
    repeats = 3 if quick else 5
    questions = scenario_questions()
    scenario = [time_first_round(q, 3)[0] for q in questions[:: 4 if quick else 1]]
    timed = {name: time_first_round(q, repeats) for name, q in adversarial().items()}
    cases = {name: cpu for name, (cpu, _) in timed.items()}
    walls = {name: wall for name, (_, wall) in timed.items()}
    worst_case = max(cases, key=lambda k: cases[k])
    randoms = [time_first_round(q, 1)[0] for q in random_questions(150 if quick else 600)]
    turns = [ms for q in TURN_QUESTIONS for ms in time_turn(q)]
    every = scenario + list(cases.values()) + randoms + turns
    result = {
        "size_limit_chars": N,
        "measure": "CPU ms per planner call (process_time); scenario: median of 3 cold calls "
        "(caches are cleared per request); adversarial: median of repeats",
        "scenario": _summary(scenario),
        "target_scenario_p95_ms": TARGET_SCENARIO_P95_MS,
        "scenario_p95_met": percentile(scenario, 0.95) <= TARGET_SCENARIO_P95_MS,
        "adversarial": {**_summary(list(cases.values())), "slowest_case": worst_case},
        "adversarial_cases_ms": {k: round(v, 2) for k, v in cases.items()},
        "adversarial_wall_worst_ms": round(max(walls.values()), 2),
        "random": _summary(randoms),
        "turn_rounds": _summary(turns),
        "all": _summary(every),
        "target_worst_ms": TARGET_WORST_MS,
        "met": max(every) < TARGET_WORST_MS,
        "before": {
            "note": "entities.py before this change, same cases, killed at 20 s "
            "(issue 10: 28 s and 33 s for the first two)",
            "over_20s": [
                "digits_bang_28", "rule_260_spaces", "digits_bang", "rule_spaces",
                "month_spaces", "digit_commas", "version_digits", "version_word",
                "years_ago_digits", "krw_commas", "sql_spaces",
            ],
            "others_worst_ms": 623,
        },
    }  # fmt: skip
    print("planner:", {k: v for k, v in result.items() if k != "adversarial_cases_ms"})
    return result


def bench_threads() -> dict[str, Any]:
    """Request bytes of one tool_runner question, threaded (default) and not."""
    import anthropic
    import httpx2
    from anthropic import beta_tool

    from embedded.model.server import ModelServer

    def make_tools() -> list[Any]:
        @beta_tool
        def search_regulations(question: str, as_of: str = "", dept: str = "") -> str:
            """Search company regulations.

            Args:
                question: what to look up
                as_of: YYYY-MM-DD
                dept: department code
            """
            return PROSE["search_regulations"]

        @beta_tool
        def describe_regulation(doc_no: str) -> str:
            """What a named regulation is.

            Args:
                doc_no: document number
            """
            return PROSE["describe_regulation"]

        @beta_tool
        def get_effective_version(doc_no: str, as_of: str = "") -> str:
            """Which version is in force.

            Args:
                doc_no: document number
                as_of: YYYY-MM-DD
            """
            return PROSE["get_effective_version"]

        @beta_tool
        def pending_revision(doc_no: str = "") -> str:
            """Revisions in approval.

            Args:
                doc_no: document number
            """
            return PROSE["pending_revision"]

        return [search_regulations, describe_regulation, get_effective_version, pending_revision]

    system = ROOT.parent / "shared" / "reference-client" / "src" / "regdemo_agent" / "prompts"
    prompt_path = system / "system.md"
    prompt = prompt_path.read_text(encoding="utf-8") if prompt_path.exists() else "x" * 4000
    server = ModelServer().start()
    out: dict[str, Any] = {"question": "육아지원규정은 지금 몇 차가 시행 중이야?"}
    try:
        for mode in ("threaded", "unthreaded"):
            sizes: list[int] = []

            def record(request: httpx2.Request, sizes: list[int] = sizes) -> None:
                sizes.append(len(request.read()))

            client = anthropic.Anthropic(
                base_url=server.url,
                api_key="x",
                max_retries=0,
                http_client=httpx2.Client(event_hooks={"request": [record]}),
            )
            options: dict[str, Any] = {} if mode == "threaded" else {"thread": False}
            runner = client.beta.messages.tool_runner(
                model="claude-opus-5",
                max_tokens=16000,
                thinking={"type": "adaptive"},
                output_config={"effort": "high"},
                system=prompt,
                tools=make_tools(),
                messages=[{"role": "user", "content": out["question"]}],
                **options,
            )
            for _ in runner:
                pass
            out[mode] = {"requests": len(sizes), "bytes": sizes, "total_bytes": sum(sizes)}
    finally:
        server.stop()
    threaded, full = out["threaded"], out["unthreaded"]
    later = threaded["bytes"][1:]
    later_full = full["bytes"][1:]
    out["later_requests_mean_bytes"] = {
        "threaded": round(statistics.mean(later)) if later else None,
        "unthreaded": round(statistics.mean(later_full)) if later_full else None,
    }
    out["total_drop_pct"] = round(100 * (1 - threaded["total_bytes"] / full["total_bytes"]), 1)
    print("threads:", out)
    return out


_LOAD = textwrap.dedent(
    """
    import json, sys, threading, time, urllib.request
    url, seconds = sys.argv[1], float(sys.argv[2])
    result = "사번 | 성명 | 부서 | 사용일수\\n" + "20170003 | 홍가은 | DEV | 12\\n" * 4000
    messages = [{"role": "user", "content": "나 육아휴직 며칠 남았어?"}]
    for i in range(40):
        messages.append({"role": "assistant", "content": [
            {"type": "tool_use", "id": f"t{i}", "name": "query_hr", "input": {}}]})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"t{i}", "content": result}]})
    body = json.dumps({"model": "m", "max_tokens": 64, "messages": messages,
                       "tools": [{"name": "query_hr", "input_schema": {}}]}).encode()
    end = time.time() + seconds
    count = [0]
    def loop():
        while time.time() < end:
            req = urllib.request.Request(url + "/v1/messages", data=body,
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=60) as resp:
                resp.read()
            count[0] += 1
    threads = [threading.Thread(target=loop) for _ in range(2)]
    for t in threads: t.start()
    for t in threads: t.join()
    print(json.dumps({"requests": count[0], "body_bytes": len(body)}))
    """
)


def _platform_latency(url: str, token: str, runs: int) -> list[float]:
    session = requests.Session()
    headers = {"Authorization": f"Bearer {token}"}
    sql = {"sql": "SELECT 사번, 성명 FROM semantic.hr.employees ORDER BY 사번"}
    lat = []
    for _ in range(runs):
        started = time.perf_counter()
        resp = session.post(f"{url}/admin/query/execute", json=sql, headers=headers, timeout=60)
        lat.append((time.perf_counter() - started) * 1000)
        assert resp.status_code == 200, resp.text
    return lat


def bench_isolation(quick: bool) -> dict[str, Any]:
    from embedded.model.server import ModelServer
    from embedded.ontul.demo_org import build_demo_database
    from embedded.ontul.server import OntulServer
    from embedded.ontul.testing import login

    runs = 60 if quick else 200
    out: dict[str, Any] = {"platform_request": "POST /admin/query/execute (hong)", "runs": runs}
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "demo.sqlite"
        truth = build_demo_database(db, date.today())
        ontul = OntulServer(db, today=date.today()).start()
        try:
            token = login(ontul.url, "hong", str(truth["personas"]["hong"]["password"]))
            _platform_latency(ontul.url, token, 20)  # warm
            idle = _platform_latency(ontul.url, token, runs)
            out["model_idle"] = {
                "p50_ms": round(percentile(idle, 0.5), 2),
                "p95_ms": round(percentile(idle, 0.95), 2),
            }
            for mode, in_process in (("own_process", False), ("in_process_before", True)):
                model = ModelServer(in_process=in_process).start()
                try:
                    load = subprocess.Popen(
                        [sys.executable, "-c", _LOAD, model.url, "600"],
                        stdout=subprocess.PIPE,
                        text=True,
                    )
                    time.sleep(1.0)  # let the load reach steady state
                    busy = _platform_latency(ontul.url, token, runs)
                    load.kill()
                    load.wait(timeout=10)
                finally:
                    model.stop()
                out[f"model_busy_{mode}"] = {
                    "p50_ms": round(percentile(busy, 0.5), 2),
                    "p95_ms": round(percentile(busy, 0.95), 2),
                }
        finally:
            ontul.stop()
    print("isolation:", out)
    return out


def main(quick: bool = False) -> int:
    results: dict[str, Any] = {"today": date.today().isoformat(), "quick": quick}
    results["planner"] = bench_planner(quick)
    results["threads"] = bench_threads()
    results["isolation"] = bench_isolation(quick)
    out = ROOT / "bench" / "results" / "model.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0 if results["planner"]["met"] else 1


if __name__ == "__main__":
    raise SystemExit(main("--quick" in sys.argv))
