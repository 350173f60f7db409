"""The access matrix against the real embedded platform (issue 15's done-when).

Expected row counts are read from the platform's database file (what the demo
generator wrote), persona facts from ``ground_truth.json``; nothing is typed
twice. Every "cannot see" assertion is paired with a persona who can.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sqlite3
from typing import TYPE_CHECKING, Any

import pytest

from agent_core.cli import main as cli_main
from agent_core.config import Endpoints
from agent_core.errors import AdminRefusedError
from agent_core.matrix.access import probe_access
from agent_core.matrix.catalog import catalog_from_dict, load_catalog
from agent_core.platform_client import PlatformClient
from agent_core.scenarios import persona_password
from resources import RESOURCES_DIR

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from tests.integration.conftest import Stack

PERSONAS = ("hong", "park", "cho")
CELL_KEYS = {"persona", "kind", "name", "status", "rows", "detail"}
LEAVE = "semantic.hr.leave_balance"
CONTACT = "semantic.hr.employees.연락처"
NATIONAL_ID = "semantic.hr.employees.주민등록번호"
ACTION = "reg.ontology.request_revision"


def _count(db: Path, sql: str, *params: Any) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return int(conn.execute(sql, params).fetchone()[0])


def _cli_json(capsys: pytest.CaptureFixture[str], endpoints: Endpoints, *argv: str) -> Any:
    code = cli_main(["matrix", *argv, "--json"], endpoints)
    out = capsys.readouterr().out
    return code, json.loads(out)


def _cells(doc: dict[str, Any]) -> dict[tuple[str, str, str], dict[str, Any]]:
    return {(c["persona"], c["kind"], c["name"]): c for c in doc["cells"]}


@pytest.fixture(scope="module")
def matrix_json(stack: Stack) -> dict[str, Any]:
    """``regdesk matrix --as hong,park,cho --json`` on the shared demo stack."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = cli_main(["matrix", "--as", ",".join(PERSONAS), "--json"], stack.endpoints)
    assert code == 0
    return dict(json.loads(buffer.getvalue()))


def test_json_is_the_flat_contract(matrix_json: dict[str, Any]) -> None:
    assert matrix_json["personas"] == list(PERSONAS)
    kinds = {"relation", "column", "document", "action"}
    statuses = {
        "visible", "masked", "denied", "hidden", "allowed", "not_probed", "not_observed", "error"
    }  # fmt: skip
    for cell in matrix_json["cells"]:
        assert set(cell) <= CELL_KEYS
        assert cell["kind"] in kinds and cell["status"] in statuses
        assert cell["persona"] in PERSONAS
    names = {c["name"] for c in matrix_json["cells"] if c["kind"] == "column"}
    assert CONTACT in names  # a column's name is relation.column
    keys = [(c["persona"], c["kind"], c["name"]) for c in matrix_json["cells"]]
    assert len(keys) == len(set(keys))


def test_leave_balance_rows_follow_the_row_filters(
    matrix_json: dict[str, Any], stack: Stack
) -> None:
    cells = _cells(matrix_json)
    people = stack.truth["personas"]
    db = stack.db_path
    expected = {
        "hong": _count(
            db, "SELECT count(*) FROM hr_leave WHERE 사번 = ?", people["hong"]["emp_no"]
        ),
        "park": _count(db, "SELECT count(*) FROM hr_leave WHERE 부서 = ?", people["park"]["dept"]),
        "cho": _count(db, "SELECT count(*) FROM hr_leave"),
    }
    assert 0 < expected["hong"] < expected["park"] < expected["cho"]
    for persona, rows in expected.items():
        cell = cells[(persona, "relation", LEAVE)]
        assert (cell["status"], cell.get("rows")) == ("visible", rows), persona


def test_columns_denied_and_masked(matrix_json: dict[str, Any]) -> None:
    cells = _cells(matrix_json)
    for persona in PERSONAS:
        assert cells[(persona, "column", NATIONAL_ID)]["status"] == "denied"
        assert "주민등록번호" in cells[(persona, "column", NATIONAL_ID)]["detail"]
    # power: the same probe reports the column visible where no mask applies
    assert cells[("cho", "column", CONTACT)]["status"] == "visible"
    assert cells[("hong", "column", CONTACT)]["status"] == "masked"
    assert cells[("park", "column", CONTACT)]["status"] == "masked"


def test_columns_without_values_are_not_observed(matrix_json: dict[str, Any]) -> None:
    """No value, no mask to see: such a column is not reported visible."""
    cells = _cells(matrix_json)
    orders = "semantic.hr.purchase_orders"
    assert cells[("hong", "relation", orders)]["rows"] == 0
    assert cells[("cho", "relation", orders)]["rows"] > 0
    for column in ("품목", "금액"):
        hong = cells[("hong", "column", f"{orders}.{column}")]
        assert hong["status"] == "not_observed" and "no rows" in hong["detail"]
        # power: the same probe on rows with values decides
        assert cells[("cho", "column", f"{orders}.{column}")]["status"] == "visible"
    for persona in PERSONAS:  # every version in the search result is in force: no end date
        cell = cells[(persona, "column", "semantic.rag.regulation_search.effective_to")]
        assert cell["status"] == "not_observed" and "empty or NULL" in cell["detail"]


def test_restricted_documents_visible_only_to_hr(matrix_json: dict[str, Any], stack: Stack) -> None:
    cells = _cells(matrix_json)
    restricted = stack.truth["restricted"]
    assert cells[("cho", "document", restricted["doc_no"])]["status"] == "visible"
    for doc_no in restricted["doc_nos"]:
        assert cells[("cho", "document", doc_no)]["status"] == "visible"
        assert "inconsistent" not in cells[("cho", "document", doc_no)]["detail"]
        for persona in ("hong", "park"):
            assert cells[(persona, "document", doc_no)]["status"] == "hidden", (persona, doc_no)


def test_write_action_is_not_probed_for_everyone(matrix_json: dict[str, Any]) -> None:
    cells = _cells(matrix_json)
    for persona in PERSONAS:
        cell = cells[(persona, "action", ACTION)]
        assert cell["status"] == "not_probed"
        assert "dry run" in cell["detail"]


def test_probing_writes_nothing_and_never_invokes_the_action(stack: Stack) -> None:
    db = stack.db_path
    invoked = "SELECT count(*) FROM audit_log WHERE action = 'ontology:InvokeAction'"
    before = (_count(db, "SELECT count(*) FROM revision_requests"), _count(db, invoked))
    clients = [
        PlatformClient(stack.endpoints.ontul_url, p, persona_password(stack.truth, p))
        for p in PERSONAS
    ]
    cells, probes = probe_access(clients, load_catalog())
    for client in clients:
        client.close()
    assert len(cells) == len(probes) > 0
    after = (_count(db, "SELECT count(*) FROM revision_requests"), _count(db, invoked))
    assert after == before


def test_probes_name_the_query_and_keep_no_row_values(
    matrix_json: dict[str, Any], stack: Stack
) -> None:
    probes = {(p["persona"], p["kind"], p["name"]): p for p in matrix_json["probes"]}
    leave = probes[("park", "relation", LEAVE)]
    assert leave["steps"][0]["request"].startswith("SELECT count(*)")
    denied = probes[("hong", "column", NATIONAL_ID)]
    assert any("주민등록번호" in s["outcome"] for s in denied["steps"])
    text = json.dumps(matrix_json, ensure_ascii=False)
    for persona in ("hong", "park"):
        leaked = [c for c in stack.truth["canaries"][persona] if c in text]
        assert not leaked, leaked[:3]


def test_access_matrix_refuses_admin(stack: Stack, capsys: pytest.CaptureFixture[str]) -> None:
    url = stack.endpoints.ontul_url
    admin = PlatformClient(url, "admin", persona_password(stack.truth, "admin"))
    with pytest.raises(AdminRefusedError):
        probe_access([admin], load_catalog())
    admin.close()
    assert cli_main(["matrix", "--as", "hong,admin", "--json"], stack.endpoints) == 2
    assert "administrator" in capsys.readouterr().err


FOREVER = (
    "(SELECT e.사번 FROM semantic.hr.employees e WHERE (WITH RECURSIVE r(n) AS "
    "(SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT max(n) FROM r) > 0)"
)
"""A "relation" whose count never finishes: the platform's SQL deadline interrupts it."""


def test_platform_errors_are_errors_not_policy_answers(stack: Stack, tmp_path: Path) -> None:
    """Catalog drift and a SQL deadline are ``error`` with the platform's message; only the
    policy's refusal (the denied column, in the same probe) is ``denied``."""
    from embedded.ontul.server import OntulServer
    from embedded.ontul.testing import copy_database

    drifted = catalog_from_dict(
        {
            "relations": [
                {"name": "semantic.hr.employees", "columns": ["사번", "주민등록번호", "직위"]},
                {"name": "semantic.hr.salaries", "columns": ["사번"]},
                {"name": FOREVER, "columns": ["사번"]},
            ],
            "retrievers": [{"name": "semantic.rag.gone", "columns": ["doc_no"], "args": {}}],
        },
        "drift",
    )
    server = OntulServer(copy_database(stack.db_path, tmp_path), query_deadline_s=0.5).start()
    clients = [PlatformClient(server.url, p, persona_password(stack.truth, p)) for p in PERSONAS]
    try:
        cells = {c.key: c for c in probe_access(clients, drifted)[0]}
    finally:
        for client in clients:
            client.close()
        server.stop()
    for p in PERSONAS:
        assert cells[(p, "column", NATIONAL_ID)].status == "denied"  # the policy's answer
        assert cells[(p, "column", "semantic.hr.employees.사번")].status == "visible"
        expected = {
            ("column", "semantic.hr.employees.직위"): "no such column",
            ("relation", "semantic.hr.salaries"): "unknown relation",
            ("column", "semantic.hr.salaries.사번"): "could not be probed",
            ("relation", FOREVER): "interrupted",
            ("relation", "semantic.rag.gone"): "semantic.rag.gone",
        }
        for (kind, name), words in expected.items():
            cell = cells[(p, kind, name)]
            assert cell.status == "error", (p, name, cell)
            assert cell.detail is not None and words in cell.detail, (p, name, cell.detail)


@pytest.fixture
def edited_policies(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """The shipped policies, and a copy in which park's 연락처 mask is lifted (hong keeps it)."""
    original = tmp_path / "policies"
    shutil.copytree(RESOURCES_DIR / "policies", original)
    edited = tmp_path / "policies-edited"
    shutil.copytree(original, edited)
    general = json.loads((edited / "general.json").read_text(encoding="utf-8"))
    contact = [s for s in general["Statement"] if "연락처" in (s.get("MaskedColumns") or {})]
    assert len(contact) == 1, "the shipped policies mask 연락처 in one statement"
    general["Statement"].remove(contact[0])
    (edited / "general.json").write_text(json.dumps(general, ensure_ascii=False), "utf-8")
    hong_only = {
        "Name": "mask-contact-hong",
        "AttachTo": {"groups": [], "users": ["hong"]},
        "Statement": contact,
    }
    (edited / "mask_contact_hong.json").write_text(
        json.dumps(hong_only, ensure_ascii=False), "utf-8"
    )
    yield original, edited


def test_policy_edit_diff_names_exactly_that_change(
    stack: Stack,
    tmp_path: Path,
    edited_policies: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    from embedded.ontul.server import OntulServer
    from embedded.ontul.testing import copy_database

    original, edited = edited_policies
    db = copy_database(stack.db_path, tmp_path)
    baseline = tmp_path / "baseline.json"

    def endpoints(url: str) -> Endpoints:
        return Endpoints(url, None, "offline", "none", True, stack.truth)

    before = OntulServer(db, policies_dir=original).start()
    try:
        argv = ["matrix", "--as", ",".join(PERSONAS), "--save", str(baseline), "--json"]
        assert cli_main(argv, endpoints(before.url)) == 0
        capsys.readouterr()
    finally:
        before.stop()
    after = OntulServer(db, policies_dir=edited).start()
    try:
        code, doc = _cli_json(
            capsys, endpoints(after.url), "--as", ",".join(PERSONAS), "--baseline", str(baseline)
        )
    finally:
        after.stop()
    assert code == 1  # a changed cell fails the run, so CI notices
    assert [
        (d["persona"], d["kind"], d["name"], d["field"], d["before"], d["after"])
        for d in doc["diff"]
    ] == [("park", "column", CONTACT, "status", "masked", "visible")]
    cells = _cells(doc)
    assert cells[("hong", "column", CONTACT)]["status"] == "masked"
    assert doc["meta"]["baseline"] == "baseline.json"


def test_cli_markdown_and_html_outputs(
    stack: Stack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["matrix", "--as", "hong,cho", "--markdown"], stack.endpoints) == 0
    text = capsys.readouterr().out
    assert text.startswith("# RegDesk access matrix")
    assert "| column | semantic.hr.employees.주민등록번호 | ✕ denied | ✕ denied |" in text
    out = tmp_path / "report.html"
    assert cli_main(["matrix", "--as", "hong,cho", "--html", str(out)], stack.endpoints) == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and stack.endpoints.ontul_url in page
