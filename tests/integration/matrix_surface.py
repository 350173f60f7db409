"""The access matrix as a leak-audit surface: ``regdesk matrix`` output and its exports.

``test_leak_audit.py`` runs the matrix as each persona alone, with that
persona's audit questions, and searches what it printed and every export
(JSON baseline, Markdown, HTML) for the persona's canaries.
"""

from __future__ import annotations

import contextlib
import io
from typing import TYPE_CHECKING

from agent_core.cli import main as cli_main
from agent_core.matrix.baseline import load_run
from agent_core.matrix.report import to_html, to_markdown

if TYPE_CHECKING:
    from pathlib import Path

    from agent_core.config import Endpoints


def matrix_surface(
    endpoints: Endpoints, persona: str, questions: list[str], workdir: Path
) -> list[str]:
    """``regdesk matrix --as PERSONA --ask ... --save F --json`` output plus every export.

    Args:
        endpoints: The audited stack.
        persona: Who runs the matrix (alone, so every cell is theirs).
        questions: Asked as ad hoc questions.
        workdir: Where the baseline file is saved.

    Returns:
        The texts to search: stdout, the saved JSON, Markdown and HTML.
    """
    saved = workdir / "matrix.json"
    argv = ["matrix", "--as", persona, "--save", str(saved), "--json"]
    for question in questions:
        argv += ["--ask", question]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli_main(argv, endpoints)
    assert code in (0, 1), f"regdesk matrix as {persona} failed ({code})"
    run = load_run(saved)
    assert len(run.questions) == len(questions)
    return [out.getvalue(), saved.read_text(encoding="utf-8"), to_markdown(run), to_html(run)]
