"""The extra scenario suites (paraphrases, English, other personas and documents).

Same runner as the public suites (``agent_core.scenarios``): SDK → offline model
over HTTP → tool runtime → embedded platform over HTTP, figures from ground truth.
The cases live in ``tests/scenarios/extra``; they are variants of the public
kinds that the planner must answer without having seen them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml

from agent_core.scenarios import load_cases, run_case

if TYPE_CHECKING:
    from tests.integration.conftest import Stack

EXTRA_DIR = Path(__file__).resolve().parents[1] / "scenarios" / "extra"
FILES = sorted(EXTRA_DIR.glob("*.yaml"))


def _case_ids() -> list[tuple[Path, str]]:
    ids = []
    for path in FILES:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        ids.extend((path, str(case["id"])) for case in doc["cases"])
    return ids


CASE_IDS = _case_ids()


@pytest.fixture(scope="module")
def ledger(stack: Stack, ledger_of: Any) -> Any:
    return ledger_of(stack.db_path)


def test_extra_suites_are_substantial() -> None:
    assert len(CASE_IDS) >= 40


@pytest.mark.parametrize(("path", "case_id"), CASE_IDS, ids=[f"{p.stem}/{c}" for p, c in CASE_IDS])
def test_paraphrase_case(path: Path, case_id: str, stack: Stack, ledger: Any) -> None:
    case = next(c for c in load_cases([path], stack.truth) if c.id == case_id)
    result = run_case(case, stack.endpoints, stack.truth, ledger)
    assert result.passed, f"{result.line()}\nanswer: {result.answer}\ntools: {result.tools}"
