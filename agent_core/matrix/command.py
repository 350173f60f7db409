"""``regdesk matrix``: the access matrix on the command line.

``regdesk matrix --as hong,park,cho [--questions FILE] [--ask Q] [--baseline FILE]
[--save FILE] [--catalog FILE] [--json | --markdown | --html OUT]``

Exit status: 0 when every question cell passed (or none were asked) and nothing
changed against the baseline; 1 when a question failed or a cell changed; 2 on
errors (a refused login, an administrator account, a bad file).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.errors import AdminRefusedError, PlatformError
from agent_core.matrix.baseline import load_run, save_run
from agent_core.matrix.catalog import load_catalog
from agent_core.matrix.questions import DEFAULT_WORKERS, adhoc_questions, load_questions
from agent_core.matrix.report import to_html, to_json, to_markdown
from agent_core.matrix.run import run_matrix
from agent_core.platform_client import PlatformClient
from agent_core.session import PersonaSession

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    from agent_core.config import Endpoints
    from agent_core.matrix.cells import QuestionCell


def add_matrix_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``matrix`` subcommand to the CLI's parser.

    Args:
        sub: The CLI's subparsers.
    """
    p = sub.add_parser("matrix", help="who can see what, as several personas (access matrix)")
    p.add_argument(
        "--as",
        dest="personas",
        action="append",
        required=True,
        help="personas, comma-separated (or --as repeated)",
    )
    p.add_argument(
        "--questions",
        metavar="FILE",
        action="append",
        default=[],
        help="scenario YAML whose questions every persona asks",
    )
    p.add_argument("--ask", action="append", default=[], help="an ad hoc question (repeatable)")
    p.add_argument("--baseline", metavar="FILE", help="a saved --json run to diff against")
    p.add_argument("--save", metavar="FILE", help="also save this run as a baseline")
    p.add_argument("--catalog", metavar="FILE", help="catalog file (default: the demo's)")
    p.add_argument("--workers", type=int, default=DEFAULT_WORKERS, help="turns at once")
    p.add_argument(
        "--approve-writes",
        action="store_true",
        help="let cases marked 'approval: approve' write (default: never write)",
    )
    p.add_argument("--password", help="login password (prefer REGDESK_PASSWORD)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the run as JSON")
    out.add_argument("--markdown", action="store_true", help="print the run as Markdown")
    out.add_argument("--html", metavar="OUT", help="write a self-contained HTML report")


def _progress(done: int, total: int, cell: QuestionCell) -> None:
    """One self-overwriting progress line on a terminal; nothing when stderr is a file."""
    if not sys.stderr.isatty():
        return
    line = f"\r[{done}/{total}] {cell.persona} {cell.case}: {cell.status}"[:78].ljust(78)
    sys.stderr.write(line + ("" if done < total else "\n"))
    sys.stderr.flush()


def matrix_command(
    args: argparse.Namespace, endpoints: Endpoints, password_of: Callable[[str], str]
) -> int:
    """Run ``regdesk matrix``.

    Args:
        args: Parsed arguments.
        endpoints: Platform and model.
        password_of: The password of a persona.

    Returns:
        Exit status.
    """
    personas = list(dict.fromkeys(p.strip() for a in args.personas for p in a.split(",")))
    personas = [p for p in personas if p]
    truth = endpoints.ground_truth or {}
    try:
        passwords = {p: password_of(p) for p in personas}
        catalog = load_catalog(args.catalog)
        questions = load_questions(args.questions, truth) + adhoc_questions(args.ask)
        baseline = load_run(args.baseline) if args.baseline else None
    except (KeyError, OSError, ValueError) as exc:
        sys.stderr.write(f"regdesk: {exc}\n")
        return 2
    clients: list[PlatformClient] = []
    try:
        for p in personas:
            client = PlatformClient(endpoints.ontul_url, p, passwords[p])
            clients.append(client)
            client.login()
        run = run_matrix(
            clients,
            catalog,
            platform_url=endpoints.ontul_url,
            questions=questions,
            login=lambda p: PersonaSession.login(endpoints, p, passwords[p]),
            model_label=endpoints.model_label,
            truth=truth,
            baseline=baseline,
            baseline_name=Path(args.baseline).name if args.baseline else None,
            max_workers=args.workers,
            allow_writes=args.approve_writes,
            on_progress=_progress if questions and not args.json else None,
        )
    except (AdminRefusedError, PlatformError) as exc:
        sys.stderr.write(f"regdesk: {exc}\n")
        return 2
    finally:
        for client in clients:
            client.close()
    if args.save:
        save_run(run, args.save)
    if args.json:
        sys.stdout.write(to_json(run) + "\n")
    elif args.html:
        Path(args.html).write_text(to_html(run), encoding="utf-8")
        sys.stderr.write(f"wrote {args.html}\n")
    else:
        sys.stdout.write(to_markdown(run))
    failed = any(q.status in ("fail", "error") for q in run.questions)
    return 1 if failed or run.diff else 0
