"""Proxies: loopback is always direct, other hosts honour HTTP(S)_PROXY and NO_PROXY.

Both HTTP stacks are checked over real sockets: ``requests`` (the platform
client) and ``httpx2`` (the model client). The "proxy" is a tiny recording HTTP
server on 127.0.0.1; a dead proxy is port 9 on loopback (nothing listens).
192.0.2.1 (TEST-NET-1) stands for a real, non-loopback endpoint: it is never
reached, only asked for through the proxy.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

import pytest

from agent_core.abortable_http import is_loopback_host, is_loopback_url
from agent_core.errors import PlatformNetworkError, PlatformTimeoutError
from agent_core.model_transport import AbortableHttpClient
from agent_core.platform_client import PlatformClient

if TYPE_CHECKING:
    from collections.abc import Iterator

DEAD_PROXY = "http://127.0.0.1:9"
REMOTE = "192.0.2.1"
PROXY_VARIABLES = (
    "http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
)  # fmt: skip


class Recorder:
    """An HTTP server answering every request with a login-shaped JSON body."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _answer(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                recorder.seen.append(self.path)
                body = json.dumps(
                    {"accessToken": "a", "refreshToken": "r", "isAdmin": False, "ok": True}
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = _answer
            do_POST = _answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    server = Recorder()
    yield server
    server.stop()


def _proxy_env(monkeypatch: pytest.MonkeyPatch, proxy: str, no_proxy: str | None = None) -> None:
    for name in PROXY_VARIABLES:
        monkeypatch.setenv(name, proxy)
    for name in ("no_proxy", "NO_PROXY"):
        if no_proxy is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, no_proxy)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("localhost", True),
        ("LOCALHOST.", True),
        ("app.localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("::ffff:127.0.0.1", True),
        ("10.0.0.1", False),
        ("192.0.2.1", False),
        ("ontul.example.com", False),
        ("localhost.example.com", False),
        ("", False),
        (None, False),
    ],
)
def test_loopback_hosts(host: str | None, loopback: bool) -> None:
    assert is_loopback_host(host) is loopback


def test_loopback_urls() -> None:
    assert is_loopback_url("http://127.0.0.1:8765/admin/auth/login")
    assert is_loopback_url("https://[::1]:443/x")
    assert not is_loopback_url("https://api.anthropic.com/v1/messages")
    assert not is_loopback_url("not a url")


def test_platform_client_on_loopback_ignores_a_dead_proxy(
    recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    _proxy_env(monkeypatch, DEAD_PROXY)
    client = PlatformClient(recorder.url, "hong", "pw", timeout=5)
    client.login()
    assert recorder.seen == ["/admin/auth/login"]  # origin-form: asked directly


def test_platform_client_sends_a_remote_platform_through_the_proxy(
    recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    _proxy_env(monkeypatch, recorder.url)
    client = PlatformClient(f"http://{REMOTE}:8080", "hong", "pw", timeout=5)
    client.login()
    assert recorder.seen == [f"http://{REMOTE}:8080/admin/auth/login"]  # absolute-form: proxied


def test_platform_client_honours_no_proxy(
    recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    _proxy_env(monkeypatch, recorder.url, no_proxy=REMOTE)
    client = PlatformClient(f"http://{REMOTE}:8080", "hong", "pw", timeout=1, connect_timeout=0.3)
    with pytest.raises((PlatformNetworkError, PlatformTimeoutError)):
        client.login()  # direct to an address nobody answers
    assert recorder.seen == []


def test_model_client_on_loopback_ignores_a_dead_proxy(
    recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    _proxy_env(monkeypatch, DEAD_PROXY)
    with AbortableHttpClient(timeout=5) as client:
        assert client.get(f"{recorder.url}/v1/models").status_code == 200
        local = recorder.url.replace("127.0.0.1", "localhost")
        assert client.get(f"{local}/v1/models").status_code == 200
    assert recorder.seen == ["/v1/models", "/v1/models"]


def test_model_client_sends_a_remote_endpoint_through_the_proxy(
    recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    _proxy_env(monkeypatch, recorder.url)
    with AbortableHttpClient(timeout=5) as client:
        assert client.post(f"http://{REMOTE}:8080/v1/messages", json={}).status_code == 200
    assert recorder.seen == [f"http://{REMOTE}:8080/v1/messages"]


def test_model_client_honours_no_proxy(recorder: Recorder, monkeypatch: pytest.MonkeyPatch) -> None:
    import httpx2

    _proxy_env(monkeypatch, recorder.url, no_proxy=REMOTE)
    with (
        AbortableHttpClient(timeout=httpx2.Timeout(1, connect=0.3)) as client,
        pytest.raises(httpx2.TransportError),
    ):
        client.post(f"http://{REMOTE}:8080/v1/messages", json={})
    assert recorder.seen == []


def test_model_client_with_a_socks_proxy_set_still_reaches_loopback(
    recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without socksio a SOCKS proxy cannot be honoured; it must not stop the app.
    _proxy_env(monkeypatch, "socks5://127.0.0.1:9")
    with AbortableHttpClient(timeout=5) as client:
        assert client.get(f"{recorder.url}/v1/models").status_code == 200
    assert recorder.seen == ["/v1/models"]
