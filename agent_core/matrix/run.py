"""One matrix run end to end: access probes, optional questions, optional baseline diff.

The CLI (``regdesk matrix``) and the Matrix view both call :func:`run_matrix`,
so they show the same data.
"""

from __future__ import annotations

import datetime as dt
from importlib import metadata
from typing import TYPE_CHECKING, Any

from agent_core.errors import AdminRefusedError
from agent_core.matrix.access import probe_access
from agent_core.matrix.baseline import diff_runs
from agent_core.matrix.cells import MatrixRun
from agent_core.matrix.questions import DEFAULT_WORKERS, QuestionMatrixRunner

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from agent_core.cancel import CancelToken
    from agent_core.matrix.catalog import Catalog
    from agent_core.matrix.cells import QuestionCell
    from agent_core.matrix.questions import MatrixQuestion
    from agent_core.platform_client import PlatformClient
    from agent_core.session import PersonaSession


def regdesk_version() -> str:
    """The installed RegDesk version (``unknown`` when run from an uninstalled tree)."""
    try:
        return metadata.version("regdesk")
    except metadata.PackageNotFoundError:
        return "unknown"


def run_matrix(
    clients: Sequence[PlatformClient],
    catalog: Catalog,
    *,
    platform_url: str,
    questions: Sequence[MatrixQuestion] = (),
    login: Callable[[str], PersonaSession] | None = None,
    model_label: str | None = None,
    truth: dict[str, Any] | None = None,
    baseline: MatrixRun | None = None,
    baseline_name: str | None = None,
    max_workers: int = DEFAULT_WORKERS,
    allow_writes: bool = False,
    borrowed_sessions: bool = False,
    cancel: CancelToken | None = None,
    on_progress: Callable[[int, int, QuestionCell], None] | None = None,
    on_busy: Callable[[str, bool], None] | None = None,
) -> MatrixRun:
    """Probe access as every persona, ask the questions, diff against a baseline.

    Args:
        clients: One logged-in platform client per persona, in column order.
        catalog: What to probe.
        platform_url: Shown in reports.
        questions: Question rows (none: access only).
        login: Opens a new agent session for a persona (needed with questions).
        model_label: The model's name, for reports.
        truth: Ground truth (canaries for the leak assertion).
        baseline: A saved run to compare with.
        baseline_name: Its file name, for reports.
        max_workers: Turns at once.
        allow_writes: Let cases with ``approval: approve`` write.
        borrowed_sessions: ``login`` returns sessions the caller owns (the app's
            signed-in ones): one turn at a time per persona, none closed, and a
            cell waits while its persona's session runs a turn of its own.
        cancel: Cancels probing and turns.
        on_progress: ``(done, total, cell)`` after each question cell.
        on_busy: ``(persona, waiting)`` when a cell starts (True) or stops (False)
            waiting for that persona's busy session.

    Returns:
        The run.

    Raises:
        AdminRefusedError: A client is an administrator account.
        ValueError: Questions were given without a way to log in.
    """
    started = dt.datetime.now(dt.UTC).replace(microsecond=0)
    for client in clients:
        if client.is_admin:
            raise AdminRefusedError(f"{client.username} is an administrator account")
    cells, probes = probe_access(clients, catalog, cancel)
    personas = [c.username for c in clients]
    run = MatrixRun(
        personas,
        cells,
        probes,
        meta={
            "platform_url": platform_url,
            "started_at": started.isoformat().replace("+00:00", "Z"),
            "regdesk_version": regdesk_version(),
            "model": model_label if questions else None,
            "catalog": catalog.deployment,
            "baseline": baseline_name,
        },
    )
    if questions:
        if login is None:
            raise ValueError("a question matrix needs a login function for agent sessions")
        runner = QuestionMatrixRunner(
            login,
            truth,
            max_workers=max_workers,
            allow_writes=allow_writes,
            borrowed=borrowed_sessions,
            on_busy=on_busy,
        )
        run.questions = runner.run(questions, personas, cancel, on_progress)
    if baseline is not None:
        run.diff = diff_runs(baseline, run)
    return run
