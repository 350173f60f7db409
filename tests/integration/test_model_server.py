"""The offline model over real HTTP, driven by the real ``anthropic`` SDK."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
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
    assert "조회 가능한 결과가 없습니다" in second.content[0].text  # type: ignore[union-attr]
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


# ── every malformed input is a 4xx JSON error in the Messages API's shape ────


def _raw(server: ModelServer, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes; return (status, headers, body) of the response."""
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = next(
                (int(line.split(b":")[1]) for line in head.split(b"\r\n")
                 if line.lower().startswith(b"content-length:")),
                None,
            )  # fmt: skip
            if length is not None and len(body) >= length:
                break
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, v in (ln.split(":", 1) for ln in lines[1:])}
    return status, headers, body


def _error_shape(body: bytes) -> dict[str, Any]:
    payload = json.loads(body)
    assert payload["type"] == "error" and payload["error"]["message"]
    assert payload["error"]["type"].endswith("_error") or payload["error"]["type"] == (
        "request_too_large"
    )
    return dict(payload["error"])


def _minimal(**extra: Any) -> bytes:
    body = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "x"}]}
    return json.dumps({**body, **extra}).encode()


def _conversation(*messages: dict[str, Any]) -> bytes:
    return json.dumps({"model": "m", "max_tokens": 10, "messages": list(messages)}).encode()


def _result(**block: Any) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "tool_result", **block}]}


_USE = {"type": "tool_use", "id": "t", "name": "q", "input": {"n": 10**300}}
BAD_BODIES = {
    "lone surrogate": b'{"model": "m", "max_tokens": 10, '
    b'"messages": [{"role": "user", "content": "\\ud800"}]}',
    "lone surrogate key": b'{"model": "m", "max_tokens": 10, "\\udc00": 1, "messages": []}',
    "surrogate bytes": b'{"model": "m", "max_tokens": 10, '
    b'"messages": [{"role": "user", "content": "\xed\xa0\x80"}]}',
    "huge integer": _minimal(max_tokens=10**400),
    "integer past the digit limit": b'{"model": "m", "max_tokens": ' + b"9" * 5000 + b"}",
    "huge integers in tool use and result": _conversation(
        {"role": "user", "content": "x"},
        {"role": "assistant", "content": [_USE]},
        _result(tool_use_id="t", content=10**300),
    ),
    "NaN": b'{"model": "m", "max_tokens": 10, "temperature": NaN, "messages": []}',
    "deep nesting": b"[" * 100_000,
    "deep object nesting": b'{"a":' * 5000 + b"1" + b"}" * 5000,
    "nesting past the limit in metadata": _minimal(metadata={"x": "NEST"}).replace(
        b'"NEST"', b"[" * 80 + b"]" * 80
    ),
    "not UTF-8": b'{"model": "\xff"}',
    "empty": b"",
    "tool result content a number": _conversation(_result(tool_use_id="t", content=5)),
    "tool result without id": _conversation(_result(content="x")),
    "tool result block without type": _conversation(
        _result(tool_use_id="t", content=[{"text": "x"}])
    ),
    "tool result is_error a string": _conversation(
        _result(tool_use_id="t", content="x", is_error="yes")
    ),
    "tool use input a list": _conversation(
        {"role": "user", "content": "x"},
        {"role": "assistant", "content": [{**_USE, "input": [1]}]},
    ),
    "text block without text": _conversation({"role": "user", "content": [{"type": "text"}]}),
    "system a number": _minimal(system=5),
    "tools without names": _minimal(tools=[{"description": "x"}]),
}


@pytest.mark.parametrize("body", list(BAD_BODIES.values()), ids=list(BAD_BODIES))
def test_malformed_bodies_are_4xx_json(server: ModelServer, body: bytes) -> None:
    head = (
        f"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    status, headers, payload = _raw(server, head + body)
    assert 400 <= status < 500, (status, payload[:200])
    assert headers["content-type"] == "application/json"
    assert _error_shape(payload)["type"] == "invalid_request_error"


def test_odd_but_valid_tool_results_are_answered(server: ModelServer) -> None:
    """What a real model reads: content blocks of any kind, empty, unmatched ids."""
    messages = [
        {"role": "user", "content": "HR-REG-003이 무슨 규정이야?"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "describe_regulation",
             "input": {"doc_no": "HR-REG-003"}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1",
             "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                      "data": "AAAA"}},
                         {"type": "text", "text": "{\"regulation\": [1, 2]}"}]},
            {"type": "tool_result", "tool_use_id": "nobody"},
        ]},
    ]  # fmt: skip
    status, payload = _post(
        server, json.dumps({"model": "m", "max_tokens": 50, "messages": messages}).encode()
    )
    assert status == 200 and payload["content"][0]["type"] == "text"


def test_oversized_body_is_413(server: ModelServer) -> None:
    head = b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n"
    status, _, payload = _raw(server, head)
    assert status == 413 and _error_shape(payload)["type"] == "request_too_large"


def test_chunked_body_is_411(server: ModelServer) -> None:
    head = b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    status, _, payload = _raw(server, head)
    assert status == 411 and _error_shape(payload)


_CLOSE = "Host: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
METHODS = ["PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "BREW"]


@pytest.mark.parametrize("method", METHODS)
def test_wrong_methods_are_405_json_with_allow(server: ModelServer, method: str) -> None:
    status, headers, payload = _raw(server, f"{method} /v1/messages HTTP/1.1\r\n{_CLOSE}".encode())
    assert status == 405 and headers["allow"] == "POST"
    assert _error_shape(payload)["type"] == "invalid_request_error"
    status, headers, _ = _raw(server, f"{method} /health HTTP/1.1\r\n{_CLOSE}".encode())
    assert status == 405 and headers["allow"] == "GET, HEAD"


def test_head_and_get_on_messages(server: ModelServer) -> None:
    close = _CLOSE.encode()
    status, headers, body = _raw(server, b"HEAD /v1/messages HTTP/1.1\r\n" + close)
    assert status == 405 and headers["allow"] == "POST" and body == b""
    status, headers, body = _raw(server, b"HEAD /health HTTP/1.1\r\n" + close)
    assert status == 200 and body == b""
    status, headers, payload = _raw(server, b"GET /v1/messages HTTP/1.1\r\n" + close)
    assert status == 405 and _error_shape(payload)


@pytest.mark.parametrize(
    "request_line",
    [b"GET /nowhere HTTP/1.1", b"POST /v1/other HTTP/1.1", b"GARBAGE", b"GET / HTTP/9.9"],
)
def test_unknown_routes_and_bad_request_lines_are_json(
    server: ModelServer, request_line: bytes
) -> None:
    status, headers, payload = _raw(server, request_line + b"\r\n" + _CLOSE.encode())
    assert 400 <= status < 500
    assert headers["content-type"] == "application/json" and _error_shape(payload)


# ── its own process ──────────────────────────────────────────────────────────


def test_the_model_serves_from_its_own_process(server: ModelServer) -> None:
    assert server.pid is not None and server.pid != os.getpid()


def test_the_model_process_ends_with_its_parent() -> None:
    code = (
        "import sys, time\n"
        "from embedded.model.server import ModelServer\n"
        "if __name__ == '__main__':\n"
        "    s = ModelServer().start()\n"
        "    print(s.pid, s.url, flush=True)\n"
        "    time.sleep(600)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        pid_text, url = parent.stdout.readline().split()
        child = int(pid_text)
        assert urllib.request.urlopen(url + "/health", timeout=10).status == 200
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 30
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(child), "the model process outlived its killed parent"
    finally:
        parent.kill()


def test_a_script_without_a_main_guard_can_start_the_model(tmp_path: Any) -> None:
    """The child must not re-run the parent's script (multiprocessing spawn would)."""
    script = tmp_path / "unguarded.py"
    script.write_text(
        "from embedded.model.server import ModelServer\n"
        "server = ModelServer().start()\n"
        "print('started', server.url, flush=True)\n"
        "server.stop()\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("started") == 1


def test_the_frozen_builds_way_of_starting_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The frozen build starts the model with multiprocessing spawn (no ``-c`` there)."""
    from embedded.model import child as child_module

    launched: list[str] = []
    spawned = child_module.ModelChild._start_spawned

    def record(self: Any, options: str, timeout_s: float) -> Any:
        launched.append("spawn")
        return spawned(self, options, timeout_s)

    monkeypatch.setattr(child_module.ModelChild, "_start_bootstrapped", record)
    srv = ModelServer().start()
    try:
        assert launched == ["spawn"] and srv.pid != os.getpid()
        with urllib.request.urlopen(srv.url + "/health", timeout=10) as resp:
            assert resp.status == 200
    finally:
        srv.stop()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped by init) counts as gone
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False
