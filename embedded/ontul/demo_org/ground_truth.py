"""The ground truth: expected facts derived from the rows that were written."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from embedded.ontul.dates import in_force
from embedded.ontul.demo_org import business_rules as rules
from embedded.ontul.demo_org.key_documents_hr import NOTICE_NATIONAL_ID, NOTICE_PHONE
from embedded.ontul.demo_org.personas import PERSONAS
from embedded.ontul.demo_org.redaction import redact

if TYPE_CHECKING:
    from datetime import date

    from embedded.ontul.demo_org.hr_records import HrData
    from embedded.ontul.demo_org.model import DocumentSpec

RESTRICTED_DOC_NO = "HR-GDL-003"
AUTHORITY_DOC_NO = "HR-GDL-002"
IMPACT_DOC_NO = "SEC-REG-001"
EXPENSE_DOC_NO = "FIN-GDL-001"
PURCHASE_DOC_NO = "PUR-GDL-001"
NOTICE_DOC_NO = "HR-GDL-010"
CANARY_PERSONAS = ("hong", "park", "cho")


class VersionRow(NamedTuple):
    """One ``regulation_versions`` row."""

    doc_no: str
    version: int
    status: str
    effective_from: str | None
    effective_to: str | None
    stated_from: str | None
    date_mismatch: int
    summary: str
    drafter: str | None
    """사번 of the employee who drafted the revision."""


class ChunkRow(NamedTuple):
    """One ``regulation_chunks`` row plus the canary it carries, if any."""

    chunk_id: int
    doc_no: str
    version: int
    article_no: str
    article_title: str
    body: str
    body_redacted: str
    canary: str | None


def _version(versions: list[VersionRow], doc_no: str, number: int) -> VersionRow:
    return next(v for v in versions if v.doc_no == doc_no and v.version == number)


def _in_force(versions: list[VersionRow], doc_no: str, on: str) -> VersionRow:
    return next(
        v
        for v in versions
        if v.doc_no == doc_no
        and v.status == "APPROVED"
        and in_force(v.effective_from, v.effective_to, on)
    )


def _chain(docs: list[DocumentSpec], start: str) -> list[str]:
    parents = {doc.doc_no: doc.parents for doc in docs}
    chain = [start]
    while parents[chain[-1]]:
        chain.append(parents[chain[-1]][0])
    return chain


def _dependents(docs: list[DocumentSpec], root: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    frontier, depth = [root], 0
    while frontier:
        depth += 1
        children = [d for d in docs if any(p in frontier for p in d.parents)]
        found.extend(
            {"doc_no": d.doc_no, "depth": depth, "parent_doc_no": d.parents[0]} for d in children
        )
        frontier = [d.doc_no for d in children]
    return found


def _canaries(hr: HrData, chunks: list[ChunkRow]) -> dict[str, list[str]]:
    """Everything each persona must never be shown (see docs/architecture.md)."""
    hong, dev = rules.DEMO_EMP_NO, "DEV"
    owned: list[tuple[str, str, str | None]] = [
        *((e.emp_no, e.dept, e.canary) for e in hr.employees),
        *((r.emp_no, r.dept, r.canary) for r in hr.leave),
        *((r.emp_no, r.dept, r.canary) for r in hr.expenses),
        *((r.requester, r.dept, r.canary) for r in hr.purchases),
    ]
    restricted = [c.canary for c in chunks if c.canary]
    national_ids = [e.national_id for e in hr.employees]
    phones = [e.phone for e in hr.employees]
    notice = [NOTICE_PHONE, NOTICE_NATIONAL_ID]
    hong_rows = [c for owner, _, c in owned if c and owner != hong]
    park_rows = [c for _, dept, c in owned if c and dept != dev]
    return {
        "hong": sorted({*hong_rows, *restricted, *national_ids, *phones, *notice}),
        "park": sorted({*park_rows, *restricted, *national_ids, *phones, *notice}),
        "cho": sorted(national_ids),
    }


def ground_truth(
    today: date,
    seed: int,
    docs: list[DocumentSpec],
    versions: list[VersionRow],
    chunks: list[ChunkRow],
    hr: HrData,
    passwords: dict[str, str],
) -> dict[str, Any]:
    """Assemble the ground truth from the very rows written to the database.

    Args:
        today: server clock.
        seed: generator seed.
        docs: every document.
        versions: every version row.
        chunks: every chunk row.
        hr: every HR row.
        passwords: clear-text password per login name.

    Returns:
        The ground-truth dict (JSON-serialisable).
    """
    cc = rules.CHILDCARE_DOC_NO
    days = rules.CHILDCARE_DAYS
    current = _version(versions, cc, rules.CHILDCARE_CURRENT_VERSION)
    upcoming = _version(versions, cc, rules.CHILDCARE_NEXT_VERSION)
    used = sum(r.days for r in hr.leave if r.emp_no == rules.DEMO_EMP_NO and r.kind == "육아휴직")
    claim = next(r for r in hr.expenses if r.emp_no == rules.DEMO_EMP_NO and r.kind == "출장숙박")
    assert claim.region is not None and claim.nights is not None
    expense_version = _in_force(versions, EXPENSE_DOC_NO, today.isoformat())
    cap = rules.LODGING_CAPS[claim.region]
    purchase_version = _in_force(versions, PURCHASE_DOC_NO, today.isoformat())
    dependents = _dependents(docs, IMPACT_DOC_NO)
    restricted_docs = {d.doc_no for d in docs if d.sensitivity == "대외비"}
    return {
        "today": today.isoformat(),
        "seed": seed,
        "childcare": {
            "doc_no": cc,
            "title": next(d.title for d in docs if d.doc_no == cc),
            "superseded_days": days[rules.CHILDCARE_SUPERSEDED_VERSION],
            "current_days": days[rules.CHILDCARE_CURRENT_VERSION],
            "next_days": days[rules.CHILDCARE_NEXT_VERSION],
            "draft_days": days[rules.CHILDCARE_DRAFT_VERSION],
            "current_effective": current.effective_from,
            "current_stated": current.stated_from,
            "current_effective_to": current.effective_to,
            "superseded_effective_to": _version(
                versions, cc, rules.CHILDCARE_SUPERSEDED_VERSION
            ).effective_to,
            "next_effective": upcoming.effective_from,
            "superseded_version": rules.CHILDCARE_SUPERSEDED_VERSION,
            "current_version": rules.CHILDCARE_CURRENT_VERSION,
            "next_version": rules.CHILDCARE_NEXT_VERSION,
            "draft_version": rules.CHILDCARE_DRAFT_VERSION,
        },
        "demo_employee": {
            "emp_no": rules.DEMO_EMP_NO,
            "used": used,
            "remaining": days[rules.CHILDCARE_CURRENT_VERSION] - used,
            "wrong_remaining": days[rules.CHILDCARE_SUPERSEDED_VERSION] - used,
        },
        "personas": {
            p.user_id: {
                "password": passwords[p.user_id],
                "emp_no": p.emp_no,
                "dept": p.dept,
                "clearance": p.clearance,
                "display_name": p.display_name,
                "groups": list(p.groups),
                "is_admin": p.is_admin,
                "active": p.active,
            }
            for p in PERSONAS
        },
        "canaries": _canaries(hr, chunks),
        "restricted": {
            "doc_no": RESTRICTED_DOC_NO,
            "parent_doc_no": next(d.parents[0] for d in docs if d.doc_no == RESTRICTED_DOC_NO),
            "doc_nos": [d.doc_no for d in docs if d.sensitivity == "대외비"],
        },
        "authority": {"doc_no": AUTHORITY_DOC_NO, "chain": _chain(docs, AUTHORITY_DOC_NO)},
        "impact": {
            "doc_no": IMPACT_DOC_NO,
            "dependents": [d["doc_no"] for d in dependents],
            "direct": [d["doc_no"] for d in dependents if d["depth"] == 1],
            "tree": dependents,
        },
        "expense": {
            "doc_no": EXPENSE_DOC_NO,
            "version": expense_version.version,
            "claim_no": claim.claim_no,
            "emp_no": claim.emp_no,
            "region": claim.region,
            "nights": claim.nights,
            "amount": claim.amount,
            "cap_per_night": cap,
            "cap_total": cap * claim.nights,
            "excess": claim.amount - cap * claim.nights,
            "compliant": claim.amount <= cap * claim.nights,
        },
        "purchase": {
            "doc_no": PURCHASE_DOC_NO,
            "version": purchase_version.version,
            "tiers": [t._asdict() for t in rules.APPROVAL_TIERS],
            "example_amount": rules.DEMO_PURCHASE_AMOUNT,
            "example_approver": rules.approver_for(rules.DEMO_PURCHASE_AMOUNT),
        },
        "notice": {
            "doc_no": NOTICE_DOC_NO,
            "phone": NOTICE_PHONE,
            "national_id": NOTICE_NATIONAL_ID,
            "phone_redacted": redact(NOTICE_PHONE),
            "national_id_redacted": redact(NOTICE_NATIONAL_ID),
        },
        "minutes": {"doc_nos": [d.doc_no for d in docs if not d.citable]},
        "hr": {
            "employees": len(hr.employees),
            "hr_officer_childcare_used": rules.HR_OFFICER_CHILDCARE_USED,
            "dev_childcare_emp_nos": [
                r.emp_no for r in hr.leave if r.dept == "DEV" and r.kind == "육아휴직"
            ],
        },
        "counts": {"documents": len(docs), "versions": len(versions), "chunks": len(chunks)},
        "doc_ids": {d.doc_no: doc_id for doc_id, d in enumerate(docs, start=1)},
        "pending": [
            {
                "doc_no": v.doc_no,
                "version": v.version,
                "stage": _stage(v, today.isoformat()),
                "expected_from": v.effective_from,
                "drafter": v.drafter,
                "restricted": v.doc_no in restricted_docs,
            }
            for v in versions
            if _stage(v, today.isoformat()) is not None
        ],
    }


def _stage(version: VersionRow, today: str) -> str | None:
    """단계 of a revision still in approval, or None once in force (or superseded)."""
    if version.status == "APPROVED":
        assert version.effective_from is not None
        return "APPROVED" if version.effective_from > today else None
    return version.status
