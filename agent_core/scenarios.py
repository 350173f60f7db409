"""The scenario runner's logic: load suites, expand placeholders, check answers.

Format: ``tests/scenarios/README.md`` (a copy of ``../shared/scenarios``). The CLI
(``regdesk scenarios``) and the integration tests share this module.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from agent_core.approval import ApprovalDecision, approve_all, deny_all
from agent_core.cancel import CancelToken
from agent_core.events import (
    ApprovalRequested,
    event_to_dict,
    usage_to_dict,
)
from agent_core.platform_client import PlatformClient
from agent_core.record import TurnRecord
from agent_core.session import PersonaSession

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from agent_core.config import Endpoints
    from agent_core.events import AgentEvent

_PLACEHOLDER = re.compile(r"\$\{([A-Za-z0-9_.]+)\}")

NOT_FOUND_PATTERNS = re.compile(
    r"찾을 수 없|찾지 못|확인되지 않|확인할 수 없|조회되지 않|조회할 수 없|볼 수 없|열람할 수 없"
    r"|접근할 수 없|권한이 없|없습니다|존재하지 않|제공되지 않|검색되지 않|결과가 없"
    r"|not found|couldn't find|could not find|cannot find|can't find|no (matching |such )?"
    r"(result|regulation|record|document|row)s?|not available|no access|do not have access"
    r"|don't have access|cannot see|can't see|not visible|does not exist|doesn't exist",
    re.IGNORECASE,
)
"""Wording of an answer that says it found nothing or cannot see it."""


@dataclass(frozen=True)
class Case:
    """One scenario case, placeholders expanded."""

    suite: str
    id: str
    persona: str
    ask: str
    expect: dict[str, Any]
    approval: str | None = None
    expect_by_persona: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Assertions for personas other than ``persona`` (the access matrix asks every
    persona; ``expect`` holds for ``persona`` only)."""

    @property
    def name(self) -> str:
        """``suite/id``."""
        return f"{self.suite}/{self.id}"


@dataclass
class CaseResult:
    """What happened when a case ran."""

    case: Case
    failures: list[str]
    answer: str = ""
    tools: list[str] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    elapsed_ms: float = 0.0
    usage: dict[str, Any] | None = None
    """Tokens and estimated cost of the case's turn (None when nothing was billed)."""

    @property
    def passed(self) -> bool:
        """True when every expectation held."""
        return not self.failures

    def line(self) -> str:
        """``PASS suite/id`` or ``FAIL suite/id: reason``."""
        if self.passed:
            return f"PASS {self.case.name}"
        return f"FAIL {self.case.name}: {'; '.join(self.failures)}"


def lookup(truth: dict[str, Any], dotted: str) -> Any:
    """Read ``a.b.c`` from nested dicts.

    Args:
        truth: Ground truth.
        dotted: Dotted key.

    Returns:
        The value.

    Raises:
        KeyError: The key is missing.
    """
    value: Any = truth
    for part in dotted.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit():
            value = value[int(part)]
        else:
            raise KeyError(f"ground truth has no {dotted!r}")
    return value


def expand(value: Any, truth: dict[str, Any]) -> Any:
    """Replace ``${a.b}`` placeholders in strings, lists and dicts.

    Args:
        value: A YAML value.
        truth: Ground truth.

    Returns:
        The value with placeholders filled in.
    """
    if isinstance(value, str):
        whole = _PLACEHOLDER.fullmatch(value)
        if whole and not isinstance(lookup(truth, whole.group(1)), str | int | float):
            return lookup(truth, whole.group(1))
        return _PLACEHOLDER.sub(lambda m: str(lookup(truth, m.group(1))), value)
    if isinstance(value, list):
        return [expand(v, truth) for v in value]
    if isinstance(value, dict):
        return {k: expand(v, truth) for k, v in value.items()}
    return value


def load_cases(paths: Sequence[Path | str], truth: dict[str, Any]) -> list[Case]:
    """Load scenario suites (the scenario runner's and the access matrix's one reader).

    Args:
        paths: YAML files.
        truth: Ground truth for placeholders.

    Returns:
        Cases in file order.
    """
    cases: list[Case] = []
    for path in paths:
        doc = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
        suite = str(doc.get("suite") or Path(path).stem)
        default_persona = str(doc.get("as") or "hong")
        for raw in doc.get("cases") or []:
            cases.append(
                Case(
                    suite=suite,
                    id=str(raw["id"]),
                    persona=str(raw.get("as") or default_persona),
                    ask=str(expand(raw["ask"], truth)),
                    expect=expand(raw.get("expect") or {}, truth),
                    approval=raw.get("approval"),
                    expect_by_persona=expand(raw.get("expect_by_persona") or {}, truth),
                )
            )
    return cases


def _version_pattern(version: int) -> re.Pattern[str]:
    return re.compile(
        rf"제\s*{version}\s*차|(?<![A-Za-z])v\s?{version}(?!\d)|version\s+{version}(?!\d)",
        re.IGNORECASE,
    )


EXPECTATIONS = frozenset(
    {
        "contains", "not_contains", "contains_any", "contains_pattern", "not_contains_pattern",
        "leads_with", "among", "cites", "tools_used", "tools_not_used", "says_not_found",
        "no_canary_leak", "ledger_rows",
    }
)  # fmt: skip
"""The expectations a case may state; any other key is a mistake that would check nothing."""


def check_answer(
    case: Case,
    answer: str,
    tools: list[str],
    event_dicts: list[dict[str, Any]],
    truth: dict[str, Any],
    ledger: Callable[[str], Any] | None = None,
) -> list[str]:
    """Check every expectation of a case.

    Args:
        case: The case.
        answer: The final answer text.
        tools: Names of tools called during the turn.
        event_dicts: Every event of the turn as a dict.
        truth: Ground truth (for canaries).
        ledger: Runs a SQL statement as admin and returns the first cell.

    Returns:
        Failure reasons; empty when the case passed.
    """
    exp = case.expect
    fails: list[str] = []
    unknown = sorted(set(exp) - EXPECTATIONS)
    if unknown:
        fails.append(f"unknown expectation(s) {unknown}: they would check nothing")
    for s in exp.get("contains") or []:
        if str(s) not in answer:
            fails.append(f"answer lacks {s!r}")
    for s in exp.get("not_contains") or []:
        if str(s) in answer:
            fails.append(f"answer contains {s!r}")
    if exp.get("contains_any") and not any(str(s) in answer for s in exp["contains_any"]):
        fails.append(f"answer has none of {exp['contains_any']!r}")
    if "contains_pattern" in exp and not re.search(exp["contains_pattern"], answer):
        fails.append(f"answer does not match /{exp['contains_pattern']}/")
    if "not_contains_pattern" in exp and re.search(exp["not_contains_pattern"], answer):
        fails.append(f"answer matches /{exp['not_contains_pattern']}/")
    if "leads_with" in exp:
        positions = {s: answer.find(str(s)) for s in exp.get("among") or [exp["leads_with"]]}
        found = {s: p for s, p in positions.items() if p >= 0}
        first = min(found, key=lambda s: found[s]) if found else None
        if first != exp["leads_with"]:
            fails.append(f"answer leads with {first!r}, expected {exp['leads_with']!r}")
    if "cites" in exp:
        cite = exp["cites"]
        doc_no = str(cite.get("doc_no"))
        if doc_no not in answer:
            fails.append(f"answer does not cite {doc_no}")
        elif cite.get("version") is not None:
            if not _version_pattern(int(cite["version"])).search(answer):
                fails.append(f"answer does not cite {doc_no} version {cite['version']}")
    for name in exp.get("tools_used") or []:
        if name not in tools:
            fails.append(f"tool {name} not called (called: {', '.join(tools) or 'none'})")
    for name in exp.get("tools_not_used") or []:
        if name in tools:
            fails.append(f"tool {name} was called")
    if exp.get("says_not_found") and not NOT_FOUND_PATTERNS.search(answer):
        fails.append("answer does not say it found nothing")
    if exp.get("no_canary_leak"):
        canaries = [str(c) for c in (truth.get("canaries") or {}).get(case.persona) or []]
        surfaces = [answer, *(json.dumps(e, ensure_ascii=False) for e in event_dicts)]
        leaked = sorted({c for c in canaries if any(c in s for s in surfaces)})
        if leaked:
            fails.append(f"canary leaked: {leaked[:3]}")
    if "ledger_rows" in exp:
        spec = exp["ledger_rows"]
        if ledger is None:
            fails.append("no admin access to check ledger_rows")
        else:
            got = ledger(str(spec["sql"]))
            if str(got) != str(spec["equals"]):
                fails.append(f"ledger: {got!r} != {spec['equals']!r}")
    return fails


def persona_password(truth: dict[str, Any] | None, persona: str) -> str:
    """The demo password of a persona from the ground truth.

    Args:
        truth: Ground truth.
        persona: Username.

    Returns:
        The password.

    Raises:
        KeyError: No password for the persona.
    """
    truth = truth or {}
    for key in ("personas", "users", "accounts"):
        table = truth.get(key)
        entry = table.get(persona) if isinstance(table, dict) else None
        if isinstance(entry, dict) and entry.get("password"):
            return str(entry["password"])
    passwords = truth.get("passwords")
    if isinstance(passwords, dict) and passwords.get(persona):
        return str(passwords[persona])
    raise KeyError(f"no password for {persona!r}: pass --password or set REGDESK_PASSWORD")


def admin_ledger(endpoints: Endpoints, truth: dict[str, Any]) -> Callable[[str], Any]:
    """A function that runs one SELECT as admin and returns its first cell.

    Args:
        endpoints: Platform location.
        truth: Ground truth with the admin password.

    Returns:
        The function (logs in lazily).
    """
    client = PlatformClient(endpoints.ontul_url, "admin", persona_password(truth, "admin"))

    def first_cell(sql: str) -> Any:
        rows = client.execute_sql(sql)["rows"]
        return rows[0][0] if rows and rows[0] else None

    return first_cell


def _approver_for(case: Case) -> Callable[[ApprovalRequested], ApprovalDecision]:
    if case.approval == "approve":
        return approve_all
    if case.approval == "deny":
        return lambda req: ApprovalDecision(False, "the scenario's person denied this write")
    return deny_all


def run_case(
    case: Case,
    endpoints: Endpoints,
    truth: dict[str, Any],
    ledger: Callable[[str], Any] | None = None,
    audit_path: Path | None = None,
) -> CaseResult:
    """Run one case in a fresh session and check it.

    Args:
        case: The case.
        endpoints: Platform and model.
        truth: Ground truth (passwords, canaries).
        ledger: Admin SQL for ledger checks.
        audit_path: Local audit log, or None for none.

    Returns:
        The result.
    """
    started = time.perf_counter()
    try:
        session = PersonaSession.login(
            endpoints,
            case.persona,
            persona_password(truth, case.persona),
            audit_path=audit_path,
            audit=audit_path is not None,
        )
    except Exception as exc:
        return CaseResult(case, [f"login failed: {exc}"])
    events: list[AgentEvent] = []
    try:
        for event in session.run_turn(case.ask, approver=_approver_for(case), cancel=CancelToken()):
            events.append(event)
    finally:
        session.close()
    record = TurnRecord.from_events(events, persona=case.persona, question=case.ask)
    dicts = [event_to_dict(e) for e in events]
    if record.failure is not None:
        fails = [f"turn failed ({record.failure.failure}): {record.failure.message}"]
    elif record.status != "answered":
        fails = [f"turn ended without an answer ({record.status})"]
    else:
        fails = check_answer(case, record.answer, record.tools, dicts, truth, ledger)
    elapsed = (time.perf_counter() - started) * 1000.0
    usage = usage_to_dict(record.usage)
    return CaseResult(case, fails, record.answer, record.tools, dicts, elapsed, usage)
