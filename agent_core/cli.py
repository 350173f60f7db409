"""``regdesk ask | compare | scenarios``: the agent on the command line.

``desktop/launcher.py`` resolves the services and calls ``main(argv, endpoints)``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import threading
import time
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_core.approval import ApprovalDecision, approve_all
from agent_core.cancel import CancelToken
from agent_core.compare import compare_turns, describe_difference
from agent_core.config import EFFORT_CHOICES
from agent_core.errors import AdminRefusedError, InstallationError, PlatformError
from agent_core.events import (
    AgentEvent,
    AnswerDelta,
    AnswerFinished,
    ApprovalRequested,
    FailureKind,
    ModelRetry,
    Narration,
    Thinking,
    ToolCallFinished,
    ToolCallStarted,
    TurnCancelled,
    TurnFailed,
)
from agent_core.matrix.command import add_matrix_parser, matrix_command
from agent_core.model_failures import RETRY_WORDS
from agent_core.record import TurnRecord
from agent_core.scenarios import admin_ledger, load_cases, persona_password, run_case
from agent_core.session import PersonaSession

if TYPE_CHECKING:
    from collections.abc import Callable

    from agent_core.approval import Approver
    from agent_core.config import Endpoints

CANCEL_JOIN_S = 5.0
"""How long ``compare`` waits for its cancelled workers after Ctrl+C, in seconds."""

PASSWORD_HELP = (
    "login password; prefer the REGDESK_PASSWORD environment variable, since a "
    "command-line argument is visible to other users in the process list "
    "(default: the demo organisation's password of the persona)"
)


def _terminal_approver(request: ApprovalRequested) -> ApprovalDecision:
    """Ask on the terminal; deny when nobody can answer (stdin is not a TTY)."""
    if not sys.stdin.isatty():
        return ApprovalDecision(False, "no terminal to ask for approval (stdin is not a TTY)")
    args = json.dumps(request.arguments, ensure_ascii=False)
    print(
        f"\n[approval] {request.persona} wants to run {request.tool} {args}\n"
        f"           idempotency key {request.idempotency_key}",
        file=sys.stderr,
    )
    try:
        answer = input("Approve this write? [y/N] ").strip().lower()
    except EOFError:
        answer = ""
    if answer in ("y", "yes", "예", "네"):
        return ApprovalDecision(True, "approved at the terminal")
    return ApprovalDecision(False, "denied at the terminal")


def _deny_flag(request: ApprovalRequested) -> ApprovalDecision:
    return ApprovalDecision(False, "denied in advance (--deny)")


def _no_writes(request: ApprovalRequested) -> ApprovalDecision:
    return ApprovalDecision(False, "compare runs questions side by side and never writes")


def _password(args: argparse.Namespace, endpoints: Endpoints, persona: str) -> str:
    explicit = getattr(args, "password", None) or os.environ.get("REGDESK_PASSWORD")
    if explicit:
        return str(explicit)
    return persona_password(endpoints.ground_truth, persona)


def _turn_record(
    persona: str, question: str, events: list[AgentEvent], model: str, elapsed_ms: float
) -> TurnRecord:
    record = TurnRecord.from_events(events, persona=persona, question=question, model=model)
    record.elapsed_ms = elapsed_ms
    return record


def _run(
    endpoints: Endpoints,
    persona: str,
    password: str,
    question: str,
    approver: Approver,
    on_event: Callable[[AgentEvent], None] | None = None,
    cancel: CancelToken | None = None,
) -> TurnRecord:
    started = time.perf_counter()
    cancel = cancel if cancel is not None else CancelToken()
    events: list[AgentEvent] = []
    try:
        session = PersonaSession.login(endpoints, persona, password)
    except (AdminRefusedError, PlatformError, InstallationError) as exc:
        kind: FailureKind = "internal" if isinstance(exc, InstallationError) else "refused"
        if isinstance(exc, PlatformError) and exc.kind in ("auth", "network", "timeout"):
            kind = exc.kind  # type: ignore[assignment]
        failure = TurnFailed(kind, str(exc))
        events.append(failure)
        if on_event:
            on_event(failure)
        return _turn_record(persona, question, events, endpoints.model_label, 0.0)
    try:
        for event in session.run_turn(question, approver=approver, cancel=cancel):
            events.append(event)
            if on_event:
                on_event(event)
    finally:
        session.close()
    elapsed = (time.perf_counter() - started) * 1000.0
    return _turn_record(persona, question, events, endpoints.model_label, elapsed)


def retry_line(event: ModelRetry) -> str:
    """``retrying in 2 s (overloaded)``, and that the partial text is dropped."""
    words = RETRY_WORDS.get(event.reason, event.reason)
    line = f"retrying in {event.delay_s:.0f} s ({words})"
    if event.reason == "max_tokens":
        line = f"retrying with a larger output limit ({words})"
    if event.discard:
        line += " — the partial text above is discarded"
    return line


def usage_line(usage: Any) -> str:
    """``1,234 tokens in (80% from cache), 321 out, ≈ $0.0042``."""
    total_in = usage.total_input_tokens
    share = f" ({usage.cache_read_share:.0%} from cache)" if usage.cache_read_input_tokens else ""
    cost = f", ≈ ${usage.cost_usd:.4f}" if usage.cost_usd is not None else ""
    return f"{total_in:,} tokens in{share}, {usage.output_tokens:,} out{cost}"


def _print_event(event: AgentEvent) -> None:
    if isinstance(event, AnswerDelta):
        print(event.text, end="", flush=True)
    elif isinstance(event, Narration):
        print(flush=True)
    elif isinstance(event, Thinking):
        if event.text.strip():
            summary = " ".join(event.text.split())
            print(f"  … thinking: {summary[:300]}", file=sys.stderr, flush=True)
    elif isinstance(event, ModelRetry):
        print(flush=True)
        print(f"  ⟳ {retry_line(event)}", file=sys.stderr, flush=True)
    elif isinstance(event, ToolCallStarted):
        args = json.dumps(event.arguments, ensure_ascii=False)
        print(f"  → {event.tool} {args} [{event.decision}]", file=sys.stderr, flush=True)
    elif isinstance(event, ToolCallFinished):
        flags = [name for name, on in (("truncated", event.truncated),
                                       ("injection", event.injection_suspected)) if on]  # fmt: skip
        extra = f" ({', '.join(flags)})" if flags else ""
        print(
            f"  ← {event.tool} {event.status} {event.duration_ms:.0f} ms: {event.preview}{extra}",
            file=sys.stderr,
            flush=True,
        )
    elif isinstance(event, AnswerFinished):
        print(flush=True)
        if event.cut_off:
            print("  [cut off: the answer reached the output limit]", file=sys.stderr)
        for c in event.citations:
            version = f" v{c.version}" if c.version else ""
            since = f" ({c.effective_from})" if c.effective_from else ""
            print(f"  [{c.doc_no}{version}{since}]", file=sys.stderr)
        if event.usage is not None and event.usage.model_calls:
            print(f"  {usage_line(event.usage)}", file=sys.stderr)
    elif isinstance(event, TurnFailed):
        print(f"\nerror ({event.failure}): {event.message}", file=sys.stderr)
        if event.request_id:
            print(f"  request id: {event.request_id}", file=sys.stderr)
        if event.action == "settings":
            print(
                "  (choose another model with --model or REGDESK_MODEL; check the key and URL "
                "in ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL or Settings)",
                file=sys.stderr,
            )
    elif isinstance(event, TurnCancelled):
        print("\ncancelled", file=sys.stderr)


def _exit_code(record: TurnRecord) -> int:
    return 2 if record.failure is not None else 0


def _ask(args: argparse.Namespace, endpoints: Endpoints) -> int:
    approver: Approver = _terminal_approver
    if args.approve:
        approver = approve_all
    elif args.deny:
        approver = _deny_flag
    try:
        password = _password(args, endpoints, args.persona)
    except KeyError as exc:
        print(f"regdesk: {exc.args[0]}", file=sys.stderr)
        return 2
    question = " ".join(args.question)
    record = _run(
        endpoints, args.persona, password, question, approver, None if args.json else _print_event
    )
    if args.json:
        print(json.dumps(record.to_dict(), ensure_ascii=False, default=str))
    return _exit_code(record)


def _width(text: str) -> int:
    """Terminal columns of text: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def _wrap(text: str, width: int) -> list[str]:
    """Wrap by display width (Korean text is twice as wide as it is long)."""
    lines: list[str] = []
    for para in text.splitlines() or [""]:
        line = ""
        for word in para.split(" "):
            candidate = f"{line} {word}" if line else word
            if _width(candidate) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = ""
            for ch in word:
                if _width(line + ch) > width:
                    lines.append(line)
                    line = ""
                line += ch
        lines.append(line)
    return lines


def _side_by_side(records: list[TurnRecord], width: int = 58) -> str:
    columns: list[list[str]] = []
    for r in records:
        lines = [f"== {r.persona} ==", ""]
        lines.extend(_wrap(r.answer or (r.failure.message if r.failure else r.status), width))
        lines.append("")
        for call in r.calls:
            lines.extend(_wrap(f"- {call.tool}: {call.status} rows={call.row_count}", width))
        columns.append(lines)
    height = max(len(c) for c in columns)
    out = []
    for i in range(height):
        cells = [c[i] if i < len(c) else "" for c in columns]
        padded = [cell + " " * (width - _width(cell)) for cell in cells]
        out.append(" | ".join(padded).rstrip())
    return "\n".join(out)


def _compare(args: argparse.Namespace, endpoints: Endpoints) -> int:
    question = " ".join(args.question)
    personas: list[str] = args.personas
    try:
        passwords = {p: _password(args, endpoints, p) for p in personas}
    except KeyError as exc:
        print(f"regdesk: {exc.args[0]}", file=sys.stderr)
        return 2
    records: dict[str, TurnRecord] = {}
    tokens = {p: CancelToken() for p in personas}

    def work(persona: str) -> None:
        records[persona] = _run(
            endpoints, persona, passwords[persona], question, _no_writes, cancel=tokens[persona]
        )

    # Daemon threads: a worker stuck where no token reaches (a login that has
    # not returned yet) must not keep the process alive after Ctrl+C.
    threads = [
        threading.Thread(target=work, args=(p,), name=f"compare-{p}", daemon=True) for p in personas
    ]
    for t in threads:
        t.start()
    try:
        for t in threads:
            # Short joins in a loop so Ctrl+C is seen promptly on every platform.
            while t.is_alive():
                t.join(0.2)
    except KeyboardInterrupt:
        for token in tokens.values():
            token.cancel()
        for t in threads:
            t.join(CANCEL_JOIN_S)
        print("regdesk: interrupted", file=sys.stderr)
        return 130
    ordered = [records[p] for p in personas]
    # The same comparison as the split view's strip (agent_core.compare).
    comparison = compare_turns(ordered)
    if args.json:
        report = {
            "question": question,
            "turns": [r.to_dict() for r in ordered],
            **comparison,
        }
        print(json.dumps(report, ensure_ascii=False, default=str))
    else:
        print(_side_by_side(ordered))
        print()
        print(_differences_text(comparison))
    return max(_exit_code(r) for r in ordered)


def _differences_text(comparison: dict[str, Any]) -> str:
    lines = [f"- {describe_difference(d)}" for d in comparison["differences"]]
    for persona, status in comparison["excluded"].items():
        lines.append(f"- {persona} not compared: the turn {status}")
    if not lines:
        lines = ["- the answers mention the same figures, dates and documents"]
    return "\n".join(["Differences:", *lines])


def _scenarios(args: argparse.Namespace, endpoints: Endpoints) -> int:
    truth = endpoints.ground_truth
    if args.ground_truth:
        truth = json.loads(Path(args.ground_truth).read_text(encoding="utf-8"))
    if not truth:
        print("regdesk: scenarios need ground truth (--ground-truth FILE)", file=sys.stderr)
        return 2
    cases = load_cases([Path(f) for f in args.files], truth)
    ledger = admin_ledger(endpoints, truth)
    results = []
    for case in cases:
        result = run_case(case, endpoints, truth, ledger)
        results.append(result)
        print(result.line(), flush=True)
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    if args.json:
        report = [
            {
                "case": r.case.name,
                "persona": r.case.persona,
                "question": r.case.ask,
                "passed": r.passed,
                "failures": r.failures,
                "answer": r.answer,
                "tools": r.tools,
                "elapsed_ms": round(r.elapsed_ms, 1),
                "usage": r.usage,
            }
            for r in results
        ]
        Path(args.json).write_text(
            json.dumps({"passed": passed, "failed": failed, "cases": report}, ensure_ascii=False,
                       indent=2),
            encoding="utf-8",
        )  # fmt: skip
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def _model_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--model",
        help="model name (default: the newest Sonnet the endpoint lists; env REGDESK_MODEL)",
    )
    parser.add_argument(
        "--max-tokens",
        type=int,
        metavar="N",
        help="output budget per model call, thinking included (default 16000)",
    )
    parser.add_argument(
        "--effort",
        choices=EFFORT_CHOICES,
        help="thinking effort for models that support it (default: the model's)",
    )


def _with_model_options(args: argparse.Namespace, endpoints: Endpoints) -> Endpoints | str:
    """Endpoints with ``--model``/``--max-tokens``/``--effort`` applied, or an error line."""
    changes: dict[str, Any] = {}
    if getattr(args, "max_tokens", None):
        if args.max_tokens < 1:
            return "--max-tokens must be a positive number"
        changes["max_tokens"] = args.max_tokens
    if getattr(args, "effort", None):
        changes["effort"] = args.effort
    model = getattr(args, "model", None)
    if model:
        problem = _unknown_model(endpoints, model)
        if problem:
            return problem
        changes.update(model=model, model_chosen=True)
    return dataclasses.replace(endpoints, **changes) if changes else endpoints


def _unknown_model(endpoints: Endpoints, model: str) -> str | None:
    """``model X is not available — choose another: ...`` when the endpoint's list lacks it."""
    if endpoints.offline_model:
        return None
    import anthropic

    from agent_core.model_catalog import list_models

    client = anthropic.Anthropic(
        api_key=endpoints.api_key, base_url=endpoints.model_base_url, max_retries=1
    )
    try:
        models = list_models(client)
    finally:
        client.close()
    if models is None or any(m.id == model for m in models):
        return None
    names = ", ".join(f"{m.id} ({m.display_name})" for m in models if m.lifecycle != "retired")
    return f"model {model} is not available — choose another: {names}"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the agent commands.

    Returns:
        The parser.
    """
    parser = argparse.ArgumentParser(prog="regdesk")
    sub = parser.add_subparsers(dest="command", required=True)
    ask = sub.add_parser("ask", help="ask one question as a persona")
    ask.add_argument("--as", dest="persona", required=True)
    group = ask.add_mutually_exclusive_group()
    group.add_argument("--approve", action="store_true", help="approve writes in advance")
    group.add_argument("--deny", action="store_true", help="deny writes in advance")
    ask.add_argument("--json", action="store_true")
    ask.add_argument("--password", help=PASSWORD_HELP)
    _model_options(ask)
    ask.add_argument("question", nargs="+")
    compare = sub.add_parser("compare", help="ask the same question as several personas at once")
    compare.add_argument("--as", dest="personas", action="append", required=True)
    compare.add_argument("--json", action="store_true")
    compare.add_argument("--password", help=PASSWORD_HELP)
    _model_options(compare)
    compare.add_argument("question", nargs="+")
    scen = sub.add_parser("scenarios", help="run scenario suites")
    scen.add_argument("--json", metavar="OUT")
    scen.add_argument("--ground-truth", metavar="FILE")
    _model_options(scen)
    scen.add_argument("files", nargs="+")
    add_matrix_parser(sub)
    return parser


def main(argv: list[str], endpoints: Endpoints) -> int:
    """Run ``ask``, ``compare`` or ``scenarios``.

    Args:
        argv: Arguments starting with the command name.
        endpoints: Platform and model to use.

    Returns:
        Exit status: 0 success, 1 scenario failures, 2 errors.
    """
    args = build_parser().parse_args(argv)
    chosen = _with_model_options(args, endpoints)
    if isinstance(chosen, str):
        print(f"regdesk: {chosen}", file=sys.stderr)
        return 2
    endpoints = chosen
    if args.command == "ask":
        return _ask(args, endpoints)
    if args.command == "compare":
        return _compare(args, endpoints)
    if args.command == "matrix":
        return matrix_command(args, endpoints, lambda p: _password(args, endpoints, p))
    return _scenarios(args, endpoints)
