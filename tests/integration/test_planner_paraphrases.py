"""The extra scenario suites (paraphrases, English, other personas and documents).

Same runner as the public suites (``agent_core.scenarios``): SDK → offline model
over HTTP → tool runtime → embedded platform over HTTP, figures from ground truth.
The cases live in ``tests/scenarios/extra``; they are variants of the public
kinds that the planner must answer without having seen them.

Many of them name dates the way people do ('12월 23일 이후엔', 'next month',
'이번 달 말에'), and what those mean against the demo data depends on the day:
the approved childcare revision takes effect 21 days after the platform's
today. The public suites are written with ``${...}`` placeholders and run on
the real clock; these run on a platform whose clock is set to the day they
were written for, so that a case reads the same on every day CI runs it.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml

from agent_core.scenarios import load_cases, run_case
from tests.integration.conftest import start_stack

if TYPE_CHECKING:
    from collections.abc import Iterator

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

# The platform day the extra cases' dates were written against.
WRITTEN_FOR = date(2026, 12, 2)


@pytest.fixture(scope="module")
def stack(pristine_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The embedded services with the platform's clock on ``WRITTEN_FOR``."""
    running = start_stack(
        pristine_data_dir, tmp_path_factory.mktemp("agent-extra"), today=WRITTEN_FOR
    )
    yield running
    running.services.stop()


@pytest.fixture(scope="module")
def ledger(stack: Stack, ledger_of: Any) -> Any:
    return ledger_of(stack.db_path)


def test_the_platform_runs_on_the_day_the_cases_were_written_for(stack: Stack) -> None:
    assert stack.truth["today"] == WRITTEN_FOR.isoformat()


def test_extra_suites_are_substantial() -> None:
    assert len(CASE_IDS) >= 40


@pytest.mark.parametrize(("path", "case_id"), CASE_IDS, ids=[f"{p.stem}/{c}" for p, c in CASE_IDS])
def test_paraphrase_case(path: Path, case_id: str, stack: Stack, ledger: Any) -> None:
    case = next(c for c in load_cases([path], stack.truth) if c.id == case_id)
    result = run_case(case, stack.endpoints, stack.truth, ledger)
    assert result.passed, f"{result.line()}\nanswer: {result.answer}\ntools: {result.tools}"


# Known gaps from the blind sets (issue 13): kept as strict xfails, so a fix shows
# up as an XPASS to promote into tests/scenarios/extra.
KNOWN_GAPS = """
suite: x_known_gaps
as: hong
cases:
  - id: gap_printed_date_named
    ask: >-
      3차 개정 부칙에 2025-01-01 시행이라고 써 있던데,
      그럼 2025년 1월 1일에 육아휴직 며칠까지 쓸 수 있었던 거야?
    expect: {contains: ["${childcare.superseded_days}일", "${childcare.current_effective}"]}
  - id: gap_eligibility_by_age
    ask: My daughter is 9 and in third grade. Can I still take childcare leave for her?
    expect: {contains_pattern: "8세|age 8", contains: ["2학년"]}
  - id: gap_mismatch_across_documents
    as: park
    ask: >-
      Are there any regulations where the date printed in the document
      differs from the actual approval date?
    expect: {contains: ["${childcare.doc_no}", "${childcare.current_stated}"]}
  - id: gap_restricted_list
    as: cho
    ask: 대외비로 지정된 사규 전부 알려줘
    expect: {contains: ["HR-GDL-003", "HR-GDL-004", "FIN-GDL-004"]}
  # Blind set 3 and this session's probes, still open.
  - id: gap_side_business_paraphrase
    as: park
    ask: 팀원이 주말에 개인 쇼핑몰을 운영해도 규정상 괜찮아?
    expect: {contains: ["겸직", "허가"]}
  - id: gap_second_part_loses_the_trip
    ask: What's the hotel cap in Busan and when must I file the expense settlement?
    expect: {contains: ["90,000", "2주"]}
"""


def _gap_ids() -> list[str]:
    return [str(c["id"]) for c in yaml.safe_load(KNOWN_GAPS)["cases"]]


@pytest.mark.xfail(strict=True, reason="known gap of the offline planner (issue 13 blind sets)")
@pytest.mark.parametrize("case_id", _gap_ids())
def test_known_gap(case_id: str, stack: Stack, ledger: Any, tmp_path: Path) -> None:
    path = tmp_path / "gaps.yaml"
    path.write_text(KNOWN_GAPS, encoding="utf-8")
    case = next(c for c in load_cases([path], stack.truth) if c.id == case_id)
    result = run_case(case, stack.endpoints, stack.truth, ledger)
    assert result.passed, f"{result.line()}\nanswer: {result.answer}"
