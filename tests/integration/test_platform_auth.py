"""Auth hardening over real HTTP (issue 10 item 5).

* A login says nothing about which usernames exist: unknown user, wrong
  password and a disabled account answer the same 401 body.
* Repeated failures for one username are answered 429 for a while, whether or
  not the user exists; a success clears the count.
* Refresh tokens rotate; a spent refresh token presented again revokes its
  family (the successor stops working too), and a fresh login still works.
* The reference client's login flow and RegDesk's client (which keeps its first
  refresh token) keep working across token expiries.
"""

from __future__ import annotations

import sqlite3
import time
from datetime import date
from typing import TYPE_CHECKING, Any

import jwt
import pytest
import requests

from embedded.ontul.auth import LoginThrottle
from embedded.ontul.testing import call, copy_database, persona_password

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from embedded.ontul.server import OntulServer

SQL = {"sql": "SELECT 사번 FROM semantic.hr.employees"}


@pytest.fixture
def make_server(
    demo_database: tuple[Path, dict[str, Any]], tmp_path: Path
) -> Iterator[Callable[..., OntulServer]]:
    from embedded.ontul.server import OntulServer

    started: list[OntulServer] = []

    def make(**kwargs: Any) -> OntulServer:
        db = copy_database(demo_database[0], tmp_path / f"s{len(started)}")
        server = OntulServer(db, today=date.today(), **kwargs).start()
        started.append(server)
        return server

    for i in range(4):
        (tmp_path / f"s{i}").mkdir()
    yield make
    for server in started:
        server.stop()


def _login(server: OntulServer, user: str, password: str) -> requests.Response:
    return requests.post(
        f"{server.url}/admin/auth/login", json={"username": user, "password": password}, timeout=10
    )


def _refresh(server: OntulServer, token: str) -> requests.Response:
    return requests.post(
        f"{server.url}/admin/auth/refresh", json={"refreshToken": token}, timeout=10
    )


def test_every_login_failure_looks_the_same(make_server: Callable[..., OntulServer]) -> None:
    server = make_server()
    ok = _login(server, "hong", persona_password("hong"))
    assert ok.status_code == 200  # control
    with sqlite3.connect(server.db_path) as conn:
        conn.execute("UPDATE users SET active = 0 WHERE user_id = 'park'")
    answers = {
        "unknown user": _login(server, "no-such-user-7", "whatever"),
        "wrong password": _login(server, "hong", persona_password("hong") + "x"),
        "disabled, right password": _login(server, "park", persona_password("park")),
        "disabled, wrong password": _login(server, "park", "x"),
        "empty": _login(server, "", ""),
    }
    bodies = {what: (r.status_code, r.json()) for what, r in answers.items()}
    assert set(map(repr, bodies.values())) == {
        repr((401, {"error": "invalid username or password"}))
    }, bodies


def test_failed_logins_are_audited_as_deny(make_server: Callable[..., OntulServer]) -> None:
    server = make_server()
    _login(server, "hong", "wrong")
    admin = _login(server, "admin", persona_password("admin")).json()["accessToken"]
    resp = requests.get(
        f"{server.url}/admin/audit?action=auth:Login",
        headers={"Authorization": f"Bearer {admin}"},
        timeout=10,
    )
    rows = resp.json()["rows"]
    assert [r["decision"] for r in rows][:2] == ["ALLOW", "DENY"]
    assert rows[1]["userId"] == "hong" and rows[1]["reason"] == "invalid username or password"


def test_backoff_after_repeated_failures(make_server: Callable[..., OntulServer]) -> None:
    server = make_server(login_throttle=LoginThrottle(threshold=3, base_s=60.0, max_s=60.0))
    right = persona_password("hong")
    for _ in range(2):
        assert _login(server, "hong", "wrong").status_code == 401
    assert _login(server, "hong", right).status_code == 200  # a success clears the count
    for _ in range(3):
        assert _login(server, "hong", "wrong").status_code == 401
    paused = _login(server, "hong", right)
    assert paused.status_code == 429 and "try again" in paused.json()["error"]
    assert _login(server, "cho", persona_password("cho")).status_code == 200  # others unaffected
    for _ in range(3):  # a name that does not exist is paused the same way
        assert _login(server, "ghost", "wrong").status_code == 401
    assert _login(server, "ghost", "wrong").status_code == 429


def test_backoff_configuration() -> None:
    assert LoginThrottle.from_env("off").threshold == 0
    custom = LoginThrottle.from_env("4, 0.25, 2")
    assert (custom.threshold, custom.base_s, custom.max_s) == (4, 0.25, 2.0)
    with pytest.raises(ValueError, match="ONTUL_LOGIN_BACKOFF"):
        LoginThrottle.from_env("lots")
    off = LoginThrottle(threshold=0)
    for _ in range(50):
        off.failed("x")
    off.check("x")  # never raises


def test_refresh_tokens_rotate_and_reuse_revokes_the_family(
    make_server: Callable[..., OntulServer],
) -> None:
    server = make_server()
    first = _login(server, "hong", persona_password("hong")).json()
    r1 = _refresh(server, first["refreshToken"])
    assert r1.status_code == 200
    body = r1.json()
    assert set(body) == {"accessToken", "refreshToken"}
    assert body["refreshToken"] != first["refreshToken"]
    assert call(server.url, body["accessToken"], "/admin/query/execute", SQL).status_code == 200
    # the successor works once, then the original is presented again (a copied token)
    r2 = _refresh(server, body["refreshToken"])
    assert r2.status_code == 200
    reused = _refresh(server, first["refreshToken"])
    assert reused.status_code == 401 and "already used" in reused.json()["error"]
    latest = r2.json()["refreshToken"]
    revoked = _refresh(server, latest)
    assert revoked.status_code == 401 and "revoked" in revoked.json()["error"]
    claims = [
        jwt.decode(t, options={"verify_signature": False}) for t in (first["refreshToken"], latest)
    ]
    assert claims[0]["fam"] == claims[1]["fam"]
    # another login is another family and is unaffected
    again = _login(server, "hong", persona_password("hong")).json()
    assert _refresh(server, again["refreshToken"]).status_code == 200


def test_reference_login_shape(make_server: Callable[..., OntulServer]) -> None:
    server = make_server()
    body = _login(server, "cho", persona_password("cho")).json()
    assert {"accessToken", "refreshToken", "username", "isAdmin"} <= set(body)
    assert body["username"] == "cho" and body["isAdmin"] is False


def test_regdesk_client_survives_expiry_with_rotation(
    make_server: Callable[..., OntulServer],
) -> None:
    """RegDesk's client keeps its first refresh token: the second refresh is a reuse,
    which the platform refuses, and the client falls back to a fresh login."""
    from agent_core.platform_client import PlatformClient

    server = make_server(token_ttl_s=1)
    client = PlatformClient(server.url, "hong", persona_password("hong"))
    try:
        client.login()
        for _ in range(3):
            expires = jwt.decode(client._access or "", options={"verify_signature": False})["exp"]
            while time.time() <= expires:
                time.sleep(0.05)
            assert client.execute_sql(SQL["sql"])["rows"] == [["20170003"]]
    finally:
        client.close()
