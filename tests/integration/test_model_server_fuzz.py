"""A bounded fuzz of the offline model over real HTTP: no input gets a 5xx.

Bodies are valid Messages requests with one field (top level, in a message, in
a block, in a tool result) replaced by arbitrary JSON, or arbitrary bytes.
Hypothesis runs derandomized, so the same requests go out on every run.
"""

from __future__ import annotations

import http.client
import json
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from embedded.model.server import ModelServer

if TYPE_CHECKING:
    from collections.abc import Iterator

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=("Cs",)), max_size=40),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    ["model", "max_tokens", "messages", "system", "tools", "stream", "thread", "thinking",
     "output_config", "metadata", "stop_sequences", "tool_choice", "temperature", "top_k",
     "service_tier", "mcp_servers", "container", "surprise"]
)  # fmt: skip
BLOCK_FIELDS = st.sampled_from(["type", "tool_use_id", "content", "is_error", "text", "id"])
FUZZ = settings(
    max_examples=250,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _base() -> dict[str, Any]:
    return {
        "model": "m",
        "max_tokens": 64,
        "tools": [{"name": "query_hr", "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": "나 육아휴직 며칠 남았어?"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "query_hr", "input": {}}],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "사번 | 성명"}],
            },
        ],
    }


@pytest.fixture(scope="module")
def server() -> Iterator[ModelServer]:
    srv = ModelServer().start()
    yield srv
    srv.stop()


def _status(
    server: ModelServer, body: bytes, method: str = "POST", path: str = "/v1/messages"
) -> int:
    host, port = server.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        payload = resp.read()
        if method != "HEAD" and resp.status >= 400:
            assert json.loads(payload)["type"] == "error"
        return resp.status
    finally:
        conn.close()


@FUZZ
@given(FIELDS, JSON)
def test_any_top_level_value_is_never_5xx(server: ModelServer, field: str, value: Any) -> None:
    body = {**_base(), field: value}
    assert _status(server, json.dumps(body).encode()) < 500


@FUZZ
@given(st.integers(0, 2), BLOCK_FIELDS, JSON)
def test_any_block_value_is_never_5xx(
    server: ModelServer, index: int, field: str, value: Any
) -> None:
    body = _base()
    message = body["messages"][index]
    if isinstance(message["content"], str):
        message["content"] = [{"type": "text", "text": message["content"]}]
    message["content"][0][field] = value
    assert _status(server, json.dumps(body).encode()) < 500


@FUZZ
@given(st.binary(max_size=300))
def test_any_bytes_are_never_5xx(server: ModelServer, raw: bytes) -> None:
    assert _status(server, raw) < 500


@FUZZ
@given(
    st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]),
    st.sampled_from(["/v1/messages", "/v1/messages?beta=true", "/health", "/", "/v1", "/x%00"]),
)
def test_any_method_and_path_is_never_5xx(server: ModelServer, method: str, path: str) -> None:
    assert _status(server, b"{}", method, path) < 500
