"""The quirk mode each conformance stack runs in is really in effect.

Without this, a platform that ignored ``ONTUL_QUIRKS`` would run the "real"
column of every conformance table in the faithful mode and prove nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import requests
from conformance_facts import NO_MATCH_QUESTION

from agent_core.platform_quirks import EMPTY_SEARCH_QUIRK
from embedded.ontul.testing import login

if TYPE_CHECKING:
    from conftest import ConformanceStack


def test_empty_lexical_match_answers_as_the_quirk_mode_says(conformance: ConformanceStack) -> None:
    token = login(conformance.ontul_url, "hong", conformance.password("hong"))
    resp = requests.post(
        f"{conformance.ontul_url}/api/v1/retrievers/semantic.rag.regulation_search/invoke",
        json={"args": {"q": NO_MATCH_QUESTION, "k": 5}},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    body = resp.json()
    if conformance.quirks == "real":
        assert EMPTY_SEARCH_QUIRK in str(body.get("error")), body
    else:
        assert resp.status_code == 200 and body.get("rows") == [], body
