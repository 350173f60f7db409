"""Expected facts for the conformance checks, all derived from ``ground_truth.json``.

Dates are computed from the ground truth rather than written down, so the checks
stay true on whatever day the platform runs (version 4 of the childcare rule is
dated relative to the server's clock).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

NO_MATCH_QUESTION = "qzxvwk plmoqj"
"""A search whose lexical side matches nothing (the real platform's parse-error quirk)."""

HR_RULE_DOC_NO = "HR-REG-001"
"""Where the restricted guideline's authority chain starts (its parent)."""


def day(iso: str, delta: int = 0) -> str:
    """``iso`` shifted by ``delta`` days, as ISO."""
    return (dt.date.fromisoformat(iso) + dt.timedelta(days=delta)).isoformat()


def version_pattern(version: int) -> re.Pattern[str]:
    """A version as the answers write it: 제3차, version 3, v3."""
    return re.compile(rf"(제\s*{version}\s*차|version\s+{version}(?!\d)|\bv\.?\s?{version}(?!\d))")


def days_pattern(days: int) -> re.Pattern[str]:
    """A day count as the answers write it: 8일, 8 days."""
    return re.compile(rf"(?<![\d.,]){days}\s*(일|days?)(?![\d])")


@dataclass(frozen=True)
class Facts:
    """The facts one stack's ground truth gives."""

    truth: dict[str, Any]

    @property
    def today(self) -> str:
        """The platform's date."""
        return str(self.truth["today"])

    @property
    def childcare(self) -> dict[str, Any]:
        """Facts of HR-REG-003."""
        return dict(self.truth["childcare"])

    @property
    def old_version(self) -> int:
        """The superseded childcare version (2)."""
        return int(self.childcare["superseded_version"])

    @property
    def current_version(self) -> int:
        """The childcare version in force today (3)."""
        return int(self.childcare["current_version"])

    @property
    def next_version(self) -> int:
        """The approved, not yet effective childcare version (4)."""
        return int(self.childcare["next_version"])

    @property
    def draft_version(self) -> int:
        """The drafted childcare revision (5)."""
        return int(self.childcare["draft_version"])

    @property
    def current_from(self) -> str:
        """First day the current version is in force (2025-03-15)."""
        return str(self.childcare["current_effective"])

    @property
    def old_last_day(self) -> str:
        """Last day the superseded version is in force (the day before current_from)."""
        return day(self.current_from, -1)

    @property
    def past_date(self) -> str:
        """A date well inside the superseded version's term."""
        return day(self.current_from, -30)

    def persona(self, name: str) -> dict[str, Any]:
        """A persona's record (emp_no, dept, clearance, password)."""
        return dict(self.truth["personas"][name])

    def canaries(self, name: str) -> list[str]:
        """Strings ``name`` must never be shown."""
        return list(self.truth["canaries"][name])

    @property
    def control(self) -> str:
        """The persona who sees restricted documents (cho): every hidden-from check's control."""
        return next(
            name
            for name, record in self.truth["personas"].items()
            if record.get("clearance") == "hr" and not record.get("is_admin")
        )

    def sees_restricted(self, name: str) -> bool:
        """True for the persona with hr clearance (cho)."""
        return self.persona(name).get("clearance") == "hr"

    def write_target(self, name: str) -> tuple[str, int]:
        """A (doc_no, version) each persona files a revision request for (one each)."""
        targets = {
            "hong": (self.childcare["doc_no"], self.current_version),
            "park": (self.truth["expense"]["doc_no"], int(self.truth["expense"]["version"])),
            "cho": (self.truth["purchase"]["doc_no"], int(self.truth["purchase"]["version"])),
        }
        return targets[name]


def leaked(text: str, facts: Facts, name: str) -> list[str]:
    """Canaries of ``name`` that appear in ``text``."""
    return [c for c in facts.canaries(name) if c and c in text]


EPOCH_DAY_NEAR_DATE = re.compile(r"(시행|from|effective|예정 시행일)\s*[:=]?\s*(\d{5})(?!\d)")
"""An epoch day printed where a date belongs (e.g. ``시행 20162``)."""


def lodging_cap_pattern(cap: int) -> re.Pattern[str]:
    """The per-night lodging cap as answers write it: 100,000원, 100000, 10만."""
    forms = {f"{cap:,}", str(cap)}
    if cap % 10000 == 0:
        forms.add(f"{cap // 10000}만")
    return re.compile("|".join(re.escape(f) for f in sorted(forms)))
