"""Soak: many split turns in one process; memory and latency drift → bench/results/soak.json.

The real main window (offscreen) with hong and cho side by side asks 200
split turns (``--quick``: 40) of the real embedded platform and offline model
(unpaced). The chat is cleared before every turn, as a person starting new
chats would, so steady-state memory should be flat; RSS is read from
``/proc/self/statm`` after each turn and a least-squares slope per turn is
fitted after a warm-up fifth. Latency drift is the median turn time of the
last fifth over that of the first fifth (the baseline measured in this run).

Also records one paced split turn's timeline (per persona: tool calls and the
streamed answer, milliseconds from the question) for the chart.

Run: ``.venv/bin/python -m bench.bench_soak [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

RESULTS = ROOT / "bench" / "results" / "soak.json"
QUESTIONS = (
    "20090001 사번 직원 육아휴직 얼마나 썼어?",
    "나 육아휴직 며칠 남았어?",
    "징계 양정기준 알려줘",
    "연차휴가 운영지침의 상위 규정은?",
    "정보보안 규정이 바뀌면 어떤 지침이 영향을 받아?",
)
TIMELINE_QUESTION = "나 육아휴직 며칠 남았어?"


def rss_mb() -> float:
    """Resident set size of this process in MB (``/proc/self/statm``)."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def _endpoints(services: Any) -> Any:
    from agent_core.config import OFFLINE_MODEL_NAME, Endpoints

    return Endpoints(
        str(services.ontul_url),
        services.model_url,
        "offline",
        OFFLINE_MODEL_NAME,
        True,
        services.ground_truth,
    )


def soak(turns: int) -> dict[str, Any]:
    """Run ``turns`` split turns in the real window and sample RSS after each."""
    from PySide6.QtCore import QEventLoop, QTimer

    from bench.embedded_window import open_window
    from desktop.turn_worker import running_turn_threads

    services, window = open_window(0.0, ("hong", "cho"))
    window.toggle_split(True)
    view = window.split_view
    threads_before = threading.active_count()
    samples: list[tuple[int, float]] = [(0, rss_mb())]
    turn_ms: list[float] = []
    statuses: dict[str, int] = {}
    loop = QEventLoop()

    def finished(panes: list[dict[str, Any]], _differences: Any) -> None:
        for pane in panes:
            statuses[pane["status"]] = statuses.get(pane["status"], 0) + 1
        loop.quit()

    view.all_finished.connect(finished)
    started = time.perf_counter()
    for turn in range(1, turns + 1):
        view.new_chat()
        began = time.perf_counter()
        QTimer.singleShot(0, lambda n=turn: view.ask_all(QUESTIONS[n % len(QUESTIONS)]))
        loop.exec()
        turn_ms.append((time.perf_counter() - began) * 1000.0)
        samples.append((turn, rss_mb()))
    elapsed = time.perf_counter() - started
    threads_after = threading.active_count()
    saved = len(window.history.turns("hong", limit=100_000)) if window.history else 0
    window.shutdown()
    window.close()
    services.stop()
    warm = max(1, turns // 5)
    tail = [s for s in samples if s[0] >= warm]
    fit = statistics.linear_regression([s[0] for s in tail], [s[1] for s in tail])
    fifth = max(1, turns // 5)
    first, last = statistics.median(turn_ms[:fifth]), statistics.median(turn_ms[-fifth:])
    return {
        "split_turns": turns,
        "personas": ["hong", "cho"],
        "rss_mb": [round(mb, 2) for _, mb in samples],
        "rss_start_mb": round(samples[0][1], 1),
        "rss_after_warmup_mb": round(samples[warm][1], 1),
        "rss_end_mb": round(samples[-1][1], 1),
        "slope_kb_per_turn": round(fit.slope * 1000.0, 1),
        "slope_window": f"turns {warm}..{turns}",
        "turn_ms_first_fifth_median": round(first, 1),
        "turn_ms_last_fifth_median": round(last, 1),
        "latency_drift_ratio": round(last / first, 3),
        "statuses": statuses,
        "history_rows_hong": saved,
        "threads_before": threads_before,
        "threads_after": threads_after,
        "turn_threads_left": running_turn_threads(),
        "seconds": round(elapsed, 1),
    }


def timeline(pace_s: float = 0.02) -> dict[str, Any]:
    """One split turn (hong and cho at once, paced model): when each event happened."""
    from agent_core.approval import deny_all
    from agent_core.cancel import CancelToken
    from agent_core.scenarios import persona_password
    from agent_core.session import PersonaSession
    from embedded.launcher import start_embedded

    services = start_embedded(model_pace_s=pace_s)
    endpoints = _endpoints(services)
    sessions = {
        p: PersonaSession.login(
            endpoints, p, persona_password(services.ground_truth, p), audit=False
        )
        for p in ("hong", "cho")
    }
    spans: dict[str, list[dict[str, Any]]] = {p: [] for p in sessions}
    zero = time.perf_counter()

    def ms() -> float:
        return round((time.perf_counter() - zero) * 1000.0, 1)

    def run(persona: str) -> None:
        open_calls: dict[str, float] = {}
        first_delta: float | None = None
        for event in sessions[persona].run_turn(
            TIMELINE_QUESTION, approver=deny_all, cancel=CancelToken()
        ):
            now = ms()
            if event.kind == "tool_call_started":
                open_calls[event.call_id] = now
            elif event.kind == "tool_call_finished":
                begin = open_calls.pop(event.call_id, now)
                spans[persona].append(
                    {"kind": "tool", "label": event.tool, "start": begin, "end": now}
                )
            elif event.kind in ("answer_delta", "narration") and first_delta is None:
                first_delta = now
            elif event.kind == "turn_started":
                spans[persona].append({"kind": "start", "label": "question", "start": now})
            if event.kind in ("answer_finished", "turn_failed", "turn_cancelled"):
                spans[persona].append(
                    {
                        "kind": "model",
                        "label": "model stream",
                        "start": first_delta or now,
                        "end": now,
                    }
                )

    threads = [threading.Thread(target=run, args=(p,)) for p in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for session in sessions.values():
        session.close()
    services.stop()
    return {"question": TIMELINE_QUESTION, "pace_s": pace_s, "spans": spans}


def run(quick: bool) -> dict[str, Any]:
    """Run the soak and the timeline; write ``bench/results/soak.json``.

    Args:
        quick: 40 turns instead of 200.

    Returns:
        The result document.
    """
    os.environ["REGDESK_DATA_DIR"] = tempfile.mkdtemp(prefix="regdesk-soak-")
    result = {
        "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
        "quick": quick,
        "soak": soak(40 if quick else 200),
        "timeline": timeline(),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return result


def main() -> int:
    """Command line: ``[--quick]``."""
    parser = argparse.ArgumentParser(prog="bench.bench_soak")
    parser.add_argument("--quick", action="store_true", help="40 turns instead of 200")
    result = run(parser.parse_args().quick)
    summary = {k: v for k, v in result["soak"].items() if k != "rss_mb"}
    print(json.dumps(summary, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
