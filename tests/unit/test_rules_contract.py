"""The stand-ins' copies of the domain rules agree with agent_core.rules.

``embedded`` may not import ``agent_core``, so the offline model and the
platform keep their own copies of the document-number pattern and the
in-force rule; this test pins each copy to the one definition.
"""

from __future__ import annotations

import pytest

from agent_core import rules
from embedded.model import entities, results
from embedded.ontul import dates

SAMPLES = [
    ("HR-REG-003", True),
    ("FIN-GDL-001", True),
    ("GEN-RUL-010", True),
    ("HR-REG-03", False),
    ("HR-REG-0033", False),
    ("hr-reg-003", False),
    ("HRXX-REGX-003", True),
    ("H-REG-003", False),
]


@pytest.mark.parametrize(("text", "valid"), SAMPLES)
def test_document_number_definition(text: str, valid: bool) -> None:
    assert rules.is_doc_no(text) is valid
    in_text = f"근거: {text} 제3차."
    assert bool(rules.DOC_NO_RE.search(in_text)) is valid
    for copy in (entities._DOC_NO, results.DOC_NO):
        assert bool(copy.search(in_text)) is valid, copy.pattern


@pytest.mark.parametrize(
    ("start", "end", "on"),
    [
        ("2023-07-01", "2025-03-15", "2025-03-14"),
        ("2023-07-01", "2025-03-15", "2025-03-15"),
        ("2023-07-01", "2025-03-15", "2023-07-01"),
        ("2023-07-01", "2025-03-15", "2023-06-30"),
        ("2025-03-15", None, "2030-01-01"),
        (None, None, "2025-01-01"),
    ],
)
def test_in_force_definition(start: str | None, end: str | None, on: str) -> None:
    expected = rules.in_force(start, end, on)
    assert dates.in_force(start, end, on) is expected
    # the exclusive end, spelled out once more so the definition itself is pinned
    if start and end:
        assert expected is (start <= on < end)


def test_a_turn_allows_every_round_the_offline_planner_may_plan() -> None:
    from agent_core.turn import TurnLimits
    from embedded.model import planner

    assert TurnLimits().max_iterations >= planner._MAX_ROUNDS + 1  # the rounds, then the answer
