"""The agent CLI commands against the real stack."""

from __future__ import annotations

import dataclasses
import json
import signal
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from agent_core import cli

if TYPE_CHECKING:
    from collections.abc import Callable

    from tests.integration.conftest import Stack

SCENARIO_DIR = Path(__file__).resolve().parents[1] / "scenarios"


def test_ask_json_is_one_object_with_the_contract_fields(
    stack: Stack, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(
        ["ask", "--as", "hong", "--json", "육아휴직 며칠까지 쓸 수 있어?"], stack.endpoints
    )
    out = capsys.readouterr().out.strip()
    assert code == 0
    record = json.loads(out)
    assert {
        "persona",
        "question",
        "answer",
        "tools",
        "citations",
        "events",
        "model",
        "elapsed_ms",
    } <= set(record)
    assert record["persona"] == "hong"
    assert f"{stack.truth['childcare']['current_days']}일" in record["answer"]
    assert {"doc_no": "HR-REG-003", "version": 3} in [
        {k: c[k] for k in ("doc_no", "version")} for c in record["citations"]
    ]
    assert record["events"][0]["kind"] == "turn_started"
    assert record["events"][-1]["kind"] == "answer_finished"


def test_ask_write_without_flag_and_without_tty_is_denied(
    make_stack: Callable[..., Stack], capsys: pytest.CaptureFixture[str]
) -> None:
    stack = make_stack()
    question = "육아지원규정 3차에 대해 돌봄휴가 확대 사유로 개정 요청 넣어줘"
    cli.main(["ask", "--as", "hong", "--json", question], stack.endpoints)
    record = json.loads(capsys.readouterr().out)
    assert "request_regulation_revision" in record["tools"]
    statuses = [
        t["status"] for t in record["tool_calls"] if t["tool"] == "request_regulation_revision"
    ]
    assert statuses == ["denied"]


def test_compare_runs_both_personas_and_shows_the_difference(
    stack: Stack, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(
        ["compare", "--as", "hong", "--as", "cho", "--json", "징계 양정기준 알려줘"],
        stack.endpoints,
    )
    report = json.loads(capsys.readouterr().out)
    records = report["turns"]
    assert code == 0
    assert [r["persona"] for r in records] == ["hong", "cho"]
    assert "HR-GDL-003" in records[1]["answer"]
    assert "HR-GDL-003" not in records[0]["answer"]
    # the split view's comparison, computed by the same code
    assert report["compared"] == ["hong", "cho"] and report["excluded"] == {}
    doc = next(d for d in report["differences"] if d.get("value") == "HR-GDL-003")
    assert (doc["kind"], doc["present"], doc["absent"]) == ("doc_no", ["cho"], ["hong"])


def test_compare_text_is_side_by_side(stack: Stack, capsys: pytest.CaptureFixture[str]) -> None:
    cli.main(
        ["compare", "--as", "hong", "--as", "park", "우리 부서 직원들 육아휴직 사용 현황 보여줘"],
        stack.endpoints,
    )
    first = capsys.readouterr().out.splitlines()[0]
    assert "== hong ==" in first and "== park ==" in first


def test_scenarios_command_prints_one_line_per_case_and_a_summary(
    stack: Stack, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "report.json"
    code = cli.main(
        ["scenarios", "--json", str(out_file), str(SCENARIO_DIR / "03_graph_erp.yaml")],
        stack.endpoints,
    )
    lines = capsys.readouterr().out.strip().splitlines()
    cases = len(
        __import__("yaml").safe_load((SCENARIO_DIR / "03_graph_erp.yaml").read_text())["cases"]
    )
    assert len(lines) == cases + 1
    assert all(line.startswith(("PASS graph_erp/", "FAIL graph_erp/")) for line in lines[:-1])
    passed = sum(line.startswith("PASS") for line in lines[:-1])
    assert lines[-1] == f"{passed} passed, {cases - passed} failed"
    assert code == (0 if passed == cases else 1)
    report = json.loads(out_file.read_text(encoding="utf-8"))
    assert report["passed"] == passed and len(report["cases"]) == cases


class _StallingModel:
    """A model endpoint that accepts requests and never answers until closed."""

    def __init__(self) -> None:
        import http.server

        self.arrived = threading.Semaphore(0)
        self.release = threading.Event()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.arrived.release()
                outer.release.wait(30)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


def test_compare_ctrl_c_cancels_every_persona_and_exits_130(
    stack: Stack, capsys: pytest.CaptureFixture[str]
) -> None:
    model = _StallingModel()
    endpoints = dataclasses.replace(stack.endpoints, model_base_url=model.url)
    result: list[int] = []

    def ctrl_c_once_both_wait() -> None:
        for _ in range(2):  # both personas are blocked on the model
            model.arrived.acquire()
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)

    interrupter = threading.Thread(target=ctrl_c_once_both_wait, daemon=True)
    interrupter.start()
    try:
        result.append(cli.main(["compare", "--as", "hong", "--as", "cho", "질문"], endpoints))
    except KeyboardInterrupt:
        pytest.fail("Ctrl+C escaped regdesk compare")
    finally:
        interrupter.join(5)
        workers = [
            t for t in threading.enumerate() if t.name.startswith("compare-") and t.is_alive()
        ]
        model.close()
    assert result == [130]
    assert workers == []  # the cancel tokens ended the blocked model calls
    assert "interrupted" in capsys.readouterr().err


def test_password_help_prefers_the_environment_variable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for command in ("ask", "compare"):
        with pytest.raises(SystemExit):
            cli.build_parser().parse_args([command, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert "REGDESK_PASSWORD" in out and "process list" in out
