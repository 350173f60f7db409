"""Claude-path benchmarks against the scripted Messages server (tests/claude/scripted_server.py).

Writes ``bench/results/claude.json``. Run: ``.venv/bin/python bench/bench_claude.py``.

- **Prompt caching**: a three-call turn (search → effective version → answer) as
  hong against the real embedded platform, the model scripted by a server that
  honours ``cache_control`` (tools → system → messages, 512-token minimum, reads of
  the longest cached prefix within 20 blocks of a breakpoint). Reported: tokens per
  call, the share of input tokens read from the cache on the second and later calls
  (target ≥ 80 %), and the turn's estimated cost from ``resources/models.json``
  with caching and without it (the same turn with ``prompt_cache=False``), for a
  first turn (cache cold) and a second turn within the cache lifetime (warm).
- **Message threads**: request bytes per call of the same turn with and without
  the threads beta.
- **8k-token answer in the GUI**: a pane streams an 8,000-token answer in small
  deltas; the longest gap between 10 ms timer ticks of the GUI thread and whether
  the whole answer arrived.

Token counts are the scripted server's estimate (one per three characters of
JSON), the same for every request: the shares and ratios are what this measures,
not Anthropic's tokenizer.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from agent_core.approval import approve_all  # noqa: E402
from agent_core.cancel import CancelToken  # noqa: E402
from agent_core.config import Endpoints  # noqa: E402
from agent_core.events import AnswerFinished, ModelCallFinished, Usage  # noqa: E402
from agent_core.model_catalog import estimate_cost, forget_model_lists  # noqa: E402
from agent_core.scenarios import persona_password  # noqa: E402
from agent_core.session import PersonaSession  # noqa: E402
from agent_core.turn import TurnLimits  # noqa: E402
from embedded.launcher import start_embedded  # noqa: E402
from tests.claude.scripted_server import Reply, ScriptedMessages, text, tool_use  # noqa: E402

MODEL = "claude-sonnet-5-5"
QUESTION = "육아휴직 며칠까지 쓸 수 있어? 곧 바뀌는 것도 있으면 알려줘."
ANSWER = (
    "육아휴직은 자녀 1명당 최대 1년까지 쓸 수 있습니다 (HR-REG-003 제3차, 2025-03-15 시행). "
    "예정된 개정은 확인되지 않았습니다."
)
LONG_ANSWER_TOKENS = 8000


def _three_call_script(server: ScriptedMessages) -> None:
    server.script(
        Reply(
            [
                text("규정을 찾아보겠습니다."),
                tool_use("search_regulations", {"question": QUESTION}),
            ],
            stop_reason="tool_use",
        ),
        Reply(
            [tool_use("get_effective_version", {"doc_no": "HR-REG-003"})], stop_reason="tool_use"
        ),
        Reply([text(ANSWER)]),
    )


def _turn(endpoints: Endpoints, truth: dict[str, Any], limits: TurnLimits) -> dict[str, Any]:
    session = PersonaSession.login(
        endpoints, "hong", persona_password(truth, "hong"), audit=False, limits=limits
    )
    try:
        events = list(session.run_turn(QUESTION, approver=approve_all, cancel=CancelToken()))
    finally:
        session.close()
    calls = [e for e in events if isinstance(e, ModelCallFinished)]
    finished = events[-1]
    if not isinstance(finished, AnswerFinished):
        raise RuntimeError(f"the turn did not answer: {finished}")
    usage = finished.usage or Usage()
    later = [c.usage for c in calls[1:]]
    later_total = sum(u.total_input_tokens for u in later)
    later_read = sum(u.cache_read_input_tokens for u in later)
    return {
        "calls": [
            {
                "call": c.call_index,
                "input_tokens": c.usage.input_tokens,
                "cache_read_input_tokens": c.usage.cache_read_input_tokens,
                "cache_creation_input_tokens": c.usage.cache_creation_input_tokens,
                "output_tokens": c.usage.output_tokens,
                "cache_read_share": round(c.usage.cache_read_share, 4),
                "request_bytes": c.request_bytes,
                "cost_usd": c.usage.cost_usd,
            }
            for c in calls
        ],
        "turn": {
            "total_input_tokens": usage.total_input_tokens,
            "output_tokens": usage.output_tokens,
            "cache_read_input_tokens": usage.cache_read_input_tokens,
            "cache_creation_input_tokens": usage.cache_creation_input_tokens,
            "cost_usd": usage.cost_usd,
        },
        "cache_read_share_calls_2_plus": round(later_read / later_total, 4) if later_total else 0,
    }


def _uncached_cost(usage_turn: dict[str, Any]) -> float | None:
    """The same tokens billed with no cache at all (every input token at the input price)."""
    usage = Usage(
        input_tokens=usage_turn["total_input_tokens"], output_tokens=usage_turn["output_tokens"]
    )
    return estimate_cost(MODEL, usage)


def bench_caching(ontul_url: str, truth: dict[str, Any]) -> dict[str, Any]:
    limits = TurnLimits()
    results: dict[str, Any] = {}
    os.environ["REGDESK_THREADS"] = "off"
    with ScriptedMessages() as server:
        endpoints = Endpoints(ontul_url, server.url, "sk-ant-bench", MODEL, ground_truth=truth)
        _three_call_script(server)
        results["cached_first_turn"] = _turn(endpoints, truth, limits)
        _three_call_script(server)
        results["cached_second_turn"] = _turn(endpoints, truth, limits)
    forget_model_lists()
    with ScriptedMessages() as server:
        endpoints = Endpoints(ontul_url, server.url, "sk-ant-bench", MODEL, ground_truth=truth)
        _three_call_script(server)
        results["uncached_turn"] = _turn(endpoints, truth, TurnLimits(prompt_cache=False))
    first, second = results["cached_first_turn"], results["cached_second_turn"]
    results["summary"] = {
        "cache_read_share_calls_2_plus_first_turn": first["cache_read_share_calls_2_plus"],
        "cache_read_share_calls_2_plus_second_turn": second["cache_read_share_calls_2_plus"],
        "target": 0.8,
        "cost_usd_first_turn_cached": first["turn"]["cost_usd"],
        "cost_usd_second_turn_cached": second["turn"]["cost_usd"],
        "cost_usd_turn_without_caching": results["uncached_turn"]["turn"]["cost_usd"],
        "cost_usd_turn_tokens_billed_uncached": _uncached_cost(first["turn"]),
        "prices": "resources/models.json, claude-sonnet-5-5: $2 in, $10 out, $2.50 cache write "
        "(5 min), $0.10 cache read per MTok",
    }
    return results


def bench_threads(ontul_url: str, truth: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for mode in ("off", "on"):
        os.environ["REGDESK_THREADS"] = mode
        forget_model_lists()
        with ScriptedMessages() as server:
            endpoints = Endpoints(ontul_url, server.url, "sk-ant-bench", MODEL, ground_truth=truth)
            _three_call_script(server)
            turn = _turn(endpoints, truth, TurnLimits())
        out[f"threads_{mode}"] = [c["request_bytes"] for c in turn["calls"]]
    os.environ["REGDESK_THREADS"] = "off"
    off, on = out["threads_off"], out["threads_on"]
    out["later_calls_bytes_off"] = sum(off[1:])
    out["later_calls_bytes_on"] = sum(on[1:])
    out["later_calls_drop"] = round(1 - sum(on[1:]) / sum(off[1:]), 4)
    out["turn_bytes_drop"] = round(1 - sum(on) / sum(off), 4)
    return out


def bench_long_answer(ontul_url: str, truth: dict[str, Any]) -> dict[str, Any]:
    from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from desktop.persona_pane import PersonaPane

    app = QApplication.instance() or QApplication([])
    sentence = "Leave rules are in HR-REG-003 version 3, effective 2025-03-15. "
    long_text = (sentence * (LONG_ANSWER_TOKENS * 3 // len(sentence) + 1))[: LONG_ANSWER_TOKENS * 3]
    forget_model_lists()
    with ScriptedMessages() as server:
        server.script(Reply([text(long_text)], chunk=12))
        endpoints = Endpoints(ontul_url, server.url, "sk-ant-bench", MODEL, ground_truth=truth)
        session = PersonaSession.login(
            endpoints, "hong", persona_password(truth, "hong"), audit=False
        )
        pane = PersonaPane("hong")
        pane.resize(900, 700)
        pane.show()
        pane.set_session(session)
        gaps: list[float] = []
        streaming_gaps: list[float] = []
        clock = QElapsedTimer()
        clock.start()
        last = [clock.elapsed()]

        def tick() -> None:
            now = clock.elapsed()
            gaps.append(now - last[0])
            rows = pane.transcript.rows
            if rows and rows[-1].kind == "assistant" and rows[-1].streaming:
                streaming_gaps.append(now - last[0])
            last[0] = now

        timer = QTimer()
        timer.setInterval(10)
        timer.timeout.connect(tick)
        done: list[Any] = []
        loop = QEventLoop()
        pane.turn_finished.connect(done.append)
        pane.turn_finished.connect(loop.quit)
        QTimer.singleShot(120_000, loop.quit)
        started = time.perf_counter()
        timer.start()
        pane.ask(QUESTION)
        if not done:
            loop.exec()
        timer.stop()
        elapsed = time.perf_counter() - started
        result = done[0] if done else None
        answer = pane.displayed_text()
        pane.shutdown()
        session.close()
        pane.deleteLater()
        app.processEvents()
    gaps.sort()
    streaming_gaps.sort()
    return {
        "answer_tokens": LONG_ANSWER_TOKENS,
        "answer_chars": len(long_text),
        "deltas": len(long_text) // 12 + 1,
        "max_tokens_sent": server.requests[0]["max_tokens"],
        "whole_answer_arrived": bool(result and result.answer == long_text),
        "cut_off": bool(result and result.record.cut_off),
        "displayed_chars": len(answer),
        "turn_s": round(elapsed, 3),
        "gui_tick_gap_ms_max": round(gaps[-1], 1) if gaps else None,
        "gui_tick_gap_ms_max_while_streaming": round(streaming_gaps[-1], 1)
        if streaming_gaps
        else None,
        "gui_tick_gap_ms_p99_while_streaming": round(
            streaming_gaps[max(0, int(len(streaming_gaps) * 0.99) - 1)], 1
        )
        if streaming_gaps
        else None,
        "ticks": len(gaps),
        "ticks_while_streaming": len(streaming_gaps),
    }


def main() -> int:
    os.environ.setdefault("REGDESK_RETRY_BASE_S", "0.01")
    services = start_embedded(model=False)
    try:
        truth = services.ground_truth or {}
        result = {
            "machine": f"{platform.system()} {platform.machine()}, "
            f"Python {platform.python_version()}",
            "caching": bench_caching(str(services.ontul_url), truth),
            "threads": bench_threads(str(services.ontul_url), truth),
            "long_answer": bench_long_answer(str(services.ontul_url), truth),
        }
    finally:
        services.stop()
    out = ROOT / "bench" / "results" / "claude.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result["caching"]["summary"], indent=2))
    print(json.dumps({k: v for k, v in result["threads"].items()}, indent=2))
    print(json.dumps(result["long_answer"], indent=2))
    ok = result["caching"]["summary"]["cache_read_share_calls_2_plus_first_turn"] >= 0.8
    return 0 if ok and result["long_answer"]["whole_answer_arrived"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
