"""The demo organisation holds every SPEC §3 fact, deterministically.

The database is queried directly with sqlite3; expected figures come from the
ground truth the generator wrote, and each is also checked against the rows.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from embedded.ontul.dates import epoch_day
from embedded.ontul.demo_org import build_demo_database, load_ground_truth, verify_password

TODAY = date(2025, 6, 1)
ROOT = Path(__file__).resolve().parents[2]
CANARY_RE = re.compile(r"CANARY-[0-9a-f]{8}")
NATIONAL_ID_RE = re.compile(r"\d{6}-[1-4]\d{6}")

CONTRACT_COLUMNS = {
    "users": [
        "user_id",
        "display_name",
        "password_salt",
        "password_hash",
        "is_admin",
        "active",
        "groups",
        "attrs",
    ],
    "regulations": [
        "doc_id",
        "doc_no",
        "title",
        "doc_class",
        "tier",
        "owner_dept",
        "citable",
        "sensitivity",
    ],
    "regulation_versions": [
        "doc_no",
        "version",
        "status",
        "effective_from",
        "effective_to",
        "stated_from",
        "date_mismatch",
        "summary",
        "drafter",
    ],
    "regulation_chunks": [
        "chunk_id",
        "doc_no",
        "version",
        "article_no",
        "article_title",
        "body",
        "body_redacted",
    ],
    "regulation_links": ["child_doc_no", "parent_doc_no"],
    "hr_employees": [
        "사번",
        "성명",
        "부서",
        "직급",
        "연락처",
        "주민등록번호",
        "입사일",
        "비고",
    ],
    "hr_leave": ["사번", "성명", "부서", "휴가종류", "연도", "부여일수_ERP", "사용일수", "비고"],
    "hr_expenses": [
        "청구번호",
        "사번",
        "성명",
        "부서",
        "유형",
        "지역",
        "숙박일수",
        "금액",
        "청구일",
        "상태",
        "비고",
    ],
    "hr_purchase_orders": [
        "발주번호",
        "부서",
        "요청자사번",
        "성명",
        "품목",
        "금액",
        "상태",
        "비고",
    ],
    "revision_requests": [
        "request_id",
        "doc_no",
        "version",
        "reason",
        "requested_by",
        "idempotency_key",
        "status",
        "created_at",
    ],
    "audit_log": ["id", "ts", "user_id", "action", "resource", "decision", "query"],
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    path = tmp_path_factory.mktemp("demo_org") / "demo.sqlite"
    started = time.perf_counter()
    truth = build_demo_database(path, TODAY)
    print(f"demo organisation built in {time.perf_counter() - started:.3f} s")
    return path, truth


@pytest.fixture(scope="module")
def db(built: tuple[Path, dict[str, Any]]) -> sqlite3.Connection:
    return sqlite3.connect(built[0])


@pytest.fixture(scope="module")
def truth(built: tuple[Path, dict[str, Any]]) -> dict[str, Any]:
    return built[1]


def _one(db: sqlite3.Connection, sql: str, *args: object) -> Any:
    row = db.execute(sql, args).fetchone()
    assert row is not None, sql
    return row[0]


def test_tables_match_the_contract(db: sqlite3.Connection) -> None:
    for table, columns in CONTRACT_COLUMNS.items():
        found = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
        assert found == columns, table
    assert _one(db, "SELECT today FROM server_clock") == TODAY.isoformat()
    assert _one(db, "SELECT count(*) FROM revision_requests") == 0
    assert _one(db, "SELECT count(*) FROM audit_log") == 0


def test_ground_truth_file_matches_return_value(built: tuple[Path, dict[str, Any]]) -> None:
    path, truth = built
    assert load_ground_truth(path) == truth
    assert truth["today"] == TODAY.isoformat()


def test_personas(db: sqlite3.Connection, truth: dict[str, Any]) -> None:
    expected = {
        "hong": ("홍가은", "20170003", "DEV", "none", ["employees", "general"]),
        "park": ("홍지아", "20150010", "DEV", "manager", ["employees", "general", "managers"]),
        "cho": ("조태윤", "20090001", "HR", "hr", ["employees", "hr"]),
    }
    for user, (name, emp_no, dept, clearance, groups) in expected.items():
        display, salt, hashed, is_admin, active, groups_json, attrs = db.execute(
            "SELECT display_name, password_salt, password_hash, is_admin, active, groups, attrs "
            "FROM users WHERE user_id = ?",
            (user,),
        ).fetchone()
        assert (display, is_admin, active) == (name, 0, 1)
        assert json.loads(groups_json) == groups
        assert json.loads(attrs) == {"emp_no": emp_no, "dept": dept, "clearance": clearance}
        password = truth["personas"][user]["password"]
        assert password not in (salt, hashed)
        assert verify_password(salt, hashed, password)
        assert not verify_password(salt, hashed, password + "x")
        assert truth["personas"][user]["emp_no"] == emp_no
        assert _one(db, "SELECT 성명 FROM hr_employees WHERE 사번 = ?", emp_no) == name
    assert db.execute("SELECT is_admin, groups FROM users WHERE user_id='admin'").fetchone() == (
        1,
        '["admins"]',
    )
    assert _one(db, "SELECT active FROM users WHERE user_id='kim'") == 0
    admin = db.execute("SELECT password_salt, password_hash FROM users WHERE user_id='admin'")
    assert verify_password(*admin.fetchone(), truth["personas"]["admin"]["password"])


def test_corpus_size_and_classes(db: sqlite3.Connection, truth: dict[str, Any]) -> None:
    counts = truth["counts"]
    assert counts["documents"] == _one(db, "SELECT count(*) FROM regulations")
    assert counts["versions"] == _one(db, "SELECT count(*) FROM regulation_versions")
    assert counts["chunks"] == _one(db, "SELECT count(*) FROM regulation_chunks")
    assert 45 <= counts["documents"] <= 60
    assert 85 <= counts["versions"] <= 120
    assert 700 <= counts["chunks"] <= 950
    classes = {r[0] for r in db.execute("SELECT DISTINCT doc_class FROM regulations")}
    assert classes == {"RULE", "REGULATION", "GUIDELINE", "MINUTES"}
    pattern = re.compile(r"^[A-Z]{2,3}-(RUL|REG|GDL|MIN)-\d{3}$")
    assert all(pattern.match(r[0]) for r in db.execute("SELECT doc_no FROM regulations"))
    tiers = dict(db.execute("SELECT DISTINCT doc_class, tier FROM regulations").fetchall())
    assert tiers == {"RULE": 1, "REGULATION": 2, "GUIDELINE": 3, "MINUTES": 9}
    orphans = db.execute(
        "SELECT parent_doc_no FROM regulation_links WHERE parent_doc_no NOT IN "
        "(SELECT doc_no FROM regulations)"
    ).fetchall()
    assert orphans == []
    assert (
        _one(
            db,
            "SELECT count(*) FROM regulation_versions WHERE status = 'APPROVED' AND "
            "effective_from > ? AND doc_no <> 'HR-REG-003'",
            epoch_day(TODAY),
        )
        == 0
    )


def test_childcare_versions(db: sqlite3.Connection, truth: dict[str, Any]) -> None:
    cc = truth["childcare"]
    assert (cc["superseded_days"], cc["current_days"], cc["next_days"]) == (15, 20, 25)
    rows = {
        r[0]: r[1:]
        for r in db.execute(
            "SELECT version, status, effective_from, effective_to, stated_from, date_mismatch "
            "FROM regulation_versions WHERE doc_no = 'HR-REG-003' ORDER BY version"
        )
    }
    assert sorted(rows) == [1, 2, 3, 4, 5]
    next_from = (TODAY + timedelta(days=21)).isoformat()
    # DATE columns hold epoch days; effective_to is exclusive (the next version's start)
    assert rows[2][:3] == ("APPROVED", epoch_day("2023-07-01"), epoch_day("2025-03-15"))
    assert rows[3] == (
        "APPROVED",
        epoch_day("2025-03-15"),
        epoch_day(next_from),
        epoch_day("2025-01-01"),
        1,
    )
    assert rows[4][:3] == ("APPROVED", epoch_day(next_from), None)
    assert rows[5][:3] == ("DRAFT", None, None)
    assert cc["next_effective"] == next_from
    assert cc["superseded_effective_to"] == "2025-03-15"
    assert (cc["current_effective"], cc["current_stated"]) == ("2025-03-15", "2025-01-01")
    all_days = {v: d for v, d in zip(range(1, 6), (10, 15, 20, 25, 30), strict=True)}
    for version, days in all_days.items():
        text = " ".join(
            r[0]
            for r in db.execute(
                "SELECT body FROM regulation_chunks WHERE doc_no='HR-REG-003' AND version=?",
                (version,),
            )
        )
        assert f"최대 {days}일의 육아휴직" in text
        for other in set(all_days.values()) - {days}:
            assert f"{other}일" not in text, (version, other)
    addendum = _one(
        db,
        "SELECT body FROM regulation_chunks WHERE doc_no='HR-REG-003' AND "
        "version=3 AND article_no='부칙'",
    )
    assert "2025년 1월 1일부터 시행한다" in addendum


def test_v4_follows_today(tmp_path: Path) -> None:
    other = date(2025, 9, 10)
    truth = build_demo_database(tmp_path / "demo.sqlite", other)
    assert truth["childcare"]["next_effective"] == "2025-10-01"
    with sqlite3.connect(tmp_path / "demo.sqlite") as conn:
        start, end = conn.execute(
            "SELECT effective_from, effective_to FROM regulation_versions "
            "WHERE doc_no='HR-REG-003' AND version=4"
        ).fetchone()
        v3_end = _one(
            conn,
            "SELECT effective_to FROM regulation_versions WHERE doc_no='HR-REG-003' AND version=3",
        )
    assert (start, end, v3_end) == (epoch_day("2025-10-01"), None, epoch_day("2025-10-01"))


def test_demo_employee_leave(db: sqlite3.Connection, truth: dict[str, Any]) -> None:
    demo = truth["demo_employee"]
    childcare = "SELECT sum(사용일수) FROM hr_leave WHERE 사번=? AND 휴가종류='육아휴직'"
    used = _one(db, childcare, "20170003")
    assert used == demo["used"] == 12
    assert demo["remaining"] == truth["childcare"]["current_days"] - used == 8
    assert demo["wrong_remaining"] == truth["childcare"]["superseded_days"] - used == 3
    cho = _one(db, childcare, "20090001")
    assert cho == truth["hr"]["hr_officer_childcare_used"] != used
    dev = _one(
        db, "SELECT count(DISTINCT 사번) FROM hr_leave WHERE 부서='DEV' AND 휴가종류='육아휴직'"
    )
    assert dev >= 5
    assert _one(db, "SELECT count(*) FROM hr_leave WHERE 휴가종류='연차'") >= 40


def test_employees(db: sqlite3.Connection) -> None:
    rows = db.execute("SELECT 사번, 부서, 연락처, 주민등록번호 FROM hr_employees").fetchall()
    assert 40 <= len(rows) <= 60
    assert {r[1] for r in rows} == {"DEV", "HR", "FIN", "SEC", "SAL", "PUR"}
    assert all(re.fullmatch(r"010-\d{4}-\d{4}", r[2]) for r in rows)
    assert all(NATIONAL_ID_RE.fullmatch(r[3]) for r in rows)
    assert len({r[2] for r in rows}) == len({r[3] for r in rows}) == len(rows)
    hong = next(r for r in rows if r[0] == "20170003")
    assert hong[3].startswith("9406")
    assert _one(db, "SELECT count(*) FROM hr_employees WHERE 주민등록번호 LIKE '9406%'") == 1


def test_restricted_discipline_guideline(db: sqlite3.Connection, truth: dict[str, Any]) -> None:
    assert truth["restricted"]["doc_no"] == "HR-GDL-003"
    assert db.execute(
        "SELECT title, sensitivity FROM regulations WHERE doc_no='HR-GDL-003'"
    ).fetchone() == ("징계 양정기준", "대외비")
    assert (
        _one(db, "SELECT parent_doc_no FROM regulation_links WHERE child_doc_no='HR-GDL-003'")
        == "HR-REG-001"
    )
    bodies = [
        r[0] for r in db.execute("SELECT body FROM regulation_chunks WHERE doc_no='HR-GDL-003'")
    ]
    assert bodies
    for body in bodies:
        (marker,) = CANARY_RE.findall(body)
        assert marker in truth["canaries"]["hong"]
        assert marker in truth["canaries"]["park"]
        assert marker not in truth["canaries"]["cho"]


def _ancestors(db: sqlite3.Connection, doc_no: str) -> list[str]:
    chain = [doc_no]
    while True:
        row = db.execute(
            "SELECT parent_doc_no FROM regulation_links WHERE child_doc_no=?", (chain[-1],)
        ).fetchone()
        if row is None:
            return chain
        chain.append(row[0])


def test_authority_chain(db: sqlite3.Connection, truth: dict[str, Any]) -> None:
    doc_no = truth["authority"]["doc_no"]
    assert _one(db, "SELECT title FROM regulations WHERE doc_no=?", doc_no) == "연차휴가 운영지침"
    chain = _ancestors(db, doc_no)
    assert chain == truth["authority"]["chain"] == [doc_no, "HR-REG-002", "GEN-RUL-001"]


def test_impact_of_security_regulation(db: sqlite3.Connection, truth: dict[str, Any]) -> None:
    assert _one(db, "SELECT title FROM regulations WHERE doc_no='SEC-REG-001'") == "정보보안규정"
    direct = {
        r[0]
        for r in db.execute(
            "SELECT child_doc_no FROM regulation_links WHERE parent_doc_no='SEC-REG-001'"
        )
    }
    assert {"SEC-GDL-001", "SEC-GDL-002", "SEC-GDL-003"} <= direct
    assert set(truth["impact"]["direct"]) == direct
    deeper = set(truth["impact"]["dependents"]) - direct
    assert deeper and all("SEC-REG-001" in _ancestors(db, d) for d in deeper)


def test_lodging_claim_exceeds_cap(db: sqlite3.Connection, truth: dict[str, Any]) -> None:
    exp = truth["expense"]
    current = _one(
        db,
        "SELECT version FROM regulation_versions WHERE doc_no='FIN-GDL-001' AND "
        "effective_from <= ? AND (effective_to IS NULL OR ? < effective_to)",
        epoch_day(TODAY),
        epoch_day(TODAY),
    )
    assert current == exp["version"]
    text = _one(
        db,
        "SELECT body FROM regulation_chunks WHERE doc_no='FIN-GDL-001' AND version=? "
        "AND article_title='숙박비 상한'",
        current,
    )
    match = re.search(r"서울 1박당 ([\d,]+)원", text)
    assert match is not None
    cap = int(match.group(1).replace(",", ""))
    region, nights, amount = db.execute(
        "SELECT 지역, 숙박일수, 금액 FROM hr_expenses WHERE 사번='20170003' AND 유형='출장숙박'"
    ).fetchone()
    assert (region, nights, amount) == (exp["region"], exp["nights"], exp["amount"])
    assert amount > cap * nights
    assert (exp["cap_per_night"], exp["excess"], exp["compliant"]) == (
        cap,
        amount - cap * nights,
        False,
    )


def test_purchase_ceilings(db: sqlite3.Connection, truth: dict[str, Any]) -> None:
    text = _one(
        db,
        "SELECT body FROM regulation_chunks WHERE doc_no='PUR-GDL-001' AND version=? "
        "AND article_title='금액별 결재권자'",
        truth["purchase"]["version"],
    )
    assert "500만원(5,000,000원) 이상 3천만원(30,000,000원) 미만: 본부장" in text
    assert truth["purchase"]["example_approver"] == "본부장"
    assert _one(db, "SELECT count(*) FROM hr_purchase_orders WHERE 금액 = 10000000") == 1


def test_notice_prose_and_redaction(db: sqlite3.Connection, truth: dict[str, Any]) -> None:
    notice = truth["notice"]
    assert db.execute(
        "SELECT doc_class, citable, sensitivity FROM regulations WHERE doc_no=?",
        (notice["doc_no"],),
    ).fetchone() == ("GUIDELINE", 1, "일반")
    rows = db.execute(
        "SELECT body, body_redacted FROM regulation_chunks WHERE doc_no=?", (notice["doc_no"],)
    ).fetchall()
    body = " ".join(r[0] for r in rows)
    redacted = " ".join(r[1] for r in rows)
    assert notice["phone"] in body and notice["national_id"] in body
    assert NATIONAL_ID_RE.search(body)
    assert notice["phone"] not in redacted and not NATIONAL_ID_RE.search(redacted)
    assert "02-****-****" in redacted and "******-*******" in redacted
    differing = _one(db, "SELECT count(*) FROM regulation_chunks WHERE body <> body_redacted")
    assert differing == sum(1 for b, r in rows if b != r) == 2


def test_minutes_are_not_citable_but_on_topic(
    db: sqlite3.Connection, truth: dict[str, Any]
) -> None:
    minutes = truth["minutes"]["doc_nos"]
    assert len(minutes) >= 3
    rows = db.execute("SELECT doc_no, citable FROM regulations WHERE doc_class='MINUTES'")
    assert dict(rows.fetchall()) == dict.fromkeys(minutes, 0)
    text = " ".join(
        r[0]
        for r in db.execute(
            "SELECT body FROM regulation_chunks c JOIN regulations r USING (doc_no) "
            "WHERE r.doc_class='MINUTES'"
        )
    )
    for topic in ("육아휴직", "징계", "출장"):
        assert topic in text


def test_canaries_are_unique_and_present(db: sqlite3.Connection, truth: dict[str, Any]) -> None:
    texts = [
        r[0]
        for r in db.execute(
            "SELECT 비고 FROM hr_employees UNION ALL SELECT 비고 FROM hr_leave UNION ALL "
            "SELECT 비고 FROM hr_expenses UNION ALL SELECT 비고 FROM hr_purchase_orders UNION ALL "
            "SELECT body FROM regulation_chunks"
        )
    ]
    markers = [m for t in texts for m in CANARY_RE.findall(t)]
    assert len(markers) == len(set(markers)) > 100
    listed = {m for values in truth["canaries"].values() for m in values if CANARY_RE.match(m)}
    assert listed == set(markers)
    national_ids = {r[0] for r in db.execute("SELECT 주민등록번호 FROM hr_employees")}
    assert set(truth["canaries"]["cho"]) == national_ids
    for persona in ("hong", "park"):
        assert national_ids <= set(truth["canaries"][persona])
        assert truth["notice"]["phone"] in truth["canaries"][persona]


def _visible_text(db: sqlite3.Connection, persona: str) -> str:
    """Everything the policies let ``persona`` see, by the documented policy rules."""
    parts: list[str] = []
    hr_filter = {"hong": ("사번", "'20170003'"), "park": ("부서", "'DEV'"), "cho": ("1", "1")}[
        persona
    ]
    general = persona in ("hong", "park")
    column, value = hr_filter
    phone = "substr(연락처, 1, 4) || '****-****'" if general else "연락처"
    for row in db.execute(
        f"SELECT 사번, 성명, 부서, 직급, {phone}, 입사일, 비고 "
        f"FROM hr_employees WHERE {column} = {value}"
    ):
        parts.extend(map(str, row))
    for table in ("hr_leave", "hr_expenses"):
        for row in db.execute(f"SELECT * FROM {table} WHERE {column} = {value}"):
            parts.extend(map(str, row))
    po_column = "요청자사번" if column == "사번" else column
    for row in db.execute(f"SELECT * FROM hr_purchase_orders WHERE {po_column} = {value}"):
        parts.extend(map(str, row))
    restricted = "" if persona == "cho" else "WHERE r.sensitivity <> '대외비'"
    body = "c.body_redacted" if general else "c.body"
    for row in db.execute(
        f"SELECT r.doc_no, r.title, {body}, c.article_title "
        f"FROM regulation_chunks c JOIN regulations r USING (doc_no) "
        f"{restricted}"
    ):
        parts.extend(map(str, row))
    for row in db.execute(
        "SELECT v.summary FROM regulation_versions v JOIN regulations r "
        f"USING (doc_no) {restricted}"
    ):
        parts.append(str(row[0]))
    return "\n".join(parts)


@pytest.mark.parametrize("persona", ["hong", "park", "cho"])
def test_no_canary_in_what_the_persona_may_see(
    db: sqlite3.Connection, truth: dict[str, Any], persona: str
) -> None:
    visible = _visible_text(db, persona)
    assert "20170003" in visible  # every persona sees hong's own rows
    leaked = [c for c in truth["canaries"][persona] if c in visible]
    assert leaked == []


def test_the_privileged_view_does_contain_the_canaries(
    db: sqlite3.Connection, truth: dict[str, Any]
) -> None:
    # Proves the visibility check above has teeth: cho sees what hong must not.
    cho_sees = _visible_text(db, "cho")
    hong_only = [c for c in truth["canaries"]["hong"] if CANARY_RE.match(c)]
    assert all(c in cho_sees for c in hong_only)


def test_every_hidden_hr_row_carries_a_canary(db: sqlite3.Connection) -> None:
    for table, owner in (
        ("hr_employees", "사번"),
        ("hr_leave", "사번"),
        ("hr_expenses", "사번"),
        ("hr_purchase_orders", "요청자사번"),
    ):
        for note, who in db.execute(f"SELECT 비고, {owner} FROM {table}"):
            assert bool(CANARY_RE.search(note)) == (who != "20170003"), (table, who)


def test_build_is_byte_identical(tmp_path: Path, built: tuple[Path, dict[str, Any]]) -> None:
    again = tmp_path / "again.sqlite"
    truth = build_demo_database(again, TODAY)
    assert again.read_bytes() == built[0].read_bytes()
    assert truth == built[1]
    other = tmp_path / "other" / "demo.sqlite"
    build_demo_database(other, TODAY, seed=7)
    assert other.read_bytes() != built[0].read_bytes()


def test_policies_follow_the_documented_format() -> None:
    folder = ROOT / "resources" / "policies"
    docs = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in folder.glob("*.json")}
    assert {"employees", "managers", "hr", "general", "admins"} <= set(docs)
    for doc in docs.values():
        assert set(doc) == {"Name", "AttachTo", "Statement"}
        for statement in doc["Statement"]:
            assert statement["Effect"] in ("Allow", "Deny", "Mask")
    employees = docs["employees"]["Statement"]
    assert any(s.get("Columns") == ["주민등록번호"] and s["Effect"] == "Deny" for s in employees)
    assert any(s.get("Condition") == "sensitivity <> '대외비'" for s in employees)
    masks = {k: v for s in docs["general"]["Statement"] for k, v in s["MaskedColumns"].items()}
    assert masks["body"] == "body_redacted"
    assert docs["admins"]["Statement"][0]["AdministratorAccess"] is True


def test_build_does_not_depend_on_hash_seed(
    tmp_path: Path, built: tuple[Path, dict[str, Any]]
) -> None:
    # Another interpreter with another PYTHONHASHSEED must write the same bytes.
    import os
    import subprocess
    import sys

    target = tmp_path / "fresh.sqlite"
    code = (
        "import sys; from datetime import date; from pathlib import Path; "
        "from embedded.ontul.demo_org import build_demo_database; "
        f"build_demo_database(Path(sys.argv[1]), date.fromisoformat('{TODAY.isoformat()}'))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    subprocess.run([sys.executable, "-c", code, str(target)], cwd=ROOT, env=env, check=True)
    assert target.read_bytes() == built[0].read_bytes()


def test_real_catalog_shapes(db: sqlite3.Connection, truth: dict[str, Any]) -> None:
    """doc_id is an integer per document, revisions in approval carry a stage, ERP grants."""
    ids = dict(db.execute("SELECT doc_no, doc_id FROM regulations").fetchall())
    assert ids == truth["doc_ids"]
    assert all(isinstance(i, int) for i in ids.values())
    assert len(set(ids.values())) == len(ids)
    stages = {(p["doc_no"], p["version"]): p["stage"] for p in truth["pending"]}
    assert stages[("HR-REG-003", 4)] == "APPROVED"
    assert stages[("HR-REG-003", 5)] == "DRAFT"
    assert "REJECTED" in stages.values()
    assert all(p["drafter"] for p in truth["pending"])
    granted = dict(
        db.execute(
            "SELECT 휴가종류, 부여일수_ERP FROM hr_leave WHERE 사번 = ?", ("20170003",)
        ).fetchall()
    )
    assert granted["육아휴직"] == truth["childcare"]["current_days"]
    assert granted["연차"] >= 17
    names = db.execute(
        "SELECT count(*) FROM hr_leave AS l JOIN hr_employees AS e ON e.사번 = l.사번 "
        "WHERE e.성명 <> l.성명 OR e.부서 <> l.부서"
    ).fetchone()[0]
    assert names == 0
