"""``regdesk ask`` against the scripted Messages server: --model, usage in the JSON, words."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from agent_core import cli
from tests.claude.scripted_server import Broken, Error, Reply, text, tool_use

if TYPE_CHECKING:
    from collections.abc import Callable

    import pytest

    from agent_core.config import Endpoints
    from tests.claude.scripted_server import ScriptedMessages

QUESTION = "육아휴직 며칠까지 쓸 수 있어?"
ANSWER = "육아휴직은 최대 1년입니다. (HR-REG-003 제3차)"


def _turn(server: ScriptedMessages) -> ScriptedMessages:
    return server.script(
        Reply([tool_use("search_regulations", {"question": "육아휴직"})], stop_reason="tool_use"),
        Reply([text(ANSWER)]),
    )


def test_ask_json_has_usage_per_call_and_turn_and_the_model_chosen_with_flag(
    claude: Callable[..., ScriptedMessages],
    endpoints_for: Callable[..., Endpoints],
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = _turn(claude())
    argv = [
        "ask",
        "--as",
        "hong",
        "--json",
        "--model",
        "claude-opus-5-5",
        "--max-tokens",
        "20000",
        QUESTION,
    ]
    code = cli.main(argv, endpoints_for(server))
    record = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {r["model"] for r in server.requests} == {"claude-opus-5-5"}
    assert {r["max_tokens"] for r in server.requests} == {20000}
    assert record["model"] == "claude-opus-5-5"
    assert record["answer"] == ANSWER and record["cut_off"] is False
    assert record["stop_reason"] == "end_turn"
    assert [c["call"] for c in record["model_calls"]] == [1, 2]
    assert all(c["request_id"].startswith("req_") for c in record["model_calls"])
    usage = record["usage"]
    assert usage["model_calls"] == 2
    assert usage["cache_read_input_tokens"] > 0 and usage["cost_usd"] > 0
    assert usage["total_input_tokens"] == sum(
        c["usage"]["total_input_tokens"] for c in record["model_calls"]
    )


def test_unknown_model_flag_names_the_models_the_endpoint_lists(
    claude: Callable[..., ScriptedMessages],
    endpoints_for: Callable[..., Endpoints],
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = claude()
    code = cli.main(
        ["ask", "--as", "hong", "--model", "claude-sonnet-4-5", QUESTION], endpoints_for(server)
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "model claude-sonnet-4-5 is not available — choose another" in err
    assert "claude-sonnet-5-5 (Claude Sonnet 5.5)" in err
    assert not server.requests


def test_text_mode_says_retrying_and_that_the_partial_text_is_discarded(
    claude: Callable[..., ScriptedMessages],
    endpoints_for: Callable[..., Endpoints],
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = claude().script(
        Error(529, "overloaded_error", "Overloaded", headers={"retry-after": "0"}),
        Broken(Reply([text("끊길 답변 " * 8)]), after=4),
        Reply([text(ANSWER)]),
    )
    code = cli.main(["ask", "--as", "hong", QUESTION], endpoints_for(server))
    out, err = capsys.readouterr()
    assert code == 0
    assert "retrying in 0 s (overloaded)" in err
    assert "(stream broke) — the partial text above is discarded" in err
    assert out.rstrip().endswith(ANSWER)
    assert "tokens in" in err and "≈ $" in err


def test_failure_json_carries_the_request_id_and_words(
    claude: Callable[..., ScriptedMessages],
    endpoints_for: Callable[..., Endpoints],
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = claude().script(Error(401, "authentication_error", "invalid x-api-key"))
    code = cli.main(["ask", "--as", "hong", "--json", QUESTION], endpoints_for(server))
    record = json.loads(capsys.readouterr().out)
    assert code == 2
    failure = record["failure"]
    assert failure["message"] == "the API key was rejected: invalid x-api-key"
    assert failure["request_id"].startswith("req_") and failure["action"] == "settings"


def test_cut_off_answer_is_marked_in_the_json(
    claude: Callable[..., ScriptedMessages],
    endpoints_for: Callable[..., Endpoints],
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = claude().script(Reply([text("육아휴직은 최대")], stop_reason="max_tokens"))
    cli.main(["ask", "--as", "hong", "--json", QUESTION], endpoints_for(server))
    record = json.loads(capsys.readouterr().out)
    assert record["cut_off"] is True and record["stop_reason"] == "max_tokens"
