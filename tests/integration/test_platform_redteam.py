"""Red-team of the platform's policy enforcement over real HTTP (SPEC §2).

Each attack runs as the attacker (hong: own HR rows, masked phone, no
restricted documents; park: DEV rows) and, where it means something, the same
question runs as a privileged persona first to show the thing is really there.
Nothing may leak, and nothing may answer 500.
"""

from __future__ import annotations

import http.client
import json
import sqlite3
import unicodedata
from datetime import date
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import jwt
import pytest
import requests

from embedded.ontul.testing import call, copy_database, login

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from embedded.ontul.server import OntulServer

HONG, PARK = "20170003", "20150010"
EMP = "semantic.hr.employees"
NID = "주민등록번호"


def _sql(server: OntulServer, token: str, statement: str) -> dict[str, Any]:
    resp = call(server.url, token, "/admin/query/execute", {"sql": statement})
    assert resp.status_code == 200, resp.text
    return dict(resp.json())


def _raw(db: Path, statement: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(statement).fetchall()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def attack(
    ontul_server: OntulServer, token_of: Callable[[str], str], ground_truth: dict[str, Any]
) -> Callable[[str, str], dict[str, Any]]:
    """``attack(user, sql)``: run on the SQL endpoint; fail on any canary in the answer."""

    def run(user: str, statement: str) -> dict[str, Any]:
        data = _sql(ontul_server, token_of(user), statement)
        text = json.dumps(data, ensure_ascii=False)
        leaked = [c for c in ground_truth["canaries"].get(user, []) if c in text]
        assert not leaked, f"{user} saw {leaked[:3]} via {statement!r}"
        return data

    return run


# --- physical tables reached through CTE names (hole: out-of-scope CTE name) ---

CTE_ATTACKS = [
    f"SELECT h.* FROM {EMP} e, (WITH hr_employees AS (SELECT 1 AS a) SELECT a FROM hr_employees)"
    " x JOIN hr_employees h",
    f"SELECT * FROM hr_employees, (WITH hr_employees AS (SELECT 1) SELECT * FROM hr_employees)"
    f" x, {EMP} e",
    f"WITH hr_employees AS (SELECT 1 AS a) SELECT * FROM {EMP}",
    f"WITH HR_EMPLOYEES AS (SELECT 1 AS a) SELECT * FROM {EMP}",
    f"SELECT * FROM {EMP} e, (WITH regulations AS (SELECT 1) SELECT 1) x",
    f'WITH "{EMP}" AS (SELECT * FROM hr_employees) SELECT * FROM "{EMP}"',
    f'WITH "semantic.hr.employees" AS (SELECT 1 AS a) SELECT * FROM "{EMP}", {EMP}',
    f"WITH RECURSIVE hr_leave(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM hr_leave WHERE n < 3)"
    f" SELECT * FROM hr_leave, {EMP}",
    f"WITH sqlite_master AS (SELECT 1) SELECT * FROM sqlite_master, {EMP}",
]


def test_control_admin_reads_national_ids(attack: Callable[[str, str], dict[str, Any]]) -> None:
    data = attack("admin", "SELECT 사번, 주민등록번호 FROM hr_employees")
    assert data["status"] == "ok" and data["rowCount"] == 50
    assert all(r[1] for r in data["rows"])


@pytest.mark.parametrize("statement", CTE_ATTACKS)
@pytest.mark.parametrize("user", ["hong", "park", "cho"])
def test_cte_names_never_reach_physical_tables(
    attack: Callable[[str, str], dict[str, Any]], user: str, statement: str
) -> None:
    data = attack(user, statement)
    assert data["status"] == "error" and "WITH name" in data["error"], data


def test_ordinary_cte_still_works(attack: Callable[[str, str], dict[str, Any]]) -> None:
    data = attack("hong", f"WITH mine AS (SELECT 사번, 연락처 FROM {EMP}) SELECT * FROM mine")
    assert data["status"] == "ok" and data["rows"] == [[HONG, "010-****-****"]]


# --- IN <table>: a membership oracle over the physical table (hole) ---


def test_in_table_membership_oracle_refused(
    attack: Callable[[str, str], dict[str, Any]], demo_database: tuple[Path, dict[str, Any]]
) -> None:
    row = _raw(demo_database[0], f"SELECT * FROM hr_employees WHERE 사번 = '{PARK}'")[0]
    guess = "(" + ", ".join(f"'{v}'" for v in row) + ")"
    control = attack("admin", f"SELECT count(*) FROM hr_employees WHERE {guess} IN hr_employees")
    assert control["status"] == "error"  # refused for everyone: write IN (SELECT ...)
    control = attack(
        "admin",
        f"SELECT {guess} IN (SELECT * FROM hr_employees) FROM hr_employees LIMIT 1",
    )
    assert control["rows"] == [[1]]
    for user in ("hong", "park", "cho"):
        for target in ("hr_employees", "main.hr_employees", "json_each('[1]')"):
            data = attack(user, f"SELECT count(*) FROM {EMP} WHERE {guess} IN {target}")
            assert data["status"] == "error", (user, target, data)


# --- the denied column, however it is spelled or used ---

NFD_NID = unicodedata.normalize("NFD", NID)
DENIED_USES = [
    f'SELECT "{NID}" FROM {EMP}',
    f"SELECT [{NID}] FROM {EMP}",
    f"SELECT `{NID}` FROM {EMP}",
    f"SELECT e.{NID} FROM {EMP} AS e",
    f"SELECT hr_employees.{NID} FROM {EMP} AS hr_employees",
    f"SELECT _src.{NID} FROM {EMP} AS _src",
    f"SELECT CASE WHEN {NID} LIKE '9406%' THEN 1 END FROM {EMP}",
    f"SELECT count(*) FROM {EMP} GROUP BY {NID}",
    f"SELECT 1 FROM {EMP} GROUP BY 사번 HAVING max({NID}) > '9'",
    f"SELECT 사번 FROM {EMP} ORDER BY {NID}",
    f"SELECT row_number() OVER (ORDER BY {NID}) FROM {EMP}",
    f"SELECT typeof({NID}), length({NID}), instr({NID}, '-'), hex({NID}) FROM {EMP}",
    f"SELECT unicode(substr({NID}, 1, 1)) FROM {EMP}",
    f"SELECT * FROM {EMP} AS a JOIN {EMP} AS b USING ({NID})",
    f"SELECT (SELECT max({NID}) FROM {EMP} AS i WHERE i.사번 = o.사번) FROM {EMP} AS o",
    f"SELECT 1 FROM {EMP} AS o WHERE EXISTS (SELECT 1 WHERE o.{NID} LIKE '9%')",
    f"SELECT * FROM {EMP} NATURAL JOIN (SELECT '940623-2424894' AS {NID})",
    f"SELECT {NID} AS x FROM {EMP} UNION SELECT 1",
]


@pytest.mark.parametrize("statement", DENIED_USES)
@pytest.mark.parametrize("user", ["hong", "park", "cho"])
def test_denied_column_unreachable(
    attack: Callable[[str, str], dict[str, Any]], user: str, statement: str
) -> None:
    assert attack(user, statement)["status"] == "error"


@pytest.mark.parametrize("star", ["*", "e.*"])
@pytest.mark.parametrize("user", ["hong", "park", "cho"])
def test_star_expansion_omits_denied_column(
    attack: Callable[[str, str], dict[str, Any]], user: str, star: str
) -> None:
    data = attack(user, f"SELECT {star} FROM {EMP} AS e")
    assert data["status"] == "ok" and data["rows"]
    assert NID not in [c["name"] for c in data["columns"]]


# --- masks: predicates, functions and ordering see only the masked value ---


def test_masked_phone_predicates_see_mask_only(
    attack: Callable[[str, str], dict[str, Any]], demo_database: tuple[Path, dict[str, Any]]
) -> None:
    phone = _raw(demo_database[0], f"SELECT 연락처 FROM hr_employees WHERE 사번 = '{HONG}'")[0][0]
    probe = f"SELECT count(*) FROM {EMP} WHERE 사번 = '{HONG}' AND 연락처 = '{phone}'"
    assert attack("cho", probe)["rows"] == [[1]]  # control: HR sees raw phones
    assert attack("hong", probe)["rows"] == [[0]]
    digits = f"SELECT substr(연락처, 5, 4), hex(연락처), unicode(substr(연락처, 6, 1)) FROM {EMP}"
    row = attack("hong", digits)["rows"][0]
    assert row[0] == "****" and row[2] == ord("*")
    assert bytes.fromhex(row[1]).decode() == "010-****-****"


def test_order_by_masked_column_leaks_no_order(
    attack: Callable[[str, str], dict[str, Any]],
) -> None:
    data = attack("park", f"SELECT 연락처, 사번 FROM {EMP} ORDER BY 연락처 DESC, 사번")
    rows = [tuple(r) for r in data["rows"]]
    assert len(rows) > 1 and rows == sorted(rows, key=lambda r: (_neg(r[0]), r[1]))


def _neg(text: str) -> tuple[int, ...]:
    return tuple(-ord(c) for c in text)


# --- row filters: aliases, unions, correlated subqueries, windows ---

ROW_ATTACKS = [
    f"SELECT 사번, 부서 FROM {EMP}",
    f"SELECT e.사번, e.부서 FROM {EMP} AS e",
    f"SELECT 사번, 부서 FROM {EMP} AS hr_employees",
    f"SELECT 사번, 부서 FROM {EMP} AS _src WHERE 1 = 1 OR 1 = 1",
    f"SELECT 사번, 부서 FROM {EMP} UNION SELECT 사번, 부서 FROM {EMP}",
    f"SELECT DISTINCT a.사번, a.부서 FROM {EMP} AS a JOIN semantic.hr.leave_balance USING (사번)",
    f"SELECT 사번, 부서 FROM {EMP} WHERE 사번 IN (SELECT 사번 FROM {EMP})",
    f"SELECT 사번, (SELECT count(*) FROM {EMP}) FROM {EMP}",
    'SELECT 사번, 부서 FROM "semantic"."hr"."employees"',
    f"SELECT 사번, 부서 FROM (SELECT * FROM {EMP}) AS main",
]


@pytest.mark.parametrize("statement", ROW_ATTACKS)
def test_row_filters_hold(
    attack: Callable[[str, str], dict[str, Any]],
    demo_database: tuple[Path, dict[str, Any]],
    statement: str,
) -> None:
    dev = {r[0] for r in _raw(demo_database[0], "SELECT 사번 FROM hr_employees WHERE 부서 = 'DEV'")}
    everyone = attack("cho", statement)
    assert everyone["status"] == "ok", everyone
    assert len({r[0] for r in everyone["rows"]}) > len(dev)  # control: HR sees every dept
    park = attack("park", statement)
    assert park["status"] == "ok" and {r[0] for r in park["rows"]} == dev
    assert all(
        (isinstance(r[1], str) and r[1] == "DEV") or isinstance(r[1], int) for r in park["rows"]
    )
    hong = attack("hong", statement)
    assert {r[0] for r in hong["rows"]} == {HONG}


def test_window_counts_only_visible_rows(attack: Callable[[str, str], dict[str, Any]]) -> None:
    statement = f"SELECT count(*) OVER () FROM {EMP} LIMIT 1"
    assert attack("cho", statement)["rows"] == [[50]]
    assert attack("hong", statement)["rows"] == [[1]]


# --- restricted (대외비) documents through every SQL relation ---


@pytest.mark.parametrize(
    "relation",
    ["semantic.reg.doc_index", "semantic.reg.version_history"],
)
def test_restricted_documents_hidden(
    attack: Callable[[str, str], dict[str, Any]],
    ground_truth: dict[str, Any],
    relation: str,
) -> None:
    doc = ground_truth["restricted"]["doc_no"]
    statement = f"SELECT doc_no FROM {relation} WHERE doc_no = '{doc}' OR sensitivity = '대외비'"
    assert attack("cho", statement)["rowCount"] > 0
    assert attack("hong", statement)["rows"] == []
    assert attack("park", statement)["rows"] == []


# --- refused outright: system tables, other statements, functions ---

REFUSED = [
    "SELECT * FROM sqlite_master",
    "SELECT * FROM sqlite_schema",
    "SELECT * FROM temp.sqlite_master",
    f"SELECT * FROM main.hr_employees, {EMP}",
    f'SELECT * FROM "main"."hr_employees", {EMP}',
    f"SELECT * FROM hr_employees, {EMP}",
    f"SELECT * FROM {EMP} UNION ALL SELECT * FROM hr_employees",
    f"SELECT 사번 FROM {EMP} INTERSECT SELECT 사번 FROM hr_employees",
    f"SELECT 사번 FROM {EMP} EXCEPT SELECT 사번 FROM hr_leave",
    f"SELECT * FROM {EMP}; ATTACH 'other.db' AS o",
    "ATTACH DATABASE 'file:x?mode=memory' AS x",
    f"SELECT load_extension('mod_spatialite') FROM {EMP}",
    f"SELECT length(randomblob(1000000000)) FROM {EMP}",
    f"SELECT zeroblob(1000000000) FROM {EMP}",
    f"SELECT * FROM json_each('[1]'), {EMP}",
    f"SELECT * FROM json_tree('[1]'), {EMP}",
    f"SELECT * FROM pragma_table_info('hr_employees'), {EMP}",
    "SELECT name FROM pragma_table_info('hr_employees')",
    f"SELECT * FROM generate_series(1, 10), {EMP}",
    f"SELECT generate_series(1, 10), random(), sqlite_version() FROM {EMP}",
    f"SELECT power(2, 3) FROM {EMP}",
    f"SELECT 1 FROM {EMP} WHERE (PRAGMA table_info)",
    "PRAGMA table_info(hr_employees)",
    f"SELECT * INTO stolen FROM {EMP}",
    f"SELECT * FROM {EMP}; SELECT * FROM {EMP}",
    f"SELECT * FROM {EMP} /* ; */; DELETE FROM users",
    f"SELECT * FROM {EMP} -- ;\n; DROP TABLE users",
    "VALUES (1)",
    "SELECT 1",
    f"SELECT * FROM {EMP.upper()}",
]


ADMIN_MAY = set(REFUSED[5:9])


@pytest.mark.parametrize("statement", REFUSED)
@pytest.mark.parametrize("user", ["hong", "admin"])
def test_refused_statements(
    attack: Callable[[str, str], dict[str, Any]], user: str, statement: str
) -> None:
    data = attack(user, statement)
    if user == "admin" and statement in ADMIN_MAY:
        assert data["status"] == "ok", data  # AdministratorAccess names physical tables
        return
    assert data["status"] == "error", data


# --- denial of service: clean errors, no 500, no hang ---

DOS = [
    "SELECT " + "(" * 3000 + "1" + ")" * 3000 + f" FROM {EMP}",
    "SELECT " + "abs(" * 2000 + "1" + ")" * 2000 + f" FROM {EMP}",
    "SELECT " + "NOT " * 4000 + f"1 FROM {EMP}",
    "SELECT " + "- " * 6000 + f"1 FROM {EMP}",
    f"SELECT 1 FROM {EMP} WHERE 1 " + "OR 1 " * 3500,
    f"SELECT printf('%.*c', 900000000, 'x') FROM {EMP}",
    f"SELECT length(printf('%900000000d', 1)) FROM {EMP}",
    f"SELECT replace(printf('%.*c', 3000000, 'x'), 'x', 'xxxxxxxxxx') FROM {EMP}",
    f"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r, {EMP}",
    "x" * 30_000,
]


@pytest.mark.parametrize("statement", DOS, ids=lambda s: s[:24])
def test_dos_statements_fail_cleanly(
    attack: Callable[[str, str], dict[str, Any]], statement: str
) -> None:
    assert attack("hong", statement)["status"] == "error"


@pytest.mark.parametrize("user", ["hong", "park", "cho"])
def test_nfd_spelling_of_denied_column_is_not_the_column(
    attack: Callable[[str, str], dict[str, Any]], user: str
) -> None:
    nfd = unicodedata.normalize("NFD", NID)
    assert nfd != NID
    data = attack(user, f'SELECT "{nfd}" FROM {EMP}')
    # An unknown quoted name is an error naming it (never SQLite's string-literal fallback).
    assert data["status"] == "error" and data["error"] == f"no such column: {nfd}", data


def test_printf_with_small_fields_still_works(
    attack: Callable[[str, str], dict[str, Any]],
) -> None:
    data = attack("hong", f"SELECT printf('%-10s|%5.2f', 사번, 1.5) FROM {EMP}")
    assert data["rows"] == [[f"{HONG}  | 1.50"]]


def test_huge_in_list_is_fine(attack: Callable[[str, str], dict[str, Any]]) -> None:
    values = ", ".join(f"'{n}'" for n in range(20170000, 20171500))
    data = attack("hong", f"SELECT 사번 FROM {EMP} WHERE 사번 IN ({values})")
    assert data["status"] == "ok" and data["rows"] == [[HONG]]


# --- retrievers, ontology and actions ---


def _post(url: str, token: str, path: str, body: dict[str, Any]) -> requests.Response:
    resp = call(url, token, path, body)
    assert resp.status_code < 500, resp.text
    return resp


SEARCH = "/api/v1/retrievers/semantic.rag.regulation_search/invoke"


@pytest.mark.parametrize(
    "args",
    [
        {"q": 'NEAR(육아 휴직) "unterminated'},
        {"q": "body:* ^육아 OR title:x AND NOT"},
        {"q": "*"},
        {"q": "\x00'; DROP TABLE users; --"},
        {"q": "육아", "k": 10**12},
        {"q": "육아", "k": -1},
        {"q": "육아", "k": "5"},
        {"q": "육아", "as_of": "2025-13-45"},
        {"q": "육아", "as_of": "'; --"},
        {"q": "육아", "dept": "HR' OR 1=1 --"},
        {"q": ["육아"]},
    ],
)
def test_retriever_args_never_500_nor_leak(
    ontul_server: OntulServer,
    token_of: Callable[[str], str],
    ground_truth: dict[str, Any],
    args: dict[str, Any],
) -> None:
    resp = _post(ontul_server.url, token_of("hong"), SEARCH, {"args": args})
    restricted = ground_truth["restricted"]["doc_nos"]
    assert not any(doc in resp.text for doc in restricted)
    assert not any(c in resp.text for c in ground_truth["canaries"]["hong"])


def test_search_hides_restricted_document(
    ontul_server: OntulServer, token_of: Callable[[str], str], ground_truth: dict[str, Any]
) -> None:
    doc = ground_truth["restricted"]["doc_no"]
    title = _sql(
        ontul_server, token_of("admin"), f"SELECT title FROM regulations WHERE doc_no = '{doc}'"
    )
    body = {"args": {"q": title["rows"][0][0], "k": 50}}
    seen = _post(ontul_server.url, token_of("cho"), SEARCH, body).json()
    assert doc in {r[1] for r in seen["rows"]}  # control
    hidden = _post(ontul_server.url, token_of("hong"), SEARCH, body).json()
    assert doc not in {r[1] for r in hidden["rows"]}


OBJECTS = "/api/v1/object-types/reg.ontology.Regulation/query"
LINKS = "/api/v1/link-types/reg.ontology.{}/traverse"


@pytest.mark.parametrize(
    "body",
    [
        {"filters": {"password_hash": "x"}},
        {"filters": {"doc_no) OR (1=1": "x"}},
        {"select": ["doc_no", "body_redacted"]},
        {"orderBy": "doc_no; DROP TABLE users"},
        {"orderBy": "(SELECT 1)"},
        {"filters": {"doc_no": {"$ne": 1}}},
        {"limit": 10**9},
        {"limit": -1},
    ],
)
def test_object_query_bad_names_are_400(
    ontul_server: OntulServer, token_of: Callable[[str], str], body: dict[str, Any]
) -> None:
    assert _post(ontul_server.url, token_of("hong"), OBJECTS, body).status_code == 400


def test_object_query_filters_restricted(
    ontul_server: OntulServer, token_of: Callable[[str], str]
) -> None:
    body = {"filters": {"sensitivity": "대외비"}, "limit": 100}
    assert _post(ontul_server.url, token_of("cho"), OBJECTS, body).json()["rowCount"] > 0
    assert _post(ontul_server.url, token_of("hong"), OBJECTS, body).json()["rowCount"] == 0


@pytest.mark.parametrize("depth", [10**9, -1, 0, 65, "3", 1.5])
def test_traverse_depth_limits(
    ontul_server: OntulServer, token_of: Callable[[str], str], depth: Any
) -> None:
    body = {"sourceKey": "HR-GDL-002", "maxDepth": depth}
    resp = _post(ontul_server.url, token_of("hong"), LINKS.format("derives_from"), body)
    assert resp.status_code == 400


def test_has_version_of_restricted_document(
    ontul_server: OntulServer, token_of: Callable[[str], str], ground_truth: dict[str, Any]
) -> None:
    body = {"sourceKey": ground_truth["restricted"]["doc_no"]}
    path = LINKS.format("has_version")
    assert _post(ontul_server.url, token_of("cho"), path, body).json()["rowCount"] > 0
    assert _post(ontul_server.url, token_of("hong"), path, body).json()["rowCount"] == 0


@pytest.fixture
def private_server(
    demo_database: tuple[Path, dict[str, Any]], tmp_path: Path
) -> Iterator[OntulServer]:
    """A platform on its own copy of the database (tests here write to it)."""
    from embedded.ontul.server import OntulServer

    server = OntulServer(copy_database(demo_database[0], tmp_path), today=date.today()).start()
    yield server
    server.stop()


ACTION = "/api/v1/action-types/reg.ontology.request_revision/invoke"


def test_action_on_restricted_doc_looks_like_missing_doc(
    private_server: OntulServer, ground_truth: dict[str, Any]
) -> None:
    doc = ground_truth["restricted"]["doc_no"]
    hong, cho = login(private_server.url, "hong"), login(private_server.url, "cho")
    version = _raw(
        private_server.db_path,
        f"SELECT max(version) FROM regulation_versions WHERE doc_no = '{doc}'",
    )[0][0]
    args = {"doc_no": doc, "version": version, "reason": "검토 요청"}
    hidden = _post(private_server.url, hong, ACTION, {"args": args})
    missing = _post(private_server.url, hong, ACTION, {"args": {**args, "doc_no": "NO-SUCH-999"}})
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json()["error"].replace(doc, "X") == missing.json()["error"].replace(
        "NO-SUCH-999", "X"
    )
    assert _post(private_server.url, cho, ACTION, {"args": args}).status_code == 200  # control


@pytest.mark.parametrize(
    "args",
    [
        {"doc_no": "HR-REG-003", "version": "3", "reason": "x"},
        {"doc_no": "HR-REG-003", "version": True, "reason": "x"},
        {"doc_no": "HR-REG-003", "version": 3, "reason": "가" * 5000},
        {"doc_no": "HR-REG-003", "version": 3, "reason": "   "},
        {"doc_no": ["HR-REG-003"], "version": 3, "reason": "x"},
    ],
)
def test_action_bad_args_are_400(
    ontul_server: OntulServer, token_of: Callable[[str], str], args: dict[str, Any]
) -> None:
    assert _post(ontul_server.url, token_of("hong"), ACTION, {"args": args}).status_code == 400


# --- tokens ---


def _health_sql(url: str, token: str) -> int:
    return call(url, token, "/admin/query/execute", {"sql": f"SELECT 1 FROM {EMP}"}).status_code


@pytest.mark.filterwarnings("ignore::jwt.warnings.InsecureKeyLengthWarning")  # forged on purpose
def test_forged_tokens_are_401(ontul_server: OntulServer, token_of: Callable[[str], str]) -> None:
    assert _health_sql(ontul_server.url, token_of("hong")) == 200  # control
    claims = jwt.decode(token_of("hong"), options={"verify_signature": False})
    claims["sub"] = "admin"
    header = {"alg": "none", "typ": "JWT"}
    none_token = jwt.api_jws.base64url_encode(json.dumps(header).encode()).decode()
    none_token += "." + jwt.api_jws.base64url_encode(json.dumps(claims).encode()).decode() + "."
    forged = [
        none_token,
        jwt.encode(claims, "secret", algorithm="HS256"),
        jwt.encode(claims, ontul_server.url, algorithm="HS256"),
        token_of("hong") + "x",
    ]
    for token in forged:
        assert _health_sql(ontul_server.url, token) == 401, token


def test_token_kinds_expiry_and_deactivation(
    demo_database: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    from embedded.ontul.server import OntulServer

    db = copy_database(demo_database[0], tmp_path)
    server = OntulServer(db, today=date.today(), token_ttl_s=-60).start()
    try:
        resp = requests.post(
            f"{server.url}/admin/auth/login",
            json={"username": "hong", "password": _password("hong")},
            timeout=10,
        )
        access, refresh = resp.json()["accessToken"], resp.json()["refreshToken"]
        assert _health_sql(server.url, access) == 401  # expired on issue
        assert _health_sql(server.url, refresh) == 401  # a refresh token is no access token
        url = f"{server.url}/admin/auth/refresh"
        assert requests.post(url, json={"refreshToken": access}, timeout=10).status_code == 401
        assert requests.post(url, json={"refreshToken": refresh}, timeout=10).status_code == 200
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE users SET active = 0 WHERE user_id = 'hong'")
        assert requests.post(url, json={"refreshToken": refresh}, timeout=10).status_code == 401
    finally:
        server.stop()


def _password(user: str) -> str:
    from embedded.ontul.testing import persona_password

    return persona_password(user)


# --- JSON bodies and HTTP ---


@pytest.mark.parametrize(
    "data",
    [
        b'{"sql": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
        b'{"sql": "SELECT 1", "x": ' + b"9" * 5000 + b"}",
        b'{"sql": "SELECT 1", "x": NaN}',
        b'["SELECT 1"]',
        b'"SELECT 1"',
        b"null",
        b'{"sql": "SELECT 1 FROM semantic.hr.employees", "sql": "SELECT 2"}',
        b"\xff\xfe",
    ],
    ids=["deep", "bigint", "nan", "list", "string", "null", "dupkey", "utf"],
)
def test_hostile_json_bodies_are_400(
    ontul_server: OntulServer, token_of: Callable[[str], str], data: bytes
) -> None:
    headers = {"Authorization": f"Bearer {token_of('hong')}", "Content-Type": "application/json"}
    url = f"{ontul_server.url}/admin/query/execute"
    control = requests.post(
        url, data=b'{"sql": "SELECT 1 FROM semantic.hr.employees"}', headers=headers, timeout=10
    )
    assert control.status_code == 200
    resp = requests.post(url, data=data, headers=headers, timeout=10)
    assert resp.status_code == 400 and resp.json()["error"], resp.text


def _raw_http(url: str, request: bytes) -> tuple[int, bytes]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        conn.connect()
        assert conn.sock is not None
        conn.sock.sendall(request)
        resp = http.client.HTTPResponse(conn.sock, method=request.split(b" ")[0].decode())
        resp.begin()
        return resp.status, resp.read()
    finally:
        conn.close()


def test_http_framing_and_methods(
    ontul_server: OntulServer, token_of: Callable[[str], str]
) -> None:
    auth = f"Authorization: Bearer {token_of('hong')}\r\n".encode()
    body = b'{"sql": "SELECT 1 FROM semantic.hr.employees"}'
    head = b"POST /admin/query/execute HTTP/1.1\r\nHost: x\r\n" + auth
    ok = head + b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
    assert _raw_http(ontul_server.url, ok + body)[0] == 200  # control
    no_length = head + b"Content-Type: application/json\r\nConnection: close\r\n\r\n" + body
    assert _raw_http(ontul_server.url, no_length)[0] == 411
    chunked = head + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    chunk = b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"
    assert _raw_http(ontul_server.url, chunked + chunk)[0] == 411
    plain = head + b"Content-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(body)
    assert _raw_http(ontul_server.url, plain + body)[0] == 415
    status, payload = _raw_http(ontul_server.url, b"HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 200 and payload == b""
    for method in ("HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"):
        request = f"{method} /admin/query/execute HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
        status, payload = _raw_http(ontul_server.url, request.encode())
        assert status == 405, method
        assert payload == b"" if method == "HEAD" else json.loads(payload)["error"]


def test_stop_closes_keep_alive_connections(
    demo_database: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    from embedded.ontul.server import OntulServer

    server = OntulServer(copy_database(demo_database[0], tmp_path), today=date.today()).start()
    parts = urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        conn.request("GET", "/health")
        first = conn.getresponse()
        assert first.status == 200 and json.loads(first.read())["status"] == "ok"
        server.stop()
        conn.auto_open = 0
        with pytest.raises((http.client.HTTPException, OSError)):
            conn.request("GET", "/health")
            conn.getresponse()
    finally:
        conn.close()
        server.stop()


# --- issue 10: bounded requests, malformed input, audit outcomes, idempotency ---

W1000 = "printf('%.1000c', 'x')"


@pytest.mark.parametrize(
    ("statement", "needle"),
    [
        # one instr over 4 MiB operands ran 20-78 s inside a single call
        (
            f"SELECT instr(replace({W1000}, 'x', {W1000}), replace({W1000}, 'x', {W1000}) || 'b')"
            f" FROM {EMP}",
            "too big",
        ),
        (
            f"SELECT length(replace(replace({W1000}, 'x', {W1000}), 'x', 'yy')) FROM {EMP}",
            "too big",
        ),
        (f"SELECT trim(성명, printf('%.1000c', 'x')) FROM {EMP}", "trim"),
        (f"SELECT 1 FROM {EMP} WHERE 성명 LIKE '%{'a' * 1200}'", "LIKE"),
        # 20 rows x 4 MB answered 80 MB; now each value is capped and so is the result
        (
            f"SELECT replace({W1000}, 'x', printf('%.60c', 'y')) FROM semantic.reg.version_history"
            " a, semantic.reg.doc_index b",
            "larger than",
        ),
    ],
    ids=["instr", "replace", "trim", "like", "bytes"],
)
def test_single_calls_and_results_are_bounded(
    attack: Callable[[str, str], dict[str, Any]], statement: str, needle: str
) -> None:
    data = attack("hong", statement)
    assert data["status"] == "error" and needle in data["error"], data


LONE_SURROGATE = b'"\\ud800"'


def _post_raw(url: str, path: str, body: bytes, token: str | None = None) -> requests.Response:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return requests.post(f"{url}{path}", data=body, headers=headers, timeout=10)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/admin/auth/login", b'{"username": "hong", "password": ' + LONE_SURROGATE + b"}"),
        ("/admin/auth/login", b'{"username": ' + LONE_SURROGATE + b', "password": "x"}'),
        ("/admin/auth/refresh", b'{"refreshToken": ' + LONE_SURROGATE + b"}"),
        ("/admin/query/execute", b'{"sql": ' + LONE_SURROGATE + b"}"),
        (SEARCH, b'{"args": {"q": ' + LONE_SURROGATE + b"}}"),
        (OBJECTS, b'{"filters": {"doc_no": ' + LONE_SURROGATE + b"}}"),
        (OBJECTS, b'{"filters": {"doc_no": 9223372036854775808}}'),
        (OBJECTS, b'{"filters": {"doc_no": -9223372036854775809}}'),
        (OBJECTS, b'{"filters": {"doc_no": 1e999}}'),
        (LINKS.format("derives_from"), b'{"sourceKey": ' + LONE_SURROGATE + b"}"),
        (
            ACTION,
            b'{"args": {"doc_no": "HR-REG-003", "version": 9223372036854775808, "reason": "x"}}',
        ),
        (ACTION, b'{"args": {"doc_no": ' + LONE_SURROGATE + b', "version": 1, "reason": "x"}}'),
        (
            ACTION,
            b'{"args": {"doc_no": "HR-REG-003", "version": 3, "reason": "x"}, '
            b'"idempotencyKey": "a\\u0000b"}',
        ),
        (
            "/api/v1/retrievers/semantic.rag.authority_trace/invoke",
            b'{"args": {"doc_id": 99999999999999999999}}',
        ),
        (SEARCH, b'{"args": {"q": "x"}, "maxRows": 9223372036854775808}'),
        ("/admin/query/execute", b'{"sql": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
        ("/admin/query/execute", b'{"\\udfff": 1, "sql": "SELECT 1"}'),
    ],
    ids=lambda v: v if isinstance(v, str) else v[:40].decode("utf-8", "replace"),
)
def test_malformed_json_is_400_on_every_endpoint(
    ontul_server: OntulServer, token_of: Callable[[str], str], path: str, body: bytes
) -> None:
    resp = _post_raw(ontul_server.url, path, body, token_of("hong"))
    assert resp.status_code == 400, resp.text
    assert resp.json()["error"]


@pytest.mark.parametrize("method", ["TRACE", "CONNECT", "PROPFIND", "BREW"])
@pytest.mark.parametrize("path", ["/admin/query/execute", "/health", "/nowhere"])
def test_every_other_method_is_405_json_with_allow(
    ontul_server: OntulServer, method: str, path: str
) -> None:
    target = "127.0.0.1:1" if method == "CONNECT" else path
    request = f"{method} {target} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
    parts = urlsplit(ontul_server.url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        conn.connect()
        assert conn.sock is not None
        conn.sock.sendall(request.encode())
        resp = http.client.HTTPResponse(conn.sock, method=method)
        resp.begin()
        assert resp.status == 405
        assert resp.getheader("Allow")
        assert resp.getheader("Content-Type", "").startswith("application/json")
        assert json.loads(resp.read())["error"]
    finally:
        conn.close()


def test_bad_request_line_is_json(ontul_server: OntulServer) -> None:
    status, payload = _raw_http(ontul_server.url, b"GET /health HTTP/9.9\r\n\r\n")
    assert status >= 400 and json.loads(payload)["error"]


@pytest.fixture
def impatient_server(
    demo_database: tuple[Path, dict[str, Any]], tmp_path: Path
) -> Iterator[OntulServer]:
    from embedded.ontul.server import OntulServer

    server = OntulServer(
        copy_database(demo_database[0], tmp_path),
        today=date.today(),
        idle_timeout_s=0.3,
        request_timeout_s=0.3,
    ).start()
    yield server
    server.stop()


def _closed_by_server(url: str, first_bytes: bytes) -> bytes:
    """Send ``first_bytes`` and wait (up to 10 s) for the server to answer and close."""
    import socket

    parts = urlsplit(url)
    with socket.create_connection((parts.hostname or "", parts.port or 0), timeout=10) as sock:
        if first_bytes:
            sock.sendall(first_bytes)
        received = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return received  # closed by the server
            received += chunk


@pytest.mark.parametrize(
    "first_bytes",
    [
        b"",
        b"POST /admin/query/exe",
        b"POST /admin/query/execute HTTP/1.1\r\nHost: x\r\n",
        b"POST /admin/query/execute HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"sql": ',
    ],
    ids=["idle", "half-sent line", "half-sent headers", "half-sent body"],
)
def test_idle_and_half_sent_connections_are_closed(
    impatient_server: OntulServer, first_bytes: bytes
) -> None:
    received = _closed_by_server(impatient_server.url, first_bytes)
    if b"Content-Length: 100" in first_bytes:
        assert received.startswith(b"HTTP/1.1 408"), received
        assert b'"error"' in received


def test_keep_alive_still_serves_several_requests(impatient_server: OntulServer) -> None:
    parts = urlsplit(impatient_server.url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        for _ in range(3):
            conn.request("GET", "/health")
            assert conn.getresponse().read() == b'{"status": "ok"}'
    finally:
        conn.close()


def test_audit_rows_tell_the_outcome(private_server: OntulServer) -> None:
    hong, admin = login(private_server.url, "hong"), login(private_server.url, "admin")
    statements = {
        "ran": f"SELECT count(*) FROM {EMP}",
        "refused": "SELECT * FROM hr_employees",
        "denied": f"SELECT {NID} FROM {EMP}",
        "failed": f"SELECT abs(-9223372036854775807 - 1) FROM {EMP}",
        "capped": f"SELECT replace({W1000}, 'x', printf('%.60c', 'y')) FROM "
        "semantic.reg.version_history a, semantic.reg.doc_index b",
    }
    for statement in statements.values():
        call(private_server.url, hong, "/admin/query/execute", {"sql": statement})
    rows = requests.get(
        f"{private_server.url}/admin/audit?user=hong&action=data:Select&limit=50",
        headers={"Authorization": f"Bearer {admin}"},
        timeout=10,
    ).json()["rows"]
    by_query = {r["query"]: r for r in rows}
    outcome = {k: (by_query[s]["decision"], by_query[s]["reason"]) for k, s in statements.items()}
    assert outcome["ran"] == ("ALLOW", None)
    assert outcome["refused"][0] == "DENY" and "unknown relation" in outcome["refused"][1]
    assert outcome["denied"][0] == "DENY" and NID in outcome["denied"][1]
    assert outcome["failed"] == ("ERROR", "integer overflow")
    assert outcome["capped"][0] == "ERROR" and "larger than" in outcome["capped"][1]
    assert len(rows) == len(statements)  # one row per statement, none written ahead


def test_idempotency_keys_are_scoped_per_caller(
    private_server: OntulServer, ground_truth: dict[str, Any]
) -> None:
    """Issue 10 item 2: cho's key on a restricted document must not answer hong 409."""
    url = private_server.url
    hong, cho = login(url, "hong"), login(url, "cho")
    restricted = ground_truth["restricted"]["doc_no"]
    version = _raw(
        private_server.db_path,
        f"SELECT max(version) FROM regulation_versions WHERE doc_no = '{restricted}'",
    )[0][0]
    key = "shared-key-001"
    secret = {"doc_no": restricted, "version": version, "reason": "검토"}
    first = _post(url, cho, ACTION, {"args": secret, "idempotencyKey": key})
    assert first.json()["status"] == "OK"  # control: the key is in the ledger now
    mine = {"doc_no": "HR-REG-003", "version": 3, "reason": "검토"}
    resp = _post(url, hong, ACTION, {"args": mine, "idempotencyKey": key})
    assert resp.status_code == 200 and resp.json()["status"] == "OK", resp.text
    again = _post(url, hong, ACTION, {"args": mine, "idempotencyKey": key})
    assert again.json()["status"] == "REPLAYED"
    assert again.json()["requestId"] == resp.json()["requestId"]
    replay = _post(url, cho, ACTION, {"args": secret, "idempotencyKey": key})
    assert replay.json()["requestId"] == first.json()["requestId"]
    other = _post(url, hong, ACTION, {"args": {**mine, "version": 2}, "idempotencyKey": key})
    assert other.status_code == 409  # hong's own key, another document: still refused
    ledger = _raw(
        private_server.db_path,
        "SELECT requested_by, idempotency_key FROM revision_requests ORDER BY request_id",
    )
    assert ("cho", key) in ledger and ("hong", f"{key}\x1fhong") in ledger


@pytest.mark.parametrize("user", ["hong", "cho", "admin"])
def test_quoted_unknown_name_is_an_error_not_a_string(
    attack: Callable[[str, str], dict[str, Any]], user: str
) -> None:
    """Issue 9 item 3: the reference client's quoted Korean names resolve or fail."""
    wrong = attack(user, 'SELECT "문서번호" FROM semantic.reg.doc_index')
    assert wrong == {**wrong, "status": "error", "error": "no such column: 문서번호"}
    where = attack(
        user, "SELECT doc_no FROM semantic.reg.doc_index WHERE \"문서번호\" = 'HR-REG-003'"
    )
    assert where["status"] == "error" and where["error"] == "no such column: 문서번호"
    right = attack(
        user,
        'SELECT "문서번호", "개정차수" FROM semantic.reg.pending_revisions '
        "WHERE \"문서번호\" = 'HR-REG-003'",
    )
    assert right["status"] == "ok" and right["rows"], right
    assert {r[0] for r in right["rows"]} == {"HR-REG-003"}
    assert [c["name"] for c in right["columns"]] == ["문서번호", "개정차수"]


def test_failed_object_query_is_audited_with_reason(private_server: OntulServer) -> None:
    hong, admin = login(private_server.url, "hong"), login(private_server.url, "admin")
    resp = call(private_server.url, hong, OBJECTS, {"select": ["doc_no", "body_redacted"]})
    assert resp.status_code == 400
    rows = requests.get(
        f"{private_server.url}/admin/audit?user=hong&action=data:SelectTable&limit=5",
        headers={"Authorization": f"Bearer {admin}"},
        timeout=10,
    ).json()["rows"]
    assert rows[0]["decision"] == "DENY" and "body_redacted" in rows[0]["reason"], rows


def test_a_wide_statement_is_refused_before_it_can_fill_memory(
    ontul_server: OntulServer, token_of: Callable[[str], str]
) -> None:
    """A row is built whole before it is measured, so its width is bounded too."""

    def select(columns: int) -> dict[str, Any]:
        cells = ", ".join(f"printf('%.8c', 'x') AS c{i}" for i in range(columns))
        statement = f"SELECT {cells} FROM semantic.reg.doc_index LIMIT 1"
        path = "/admin/query/execute"
        return dict(call(ontul_server.url, token_of("hong"), path, {"sql": statement}).json())

    narrow = select(20)  # the positive control: the same shape, narrow, runs
    assert narrow["status"] == "ok" and len(narrow["columns"]) == 20
    wide = select(400)
    assert wide["status"] == "error" and "column" in wide["error"].lower()
