"""The offline model over real HTTP, driven by the real ``anthropic`` SDK."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from typing import TYPE_CHECKING, Any

import anthropic
import pytest

from embedded.model.server import PACE_ENV, ModelServer, resolve_pace

if TYPE_CHECKING:
    from collections.abc import Iterator

TOOLS: list[Any] = [
    {
        "name": "describe_regulation",
        "description": "Describe a regulation.",
        "input_schema": {
            "type": "object",
            "properties": {"doc_no": {"type": "string"}},
            "required": ["doc_no"],
        },
    },
]
QUESTION = "HR-REG-999는 무슨 규정이야?"


@pytest.fixture(scope="module")
def server() -> Iterator[ModelServer]:
    srv = ModelServer(host="127.0.0.1", port=0, pace_s=0.0).start()
    yield srv
    srv.stop()


@pytest.fixture
def client(server: ModelServer) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key="offline", base_url=server.url, max_retries=0)


def _post(server: ModelServer, body: bytes) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(
        server.url + "/v1/messages",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_non_streaming_tool_use_then_answer(client: anthropic.Anthropic) -> None:
    first = client.messages.create(
        model="offline",
        max_tokens=512,
        tools=TOOLS,
        messages=[{"role": "user", "content": QUESTION}],
    )
    assert first.stop_reason == "tool_use" and first.type == "message"
    use = next(b for b in first.content if b.type == "tool_use")
    assert use.name == "describe_regulation" and use.input == {"doc_no": "HR-REG-999"}
    result = (
        '<tool-data tool="describe_regulation" injection-suspected="false" '
        'truncated="false">\nData returned by the tool.\n'
        '{"regulation": null, "versions": [], "note": "No rows"}\n</tool-data>'
    )
    second = client.messages.create(
        model="offline",
        max_tokens=512,
        tools=TOOLS,
        messages=[
            {"role": "user", "content": QUESTION},
            {"role": "assistant", "content": first.content},
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": use.id,
                        "content": [{"type": "text", "text": result}],
                    }
                ],
            },
        ],
    )
    assert second.stop_reason == "end_turn"
    assert "찾을 수 없습니다" in second.content[0].text  # type: ignore[union-attr]
    assert second.usage.output_tokens > 0


def test_streaming_tool_use_arrives_as_input_json_delta(client: anthropic.Anthropic) -> None:
    kinds: list[str] = []
    with client.messages.stream(
        model="offline",
        max_tokens=512,
        tools=TOOLS,
        messages=[{"role": "user", "content": QUESTION}],
    ) as stream:
        for event in stream:
            if event.type == "content_block_delta":
                kinds.append(event.delta.type)
        final = stream.get_final_message()
    assert "input_json_delta" in kinds and "text_delta" in kinds
    use = next(b for b in final.content if b.type == "tool_use")
    assert use.input == {"doc_no": "HR-REG-999"} and final.stop_reason == "tool_use"


def test_streaming_text_comes_in_chunks(client: anthropic.Anthropic) -> None:
    with client.messages.stream(
        model="offline",
        max_tokens=512,
        messages=[{"role": "user", "content": "반려동물 돌봄휴가는 며칠이야?"}],
    ) as stream:
        chunks = list(stream.text_stream)
        final = stream.get_final_message()
    assert len(chunks) > 3
    assert "".join(chunks) == final.content[0].text  # type: ignore[union-attr]
    assert final.stop_reason == "end_turn"


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[]",
        b'{"max_tokens": 10, "messages": [{"role": "user", "content": "x"}]}',
        b'{"model": "m", "max_tokens": 10, "messages": []}',
        b'{"model": "m", "max_tokens": 10, "messages": [{"role": "robot", "content": "x"}]}',
        b'{"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": 5}]}',
    ],
)
def test_malformed_request_is_400(server: ModelServer, body: bytes) -> None:
    status, payload = _post(server, body)
    assert status == 400
    assert payload["type"] == "error"
    assert payload["error"]["type"] == "invalid_request_error" and payload["error"]["message"]


def test_sdk_raises_bad_request(client: anthropic.Anthropic) -> None:
    with pytest.raises(anthropic.BadRequestError):
        client.messages.create(model="offline", max_tokens=10, messages=[])


def test_client_disconnect_mid_stream_keeps_server_alive() -> None:
    slow = ModelServer(pace_s=0.02).start()
    try:
        host, port = slow.url.removeprefix("http://").split(":")
        body = json.dumps(
            {
                "model": "m",
                "max_tokens": 100,
                "stream": True,
                "messages": [{"role": "user", "content": "반려동물 돌봄휴가는 며칠이야?"}],
            }
        )
        with socket.create_connection((host, int(port)), timeout=5) as sock:
            sock.sendall(
                f"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body.encode())}\r\n\r\n".encode()
                + body.encode()
            )
            received = b""
            while b"text_delta" not in received:
                chunk = sock.recv(4096)
                assert chunk, "stream ended before any text"
                received += chunk
            # closing here, mid-stream, makes the server's next write fail
        client = anthropic.Anthropic(api_key="x", base_url=slow.url, max_retries=0)
        reply = client.messages.create(
            model="m", max_tokens=50, messages=[{"role": "user", "content": QUESTION}]
        )
        assert reply.content
    finally:
        slow.stop()


def test_health(server: ModelServer) -> None:
    with urllib.request.urlopen(server.url + "/health", timeout=5) as resp:
        assert json.loads(resp.read())["status"] == "ok"


def test_pacing_is_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_pace(0.05) == 0.05
    monkeypatch.setenv(PACE_ENV, "30")
    assert resolve_pace(0.0) == 0.03
    srv = ModelServer(pace_s=0.5)
    try:
        assert srv.pace_s == 0.03
    finally:
        srv.stop()
