"""SQL rewriter + guarded execution against a small fixture database."""

from __future__ import annotations

import sqlite3
import threading
import time
from datetime import date
from typing import TYPE_CHECKING

import pytest

from embedded.ontul.errors import PolicyDenied, QueryRefused
from embedded.ontul.guarded_sqlite import run_guarded
from embedded.ontul.policy import PolicyEngine, UserRecord, parse_policy
from embedded.ontul.sql_rewrite import SqlRewriter

if TYPE_CHECKING:
    from pathlib import Path

EMP_COLS = "사번, 성명, 부서, 직급, 연락처, 주민등록번호, 입사일, 비고"
ROWS = [
    ("1", "가", "DEV", "사원", "010-1111-2222", "900101-1234567", "2020-01-01", "CANARY-a"),
    ("2", "나", "DEV", "부장", "010-3333-4444", "800101-1234567", "2010-01-01", "CANARY-b"),
    ("3", "다", "HR", "과장", "010-5555-6666", "850101-2234567", "2015-01-01", "CANARY-c"),
]

POLICY = {
    "Name": "Fixture",
    "AttachTo": {"groups": ["general"]},
    "Statement": [
        {
            "Effect": "Allow",
            "Action": ["data:Select"],
            "Resource": ["semantic.hr.*"],
            "Condition": "사번 = ${user.attr.emp_no}",
        },
        {
            "Effect": "Deny",
            "Action": ["data:*"],
            "Resource": ["semantic.hr.employees"],
            "Columns": ["주민등록번호"],
        },
        {
            "Effect": "Mask",
            "Action": ["data:Select"],
            "Resource": ["semantic.hr.employees"],
            "MaskedColumns": {"연락처": "substr(연락처, 1, 4) || '****'"},
        },
    ],
}
HR_POLICY = {
    "Name": "Hr",
    "AttachTo": {"users": ["hr1"]},
    "Statement": [{"Effect": "Allow", "Action": ["data:Select"], "Resource": ["semantic.hr.*"]}],
}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rw") / "fx.sqlite"
    conn = sqlite3.connect(path)
    conn.execute(f"CREATE TABLE hr_employees({EMP_COLS})")
    conn.executemany("INSERT INTO hr_employees VALUES (?,?,?,?,?,?,?,?)", ROWS)
    conn.execute("CREATE TABLE secrets(x)")
    conn.execute("INSERT INTO secrets VALUES ('top')")
    conn.commit()
    conn.close()
    return path


def user(uid: str, groups: tuple[str, ...], **attrs: str) -> UserRecord:
    return UserRecord(uid, uid, False, True, groups, dict(attrs))


ENGINE = PolicyEngine([parse_policy(POLICY), parse_policy(HR_POLICY)])
RW = SqlRewriter(ENGINE, date(2025, 6, 1))
EMP = user("emp", ("general",), emp_no="1")
HR = user("hr1", ("hr",))
ADMIN = UserRecord("root", "root", True, True, ("admins",), {})


def run(db: Path, sql: str, who: UserRecord) -> list[list[object]]:
    q = RW.rewrite(sql, who)
    return run_guarded(db, q.sql, tables=q.tables, denied_reads=q.denied_reads)[1]


def test_row_filter_before_aggregate(db: Path) -> None:
    sql = "SELECT count(*) FROM semantic.hr.employees"
    assert run(db, sql, HR) == [[3]]
    assert run(db, sql, EMP) == [[1]]


def test_or_predicate_cannot_escape_filter(db: Path) -> None:
    sql = "SELECT 사번 FROM semantic.hr.employees WHERE 1=1 OR 사번 <> '1' ORDER BY 사번"
    assert [r[0] for r in run(db, sql, HR)] == ["1", "2", "3"]
    assert [r[0] for r in run(db, sql, EMP)] == ["1"]


def test_star_omits_denied_and_masks(db: Path) -> None:
    rows = run(db, "SELECT * FROM semantic.hr.employees", EMP)
    assert len(rows[0]) == 7
    assert "900101-1234567" not in rows[0]
    assert rows[0][4] == "010-****"


def test_masked_value_hidden_from_predicates(db: Path) -> None:
    sql = "SELECT 사번 FROM semantic.hr.employees WHERE 연락처 LIKE '010-1111%'"
    assert run(db, sql, HR) == [["1"]]
    assert run(db, sql, EMP) == []


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT 주민등록번호 FROM semantic.hr.employees",
        "SELECT 성명 FROM semantic.hr.employees WHERE 주민등록번호 LIKE '9%'",
        "SELECT 성명 FROM semantic.hr.employees ORDER BY 주민등록번호",
        "SELECT count(*) FROM semantic.hr.employees GROUP BY 주민등록번호",
        "SELECT 부서 FROM semantic.hr.employees GROUP BY 1 HAVING max(주민등록번호) > ''",
        "SELECT substr(e.주민등록번호, 1, 2) FROM semantic.hr.employees e",
        "SELECT 성명 FROM semantic.hr.employees WHERE 사번 IN "
        "(SELECT 사번 FROM semantic.hr.employees WHERE \"주민등록번호\" > '')",
        "WITH x AS (SELECT 주민등록번호 AS n FROM semantic.hr.employees) SELECT n FROM x",
        "SELECT a.성명 FROM semantic.hr.employees a JOIN semantic.hr.employees b "
        "ON a.주민등록번호 = b.주민등록번호",
    ],
)
def test_denied_column_everywhere(sql: str) -> None:
    RW.rewrite(sql, HR)  # HR has no deny: the statement itself is valid
    with pytest.raises(QueryRefused, match="주민등록번호"):
        RW.rewrite(sql, EMP)


@pytest.mark.parametrize(
    ("sql", "needle"),
    [
        ("DELETE FROM semantic.hr.employees", "SELECT"),
        ("SELECT 1; SELECT 2", "one"),
        ("SELECT * FROM sqlite_master", "system"),
        ("SELECT * FROM hr_employees", "unknown relation"),
        ("SELECT * FROM secrets", "unknown relation"),
        ("SELECT load_extension('x') FROM semantic.hr.employees", "load_extension"),
        ("PRAGMA table_info(hr_employees)", "SELECT|not allowed"),
        ("ATTACH DATABASE 'x' AS y", "SELECT|not allowed"),
        ("SELECT * FROM json_each('[1]')", "json_each|table-valued"),
        ("SELEC oops", "parse|only SELECT"),
        ("SELECT 1", "no semantic relation"),
    ],
)
def test_refused_statements(sql: str, needle: str) -> None:
    with pytest.raises(QueryRefused, match=needle):
        RW.rewrite(sql, HR)


def test_ungranted_relation_denied() -> None:
    nobody = user("x", ("none",))
    with pytest.raises(PolicyDenied):
        RW.rewrite("SELECT * FROM semantic.hr.employees", nobody)


def test_missing_attr_fails_closed(db: Path) -> None:
    no_attrs = user("y", ("general",))
    assert run(db, "SELECT 사번 FROM semantic.hr.employees", no_attrs) == []


def test_injection_in_attr_is_quoted(db: Path) -> None:
    evil = user("z", ("general",), emp_no="1' OR '1'='1")
    assert run(db, "SELECT 사번 FROM semantic.hr.employees", evil) == []


def test_authorizer_blocks_other_tables(db: Path) -> None:
    with pytest.raises(QueryRefused, match=r"prohibited|not authorized"):
        run_guarded(db, "SELECT x FROM secrets", tables=frozenset({"hr_employees"}))
    with pytest.raises(QueryRefused, match=r"prohibited|not authorized"):
        run_guarded(
            db,
            "SELECT 주민등록번호 FROM hr_employees",
            tables=frozenset({"hr_employees"}),
            denied_reads=frozenset({("hr_employees", "주민등록번호")}),
        )
    assert run_guarded(db, "SELECT x FROM secrets", tables=frozenset({"secrets"}))[1] == [["top"]]


def test_pooled_statement_reauthorised_under_a_narrower_grant(db: Path) -> None:
    """A statement prepared (and cached) under a wide grant must not run under a narrow one."""
    sql = "SELECT x FROM secrets WHERE x <> 'pool'"
    for _ in range(3):
        assert run_guarded(db, sql, tables=frozenset({"secrets"}))[1] == [["top"]]
        with pytest.raises(QueryRefused, match=r"prohibited|not authorized"):
            run_guarded(db, sql, tables=frozenset({"hr_employees"}))
    cols = "SELECT 주민등록번호 FROM hr_employees WHERE 사번 = '1'"
    assert run_guarded(db, cols, tables=frozenset({"hr_employees"}))[1] == [["900101-1234567"]]
    with pytest.raises(QueryRefused, match=r"prohibited|not authorized"):
        run_guarded(
            db,
            cols,
            tables=frozenset({"hr_employees"}),
            denied_reads=frozenset({("hr_employees", "주민등록번호")}),
        )


def test_read_only_connection(db: Path) -> None:
    with pytest.raises(QueryRefused):
        run_guarded(db, "DELETE FROM secrets", tables=frozenset({"secrets"}))


def test_admin_reads_physical_tables_others_do_not(db: Path) -> None:
    sql = "SELECT count(*) FROM hr_employees WHERE 부서 = 'DEV'"
    assert run(db, sql, ADMIN) == [[2]]
    q = RW.rewrite(sql, ADMIN)
    assert q.tables == frozenset({"hr_employees"}) and q.relations == ("hr_employees",)
    for who in (HR, EMP):
        with pytest.raises(QueryRefused, match="unknown relation hr_employees"):
            RW.rewrite(sql, who)


@pytest.mark.parametrize(
    ("sql", "needle"),
    [
        ("SELECT * FROM sqlite_master", "system"),
        ("SELECT * FROM secrets", "unknown relation"),
        ("SELECT * FROM main.hr_employees", "unknown relation"),
        ("SELECT load_extension('x') FROM hr_employees", "load_extension"),
        ("PRAGMA table_info(hr_employees)", "SELECT|not allowed"),
        ("DELETE FROM hr_employees", "SELECT"),
        ("SELECT 1; SELECT 2", "one"),
    ],
)
def test_admin_sql_still_bounded(sql: str, needle: str) -> None:
    with pytest.raises(QueryRefused, match=needle):
        RW.rewrite(sql, ADMIN)


def test_admin_never_reads_credentials(tmp_path: Path) -> None:
    path = tmp_path / "u.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE users(user_id, password_salt, password_hash)")
    conn.execute("INSERT INTO users VALUES ('a', 's', 'h')")
    conn.commit()
    conn.close()
    q = RW.rewrite("SELECT user_id FROM users", ADMIN)
    assert run_guarded(path, q.sql, tables=q.tables, denied_reads=q.denied_reads)[1] == [["a"]]
    q = RW.rewrite("SELECT password_hash FROM users", ADMIN)
    with pytest.raises(QueryRefused, match=r"prohibited|not authorized"):
        run_guarded(path, q.sql, tables=q.tables, denied_reads=q.denied_reads)


# --- name resolution: a quoted name that names no column is an error (issue 9 item 3) ---


@pytest.mark.parametrize(
    ("sql", "name"),
    [
        ('SELECT "문서번호" FROM semantic.hr.employees', "문서번호"),
        ("SELECT 사번 FROM semantic.hr.employees WHERE \"문서번호\" = 'HR-REG-003'", "문서번호"),
        ('SELECT e."없는열" FROM semantic.hr.employees e', "e.없는열"),
        ('SELECT 사번 FROM semantic.hr.employees WHERE 직급 = "부장"', "부장"),
        ('SELECT count(*) FROM semantic.hr.employees GROUP BY "nope"', "nope"),
    ],
)
def test_unknown_quoted_name_is_no_such_column(db: Path, sql: str, name: str) -> None:
    with pytest.raises(QueryRefused, match=f"no such column: {name}"):
        run(db, sql, HR)


def test_quoted_names_of_real_columns_still_work(db: Path) -> None:
    sql = 'SELECT "사번", e."성명" AS "이름" FROM semantic.hr.employees e WHERE "부서" = \'HR\''
    q = RW.rewrite(sql, HR)
    assert '"' not in q.sql.replace('"\'"', "")  # SQLite never sees a double-quoted name
    assert run_guarded(db, q.sql, tables=q.tables)[0][1]["name"] == "이름"
    assert run(db, sql, HR) == [["3", "다"]]


def test_computed_columns_are_named_by_the_callers_text(db: Path) -> None:
    q = RW.rewrite("SELECT count(*), lower(사번) FROM semantic.hr.employees", HR)
    columns, _ = run_guarded(db, q.sql, tables=q.tables)
    assert [c["name"] for c in columns] == ["COUNT(*)", "LOWER(사번)"]
    assert "_rel_" in q.sql and not any("_rel_" in c["name"] for c in columns)


# --- the barrier: relations are materialized before the caller's SQL runs ---


def test_each_relation_is_one_materialized_cte(db: Path) -> None:
    q = RW.rewrite(
        "SELECT a.사번 FROM semantic.hr.employees a JOIN semantic.hr.employees b USING (사번)", EMP
    )
    assert q.sql.count("AS MATERIALIZED (") == 1
    assert q.sql.startswith("WITH _rel_1 AS MATERIALIZED (")
    assert run(
        db,
        "SELECT a.사번 FROM semantic.hr.employees a JOIN semantic.hr.employees b USING (사번)",
        EMP,
    ) == [["1"]]


def test_caller_cte_joins_the_barrier_list(db: Path) -> None:
    sql = (
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3), "
        "mine AS (SELECT 사번 FROM semantic.hr.employees) SELECT count(*) FROM n, mine"
    )
    assert run(db, sql, EMP) == [[3]]
    assert run(db, sql, HR) == [[9]]


def test_leftjoin_on_predicate_never_sees_hidden_rows(db: Path) -> None:
    """Issue 10 item 1 in miniature: the error depends only on visible rows."""
    template = (
        "SELECT count(*) FROM semantic.hr.employees a LEFT JOIN semantic.hr.employees x "
        "ON abs(CASE WHEN x.성명 = '{}' THEN -9223372036854775807 - 1 ELSE 1 END) > 0"
    )
    with pytest.raises(QueryRefused, match="integer overflow"):
        run(db, template.format("다"), HR)  # control: HR sees 다's row
    assert run(db, template.format("다"), EMP) == run(db, template.format("없음"), EMP)


@pytest.mark.parametrize("name", ["_rel_1", "_REL_2", "_rel_x"])
def test_caller_may_not_name_a_cte_like_a_barrier(name: str) -> None:
    with pytest.raises(QueryRefused, match="WITH name"):
        RW.rewrite(
            f"WITH {name} AS (SELECT 1 AS a) SELECT a FROM {name}, semantic.hr.employees", HR
        )


def test_barrier_names_are_not_relations() -> None:
    with pytest.raises(QueryRefused, match="unknown relation"):
        RW.rewrite("SELECT * FROM semantic.hr.employees, _rel_1", HR)


# --- single function calls are bounded ---


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT trim(성명, printf('%s', 사번)) FROM semantic.hr.employees",
        "SELECT ltrim(성명, 사번) FROM semantic.hr.employees",
        "SELECT rtrim(성명, '" + "x" * 65 + "') FROM semantic.hr.employees",
    ],
)
def test_trim_character_sets_are_short_literals(sql: str) -> None:
    with pytest.raises(QueryRefused, match="trim"):
        RW.rewrite(sql, HR)


def test_strings_are_capped_per_value(db: Path) -> None:
    big = "replace(printf('%.1000c', 'x'), 'x', printf('%.1000c', 'y'))"
    with pytest.raises(QueryRefused, match="too big"):
        run(db, f"SELECT length({big}) FROM semantic.hr.employees", HR)
    assert run(db, "SELECT length(printf('%.1000c', 'x')) FROM semantic.hr.employees", EMP) == [
        [1000]
    ]


def test_result_byte_cap(db: Path) -> None:
    q = RW.rewrite("SELECT printf('%.1000c', 'x') FROM semantic.hr.employees", HR)
    with pytest.raises(QueryRefused, match="larger than"):
        run_guarded(db, q.sql, tables=q.tables, max_bytes=2000)
    assert len(run_guarded(db, q.sql, tables=q.tables, max_bytes=10_000)[1]) == 3


def test_deadline_interrupts(db: Path) -> None:
    q = RW.rewrite(
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
        "SELECT max(n) FROM r, semantic.hr.employees",
        HR,
    )
    with pytest.raises(QueryRefused, match="interrupted"):
        run_guarded(db, q.sql, tables=q.tables, deadline_s=0.2)
    assert run(db, "SELECT count(*) FROM semantic.hr.employees", HR) == [[3]]  # pool still fine


def test_watchdog_interrupts_a_statement_without_progress_handler() -> None:
    from embedded.ontul.guarded_sqlite import _Watchdog

    conn = sqlite3.connect(":memory:", check_same_thread=False)
    watchdog = _Watchdog()
    ticket = watchdog.watch(conn, time.monotonic() + 0.2)
    try:
        with pytest.raises(sqlite3.OperationalError, match="interrupted"):
            conn.execute(
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
                "SELECT max(n) FROM r"
            ).fetchall()
    finally:
        watchdog.done(ticket)
    assert watchdog.interrupts == 1
    assert conn.execute("SELECT 1").fetchall() == [(1,)]  # the next statement is not hit
    conn.close()


def _runaway(conn: sqlite3.Connection, started: threading.Event) -> threading.Thread:
    """A statement that never ends by itself, running in a thread once ``started`` is set."""

    def arrived() -> int:
        started.set()
        return 1

    conn.create_function("arrived", 0, arrived)
    outcome: list[str] = []

    def run() -> None:
        try:
            conn.execute(
                "WITH RECURSIVE r(n) AS (SELECT arrived() UNION ALL SELECT n + 1 FROM r) "
                "SELECT max(n) FROM r"
            ).fetchall()
            outcome.append("finished")
        except sqlite3.OperationalError as exc:
            outcome.append(str(exc))

    thread = threading.Thread(target=run, daemon=True)
    thread.outcome = outcome  # type: ignore[attr-defined]
    thread.start()
    return thread


def test_watchdog_reaches_statements_registered_while_it_sleeps() -> None:
    """It is woken only for a deadline earlier than its planned wake-up; both kinds are hit.

    Each statement is already running before its deadline is registered, so no
    scheduling delay can make an interrupt land on an idle connection.
    """
    from embedded.ontul.guarded_sqlite import _Watchdog

    watchdog = _Watchdog(idle_check_s=3600.0)
    first = sqlite3.connect(":memory:", check_same_thread=False)
    second = sqlite3.connect(":memory:", check_same_thread=False)
    runs = []
    try:
        # Idle: the loop plans to look again in an hour, so a 0.2 s deadline must wake it.
        watchdog.done(watchdog.watch(first, time.monotonic() + 60))
        for conn in (first, second):
            started = threading.Event()
            runs.append(_runaway(conn, started))
            assert started.wait(30)
        ticket = watchdog.watch(first, time.monotonic() + 0.2)
        # Due after the loop's next look: registered without a notify, found on that look.
        later = watchdog.watch(second, time.monotonic() + 0.4)
        for run in runs:
            run.join(30)  # a missed wake-up leaves it running: the asserts below say so
        still_running = [run.is_alive() for run in runs]
        watchdog.done(ticket)
        watchdog.done(later)
    finally:
        for conn in (first, second):
            conn.interrupt()  # never leave a runaway behind, whatever happened
        for run in runs:
            run.join(5)
        first.close()
        second.close()
    assert still_running == [False, False]
    assert watchdog.interrupts == 2
    assert [run.outcome for run in runs] == [["interrupted"], ["interrupted"]]  # type: ignore[attr-defined]
