"""Matrix reports: the HTML is self-contained and renders in a real headless browser.

The browser is Debian's ``chromium`` (``apt-get install -y chromium
fonts-noto-cjk``); the test skips, saying so, only when it is not installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from typing import TYPE_CHECKING

import pytest

from agent_core.matrix.baseline import diff_runs
from agent_core.matrix.catalog import load_catalog
from agent_core.matrix.cells import Cell, MatrixRun
from agent_core.matrix.report import to_html, to_markdown
from agent_core.matrix.run import run_matrix
from agent_core.platform_client import PlatformClient
from agent_core.scenarios import persona_password

if TYPE_CHECKING:
    from pathlib import Path

    from tests.integration.conftest import Stack

PERSONAS = ("hong", "park", "cho")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def report_run(stack: Stack) -> MatrixRun:
    clients = [
        PlatformClient(stack.endpoints.ontul_url, p, persona_password(stack.truth, p))
        for p in PERSONAS
    ]
    run = run_matrix(clients, load_catalog(), platform_url=stack.endpoints.ontul_url)
    for c in clients:
        c.close()
    # a baseline in which park's 연락처 was still visible: the report shows one change
    name = "semantic.hr.employees.연락처"
    baseline = MatrixRun(
        run.personas,
        [
            Cell(c.persona, c.kind, c.name, "visible") if c.key == ("park", "column", name) else c
            for c in run.cells
        ],
    )
    run.diff = diff_runs(baseline, run)
    run.meta["baseline"] = "baseline.json"
    return run


def test_html_is_self_contained_and_escaped(report_run: MatrixRun) -> None:
    page = to_html(report_run)
    assert "<script" not in page.lower()
    assert not re.search(r"""(src|href)\s*=\s*['"](?!#)""", page), "only in-page links"
    assert "<link" not in page.lower() and "@import" not in page
    for label in ("Platform", "Time", "Personas", "RegDesk", "Model", "Baseline"):
        assert f"<dt>{label}</dt>" in page
    assert report_run.meta["platform_url"] in page
    assert "park column semantic.hr.employees.연락처: status visible → masked" in page
    assert "<td class='s masked changed'" in page


def test_markdown_escapes_table_text(report_run: MatrixRun) -> None:
    text = to_markdown(report_run)
    assert "| relation | semantic.hr.leave\\_balance |" in text
    assert "## Changes against the baseline" in text


@pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed (apt-get install -y "
    "chromium fonts-noto-cjk); the HTML report was not rendered",
)
def test_html_report_renders_in_headless_chromium(report_run: MatrixRun, tmp_path: Path) -> None:
    from PySide6.QtGui import QColor, QImage

    page = tmp_path / "matrix.html"
    page.write_text(to_html(report_run), encoding="utf-8")
    shot = tmp_path / "matrix.png"
    assert CHROMIUM is not None
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--hide-scrollbars",
            "--window-size=1280,1600",
            f"--screenshot={shot}",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    image = QImage(str(shot))
    assert not image.isNull() and image.width() == 1280
    counts = {"visible": 0, "masked": 0, "denied": 0}
    colours = {"visible": "#d9f2df", "masked": "#fdf0c4", "denied": "#fbd9d7"}
    wanted = {QColor(v).rgb(): k for k, v in colours.items()}
    for y in range(0, image.height(), 3):
        for x in range(0, image.width(), 3):
            status = wanted.get(image.pixel(x, y))
            if status:
                counts[status] += 1
    # the grid was laid out and painted: each status colour covers real area
    assert all(n > 50 for n in counts.values()), counts


def test_reports_list_platform_errors_apart_from_denials() -> None:
    run = MatrixRun(
        ["hong"],
        [
            Cell("hong", "column", "semantic.hr.employees.주민등록번호", "denied", None, "denied"),
            Cell("hong", "column", "semantic.hr.employees.직위", "error", None, "no such column"),
        ],
    )
    text = to_markdown(run)
    assert "| column | semantic.hr.employees.직위 | ! error |" in text
    assert "- hong · semantic.hr.employees.직위: no such column" in text
    page = to_html(run)
    assert "<span class='error'>! error</span>" in page  # in the legend
    assert "<td class='s error'" in page


def test_columns_without_values_are_reported_not_observed(report_run: MatrixRun) -> None:
    orders = "semantic.hr.purchase_orders.품목"
    cell = report_run.cell("hong", "column", orders)
    assert cell is not None and cell.status == "not_observed"
    shown = orders.replace("_", "\\_")  # Markdown-escaped
    assert f"| column | {shown} | ○ not\\_observed |" in (text := to_markdown(report_run))
    assert f"- hong · {shown}: in the schema, but the sample has no rows" in text
    page = to_html(report_run)
    assert "<span class='not_observed'>○ not_observed</span>" in page  # the legend
    assert "<td class='s not_observed'" in page and ".not_observed {" in page


def test_an_old_baseline_s_valueless_visible_columns_are_no_change(
    report_run: MatrixRun,
) -> None:
    """A baseline saved before ``not_observed`` existed called such a column visible."""
    old = MatrixRun(
        report_run.personas,
        [
            Cell(
                c.persona,
                c.kind,
                c.name,
                "visible",
                c.rows,
                "in the schema; no values to observe a mask",
            )
            if c.status == "not_observed"
            else c
            for c in report_run.cells
        ],
    )
    assert any(c.status == "not_observed" for c in report_run.cells)
    assert diff_runs(old, report_run) == []
    # power: a visible column that had values is still a change
    contact = ("hong", "column", "semantic.hr.employees.연락처")
    old.cells = [
        Cell(*c.key, "visible", c.rows, "returned unmasked") if c.key == contact else c
        for c in old.cells
    ]
    assert [ch.describe() for ch in diff_runs(old, report_run)] == [
        "hong column semantic.hr.employees.연락처: status visible → masked"
    ]
