"""Token renewal against the embedded platform, which rotates refresh tokens."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from agent_core.platform_client import PlatformClient
from embedded.ontul.testing import persona_password

if TYPE_CHECKING:
    from embedded.ontul.server import OntulServer


def test_concurrent_renewals_spend_the_refresh_token_once(
    ontul_server: OntulServer, ground_truth: dict[str, Any]
) -> None:
    """Eight threads meet a 401 at once: one renewal, the family stays valid, all succeed."""
    client = PlatformClient(ontul_server.url, "hong", persona_password("hong", ground_truth))
    try:
        client.login()
        logins: list[str] = []
        login = client.login

        def counted_login() -> dict[str, Any]:
            logins.append("login")
            return login()

        client.login = counted_login  # type: ignore[method-assign]
        client._access = "expired-or-forged"  # every thread's next call meets a 401
        barrier = threading.Barrier(8)
        counts: list[int] = []
        errors: list[BaseException] = []

        def work() -> None:
            try:
                barrier.wait(timeout=10)
                counts.append(
                    len(client.execute_sql("SELECT 사번 FROM semantic.hr.leave_balance")["rows"])
                )
            except BaseException as exc:  # reported below
                errors.append(exc)

        threads = [threading.Thread(target=work) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert errors == [] and len(counts) == 8 and len(set(counts)) == 1
        # renewed by one refresh: no second use of a spent token revoked the family
        # and forced a fresh login with the password
        assert logins == []
        assert client.refresh() is True
    finally:
        client.close()
