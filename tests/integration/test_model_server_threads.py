"""Message threads and the Messages parameters, over real HTTP with the real ``anthropic`` SDK.

``client.beta.messages.tool_runner`` (anthropic 2.14) threads its conversation:
header ``anthropic-beta: message-threads-2026-08-12``, ``thread: {type: create}``
first, then ``{type: continue, previous_message_id}`` with only the new messages.
The tools here return prose, as the reference client's do.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import TYPE_CHECKING, Any

import anthropic
import httpx2
import pytest
from anthropic import beta_tool

from embedded.model.server import ModelServer
from embedded.model.threads import THREADS_BETA

if TYPE_CHECKING:
    from collections.abc import Iterator

PROMPT = "You answer questions about company regulations. Cite document, version and date."
DESCRIBE = (
    "HR-REG-003 육아지원규정 (구분 REGULATION, 위계 2, 소관 HR)\n"
    "  제3차 [APPROVED] 시행 2025-03-15\n"
    "  제4차 [APPROVED] 시행 2026-12-22"
)
PENDING = "[HR-REG-003 제4차 개정 — APPROVED] 육아휴직 확대 (예정 시행일 2026-12-22, 기안 20090001)"


@pytest.fixture(scope="module")
def server() -> Iterator[ModelServer]:
    srv = ModelServer(pace_s=0.0).start()
    yield srv
    srv.stop()


class Recorder:
    """Every request body the SDK sends, with its beta header."""

    def __init__(self) -> None:
        self.requests: list[tuple[dict[str, Any], str, int]] = []

    def __call__(self, request: httpx2.Request) -> None:
        raw = request.read()
        body = json.loads(raw) if raw else {}
        self.requests.append((body, request.headers.get("anthropic-beta", ""), len(raw)))


def client_for(url: str, recorder: Recorder | None = None) -> anthropic.Anthropic:
    hooks = {"request": [recorder]} if recorder else {}
    return anthropic.Anthropic(
        base_url=url, api_key="x", max_retries=0, http_client=httpx2.Client(event_hooks=hooks)
    )


def make_tools(calls: list[str], side_effect: Any = None) -> list[Any]:
    @beta_tool
    def describe_regulation(doc_no: str) -> str:
        """What a named regulation is, and every version it has.

        Args:
            doc_no: document number, e.g. HR-REG-003
        """
        calls.append(f"describe_regulation:{doc_no}")
        if side_effect is not None:
            side_effect()
        return DESCRIBE if doc_no == "HR-REG-003" else f"{doc_no}는 규정 목록에 없습니다."

    @beta_tool
    def pending_revision(doc_no: str = "") -> str:
        """Revisions moving through approval.

        Args:
            doc_no: limit to one regulation
        """
        calls.append(f"pending_revision:{doc_no}")
        return PENDING

    return [describe_regulation, pending_revision]


def run_runner(client: anthropic.Anthropic, question: str, tools: list[Any]) -> str:
    runner = client.beta.messages.tool_runner(
        model="claude-opus-5",
        max_tokens=16000,
        thinking={"type": "adaptive"},
        output_config={"effort": "high"},
        system=PROMPT,
        tools=tools,
        messages=[{"role": "user", "content": question}],
    )
    final = None
    for message in runner:
        final = message
    assert final is not None
    return "\n".join(b.text for b in final.content if b.type == "text")


def test_tool_runner_threads_see_the_question_and_answer(server: ModelServer) -> None:
    recorder = Recorder()
    calls: list[str] = []
    answer = run_runner(
        client_for(server.url, recorder), "HR-REG-003이 무슨 규정이야?", make_tools(calls)
    )
    assert calls == ["describe_regulation:HR-REG-003", "pending_revision:HR-REG-003"]
    assert "육아지원규정" in answer and "제3차" in answer and "2026-12-22" in answer
    first, *later = recorder.requests
    assert first[0]["thread"] == {"type": "create"} and THREADS_BETA in first[1]
    assert first[0]["messages"][0]["content"] == "HR-REG-003이 무슨 규정이야?"
    assert first[0]["thinking"] == {"type": "adaptive"}
    assert later, "the runner made only one request"
    for body, beta, _ in later:
        assert THREADS_BETA in beta and body["thread"]["type"] == "continue"
        assert "system" not in body and "tools" not in body
        assert [m["role"] for m in body["messages"]] == ["user"]  # only the new tool results
        assert body["messages"][0]["content"][0]["type"] == "tool_result"
    ids = [body["thread"]["previous_message_id"] for body, _, _ in later]
    assert len(set(ids)) == len(ids)


def test_streaming_tool_runner_threads(server: ModelServer) -> None:
    calls: list[str] = []
    runner = client_for(server.url).beta.messages.tool_runner(
        model="claude-opus-5",
        max_tokens=16000,
        system=PROMPT,
        tools=make_tools(calls),
        messages=[{"role": "user", "content": "HR-REG-003이 무슨 규정이야?"}],
        stream=True,
    )
    finals = [stream.get_final_message() for stream in runner]
    answer = "".join(b.text for b in finals[-1].content if b.type == "text")
    assert calls[0] == "describe_regulation:HR-REG-003" and "육아지원규정" in answer


def test_lost_thread_is_replayed_by_the_sdk() -> None:
    """One stored reply at most: a request in between evicts the runner's thread."""
    srv = ModelServer(max_thread_replies=1).start()
    try:
        other = client_for(srv.url)

        def evict() -> None:
            other.beta.messages.create(
                model="claude-opus-5",
                max_tokens=100,
                messages=[{"role": "user", "content": "반려동물 돌봄휴가는 며칠이야?"}],
                thread={"type": "create"},
                betas=[THREADS_BETA],
            )

        recorder = Recorder()
        calls: list[str] = []
        answer = run_runner(
            client_for(srv.url, recorder), "HR-REG-003이 무슨 규정이야?", make_tools(calls, evict)
        )
        assert "육아지원규정" in answer
        creates = [
            b for b, _, _ in recorder.requests if b.get("thread", {}).get("type") == "create"
        ]
        assert len(creates) >= 2  # the replay sends the full history under a new thread
        assert any(len(b["messages"]) > 1 for b in creates[1:])
    finally:
        srv.stop()


def _post(url: str, body: dict[str, Any], beta: bool = True) -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json"}
    if beta:
        headers["anthropic-beta"] = THREADS_BETA
    req = urllib.request.Request(
        url + "/v1/messages", data=json.dumps(body).encode(), method="POST", headers=headers
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def _create(url: str) -> dict[str, Any]:
    status, body = _post(
        url,
        {
            "model": "m",
            "max_tokens": 50,
            "system": "s",
            "tools": [{"name": "describe_regulation", "input_schema": {"type": "object"}}],
            "messages": [{"role": "user", "content": "HR-REG-003이 무슨 규정이야?"}],
            "thread": {"type": "create"},
        },
    )
    assert status == 200
    return body


def _continue(url: str, previous: str, **extra: Any) -> tuple[int, dict[str, Any]]:
    use_id = "toolu_x"
    return _post(
        url,
        {
            "model": "m",
            "max_tokens": 50,
            "messages": [
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": use_id, "content": "x"}],
                }
            ],
            "thread": {"type": "continue", "previous_message_id": previous},
            **extra,
        },
    )


def test_documented_thread_errors(server: ModelServer) -> None:
    status, body = _continue(server.url, "msg_01unknownunknownunknown")
    assert status == 404 and body["error"]["type"] == "not_found_error"
    assert body["error"]["details"]["error_code"] == "thread_not_found"
    first = _create(server.url)
    status, body = _continue(server.url, first["id"], system="again")
    assert status == 400 and "system" in body["error"]["message"]
    status, _ = _continue(server.url, first["id"])
    assert status == 200
    status, body = _continue(server.url, first["id"])
    assert status == 400 and body["error"]["details"]["error_code"] == "thread_already_continued"
    second = _create(server.url)
    status, body = _continue(server.url, second["id"], model="other")
    assert status == 400 and body["error"]["details"]["error_code"] == "thread_fingerprint_mismatch"
    status, body = _post(
        server.url,
        {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "x"}],
         "thread": {"type": "create"}},
        beta=False,
    )  # fmt: skip
    assert status == 400 and THREADS_BETA in body["error"]["message"]


def test_sdk_raises_thread_not_found_for_an_expired_thread() -> None:
    srv = ModelServer(thread_ttl_s=0.0).start()
    try:
        first = _create(srv.url)
        with pytest.raises(anthropic.NotFoundError) as err:
            client_for(srv.url).beta.messages.create(
                model="m",
                max_tokens=50,
                messages=[{"role": "user", "content": "x"}],
                thread={"type": "continue", "previous_message_id": first["id"]},
                betas=[THREADS_BETA],
            )
        assert err.value.error_code == "thread_not_found"
    finally:
        srv.stop()


def test_message_ids_are_unique_even_for_identical_requests(server: ModelServer) -> None:
    client = client_for(server.url)
    replies = [
        client.messages.create(
            model="m",
            max_tokens=50,
            tools=[{"name": "describe_regulation", "input_schema": {"type": "object"}}],
            messages=[{"role": "user", "content": "HR-REG-003이 무슨 규정이야?"}],
        )
        for _ in range(3)
    ]
    ids = {r.id for r in replies}
    assert len(ids) == 3 and all(i.startswith("msg_") for i in ids)
    tool_ids = {b.id for r in replies for b in r.content if b.type == "tool_use"}
    assert len(tool_ids) == 3


def test_every_real_parameter_is_accepted(server: ModelServer) -> None:
    status, body = _post(
        server.url,
        {
            "model": "m",
            "max_tokens": 16000,
            "messages": [{"role": "user", "content": "반려동물 돌봄휴가는 며칠이야?"}],
            "system": [{"type": "text", "text": "s", "cache_control": {"type": "ephemeral"}}],
            "thinking": {"type": "enabled", "budget_tokens": 2048},
            "output_config": {"effort": "high"},
            "metadata": {"user_id": "u-1"},
            "stop_sequences": ["\n\nHuman:"],
            "tool_choice": {"type": "auto"},
            "service_tier": "auto",
            "temperature": 0.2,
            "top_p": 0.9,
            "top_k": 5,
            "context_management": {"edits": []},
            "container": "container_1",
            "mcp_servers": [{"type": "url", "url": "https://example.invalid", "name": "x"}],
            "diagnostics": {"previous_message_id": None},
            "cache_control": {"type": "ephemeral"},
            "a_field_from_a_newer_sdk": {"anything": [1, 2]},
        },
    )
    assert status == 200 and body["type"] == "message" and body["content"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("temperature", 3),
        ("temperature", "hot"),
        ("top_k", -1),
        ("thinking", {"type": "enabled", "budget_tokens": 10}),
        ("thinking", {"type": "sometimes"}),
        ("output_config", {"effort": "extreme"}),
        ("tool_choice", {"type": "tool"}),
        ("stop_sequences", "STOP"),
        ("service_tier", "gold"),
        ("metadata", []),
        ("thread", {"type": "continue", "previous_message_id": "nope"}),
    ],
)
def test_wrong_parameter_types_are_400(server: ModelServer, field: str, value: Any) -> None:
    status, body = _post(
        server.url,
        {"model": "m", "max_tokens": 100, "messages": [{"role": "user", "content": "x"}],
         field: value},
    )  # fmt: skip
    assert status == 400 and body["error"]["type"] == "invalid_request_error"


def test_stop_sequence_ends_the_text(server: ModelServer) -> None:
    reply = client_for(server.url).messages.create(
        model="m",
        max_tokens=100,
        stop_sequences=["없습니다"],
        messages=[{"role": "user", "content": "반려동물 돌봄휴가는 며칠이야?"}],
    )
    assert reply.stop_reason == "stop_sequence" and reply.stop_sequence == "없습니다"
    assert "없습니다" not in reply.content[0].text  # type: ignore[union-attr]


def test_count_tokens(server: ModelServer) -> None:
    count = client_for(server.url).messages.count_tokens(
        model="claude-opus-5",
        system=PROMPT,
        messages=[{"role": "user", "content": "HR-REG-003이 무슨 규정이야?"}],
    )
    assert count.input_tokens > 0
