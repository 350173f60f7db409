"""Writes the demo organisation's SQLite database and ground truth.

Determinism: the file is built from scratch in one transaction with a fixed
page size, rows inserted in a fixed order and no clock but ``today``; the same
seed and the same ``today`` give the same bytes.
"""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from embedded.ontul.dates import epoch_or_none
from embedded.ontul.demo_org.canaries import CanaryMint
from embedded.ontul.demo_org.catalogue import all_documents
from embedded.ontul.demo_org.ground_truth import ChunkRow, VersionRow, ground_truth
from embedded.ontul.demo_org.hr_records import HrData, build_hr_records
from embedded.ontul.demo_org.personas import PERSONAS, persona_credentials
from embedded.ontul.demo_org.redaction import redact
from embedded.ontul.demo_org.schema import INDEX_SQL, SCHEMA_SQL

if TYPE_CHECKING:
    from datetime import date

    from embedded.ontul.demo_org.model import DocumentSpec

GROUND_TRUTH_NAME = "ground_truth.json"
DEFAULT_SEED = 20250315


@dataclass(frozen=True)
class _Credentials:
    passwords: dict[str, str]
    rows: list[tuple[object, ...]]


def _credentials(seed: int) -> _Credentials:
    passwords: dict[str, str] = {}
    rows: list[tuple[object, ...]] = []
    for persona in PERSONAS:
        password, salt_hex, hash_hex = persona_credentials(seed, persona)
        passwords[persona.user_id] = password
        attrs = {"emp_no": persona.emp_no, "dept": persona.dept, "clearance": persona.clearance}
        rows.append(
            (
                persona.user_id,
                persona.display_name,
                salt_hex,
                hash_hex,
                int(persona.is_admin),
                int(persona.active),
                json.dumps(list(persona.groups), ensure_ascii=False),
                json.dumps(attrs, ensure_ascii=False, sort_keys=True),
            )
        )
    return _Credentials(passwords, rows)


def _version_rows(doc: DocumentSpec, drafter: str | None) -> list[VersionRow]:
    """Version rows; ``effective_to`` is exclusive: the next approved version's start."""
    approved = sorted((v for v in doc.versions if v.status == "APPROVED"), key=lambda v: v.version)
    ends: dict[int, str] = {}
    for current, following in itertools.pairwise(approved):
        assert following.effective_from is not None
        ends[current.version] = following.effective_from
    rows = []
    for spec in doc.versions:
        mismatch = int(
            spec.effective_from is not None
            and spec.stated_from is not None
            and spec.effective_from != spec.stated_from
        )
        rows.append(
            VersionRow(
                doc.doc_no,
                spec.version,
                spec.status,
                spec.effective_from,
                ends.get(spec.version),
                spec.stated_from,
                mismatch,
                spec.summary,
                drafter,
            )
        )
    return rows


def _drafters(docs: list[DocumentSpec], hr: HrData) -> dict[str, str | None]:
    """Who drafts each document's revisions: the first employee of its owner department
    (HR's for departments with no employees of their own, such as GEN)."""
    first: dict[str, str] = {}
    for employee in hr.employees:
        first.setdefault(employee.dept, employee.emp_no)
    return {doc.doc_no: first.get(doc.owner_dept, first["HR"]) for doc in docs}


def _chunk_rows(docs: list[DocumentSpec], mint: CanaryMint) -> list[ChunkRow]:
    rows: list[ChunkRow] = []
    for doc in docs:
        for spec in doc.versions:
            for article in spec.articles:
                body = article.body
                canary = None
                if doc.sensitivity == "대외비":
                    canary = mint.mint()
                    body = f"{body} (문서관리번호 {canary})"
                rows.append(
                    ChunkRow(
                        len(rows) + 1,
                        doc.doc_no,
                        spec.version,
                        article.no,
                        article.title,
                        body,
                        redact(body),
                        canary,
                    )
                )
    return rows


def _write(
    path: Path,
    today: date,
    creds: _Credentials,
    docs: list[DocumentSpec],
    versions: list[VersionRow],
    chunks: list[ChunkRow],
    hr: HrData,
) -> None:
    names = {e.emp_no: e.name for e in hr.employees}
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA page_size = 4096")
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN")
        for statement in SCHEMA_SQL.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.executemany("INSERT INTO users VALUES (?,?,?,?,?,?,?,?)", creds.rows)
        conn.executemany(
            "INSERT INTO regulations VALUES (?,?,?,?,?,?,?,?)",
            [
                (
                    doc_id,
                    d.doc_no,
                    d.title,
                    d.doc_class,
                    d.tier,
                    d.owner_dept,
                    int(d.citable),
                    d.sensitivity,
                )
                for doc_id, d in enumerate(docs, start=1)
            ],
        )
        conn.executemany(
            "INSERT INTO regulation_versions VALUES (?,?,?,?,?,?,?,?,?)",
            [
                (
                    v.doc_no,
                    v.version,
                    v.status,
                    epoch_or_none(v.effective_from),
                    epoch_or_none(v.effective_to),
                    epoch_or_none(v.stated_from),
                    v.date_mismatch,
                    v.summary,
                    v.drafter,
                )
                for v in versions
            ],
        )
        conn.executemany(
            "INSERT INTO regulation_chunks VALUES (?,?,?,?,?,?,?)", [tuple(c)[:7] for c in chunks]
        )
        conn.executemany(
            "INSERT INTO regulation_links VALUES (?,?)",
            [(d.doc_no, parent) for d in docs for parent in d.parents],
        )
        conn.executemany(
            "INSERT INTO hr_employees VALUES (?,?,?,?,?,?,?,?)",
            [
                (
                    e.emp_no,
                    e.name,
                    e.dept,
                    e.rank,
                    e.phone,
                    e.national_id,
                    epoch_or_none(e.hired),
                    e.note,
                )
                for e in hr.employees
            ],
        )
        conn.executemany(
            "INSERT INTO hr_leave VALUES (?,?,?,?,?,?,?,?)",
            [
                (r.emp_no, names[r.emp_no], r.dept, r.kind, r.year, r.granted, r.days, r.note)
                for r in hr.leave
            ],
        )
        conn.executemany(
            "INSERT INTO hr_expenses VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            [
                (
                    r.claim_no,
                    r.emp_no,
                    names[r.emp_no],
                    r.dept,
                    r.kind,
                    r.region,
                    r.nights,
                    r.amount,
                    epoch_or_none(r.claimed_on),
                    r.status,
                    r.note,
                )
                for r in hr.expenses
            ],
        )
        conn.executemany(
            "INSERT INTO hr_purchase_orders VALUES (?,?,?,?,?,?,?,?)",
            [
                (
                    r.po_no,
                    r.dept,
                    r.requester,
                    names[r.requester],
                    r.item,
                    r.amount,
                    r.status,
                    r.note,
                )
                for r in hr.purchases
            ],
        )
        conn.execute("INSERT INTO server_clock VALUES (?)", (today.isoformat(),))
        for statement in INDEX_SQL.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.execute("COMMIT")
    finally:
        conn.close()


def build_demo_database(db_path: Path, today: date, seed: int = DEFAULT_SEED) -> dict:
    """Create the demo organisation's database and ``ground_truth.json`` beside it.

    Args:
        db_path: where to write the SQLite file (replaced if it exists).
        today: the server's clock; HR-REG-003 v4 takes effect 21 days later.
        seed: generator seed; same seed and today give a byte-identical file.

    Returns:
        The ground truth (same content as the JSON file).
    """
    db_path = Path(db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    mint = CanaryMint(seed)
    hr = build_hr_records(seed, mint, today.year)
    docs = all_documents(today, seed)
    drafters = _drafters(docs, hr)
    versions = [row for doc in docs for row in _version_rows(doc, drafters[doc.doc_no])]
    chunks = _chunk_rows(docs, mint)
    creds = _credentials(seed)
    truth = ground_truth(today, seed, docs, versions, chunks, hr, creds.passwords)
    staging = db_path.with_name(db_path.name + ".building")
    staging.unlink(missing_ok=True)
    _write(staging, today, creds, docs, versions, chunks, hr)
    os.replace(staging, db_path)
    text = json.dumps(truth, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    (db_path.parent / GROUND_TRUTH_NAME).write_text(text, encoding="utf-8")
    return truth


def load_ground_truth(db_path: Path) -> dict:
    """Read the ``ground_truth.json`` written beside ``db_path``.

    Args:
        db_path: the demo database.

    Returns:
        The ground truth dict.
    """
    path = Path(db_path).parent / GROUND_TRUTH_NAME
    return json.loads(path.read_text(encoding="utf-8"))
