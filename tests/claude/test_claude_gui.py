"""The pane against the scripted Messages server: retries, thinking rows, cut off, usage.

One test drives a ``PersonaPane`` in this process (pytest-qt, offscreen); one runs
the real window through the headless driver (``regdesk gui --offscreen --json``)
with ``ANTHROPIC_BASE_URL`` pointing at the scripted server.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.claude.scripted_server import Broken, Error, Reply, text, thinking, tool_use

if TYPE_CHECKING:
    from collections.abc import Callable

    from agent_core.config import Endpoints
    from tests.claude.scripted_server import ScriptedMessages

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

QUESTION = "육아휴직 며칠까지 쓸 수 있어?"
ANSWER = "육아휴직은 최대 1년입니다. (HR-REG-003 제3차)"
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.gui
def test_pane_shows_retry_drops_partial_text_thinking_rows_cut_off_and_cost(
    qtbot: Any,
    claude: Callable[..., ScriptedMessages],
    endpoints_for: Callable[..., Endpoints],
) -> None:
    from agent_core.session import PersonaSession
    from desktop.persona_pane import PersonaPane
    from embedded.ontul.testing import persona_password

    server = claude().script(
        Reply(
            [
                thinking("규정을 검색해야 한다."),
                tool_use("search_regulations", {"question": "육아휴직"}),
            ],
            stop_reason="tool_use",
        ),
        Broken(Reply([text("버려질 부분 답변 " * 6)]), after=5),
        Error(529, "overloaded_error", "Overloaded", headers={"retry-after": "0"}),
        Reply([text(ANSWER)], stop_reason="max_tokens"),
    )
    endpoints = endpoints_for(server)
    session = PersonaSession.login(
        endpoints, "hong", persona_password("hong", endpoints.ground_truth or {}), audit=False
    )
    pane = PersonaPane("hong")
    qtbot.addWidget(pane)
    pane.set_session(session)
    try:
        with qtbot.waitSignal(pane.turn_finished, timeout=60000) as blocker:
            assert pane.ask(QUESTION)
        result = blocker.args[0]
    finally:
        pane.shutdown()
        session.close()
    rows = pane.transcript.rows
    kinds = [r.kind for r in rows]
    texts = [r.text for r in rows]
    assert "thinking" in kinds
    thinking_row = rows[kinds.index("thinking")]
    assert "▸" in thinking_row.html() and thinking_row.text == "규정을 검색해야 한다."
    pane.transcript.toggle(kinds.index("thinking"))
    assert "▾" in rows[kinds.index("thinking")].html()
    assert any("retrying in 0 s (stream broke)" in t for t in texts)
    assert any("retrying in 0 s (overloaded)" in t for t in texts)
    assert not any("버려질" in t for t in texts)  # the abandoned attempt's text is gone
    answers = [r for r in rows if r.kind == "assistant"]
    assert [a.text for a in answers] == [ANSWER]
    assert any(t.startswith("Cut off") for t in texts)
    assert any("tokens in" in t and "≈ $" in t for t in texts)
    usage = result.record.usage
    assert result.record.cut_off and usage is not None and usage.model_calls == 2
    assert usage.cache_read_input_tokens > 0


@pytest.mark.gui
def test_model_not_available_offers_settings_and_another_model_applies_at_once(
    qtbot: Any,
    claude: Callable[..., ScriptedMessages],
    endpoints_for: Callable[..., Endpoints],
    tmp_path: Path,
) -> None:
    from PySide6.QtCore import QSettings

    from agent_core.session import PersonaSession
    from desktop.persona_pane import PersonaPane
    from desktop.settings import AppSettings
    from embedded.ontul.testing import persona_password

    server = claude()
    endpoints = endpoints_for(server, model="claude-sonnet-4-5")
    session = PersonaSession.login(
        endpoints, "hong", persona_password("hong", endpoints.ground_truth or {}), audit=False
    )
    pane = PersonaPane("hong")
    qtbot.addWidget(pane)
    pane.set_session(session)
    try:
        with qtbot.waitSignal(pane.turn_finished, timeout=60000):
            assert pane.ask(QUESTION)
        notice = pane.transcript.rows[-1].text
        assert "model claude-sonnet-4-5 is not available — choose another" in notice
        assert not pane.settings_button.isHidden()
        # the person picks the newest Sonnet in Settings: it applies to the session at once
        settings = AppSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
        settings.model = "claude"
        settings.model_name = ""
        pane._apply_model_settings(settings)
        assert session.model_name == "claude-sonnet-5-5"
        assert pane.settings_button.isHidden()
        server.script(Reply([text(ANSWER)]))
        with qtbot.waitSignal(pane.turn_finished, timeout=60000) as blocker:
            assert pane.ask(QUESTION)
        assert blocker.args[0].answer == ANSWER
        assert server.requests[-1]["model"] == "claude-sonnet-5-5"
    finally:
        pane.shutdown()
        session.close()


@pytest.mark.gui
def test_headless_window_against_the_scripted_server(
    claude: Callable[..., ScriptedMessages], tmp_path: Path
) -> None:
    server = claude().script(
        Error(529, "overloaded_error", "Overloaded", headers={"retry-after": "0"}),
        Reply(
            [thinking("검색한다."), tool_use("search_regulations", {"question": "육아휴직"})],
            stop_reason="tool_use",
        ),
        Reply([text(ANSWER)]),
    )
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "ANTHROPIC_BASE_URL": server.url,
        "ANTHROPIC_API_KEY": "sk-ant-test-key",
        "REGDESK_DATA_DIR": str(tmp_path / "data"),
        "REGDESK_RETRY_BASE_S": "0.001",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "desktop.launcher",
            "gui",
            "--offscreen",
            "--as",
            "hong",
            "--ask",
            QUESTION,
            "--json",
            "--timeout",
            "90",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    output = json.loads(done.stdout)
    pane = output["panes"][0]
    assert pane["status"] == "answered"
    assert pane["displayed_text"].strip() == ANSWER
    assert pane["usage"]["model_calls"] == 2 and pane["usage"]["cost_usd"] > 0
    assert pane["cut_off"] is False
    assert {r["model"] for r in server.requests} == {"claude-sonnet-5-5"}
    assert server.requests[-1]["thinking"] == {"type": "adaptive", "display": "summarized"}


@pytest.mark.gui
def test_a_refused_answer_is_never_kept_as_an_answer_in_the_pane(
    qtbot: Any,
    claude: Callable[..., ScriptedMessages],
    endpoints_for: Callable[..., Endpoints],
) -> None:
    from agent_core.session import PersonaSession
    from desktop.persona_pane import PersonaPane
    from embedded.ontul.testing import persona_password

    server = claude().script(
        Reply(
            [text("I can't help with that.")],
            stop_reason="refusal",
            stop_details={"type": "refusal", "category": None, "explanation": None},
        )
    )
    endpoints = endpoints_for(server)
    session = PersonaSession.login(
        endpoints, "hong", persona_password("hong", endpoints.ground_truth or {}), audit=False
    )
    pane = PersonaPane("hong")
    qtbot.addWidget(pane)
    pane.set_session(session)
    try:
        with qtbot.waitSignal(pane.turn_finished, timeout=60000) as blocker:
            assert pane.ask(QUESTION)
    finally:
        pane.shutdown()
        session.close()
    assert blocker.args[0].status == "failed" and blocker.args[0].answer == ""
    assert not [r for r in pane.transcript.rows if r.kind == "assistant"]
    assert "declined to answer" in pane.transcript.rows[-2].text
