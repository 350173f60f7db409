"""The figures the scenarios hinge on, defined once.

Regulation texts, HR rows and the ground truth all read these constants, so a
changed figure changes everywhere at once.
"""

from __future__ import annotations

from typing import NamedTuple

CHILDCARE_DOC_NO = "HR-REG-003"
CHILDCARE_DAYS: dict[int, int] = {1: 10, 2: 15, 3: 20, 4: 25, 5: 30}
"""Childcare leave (육아휴직) days granted by each version of HR-REG-003."""
CHILDCARE_SUPERSEDED_VERSION = 2
CHILDCARE_CURRENT_VERSION = 3
CHILDCARE_NEXT_VERSION = 4
CHILDCARE_DRAFT_VERSION = 5
CHILDCARE_NEXT_OFFSET_DAYS = 21
"""The approved v4 takes effect this many days after the server's today."""

ANNUAL_LEAVE_DAYS = 17
"""HR-REG-002 (current version): base annual leave days, plus one per two years' service."""
ANNUAL_LEAVE_CAP = 27
"""HR-REG-002 (current version): annual leave ceiling."""

DEMO_EMP_NO = "20170003"
DEMO_CHILDCARE_USED = 12
"""Childcare days hong has used."""
HR_OFFICER_CHILDCARE_USED = 7
"""Childcare days cho has used (distinct from hong's on purpose)."""

LODGING_CAPS: dict[str, int] = {"서울": 100_000, "광역시": 90_000, "기타 지역": 80_000}
"""FIN-GDL-001 lodging cap per night by region."""
DEMO_LODGING_REGION = "서울"
DEMO_LODGING_NIGHTS = 2
DEMO_LODGING_EXCESS = 20_000
"""hong's lodging claim exceeds the cap by this much."""


class ApprovalTier(NamedTuple):
    """One purchase-approval band of PUR-GDL-001 (lower bound inclusive)."""

    minimum: int
    """Lower bound in won (inclusive)."""
    maximum: int | None
    """Upper bound in won (exclusive); None for no upper bound."""
    approver: str
    """Who approves purchases in this band."""


APPROVAL_TIERS: tuple[ApprovalTier, ...] = (
    ApprovalTier(0, 5_000_000, "팀장"),
    ApprovalTier(5_000_000, 30_000_000, "본부장"),
    ApprovalTier(30_000_000, None, "대표이사"),
)
DEMO_PURCHASE_AMOUNT = 10_000_000


def erp_granted_days(kind: str, hired_year: int, year: int) -> int | None:
    """The days the ERP records as granted (부여일수_ERP) for one leave row.

    Args:
        kind: 휴가종류 (연차, 육아휴직, 병가).
        hired_year: year the employee joined.
        year: the leave year.

    Returns:
        Granted days, or None where the ERP records no grant (sick leave).
    """
    if kind == "연차":
        return min(ANNUAL_LEAVE_DAYS + max(0, year - hired_year) // 2, ANNUAL_LEAVE_CAP)
    if kind == "육아휴직":
        return CHILDCARE_DAYS[CHILDCARE_CURRENT_VERSION]
    return None


def approver_for(amount: int) -> str:
    """Who approves a purchase of ``amount`` won under PUR-GDL-001.

    Args:
        amount: purchase amount in won.

    Returns:
        The approver title.
    """
    for tier in APPROVAL_TIERS:
        if amount >= tier.minimum and (tier.maximum is None or amount < tier.maximum):
            return tier.approver
    raise ValueError(amount)
