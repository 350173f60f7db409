"""SQL endpoint over real HTTP: row filters, denied columns, masks, refusals, fuzzing."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from embedded.ontul.dates import epoch_day
from embedded.ontul.testing import call

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from embedded.ontul.server import OntulServer

HONG, PARK, CHO = "20170003", "20150010", "20090001"
HR_RELATIONS = [
    "semantic.hr.employees",
    "semantic.hr.leave_balance",
    "semantic.hr.expenses",
]


def sql(server: OntulServer, token: str, statement: str) -> dict[str, Any]:
    resp = call(server.url, token, "/admin/query/execute", {"sql": statement})
    assert resp.status_code == 200, resp.text
    return dict(resp.json())


def rows(server: OntulServer, token: str, statement: str) -> list[list[Any]]:
    data = sql(server, token, statement)
    assert data["status"] == "ok", data
    return list(data["rows"])


def direct(db: Path, statement: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(statement).fetchall()
    finally:
        conn.close()


@pytest.mark.parametrize("relation", HR_RELATIONS)
def test_hr_row_filters_per_persona(
    ontul_server: OntulServer,
    token_of: Callable[[str], str],
    demo_database: tuple[Path, dict[str, Any]],
    relation: str,
) -> None:
    db = demo_database[0]
    table = {
        "semantic.hr.employees": "hr_employees",
        "semantic.hr.leave_balance": "hr_leave",
        "semantic.hr.expenses": "hr_expenses",
    }[relation]
    q = f"SELECT 사번, 부서 FROM {relation} ORDER BY 사번"
    everyone = rows(ontul_server, token_of("cho"), q)
    assert len(everyone) == direct(db, f"SELECT count(*) FROM {table}")[0][0]
    assert {r[0] for r in everyone} > {HONG}
    dev = rows(ontul_server, token_of("park"), q)
    assert dev and all(r[1] == "DEV" for r in dev)
    assert len(dev) == direct(db, f"SELECT count(*) FROM {table} WHERE 부서 = 'DEV'")[0][0]
    own = rows(ontul_server, token_of("hong"), q)
    assert own and all(r[0] == HONG for r in own)


def test_filters_apply_before_aggregates_and_or(
    ontul_server: OntulServer, token_of: Callable[[str], str]
) -> None:
    q = f"SELECT count(*) FROM semantic.hr.employees WHERE 사번 = '{CHO}' OR 1 = 1"
    assert rows(ontul_server, token_of("cho"), q)[0][0] > 1
    assert rows(ontul_server, token_of("hong"), q)[0][0] == 1
    q2 = f"SELECT 성명 FROM semantic.hr.employees WHERE 사번 = '{CHO}'"
    assert rows(ontul_server, token_of("cho"), q2)
    assert rows(ontul_server, token_of("park"), q2) == []
    assert rows(ontul_server, token_of("hong"), q2) == []


DENIED_POSITIONS = [
    "SELECT 주민등록번호 FROM semantic.hr.employees",
    "SELECT 성명 FROM semantic.hr.employees WHERE 주민등록번호 LIKE '9%'",
    "SELECT 성명 FROM semantic.hr.employees ORDER BY 주민등록번호",
    "SELECT count(*) FROM semantic.hr.employees GROUP BY 주민등록번호",
    "SELECT 부서 FROM semantic.hr.employees GROUP BY 부서 HAVING max(주민등록번호) > ''",
    "SELECT substr(주민등록번호, 1, 6) FROM semantic.hr.employees",
    "SELECT 성명 FROM semantic.hr.employees WHERE 사번 IN "
    "(SELECT 사번 FROM semantic.hr.employees WHERE 주민등록번호 > '')",
    "WITH x AS (SELECT 주민등록번호 AS n FROM semantic.hr.employees) SELECT n FROM x",
    "SELECT a.성명 FROM semantic.hr.employees a JOIN semantic.hr.employees b "
    "ON a.주민등록번호 = b.주민등록번호",
]


@pytest.mark.parametrize("persona", ["hong", "park", "cho"])
@pytest.mark.parametrize("statement", DENIED_POSITIONS)
def test_denied_column_in_every_position(
    ontul_server: OntulServer, token_of: Callable[[str], str], persona: str, statement: str
) -> None:
    admin = sql(ontul_server, token_of("admin"), statement)
    assert admin["status"] == "ok", admin  # the statement itself is valid SQL
    data = sql(ontul_server, token_of(persona), statement)
    assert data["status"] == "error"
    assert "주민등록번호" in data["error"]


def test_star_expands_without_denied_column_and_masks_phone(
    ontul_server: OntulServer,
    token_of: Callable[[str], str],
    demo_database: tuple[Path, dict[str, Any]],
) -> None:
    raw_phone, nid = direct(
        demo_database[0], f"SELECT 연락처, 주민등록번호 FROM hr_employees WHERE 사번 = '{HONG}'"
    )[0]
    data = sql(ontul_server, token_of("hong"), "SELECT * FROM semantic.hr.employees")
    names = [c["name"] for c in data["columns"]]
    assert "주민등록번호" not in names and "연락처" in names
    flat = repr(data["rows"])
    assert nid not in flat
    assert raw_phone not in flat
    # the masked value cannot be probed with a predicate either
    probe = f"SELECT 사번 FROM semantic.hr.employees WHERE 연락처 = '{raw_phone}'"
    assert rows(ontul_server, token_of("admin"), probe) == [[HONG]]
    assert rows(ontul_server, token_of("hong"), probe) == []


def test_restricted_regulation_hidden_in_sql(
    ontul_server: OntulServer, token_of: Callable[[str], str]
) -> None:
    for relation in ("semantic.reg.doc_index", "semantic.reg.version_history"):
        q = f"SELECT doc_no FROM {relation} WHERE doc_no = 'HR-GDL-003'"
        assert rows(ontul_server, token_of("cho"), q), relation
        assert rows(ontul_server, token_of("hong"), q) == []
        assert rows(ontul_server, token_of("park"), q) == []


@pytest.mark.parametrize("persona", ["hong", "park"])
def test_no_canary_in_select_star(
    ontul_server: OntulServer,
    token_of: Callable[[str], str],
    ground_truth: dict[str, Any],
    persona: str,
) -> None:
    canaries = ground_truth["canaries"][persona]
    assert canaries
    seen = ""
    for relation in [
        *HR_RELATIONS,
        "semantic.hr.purchase_orders",
        "semantic.reg.doc_index",
        "semantic.reg.version_history",
        "semantic.reg.pending_revisions",
    ]:
        data = sql(ontul_server, token_of(persona), f"SELECT * FROM {relation}")
        if data["status"] == "ok":
            seen += repr(data["rows"])
    leaked = [c for c in canaries if c in seen]
    assert leaked == []


@pytest.mark.parametrize(
    "statement",
    [
        "DELETE FROM semantic.hr.employees",
        "SELECT 1; SELECT 2",
        "SELECT name FROM sqlite_master",
        "SELECT * FROM hr_employees",
        "SELECT * FROM users",
        "PRAGMA table_info(hr_employees)",
        "ATTACH DATABASE '/tmp/x.db' AS x",
        "SELECT load_extension('x') FROM semantic.hr.employees",
        "INSERT INTO revision_requests(doc_no) VALUES ('x')",
    ],
)
def test_refused_statements(
    ontul_server: OntulServer, token_of: Callable[[str], str], statement: str
) -> None:
    data = sql(ontul_server, token_of("cho"), statement)
    assert data["status"] == "error" and data["error"]


@pytest.mark.parametrize("persona", ["hong", "park", "cho"])
def test_physical_tables_for_admin_only(
    ontul_server: OntulServer,
    token_of: Callable[[str], str],
    demo_database: tuple[Path, dict[str, Any]],
    persona: str,
) -> None:
    q = "SELECT count(*), min(비고) FROM hr_employees"
    expected = [list(direct(demo_database[0], q)[0])]
    assert rows(ontul_server, token_of("admin"), q) == expected
    data = sql(ontul_server, token_of(persona), q)
    assert data["status"] == "error"
    assert "unknown relation hr_employees" in data["error"]
    assert expected[0][1] not in repr(data)


@pytest.mark.parametrize(
    "statement",
    [
        "SELECT name FROM sqlite_master",
        "SELECT * FROM sqlite_schema",
        "SELECT password_hash FROM users",
        "SELECT * FROM users",
        "PRAGMA table_info(users)",
        "ATTACH DATABASE '/tmp/x.db' AS x",
        "SELECT load_extension('x') FROM users",
        "DELETE FROM revision_requests",
        "INSERT INTO revision_requests(doc_no) VALUES ('x')",
        "SELECT 1 FROM audit_log; DELETE FROM audit_log",
        "SELECT * FROM main.hr_employees",
        "SELECT * FROM no_such_table",
    ],
)
def test_admin_sql_still_read_only_and_bounded(
    ontul_server: OntulServer, token_of: Callable[[str], str], statement: str
) -> None:
    assert rows(ontul_server, token_of("admin"), "SELECT count(*) FROM users")[0][0] >= 4
    data = sql(ontul_server, token_of("admin"), statement)
    assert data["status"] == "error" and data["error"], data


def test_audit_records_allow_and_deny(
    ontul_server: OntulServer, token_of: Callable[[str], str]
) -> None:
    sql(ontul_server, token_of("hong"), "SELECT 주민등록번호 FROM semantic.hr.employees")
    rows(ontul_server, token_of("hong"), "SELECT 사번 FROM semantic.hr.employees")
    resp = call(ontul_server.url, token_of("hong"), "/admin/audit", {})
    assert resp.status_code in (403, 405)
    import requests

    denied = requests.get(
        f"{ontul_server.url}/admin/audit?user=hong",
        headers={"Authorization": f"Bearer {token_of('hong')}"},
        timeout=10,
    )
    assert denied.status_code == 403
    ok = requests.get(
        f"{ontul_server.url}/admin/audit?user=hong&limit=50",
        headers={"Authorization": f"Bearer {token_of('admin')}"},
        timeout=10,
    )
    assert ok.status_code == 200
    audit = ok.json()["rows"]
    assert {r["decision"] for r in audit} >= {"ALLOW", "DENY"}
    assert all(r["userId"] == "hong" for r in audit)


_COLS = ["사번", "성명", "부서", "직급", "연락처", "입사일", "비고"]
_PRED = st.sampled_from(
    [
        "1=1",
        "사번 <> ''",
        f"사번 = '{CHO}'",
        "부서 = 'HR'",
        "부서 <> 'DEV'",
        "성명 LIKE '%'",
        "1=1 OR 1=1",
        "NOT (사번 = '')",
        "사번 IN (SELECT 사번 FROM semantic.hr.leave_balance)",
        "length(성명) > 0",
    ]
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    cols=st.lists(st.sampled_from(_COLS), min_size=1, max_size=4),
    pred=_PRED,
    join=st.booleans(),
    union=st.booleans(),
)
def test_fuzz_hong_only_ever_sees_himself(
    ontul_server: OntulServer,
    token_of: Callable[[str], str],
    cols: list[str],
    pred: str,
    join: bool,
    union: bool,
) -> None:
    select = ", ".join(f"e.{c}" for c in cols)
    q = f"SELECT e.사번 AS k, {select} FROM semantic.hr.employees e"
    if join:
        q += " JOIN semantic.hr.leave_balance l ON l.사번 = e.사번"
    q += f" WHERE {pred.replace('사번', 'e.사번').replace('성명', 'e.성명')}"
    if union:
        q += (
            " UNION ALL SELECT 사번, "
            + ", ".join(c if c in ("사번", "부서", "비고") else "NULL" for c in cols)
            + " FROM semantic.hr.leave_balance"
        )
    resp = call(ontul_server.url, token_of("hong"), "/admin/query/execute", {"sql": q})
    assert resp.status_code == 200
    data = resp.json()
    if data["status"] == "ok":
        assert all(r[0] == HONG for r in data["rows"]), q


def test_dates_are_epoch_days_compared_as_text(
    ontul_server: OntulServer, token_of: Callable[[str], str], ground_truth: dict[str, Any]
) -> None:
    """The real engine's DATE: an Int32 epoch day that compares as CAST(... AS VARCHAR)."""
    cc = ground_truth["childcare"]

    def in_force(on: str) -> list[list[Any]]:
        day = epoch_day(on)
        return rows(
            ontul_server,
            token_of("hong"),
            "SELECT version, effective_from, effective_to FROM semantic.reg.version_history "
            f"WHERE doc_no = '{cc['doc_no']}' AND CAST(effective_from AS VARCHAR) <= '{day}' "
            f"AND (effective_to IS NULL OR CAST(effective_to AS VARCHAR) > '{day}')",
        )

    today = in_force(ground_truth["today"])
    assert [r[0] for r in today] == [cc["current_version"]]
    assert today[0][1] == epoch_day(cc["current_effective"]) and isinstance(today[0][1], int)
    # effective_to is exclusive: the last day of version 2 is the day before version 3
    assert [r[0] for r in in_force("2025-03-14")] == [cc["superseded_version"]]
    assert [r[0] for r in in_force("2025-03-15")] == [cc["current_version"]]
    assert [r[0] for r in in_force(cc["next_effective"])] == [cc["next_version"]]


def test_pending_revisions_have_the_real_columns(
    ontul_server: OntulServer, token_of: Callable[[str], str], ground_truth: dict[str, Any]
) -> None:
    """문서번호 … 기안자사번, with rejected revisions listed and restricted ones filtered."""
    statement = (
        'SELECT "문서번호", "개정차수", "단계", "예정시행일", "기안자사번" '
        "FROM semantic.reg.pending_revisions ORDER BY 1, 2"
    )
    cho = rows(ontul_server, token_of("cho"), statement)
    expected = [[p["doc_no"], p["version"], p["stage"]] for p in ground_truth["pending"]]
    assert sorted(r[:3] for r in cho) == sorted(expected)
    hong = rows(ontul_server, token_of("hong"), statement)
    visible = [p for p in expected if not _restricted(ground_truth, p[0])]
    assert sorted(r[:3] for r in hong) == sorted(visible)
    assert "REJECTED" in {r[2] for r in hong}
    cc = ground_truth["childcare"]
    approved = next(r for r in hong if r[:2] == [cc["doc_no"], cc["next_version"]])
    assert approved[2] == "APPROVED" and approved[3] == epoch_day(cc["next_effective"])


def _restricted(truth: dict[str, Any], doc_no: str) -> bool:
    return doc_no in truth["restricted"]["doc_nos"]
