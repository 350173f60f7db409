"""One turn: the model streams, asks for tools, the runtime runs them, repeat.

There is one code path for Claude and for the offline model: the ``anthropic``
SDK's streaming Messages API against ``endpoints.model_base_url``, driven by a
small loop. The turn is a plain generator of ``AgentEvent``s.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anthropic

from agent_core.citations import parse_citations
from agent_core.errors import (
    PlatformAuthError,
    PlatformError,
    PlatformNetworkError,
    PlatformTimeoutError,
)
from agent_core.events import (
    AgentEvent,
    AnswerDelta,
    AnswerFinished,
    FailureKind,
    Narration,
    ToolCallFinished,
    TurnCancelled,
    TurnFailed,
    TurnStarted,
)
from agent_core.runtime import ToolRequest, ToolRuntime

if TYPE_CHECKING:
    from collections.abc import Iterator

    from agent_core.approval import Approver
    from agent_core.cancel import CancelToken
    from agent_core.platform_client import PlatformClient
    from agent_core.session import PersonaSession

SYSTEM_PROMPT_PATH = Path(__file__).resolve().parent.parent / "resources" / "prompts" / "system.md"
"""The system prompt resource."""

_FALLBACK_PROMPT = (
    "Answer only from tool results, cite document number, version and effective date, "
    "and say when something is not available to you. Answer in the question's language."
)


def load_system_prompt() -> str:
    """Read the system prompt resource (a short built-in text if it is missing).

    Returns:
        The prompt text.
    """
    try:
        return SYSTEM_PROMPT_PATH.read_text(encoding="utf-8")
    except OSError:
        return _FALLBACK_PROMPT


@dataclass(frozen=True)
class TurnLimits:
    """Timeouts and bounds of a turn."""

    model_timeout_s: float = 60.0
    """Per-request timeout of a model call (kept inside the turn deadline)."""
    turn_deadline_s: float = 300.0
    """Wall-time limit of the whole turn."""
    max_iterations: int = 8
    """Model calls per turn before giving up."""
    max_tokens: int = 2048
    """Output token limit per model call."""


class _Failure(Exception):
    def __init__(self, kind: FailureKind, message: str) -> None:
        super().__init__(message)
        self.kind: FailureKind = kind
        self.message = message


def _model_failure(exc: Exception) -> _Failure:
    if isinstance(exc, anthropic.APITimeoutError):
        return _Failure("timeout", f"the model did not answer in time: {exc}")
    if isinstance(exc, anthropic.APIConnectionError):
        return _Failure("network", f"the model endpoint is unreachable: {exc}")
    if isinstance(exc, anthropic.APIStatusError):
        return _Failure("model", f"the model endpoint refused the request: {exc.message}")
    return _Failure("model", f"model error: {exc}")


def _platform_failure(exc: PlatformError) -> _Failure:
    if isinstance(exc, PlatformAuthError):
        return _Failure("auth", f"the platform no longer accepts this login: {exc.message}")
    if isinstance(exc, PlatformTimeoutError):
        return _Failure("timeout", exc.message)
    if isinstance(exc, PlatformNetworkError):
        return _Failure("network", exc.message)
    return _Failure("model", exc.message)


def _history_messages(history: list[tuple[str, str]] | None) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for question, answer in history or []:
        messages.append({"role": "user", "content": question})
        messages.append({"role": "assistant", "content": answer or "(no answer)"})
    return messages


def today_line(client: PlatformClient) -> str:
    """The system prompt's date line: the platform's today when known.

    Args:
        client: The session's platform client.

    Returns:
        ``Today is YYYY-MM-DD.``, marked ``(local clock)`` until a platform
        response has told its date.
    """
    if client.today_known:
        return f"Today is {client.today().isoformat()}."
    return f"Today is {time.strftime('%Y-%m-%d')} (local clock)."


def identity_line(username: str, display_name: str) -> str:
    """The system prompt's identity line: whom the turn runs for.

    The identity is bound by the login, out of band; it is never a tool argument
    and never widens access.

    Args:
        username: The login name.
        display_name: The person's name as the platform reports it.

    Returns:
        One line naming the person asking.
    """
    # The name comes from the platform, not the person; still, keep it one short line.
    printable = "".join(ch for ch in (display_name or username) if ch.isprintable())
    name = " ".join(printable.split())[:64] or username
    return (
        f"The person asking is {name} (username {username}). Their access is enforced by the "
        'platform; "I/my" in the question means this person.'
    )


def system_text(session: PersonaSession) -> str:
    """The system prompt of a turn: the resource, today's date and who is asking.

    Args:
        session: The logged-in persona.

    Returns:
        The full system prompt text.
    """
    return (
        f"{session.system_prompt}\n\n{today_line(session.client)}\n"
        f"{identity_line(session.username, session.display_name)}"
    )


def run_turn(
    session: PersonaSession,
    question: str,
    *,
    approver: Approver,
    cancel: CancelToken,
    history: list[tuple[str, str]] | None = None,
) -> Iterator[AgentEvent]:
    """Run one question as the session's persona.

    Args:
        session: The logged-in persona.
        question: The question.
        approver: Asked before any write; may block.
        cancel: Checked between chunks and tool calls; closes in-flight HTTP.
        history: Earlier (question, answer) pairs of this conversation.

    Yields:
        The turn's events; the last is AnswerFinished, TurnFailed or TurnCancelled.
    """
    turn_id = uuid.uuid4().hex
    yield TurnStarted(turn_id, session.username, question, session.endpoints.model_label)
    unregister = [
        cancel.on_cancel(session.model_http.abort),
        cancel.on_cancel(session.client.abort),
    ]
    try:
        yield from _loop(session, turn_id, question, approver, cancel, history)
    finally:
        for remove in unregister:
            remove()


def _loop(
    session: PersonaSession,
    turn_id: str,
    question: str,
    approver: Approver,
    cancel: CancelToken,
    history: list[tuple[str, str]] | None,
) -> Iterator[AgentEvent]:
    limits = session.limits
    deadline = time.monotonic() + limits.turn_deadline_s
    runtime = ToolRuntime(session.tools, session.username, session.audit, turn_id)
    tool_defs = [t.to_anthropic() for t in session.tools.values()]
    system = system_text(session)
    messages = [*_history_messages(history), {"role": "user", "content": question}]
    try:
        for _ in range(limits.max_iterations):
            if cancel.cancelled:
                yield TurnCancelled()
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _Failure("timeout", f"the turn took longer than {limits.turn_deadline_s:g} s")
            timeout = min(limits.model_timeout_s, remaining)
            message = None
            text = ""
            try:
                with session.model.messages.stream(
                    model=session.endpoints.model,
                    max_tokens=limits.max_tokens,
                    system=system,
                    tools=tool_defs,  # type: ignore[arg-type]
                    messages=messages,  # type: ignore[arg-type]
                    timeout=timeout,
                ) as stream:
                    for event in stream:
                        if cancel.cancelled:
                            break
                        if event.type == "text" and event.text:
                            text += event.text
                            yield AnswerDelta(event.text)
                    if not cancel.cancelled:
                        message = stream.get_final_message()
            except Exception as exc:  # the SDK's and the transport's errors alike
                if cancel.cancelled:
                    yield TurnCancelled()
                    return
                if isinstance(exc, anthropic.AnthropicError):
                    raise _model_failure(exc) from exc
                raise _Failure("network", f"model stream broke: {exc}") from exc
            if cancel.cancelled or message is None:
                yield TurnCancelled()
                return
            blocks = [b.model_dump(exclude_none=True) for b in message.content]
            uses = [b for b in message.content if b.type == "tool_use"]
            full_text = "".join(b.text for b in message.content if b.type == "text") or text
            if not uses:
                yield AnswerFinished(full_text, parse_citations(full_text))
                return
            if full_text.strip():
                yield Narration(full_text)
            messages.append({"role": "assistant", "content": blocks})
            results: list[dict[str, Any]] = []
            for use in uses:
                if cancel.cancelled:
                    yield TurnCancelled()
                    return
                request = ToolRequest(use.id, use.name, dict(use.input or {}))
                finished: ToolCallFinished | None = None
                try:
                    for step in runtime.run(request, approver):
                        if cancel.cancelled:
                            yield TurnCancelled()
                            return
                        if isinstance(step, ToolCallFinished):
                            finished = step
                        yield step
                except PlatformError as exc:
                    if cancel.cancelled:
                        yield TurnCancelled()
                        return
                    raise _platform_failure(exc) from exc
                assert finished is not None
                results.append(
                    {
                        "type": "tool_result",
                        "tool_use_id": use.id,
                        "content": finished.result,
                        "is_error": finished.status == "error"
                        or (finished.status == "denied" and finished.error is not None),
                    }
                )
            messages.append({"role": "user", "content": results})
        raise _Failure("model", f"no answer after {limits.max_iterations} model calls")
    except _Failure as failure:
        if cancel.cancelled:
            yield TurnCancelled()
            return
        yield TurnFailed(failure.kind, failure.message)
