"""Baselines: save a run, read it back, name exactly which cells changed.

Access cells compare on ``status`` and ``rows`` (``detail`` carries wording and
counts of sampled values, so it is not compared); question cells on ``status``,
assertion ``failures``, the ``figures`` in the answer and the ``tools`` called.
A cell present on one side only is a ``cell`` change.

Every status compares alike, ``error`` (a platform error that is not a policy
answer) included: ``denied → error`` or ``visible → error`` is a change, since
the cell no longer says what it said. A baseline saved before RegDesk told the
two apart may hold ``denied`` for catalog drift; rerun against it once, and the
diff names those cells. Such a baseline's columns without values (``visible``
with "no values to observe a mask") are read as ``not_observed``, as they were
observed: no value, so no mask to see.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from agent_core.matrix.cells import Cell, Change, MatrixRun

_OLD_NOT_OBSERVED = "no values to observe a mask"
"""How a baseline saved before ``not_observed`` existed described such a column."""


def save_run(run: MatrixRun, path: Path | str) -> Path:
    """Write a run as JSON (the baseline format is the ``--json`` output).

    Args:
        run: The run.
        path: Target file.

    Returns:
        The path written.
    """
    target = Path(path)
    target.write_text(
        json.dumps(run.to_dict(), ensure_ascii=False, indent=1, default=str), encoding="utf-8"
    )
    return target


def load_run(path: Path | str) -> MatrixRun:
    """Read a saved run.

    Args:
        path: A file written by ``save_run`` or ``regdesk matrix --json``.

    Returns:
        The run.
    """
    return MatrixRun.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def _as_read_now(cell: Cell) -> Cell:
    """A baseline cell in today's statuses (an old ``visible`` without values is
    ``not_observed``)."""
    if (
        cell.kind == "column"
        and cell.status == "visible"
        and _OLD_NOT_OBSERVED in (cell.detail or "")
    ):
        return replace(cell, status="not_observed")
    return cell


def _figures(values: Any) -> list[str]:
    return sorted(values or ())


def diff_runs(baseline: MatrixRun, current: MatrixRun) -> list[Change]:
    """Every cell that differs between a baseline and a rerun.

    Only personas present in both runs are compared (a persona left out of the
    rerun is not "everything removed").

    Args:
        baseline: The saved run.
        current: The new run.

    Returns:
        Changes in the current run's grid order, then cells that disappeared.
    """
    shared = set(baseline.personas) & set(current.personas)
    changes: list[Change] = []
    before = {c.key: _as_read_now(c) for c in baseline.cells if c.persona in shared}
    after = {c.key: c for c in current.cells if c.persona in shared}
    for key, cell in after.items():
        old = before.get(key)
        if old is None:
            changes.append(
                Change("access", cell.persona, cell.kind, cell.name, "cell", None, cell.status)
            )
            continue
        if old.status != cell.status:
            changes.append(
                Change(
                    "access", cell.persona, cell.kind, cell.name, "status", old.status, cell.status
                )
            )
        if old.rows != cell.rows:
            changes.append(
                Change("access", cell.persona, cell.kind, cell.name, "rows", old.rows, cell.rows)
            )
    for key, old in before.items():
        if key not in after:
            changes.append(
                Change("access", old.persona, old.kind, old.name, "cell", old.status, None)
            )
    q_before = {q.key: q for q in baseline.questions if q.persona in shared}
    q_after = {q.key: q for q in current.questions if q.persona in shared}
    for q_key, q in q_after.items():
        old_q = q_before.get(q_key)
        if old_q is None:
            if q_before:
                changes.append(
                    Change("question", q.persona, "question", q.case, "cell", None, q.status)
                )
            continue
        pairs: list[tuple[str, Any, Any]] = [
            ("status", old_q.status, q.status),
            ("failures", list(old_q.failures), list(q.failures)),
            ("figures", _figures(old_q.figures), _figures(q.figures)),
            ("tools", list(old_q.tools), list(q.tools)),
        ]
        for name, was, now in pairs:
            if was != now:
                changes.append(Change("question", q.persona, "question", q.case, name, was, now))
    for q_key, old_q in q_before.items():
        if q_key not in q_after and q_after:
            changes.append(
                Change(
                    "question", old_q.persona, "question", old_q.case, "cell", old_q.status, None
                )
            )
    return changes
