"""Row security is a barrier: no caller expression ever runs on a hidden row (SPEC §2).

Issue 10 item 1: with each relation inlined as ``(SELECT ... WHERE filter)``,
SQLite flattened it or pushed the caller's ON/WHERE terms into it, so
``abs(CASE WHEN x.title = '<guess>' THEN -9223372036854775807-1 ELSE 1 END)``
raised "integer overflow" exactly when a restricted row with that title
existed. The rewriter now materializes every filtered relation first.

Three proofs, all against the real demo database, policies and guarded SQLite:

* **Outcome identity** (hypothesis): over every SQL relation, every join and
  query shape and raising / slow / counting predicates, a statement naming a
  value that exists only in rows the persona may not see answers exactly what
  the same statement naming a value that exists nowhere answers (rows,
  columns, status, error text). The positive control: admin, who sees every
  row, gets the error / the different count from the same statements.
* **No evaluation** (hypothesis): with SQLite's ``unicode()`` replaced by a
  recorder on a test connection, the values a caller predicate was evaluated
  on are all values the persona may see; the same statements with the barrier
  removed (``AS NOT MATERIALIZED``) do record hidden values for some shapes,
  so the recorder would notice a regression.
* **Slow predicates**: a predicate that loops forever on a hidden value never
  reaches the deadline for hong; admin's identical statement is interrupted.

Statements run through ``Api.execute_sql`` (the endpoint's own code, audit
included) without HTTP, so hundreds of examples take seconds; the HTTP path
is covered by the last tests here and by ``test_platform_redteam.py``.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from embedded.ontul.auth import TokenService, UserStore
from embedded.ontul.guarded_sqlite import CALLER_VALUE_BYTES, open_read_only
from embedded.ontul.http_api import Api
from embedded.ontul.policy import UserRecord, sql_quote
from embedded.ontul.relations import RELATIONS
from embedded.ontul.request_bodies import SqlBody
from embedded.ontul.testing import call, copy_database, login

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from embedded.ontul.server import OntulServer

SQL_RELATIONS = tuple(sorted(name for name, r in RELATIONS.items() if r.sql_visible))
PERSONAS = ("hong", "park")
CONTROL = "admin"

# {R} the relation under test (alias x), {O} another relation (alias o), {p} the
# predicate over x.{c}. Every shape evaluates {p} on every row of R for a caller
# who sees every row (so the control must notice), none of them stops early.
SHAPES: dict[str, str] = {
    "where": "SELECT count(*) FROM {R} x WHERE {p}",
    "inner_on": "SELECT count(*) FROM {O} o JOIN {R} x ON {p}",
    "left_on": "SELECT count(*) FROM {O} o LEFT JOIN {R} x ON {p}",
    "left_r_first": "SELECT count(*) FROM {R} x LEFT JOIN {O} o ON {p}",
    "right_on": "SELECT count(*) FROM {O} o RIGHT JOIN {R} x ON {p}",
    "full_on": "SELECT count(*) FROM {O} o FULL JOIN {R} x ON {p}",
    "cross_where": "SELECT count(*) FROM {O} o CROSS JOIN {R} x WHERE {p}",
    "comma_where": "SELECT count(*) FROM {O} o, {R} x WHERE {p}",
    "self_join": "SELECT count(*) FROM {R} y JOIN {R} x ON {p}",
    "derived": "SELECT count(*) FROM (SELECT * FROM {R}) AS x WHERE {p}",
    "derived_inside": "SELECT count(*) FROM (SELECT * FROM {R} x WHERE {p}) AS d",
    "cte": "WITH c AS (SELECT * FROM {R}) SELECT count(*) FROM c AS x WHERE {p}",
    "cte_materialized": (
        "WITH c AS MATERIALIZED (SELECT * FROM {R} x WHERE {p}) SELECT count(*) FROM c"
    ),
    "cte_twice": ("WITH c AS (SELECT * FROM {R}) SELECT count(*) FROM c AS y JOIN c AS x ON {p}"),
    "union_all": (
        "SELECT count(*) FROM (SELECT 1 AS k FROM {R} x WHERE {p} UNION ALL SELECT 2 FROM {O} o)"
    ),
    "union": (
        "SELECT count(*) FROM (SELECT x.{c} AS k FROM {R} x WHERE {p} UNION SELECT NULL FROM {O} o)"
    ),
    "intersect": (
        "SELECT count(*) FROM (SELECT 1 FROM {R} x WHERE {p} INTERSECT SELECT 1 FROM {O} o)"
    ),
    "except": ("SELECT count(*) FROM (SELECT 1 FROM {O} o EXCEPT SELECT 1 FROM {R} x WHERE {p})"),
    "scalar": "SELECT (SELECT count(*) FROM {R} x WHERE {p}) FROM {O} o LIMIT 1",
    "exists": "SELECT count(*) FROM {O} o WHERE EXISTS (SELECT 1 FROM {R} x WHERE {p})",
    "in_subquery": "SELECT count(*) FROM {O} o WHERE 1 IN (SELECT 1 FROM {R} x WHERE {p})",
    "correlated": ("SELECT count(*) FROM {O} o WHERE (SELECT count(*) FROM {R} x WHERE {p}) >= 0"),
    "select_list": "SELECT sum(CASE WHEN {p} THEN 1 ELSE 0 END) FROM {R} x",
    "having": (
        "SELECT count(*) FROM {R} x GROUP BY x.{c} HAVING sum(CASE WHEN {p} THEN 1 ELSE 0 END) >= 0"
    ),
    "group_by": "SELECT count(*) FROM {R} x GROUP BY CASE WHEN {p} THEN 1 ELSE 0 END",
    "order_by": ("SELECT x.{c} FROM {R} x ORDER BY CASE WHEN {p} THEN 0 ELSE 1 END, x.{c} LIMIT 1"),
    "window": ("SELECT count(*) OVER (PARTITION BY CASE WHEN {p} THEN 1 ELSE 0 END) FROM {R} x"),
}

# Predicates over x.{c} and the literal {v}; false (or 0) on every other row.
FAMILIES: dict[str, str] = {
    "overflow": "abs(CASE WHEN x.{c} = {v} THEN -9223372036854775807 - 1 ELSE 1 END) < 0",
    "too_big": (
        "length(CASE WHEN x.{c} = {v} THEN replace(printf('%.1000c', 'a'), 'a', "
        "printf('%.1000c', 'b')) ELSE '' END) > 1"
    ),
    "slow": (
        "(x.{c} = {v} AND (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r "
        "WHERE n < 3000 + length(x.{c}) * 0) SELECT count(*) FROM r) > 0)"
    ),
    "count": "x.{c} = {v}",
    "count_is": "x.{c} IS {v}",
    "count_in": "x.{c} IN ({v}, NULL)",
}
# Planner nudges: the same predicate under likelihood hints (they change SQLite's
# cost estimates and so its join order and term order) and as a constant-folded AND.
HINTS = ("{p}", "likely({p})", "unlikely({p})", "(({p}) AND 1)")
RAISING = {"overflow": "integer overflow", "too_big": "string or blob too big"}
# The result these shapes report does not depend on how many rows {p} matches:
# a counting predicate is invisible in them even for the control (raising ones
# are not: every shape evaluates {p} on every row).
COUNT_BLIND = {
    "left_on",
    "left_r_first",
    "right_on",
    "full_on",
    "correlated",
    "having",
    "select_list",
}


@dataclass(repr=False)
class Platform:
    """The endpoint's implementation over a private copy of the demo database."""

    api: Api
    db: Path
    users: dict[str, UserRecord]
    _values: dict[tuple[str, str, str], frozenset[Any]] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"Platform({self.db.name})"

    def outcome(self, user: str, sql: str) -> dict[str, Any]:
        """What the SQL endpoint answers, minus the per-call id and timing."""
        data = self.api.execute_sql(self.users[user], SqlBody(sql=sql))
        return {k: v for k, v in data.items() if k not in ("queryId", "elapsedMs")}

    def values(self, user: str, relation: str, column: str) -> frozenset[Any]:
        """Distinct values of ``column`` the user sees in ``relation``."""
        key = (user, relation, column)
        if key not in self._values:
            data = self.outcome(user, f"SELECT DISTINCT x.{column} FROM {relation} x")
            assert data["status"] == "ok", data
            self._values[key] = frozenset(r[0] for r in data["rows"])
        return self._values[key]

    def columns(self, user: str, relation: str) -> list[str]:
        """Columns of ``relation`` the user may reference."""
        data = self.outcome(user, f"SELECT * FROM {relation} LIMIT 0")
        return [c["name"] for c in data["columns"]] if data["status"] == "ok" else []

    def hidden(self, user: str, relation: str, column: str) -> list[Any]:
        """Values of ``column`` that exist only in rows of ``relation`` hidden from ``user``."""
        everything = self.values(CONTROL, relation, column)
        return sorted(
            (v for v in everything - self.values(user, relation, column) if v is not None),
            key=repr,
        )


@pytest.fixture(scope="module")
def platform(
    demo_database: tuple[Path, dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Platform]:
    from embedded.ontul.server import OntulServer

    db = copy_database(demo_database[0], tmp_path_factory.mktemp("barrier"))
    server = OntulServer(db, today=date.today(), query_deadline_s=10.0)
    store = UserStore(db)
    users = {u: store.get(u) for u in (*PERSONAS, "cho", CONTROL)}
    assert all(users.values())
    api = Api(server.ctx, store, TokenService(), query_deadline_s=10.0)
    yield Platform(api, db, {k: v for k, v in users.items() if v is not None})
    server.stop()


def _literal(value: Any) -> str:
    return str(value) if isinstance(value, int) else sql_quote(value)


def _without_literal(text: str, value: Any) -> str:
    """``text`` with the literal of ``value`` (as a whole token) replaced by ``<v>``."""
    token = re.escape(_literal(value))
    return re.sub(rf"(?<![\w.]){token}(?![\w.])", "<v>", text)


def _absent(value: Any) -> Any:
    """A value of the same type and similar length that exists in no row."""
    return value + 1_000_003 if isinstance(value, int) else f"{value}~없음"


@dataclass(frozen=True)
class Case:
    user: str
    relation: str
    other: str
    column: str
    shape: str
    family: str
    hidden: Any
    hint: str = "{p}"

    def sql(self, value: Any) -> str:
        p = self.hint.format(p=FAMILIES[self.family].format(c=self.column, v=_literal(value)))
        return SHAPES[self.shape].format(R=self.relation, O=self.other, c=self.column, p=p)


@st.composite
def cases(draw: st.DrawFn, platform: Platform, families: tuple[str, ...]) -> Case:
    user = draw(st.sampled_from(PERSONAS))
    relation = draw(st.sampled_from(SQL_RELATIONS))
    other = draw(st.sampled_from(SQL_RELATIONS))
    columns = [c for c in platform.columns(user, relation) if platform.hidden(user, relation, c)]
    if not columns:  # every value of this relation is visible to the persona
        relation, columns = "semantic.reg.version_history", ["title"]
    column = draw(st.sampled_from(columns))
    hidden = draw(st.sampled_from(platform.hidden(user, relation, column)))
    return Case(
        user,
        relation,
        other,
        column,
        draw(st.sampled_from(sorted(SHAPES))),
        draw(st.sampled_from(families)),
        hidden,
        draw(st.sampled_from(HINTS)),
    )


SETTINGS = settings(
    max_examples=350,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def test_every_sql_relation_has_hidden_rows_for_the_personas(platform: Platform) -> None:
    """Sanity: the generators have hidden values to aim at in every relation."""
    for user in PERSONAS:
        assert any(
            platform.hidden(user, "semantic.reg.version_history", c)
            for c in platform.columns(user, "semantic.reg.version_history")
        )
        assert platform.hidden(user, "semantic.hr.employees", "사번")


@SETTINGS
@given(data=st.data())
def test_outcome_never_depends_on_hidden_rows(platform: Platform, data: st.DataObject) -> None:
    case = data.draw(cases(platform, tuple(FAMILIES)))
    absent = _absent(case.hidden)
    exists, missing = case.sql(case.hidden), case.sql(absent)

    def outcome(user: str, value: Any) -> dict[str, Any]:
        data = platform.outcome(user, case.sql(value))
        for column in data.get("columns", []):  # a computed column is named by its text
            column["name"] = _without_literal(column["name"], value)
        return data

    seen, unseen = outcome(case.user, case.hidden), outcome(case.user, absent)
    assert seen == unseen, f"{case.user} can tell {case.hidden!r} exists via {exists}"
    # positive control: admin sees the row, so the same statements differ for her
    control, control_absent = outcome(CONTROL, case.hidden), outcome(CONTROL, absent)
    assert control_absent["status"] == "ok", control_absent
    if case.family in RAISING:
        assert control["status"] == "error", (exists, control)
        assert RAISING[case.family] in control["error"]
    elif case.shape not in COUNT_BLIND:
        assert control != control_absent, (missing, control)


class Recorder:
    """``unicode(x)`` that remembers every value it was evaluated on."""

    def __init__(self) -> None:
        self.seen: set[Any] = set()

    def __call__(self, value: Any) -> int:
        self.seen.add(value)
        return 1


def _recorded(platform: Platform, user: str, sql: str, *, barrier: bool = True) -> set[Any]:
    rewritten = platform.api.ctx.rewriter.rewrite(sql, platform.users[user])
    text = rewritten.sql
    if not barrier:
        text = text.replace(" AS MATERIALIZED (", " AS NOT MATERIALIZED (")
    conn = open_read_only(platform.db, CALLER_VALUE_BYTES)
    recorder = Recorder()
    try:
        conn.create_function("unicode", 1, recorder, deterministic=True)
        conn.execute(text).fetchall()
    finally:
        conn.close()
    return recorder.seen


def _probe_sql(shape: str, relation: str, other: str, column: str) -> str:
    p = f"unicode(x.{column}) = 2"  # the recorder answers 1: false everywhere
    return SHAPES[shape].format(R=relation, O=other, c=column, p=p)


@SETTINGS
@given(data=st.data())
def test_caller_predicates_see_only_visible_rows(platform: Platform, data: st.DataObject) -> None:
    case = data.draw(cases(platform, ("count",)))
    sql = _probe_sql(case.shape, case.relation, case.other, case.column)
    seen = _recorded(platform, case.user, sql)
    visible = platform.values(case.user, case.relation, case.column)
    assert seen <= visible, f"{case.user}'s predicate saw {sorted(seen - visible, key=repr)[:3]}"


def test_recorder_catches_a_missing_barrier(platform: Platform) -> None:
    """Without MATERIALIZED the planner does evaluate caller predicates on hidden rows."""
    leaky = []
    for shape in sorted(SHAPES):
        sql = _probe_sql(shape, "semantic.reg.version_history", "semantic.reg.doc_index", "title")
        hidden = set(platform.hidden("hong", "semantic.reg.version_history", "title"))
        assert not _recorded(platform, "hong", sql) & hidden, shape
        if _recorded(platform, "hong", sql, barrier=False) & hidden:
            leaky.append(shape)
    assert "left_on" in leaky, leaky  # the shape of issue 10 item 1


def test_infinite_predicate_on_hidden_row_never_runs(
    demo_database: tuple[Path, dict[str, Any]], tmp_path: Path, ground_truth: dict[str, Any]
) -> None:
    """A slow predicate: forever on the restricted title, instant elsewhere."""
    from embedded.ontul.server import OntulServer

    server = OntulServer(
        copy_database(demo_database[0], tmp_path), today=date.today(), query_deadline_s=1.0
    ).start()
    try:
        admin = login(server.url, "admin")
        doc = ground_truth["restricted"]["doc_no"]
        title = call(
            server.url,
            admin,
            "/admin/query/execute",
            {"sql": f"SELECT title FROM semantic.reg.doc_index WHERE doc_no = '{doc}'"},
        ).json()["rows"][0][0]
        forever = (
            "(WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT max(n) FROM r)"
        )
        sql = (
            "SELECT count(*) FROM semantic.reg.doc_index d "
            "LEFT JOIN semantic.reg.version_history x "
            f"ON (CASE WHEN x.title = {sql_quote(title)} THEN {forever} ELSE 0 END) > 0"
        )
        hong = call(server.url, login(server.url, "hong"), "/admin/query/execute", {"sql": sql})
        assert hong.json()["status"] == "ok", hong.text
        control = call(server.url, admin, "/admin/query/execute", {"sql": sql}).json()
        assert control["status"] == "error" and "interrupted" in control["error"], control
    finally:
        server.stop()


def test_issue_probe_over_http(
    ontul_server: OntulServer, token_of: Any, ground_truth: dict[str, Any]
) -> None:
    """The statement from the issue, verbatim: hong's answer no longer depends on the title."""
    doc = ground_truth["restricted"]["doc_no"]
    title_sql = f"SELECT title FROM semantic.reg.doc_index WHERE doc_no = '{doc}'"
    title = call(
        ontul_server.url, token_of("admin"), "/admin/query/execute", {"sql": title_sql}
    ).json()["rows"][0][0]

    def probe(guess: str) -> str:
        return (
            "SELECT count(*) FROM semantic.reg.doc_index d "
            "LEFT JOIN semantic.reg.version_history x "
            f"ON abs(CASE WHEN x.title = {sql_quote(guess)} THEN -9223372036854775807-1 "
            "ELSE 1 END) > 0"
        )

    def answer(user: str, guess: str) -> dict[str, Any]:
        data = call(ontul_server.url, token_of(user), "/admin/query/execute", {"sql": probe(guess)})
        assert data.status_code == 200
        body = dict(data.json())
        return {k: v for k, v in body.items() if k not in ("queryId", "elapsedMs")}

    for user in ("hong", "park"):
        assert answer(user, title) == answer(user, title + " (없음)")
    assert answer("cho", title)["error"] == "integer overflow"  # control: cho sees it


def test_value_cap_is_what_the_too_big_family_needs() -> None:
    assert 1000 * 1000 > CALLER_VALUE_BYTES


def test_recorder_override_reaches_sqlite() -> None:
    conn = sqlite3.connect(":memory:")
    recorder = Recorder()
    conn.create_function("unicode", 1, recorder)
    conn.execute("SELECT unicode('probe')").fetchall()
    assert recorder.seen == {"probe"}
