"""Every public scenario case through the real stack.

SDK → offline model over HTTP → tool runtime → embedded platform over HTTP.
Expected figures come from ground truth; nothing is typed twice.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml

from agent_core.scenarios import load_cases, run_case

if TYPE_CHECKING:
    from tests.integration.conftest import Stack

SCENARIO_DIR = Path(__file__).resolve().parents[1] / "scenarios"
FILES = sorted(SCENARIO_DIR.glob("*.yaml"))


def _case_ids() -> list[tuple[Path, str]]:
    ids = []
    for path in FILES:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        ids.extend((path, str(case["id"])) for case in doc["cases"])
    return ids


@pytest.fixture(scope="module")
def ledger(stack: Stack, ledger_of: Any) -> Any:
    return ledger_of(stack.db_path)


@pytest.mark.parametrize(
    ("path", "case_id"), _case_ids(), ids=[f"{p.stem}/{c}" for p, c in _case_ids()]
)
def test_scenario_case(path: Path, case_id: str, stack: Stack, ledger: Any) -> None:
    case = next(c for c in load_cases([path], stack.truth) if c.id == case_id)
    result = run_case(case, stack.endpoints, stack.truth, ledger)
    assert result.passed, f"{result.line()}\nanswer: {result.answer}\ntools: {result.tools}"
