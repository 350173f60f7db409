"""Client retry and error logic against a tiny real HTTP server (status behaviour only)."""

from __future__ import annotations

import datetime as dt
import ipaddress
import json
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

import pytest

from agent_core.errors import (
    PlatformAuthError,
    PlatformForbiddenError,
    PlatformNetworkError,
    PlatformTimeoutError,
)
from agent_core.platform_client import PlatformClient

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


class Script:
    """What the fake platform answers, and what it saw."""

    def __init__(self) -> None:
        self.data_401s = 0
        self.refresh_ok = True
        self.login_ok = True
        self.seen: list[tuple[str, str | None]] = []
        self.tokens = 0
        self.body: dict[str, Any] = {"columns": [], "rows": [], "rowCount": 0}
        self.release = threading.Event()
        self.stall = False


def _server(script: Script, tls: ssl.SSLContext | None = None) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _send(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            auth = self.headers.get("Authorization")
            script.seen.append((self.path, auth))
            if self.path == "/admin/auth/login":
                if not script.login_ok:
                    return self._send(401, {"error": "invalid credentials"})
                script.tokens += 1
                return self._send(
                    200,
                    {"accessToken": f"a{script.tokens}", "refreshToken": "r", "isAdmin": False},
                )
            if self.path == "/admin/auth/refresh":
                if not script.refresh_ok:
                    return self._send(401, {"error": "refresh token expired"})
                script.tokens += 1
                return self._send(200, {"accessToken": f"a{script.tokens}"})
            if script.stall:
                script.release.wait(10)
                return
            if script.data_401s > 0:
                script.data_401s -= 1
                return self._send(401, {"error": "token expired"})
            return self._send(200, script.body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    return server


@pytest.fixture
def fake() -> Iterator[tuple[Script, str]]:
    script = Script()
    server = _server(script)
    try:
        yield script, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        script.release.set()
        server.shutdown()
        server.server_close()


def _self_signed(directory: Path) -> tuple[Path, Path]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@pytest.fixture
def fake_tls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Script, str]]:
    cert, key = _self_signed(tmp_path)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(cert))  # the client trusts this cert only
    script = Script()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server = _server(script, context)
    try:
        yield script, f"https://127.0.0.1:{server.server_address[1]}"
    finally:
        script.release.set()
        server.shutdown()
        server.server_close()


def test_401_then_refresh_then_retry_succeeds(fake: tuple[Script, str]) -> None:
    script, url = fake
    client = PlatformClient(url, "hong", "pw")
    client.login()
    script.data_401s = 1
    script.body = {"columns": ["doc_no"], "rows": [["HR-REG-003"]], "rowCount": 1}
    out = client.invoke_retriever("semantic.rag.regulation_search", {"q": "x"})
    assert out["rows"] == [["HR-REG-003"]]
    paths = [p for p, _ in script.seen]
    assert paths == [
        "/admin/auth/login",
        "/api/v1/retrievers/semantic.rag.regulation_search/invoke",
        "/admin/auth/refresh",
        "/api/v1/retrievers/semantic.rag.regulation_search/invoke",
    ]
    assert script.seen[-1][1] == "Bearer a2"


def test_refresh_refused_falls_back_to_login(fake: tuple[Script, str]) -> None:
    script, url = fake
    client = PlatformClient(url, "hong", "pw")
    client.login()
    script.data_401s = 1
    script.refresh_ok = False
    client.query_objects("reg.ontology.Regulation", filters={"doc_no": "HR-REG-003"})
    paths = [p for p, _ in script.seen]
    assert paths[-3:] == [
        "/admin/auth/refresh",
        "/admin/auth/login",
        "/api/v1/object-types/reg.ontology.Regulation/query",
    ]


def test_second_401_is_an_auth_error_not_an_empty_result(fake: tuple[Script, str]) -> None:
    script, url = fake
    client = PlatformClient(url, "hong", "pw")
    client.login()
    script.data_401s = 2
    with pytest.raises(PlatformAuthError, match="token expired"):
        client.traverse_link("reg.ontology.derives_from", "HR-GDL-003")
    assert sum(1 for p, _ in script.seen if p.endswith("/traverse")) == 2


def test_bad_credentials_raise_auth_error_with_server_message(fake: tuple[Script, str]) -> None:
    script, url = fake
    script.login_ok = False
    with pytest.raises(PlatformAuthError, match="invalid credentials"):
        PlatformClient(url, "hong", "wrong").login()


def test_sql_error_status_is_classified_and_carries_message(fake: tuple[Script, str]) -> None:
    script, url = fake
    client = PlatformClient(url, "hong", "pw")
    script.body = {"status": "error", "error": "access denied: column 주민등록번호"}
    with pytest.raises(PlatformForbiddenError, match="주민등록번호"):
        client.execute_sql("SELECT 주민등록번호 FROM semantic.hr.employees")


def test_hybrid_search_quirk_means_zero_rows(fake: tuple[Script, str]) -> None:
    script, url = fake
    client = PlatformClient(url, "hong", "pw")
    script.body = {"error": 'SQL parse error: Encountered "WHERE" at line 1, column 80.'}
    out = client.invoke_retriever("semantic.rag.regulation_search", {"q": "반려동물"})
    assert out["rows"] == [] and out["rowCount"] == 0


def test_epoch_day_dates_arrive_as_iso(fake: tuple[Script, str]) -> None:
    script, url = fake
    client = PlatformClient(url, "hong", "pw")
    script.body = {
        "status": "ok",
        "columns": [{"name": "effective_from", "type": "DATE"}, {"name": "n", "type": "INT"}],
        "rows": [[20162, 20162]],
        "rowCount": 1,
    }
    assert client.execute_sql("SELECT 1")["rows"] == [["2025-03-15", 20162]]


def test_epoch_days_as_digit_strings_in_retriever_and_link_rows_arrive_as_iso(
    fake: tuple[Script, str],
) -> None:
    script, url = fake
    client = PlatformClient(url, "hong", "pw")
    script.body = {
        "columns": ["doc_no", "version", "effective_from", "effective_to"],
        "rows": [["HR-REG-003", 3, "20162", 20809], ["HR-REG-003", 4, 20809, None]],
    }
    expected = [
        ["HR-REG-003", 3, "2025-03-15", "2026-12-22"],
        ["HR-REG-003", 4, "2026-12-22", None],
    ]
    assert client.invoke_retriever("semantic.rag.regulation_search", {"q": "x"})["rows"] == expected
    assert client.traverse_link("reg.ontology.has_version", "HR-REG-003")["rows"] == expected


def test_stalled_platform_times_out(fake: tuple[Script, str]) -> None:
    script, url = fake
    client = PlatformClient(url, "hong", "pw", timeout=0.3)
    client.login()
    script.stall = True
    with pytest.raises(PlatformTimeoutError):
        client.execute_sql("SELECT 1")


def test_unreachable_platform_is_a_network_error() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(PlatformNetworkError):
        PlatformClient(f"http://127.0.0.1:{port}", "hong", "pw", timeout=1).login()


def _abort_blocked_call(script: Script, url: str) -> None:
    client = PlatformClient(url, "hong", "pw", timeout=30)
    client.login()
    script.stall = True
    errors: list[Exception] = []

    def call() -> None:
        try:
            client.execute_sql("SELECT 1")
        except Exception as exc:
            errors.append(exc)

    worker = threading.Thread(target=call)
    worker.start()
    # wait until the request is on the wire (the server has seen it)
    while not any(p == "/admin/query/execute" for p, _ in script.seen):
        script.release.wait(0.01)
    client.abort()
    worker.join(5)
    assert not worker.is_alive()
    assert errors and isinstance(errors[0], PlatformNetworkError)


def test_abort_ends_a_blocked_call_from_another_thread(fake: tuple[Script, str]) -> None:
    _abort_blocked_call(*fake)


def test_abort_ends_a_blocked_call_over_https(fake_tls: tuple[Script, str]) -> None:
    script, url = fake_tls
    client = PlatformClient(url, "hong", "pw", timeout=30)
    assert client.login()["accessToken"] == "a1"  # TLS works end to end
    _abort_blocked_call(script, url)


@pytest.mark.parametrize("scheme", ["http://", "https://"])
def test_both_schemes_use_the_abortable_adapter(scheme: str) -> None:
    from agent_core.abortable_http import AbortableAdapter as _AbortableAdapter

    client = PlatformClient("https://platform.example", "hong", "pw")
    adapter = client._session.get_adapter(scheme + "platform.example/x")
    assert isinstance(adapter, _AbortableAdapter)
    pool_cls = adapter.poolmanager.pool_classes_by_scheme[scheme.rstrip(":/")]
    conn_cls = pool_cls.ConnectionCls
    assert getattr(conn_cls, "registry", None) is adapter.connections


def test_today_falls_back_to_the_local_date_when_the_platform_does_not_say(
    fake: tuple[Script, str],
) -> None:
    _, url = fake
    client = PlatformClient(url, "hong", "pw")
    client.invoke_retriever("semantic.rag.regulation_search", {"q": "x"})
    assert not client.today_known  # a real Ontul sends no asOf
    assert client.today() == dt.date.today()


def test_today_is_learned_from_asof_but_not_from_an_explicit_as_of(
    fake: tuple[Script, str],
) -> None:
    script, url = fake
    client = PlatformClient(url, "hong", "pw")
    script.body = {"columns": [], "rows": [], "rowCount": 0, "asOf": "2020-02-02"}
    client.invoke_retriever("semantic.rag.regulation_search", {"q": "x", "as_of": "2020-02-02"})
    assert not client.today_known  # that was the requested date, not the platform's today
    script.body = {"columns": [], "rows": [], "rowCount": 0, "asOf": "2025-06-01"}
    data = client.invoke_retriever("semantic.rag.regulation_search", {"q": "x"})
    assert data["asOf"] == "2025-06-01"
    assert client.today() == dt.date(2025, 6, 1)
