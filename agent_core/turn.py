"""One turn: the model streams, asks for tools, the runtime runs them, repeat.

There is one code path for Claude, for any other Messages-API endpoint and for
the offline model: the ``anthropic`` SDK's streaming Messages API against
``endpoints.model_base_url``, driven by a small loop. The turn is a plain
generator of ``AgentEvent``s.

What the loop does with Claude's real behaviour:

- **Retries.** A retryable failure (408, 409, 429, 5xx, 529 overloaded, a
  connection error, a stream that breaks or ends before ``message_stop``, an SSE
  ``error`` event) sends that model call again from its start, after
  ``retry-after`` (or ``retry-after-ms``) when the API sent one, else exponential
  backoff with jitter: the SDK's own policy, driven here so that the wait is
  announced (``ModelRetry``) and a Stop ends it at once. ``ModelRetry.discard``
  tells consumers to drop the text the abandoned attempt streamed.
- **Stop reasons.** ``tool_use`` runs the tools; a ``tool_use`` cut off by
  ``max_tokens`` is never run (the call goes again with a larger limit, else the
  turn fails); text cut off is answered with ``cut_off``; ``refusal`` fails the
  turn (and so never becomes history); ``pause_turn`` sends the content back and
  continues; an empty ``end_turn`` gets one nudge, then fails.
- **Content going back** keeps thinking and redacted thinking blocks unchanged
  and drops empty text blocks (the API answers 400 to those).
- **Prompt caching.** The static system prompt and the tools are a cached prefix
  (``cache_control`` on the last tool and on the static system block; the date
  and identity lines follow it); the last message carries a moving breakpoint so
  later calls of a turn read the earlier ones from the cache.
- **Thinking.** Adaptive thinking with summarized display where the model
  supports it; summaries stream as ``ThinkingDelta`` / ``Thinking``, never as
  answer text.
"""

from __future__ import annotations

import json
import logging
import os
import random
import time
import uuid
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import anthropic
import httpx2

from agent_core.citations import parse_citations
from agent_core.errors import (
    PlatformError,
)
from agent_core.events import (
    TERMINAL_KINDS,
    AgentEvent,
    AnswerDelta,
    AnswerFinished,
    ModelCallFinished,
    ModelRetry,
    Narration,
    Thinking,
    ThinkingDelta,
    ToolCallFinished,
    TurnCancelled,
    TurnFailed,
    TurnStarted,
    Usage,
)
from agent_core.model_catalog import default_max_tokens, estimate_cost
from agent_core.model_failures import TurnFailure, Verdict, judge, platform_failure
from agent_core.prompting import (
    clean_content,
    history_messages,
    system_blocks,
    tool_definitions,
    with_moving_breakpoint,
)
from agent_core.runtime import ToolRequest, ToolRuntime

if TYPE_CHECKING:
    from collections.abc import Generator, Iterator

    from agent_core.approval import Approver
    from agent_core.cancel import CancelToken
    from agent_core.session import PersonaSession

NUDGE = (
    "Your last reply was empty. Answer the question now from the tool results above, "
    "or say that the information is not available."
)
"""Sent once after an empty ``end_turn``."""

CUT_OFF_REASONS = frozenset({"max_tokens", "model_context_window_exceeded"})
"""Stop reasons after which the last block is incomplete."""

_log = logging.getLogger(__name__)


def _env_float(name: str, default: float) -> float:
    try:
        return max(0.0, float(os.environ.get(name, default)))
    except ValueError:
        return default


@dataclass(frozen=True)
class TurnLimits:
    """Timeouts and bounds of a turn."""

    model_timeout_s: float = 60.0
    """Per-request timeout of a model call (kept inside the turn deadline)."""
    turn_deadline_s: float = 300.0
    """Wall-time limit of the whole turn."""
    max_iterations: int = 13
    """Model calls per turn before giving up: twelve tool rounds and the answer (the
    offline planner's longest plan; tests/unit/test_rules_contract.py pins the two)."""
    max_tokens: int = field(default_factory=default_max_tokens)
    """Output token limit per model call: thinking plus answer (16k by default)."""
    max_tokens_ceiling: int = 64000
    """The largest limit a call cut off inside a tool call is sent again with."""
    max_attempts: int = 5
    """Attempts per model call (the first plus four retries); 1 for the offline model."""
    retry_base_s: float = field(default_factory=lambda: _env_float("REGDESK_RETRY_BASE_S", 0.5))
    """First backoff delay without ``retry-after``; doubles per retry."""
    retry_max_s: float = field(default_factory=lambda: _env_float("REGDESK_RETRY_MAX_S", 8.0))
    """Longest backoff delay without ``retry-after``."""
    retry_after_max_s: float = 60.0
    """A longer ``retry-after`` fails the turn with the wait in words instead."""
    prompt_cache: bool = True
    """Send ``cache_control`` breakpoints."""


def _usage_of(message: Any, model: str) -> Usage:
    raw = getattr(message, "usage", None)

    def number(name: str) -> int:
        value = getattr(raw, name, None) if raw is not None else None
        return int(value) if isinstance(value, int) else 0

    usage = Usage(
        input_tokens=number("input_tokens"),
        output_tokens=number("output_tokens"),
        cache_read_input_tokens=number("cache_read_input_tokens"),
        cache_creation_input_tokens=number("cache_creation_input_tokens"),
        model_calls=1,
    )
    return replace(usage, cost_usd=estimate_cost(model, usage))


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
    yield TurnStarted(turn_id, session.username, question, session.model_label)
    unregister = [
        cancel.on_cancel(session.model_http.abort),
        cancel.on_cancel(session.client.abort),
    ]
    ended = False
    try:
        for event in _Turn(session, turn_id, approver, cancel).run(question, history):
            ended = event.kind in TERMINAL_KINDS
            yield event
    except Exception:
        # A bug (in a tool, the approver or the loop itself) still ends the turn
        # with exactly one final event, and is not blamed on the model.
        _log.exception("turn %s stopped on an internal error", turn_id)
        if not ended:
            yield TurnFailed("internal", INTERNAL_ERROR_MESSAGE)
    finally:
        for remove in unregister:
            remove()


INTERNAL_ERROR_MESSAGE = (
    "RegDesk stopped this turn on an internal error (a bug, logged with its details). "
    "Ask again; if it happens again, report it with the log."
)
"""What a person is told when a bug ends a turn."""


class _Cancelled(Exception):
    """The person pressed Stop: the turn ends with TurnCancelled."""


class _Turn:
    """The state of one running turn."""

    def __init__(
        self, session: PersonaSession, turn_id: str, approver: Approver, cancel: CancelToken
    ) -> None:
        self.session = session
        self.limits = session.limits
        self.approver = approver
        self.cancel = cancel
        self.deadline = time.monotonic() + self.limits.turn_deadline_s
        self.runtime = ToolRuntime(session.tools, session.username, session.audit, turn_id)
        self.usage = Usage()
        self.calls = 0
        self.max_tokens = session.max_tokens
        self.attempts = 1 if session.endpoints.offline_model else max(1, self.limits.max_attempts)
        # The model is fixed for the turn: a switch in Settings applies from the next one.
        self.model_name = session.model_name
        self.model_choice = session.model_choice
        self.capabilities = session.capabilities
        cache = self.limits.prompt_cache and self.capabilities.prompt_cache
        self.cache = cache
        self.system = system_blocks(session, cache)
        self.tools = tool_definitions(session, cache)
        self.threads = session.threads
        self.threads.begin_turn()

    # the loop -------------------------------------------------------------------------
    def run(self, question: str, history: list[tuple[str, str]] | None) -> Iterator[AgentEvent]:
        messages: list[dict[str, Any]] = [
            *history_messages(history),
            {"role": "user", "content": question},
        ]
        nudged = False
        try:
            for _ in range(self.limits.max_iterations):
                self._check()
                message, request_id = yield from self._call(messages)
                stop = message.stop_reason
                content = clean_content(message.content)
                text = "".join(b.get("text", "") for b in content if b.get("type") == "text")
                uses = [b for b in message.content if b.type == "tool_use"]
                if stop == "refusal":
                    raise TurnFailure(
                        "refused", self._refusal_words(message), request_id=request_id
                    )
                if stop == "pause_turn":
                    if text.strip():
                        yield Narration(text, self.calls)
                    if content:
                        messages.append({"role": "assistant", "content": content})
                    self.threads.reset()
                    continue
                if stop in CUT_OFF_REASONS and (uses or not text.strip()):
                    yield from self._grow_or_fail(stop, uses, request_id)
                    continue
                if uses:
                    if text.strip():
                        yield Narration(text, self.calls)
                    messages.append({"role": "assistant", "content": content})
                    self.threads.replied(message, messages)
                    results = yield from self._run_tools(uses)
                    messages.append({"role": "user", "content": results})
                    continue
                if not text.strip():
                    if nudged:
                        raise TurnFailure(
                            "model",
                            "the model gave an empty answer twice (stop reason "
                            f"{stop}); ask again, perhaps in other words",
                            request_id=request_id,
                        )
                    nudged = True
                    messages = self._nudge(messages)
                    self.threads.reset()
                    continue
                yield AnswerFinished(
                    text,
                    parse_citations(text),
                    cut_off=stop in CUT_OFF_REASONS,
                    stop_reason=stop,
                    usage=self.usage,
                )
                return
            raise TurnFailure("model", f"no answer after {self.limits.max_iterations} model calls")
        except _Cancelled:
            yield TurnCancelled()
        except TurnFailure as failure:
            if self.cancel.cancelled:
                yield TurnCancelled()
                return
            if failure.request_id:
                _log.warning("model call failed (request id %s): %s", failure.request_id, failure)
            yield TurnFailed(
                failure.kind,
                failure.message,
                action=failure.action,
                request_id=failure.request_id,
                usage=self.usage if self.usage.model_calls else None,
            )

    def _check(self) -> None:
        if self.cancel.cancelled:
            raise _Cancelled
        if time.monotonic() >= self.deadline:
            raise TurnFailure(
                "timeout", f"the turn took longer than {self.limits.turn_deadline_s:g} s"
            )

    @staticmethod
    def _refusal_words(message: Any) -> str:
        details = getattr(message, "stop_details", None)
        explanation = ""
        if details is not None:
            for name in ("explanation", "message", "reason", "category"):
                value = getattr(details, name, None)
                if value is None and isinstance(details, dict):
                    value = details.get(name)
                if value:
                    explanation = str(value)
                    break
        text = "".join(getattr(b, "text", "") for b in message.content if b.type == "text")
        said = explanation or text.strip()
        return "the model declined to answer" + (f": {said}" if said else "")

    def _grow_or_fail(
        self, stop: str | None, uses: list[Any], request_id: str | None
    ) -> Generator[AgentEvent, None, None]:
        """A tool call (or the whole answer) was cut off: never run it; try a larger limit."""
        what = f"a call to {uses[-1].name}" if uses else "its answer (all output went to thinking)"
        ceiling = max(self.limits.max_tokens_ceiling, self.max_tokens)
        model_max = self.model_choice.max_tokens
        if model_max:
            ceiling = min(ceiling, int(model_max))
        if stop == "max_tokens" and self.max_tokens < ceiling:
            self.max_tokens = min(ceiling, self.max_tokens * 2)
            self.threads.reset()  # the cut-off reply is not continued; resend it whole
            yield ModelRetry(
                attempt=2,
                max_attempts=2,
                delay_s=0.0,
                reason="max_tokens",
                message=f"the output limit cut off {what}; nothing was run; sending the call "
                f"again with max_tokens {self.max_tokens}",
                discard=True,
                request_id=request_id,
            )
            return
        limit = f"{self.max_tokens} tokens" if stop == "max_tokens" else "the context window"
        raise TurnFailure(
            "model",
            f"the model's output was cut off at {limit} while writing {what}; nothing was run",
            request_id=request_id,
        )

    @staticmethod
    def _nudge(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        last = messages[-1]
        if last["role"] == "user":
            content = last["content"]
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
            return [*messages[:-1], {"role": "user", "content": [*blocks, _nudge_block()]}]
        return [*messages, {"role": "user", "content": [_nudge_block()]}]

    # one model call, with retries ---------------------------------------------------------
    def _params(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        params: dict[str, Any] = {
            "model": self.model_name,
            "max_tokens": self.max_tokens,
            "system": self.system,
            "tools": self.tools,
            "messages": with_moving_breakpoint(messages) if self.cache else messages,
        }
        caps = self.capabilities
        if caps.thinking:
            params["thinking"] = {"type": "adaptive", "display": "summarized"}
        if caps.effort is not None:
            params["output_config"] = {"effort": caps.effort}
        return self.threads.shape(params, messages)

    def _call(
        self, messages: list[dict[str, Any]]
    ) -> Generator[AgentEvent, None, tuple[Any, str | None]]:
        attempt = 1
        step = self.calls + 1  # the number ModelCallFinished gives this call; retries keep it
        while True:
            self._check()
            params = self._params(messages)
            streamed = False
            request_id: str | None = None
            remaining = self.deadline - time.monotonic()
            timeout = max(0.05, min(self.limits.model_timeout_s, remaining))
            try:
                message = None
                with self.threads.stream(self.session, params, timeout) as stream:
                    request_id = getattr(stream, "request_id", None)
                    saw_stop = False
                    for event in stream:
                        if self.cancel.cancelled:
                            break
                        kind = event.type
                        if kind == "text" and event.text:
                            streamed = True
                            yield AnswerDelta(event.text, step)
                        elif kind == "thinking" and event.thinking:
                            streamed = True
                            yield ThinkingDelta(event.thinking, step)
                        elif kind == "content_block_stop":
                            block = event.content_block
                            if block.type == "thinking":
                                streamed = True
                                yield Thinking(block.thinking or "")
                            elif block.type == "redacted_thinking":
                                yield Thinking("", redacted=True)
                        elif kind == "message_stop":
                            saw_stop = True
                    if self.cancel.cancelled:
                        raise _Cancelled
                    if not saw_stop:
                        raise _StreamEnded("the stream ended before message_stop")
                    message = stream.get_final_message()
            except _Cancelled:
                raise
            except _MODEL_CALL_ERRORS as exc:  # the SDK's and the transport's errors alike
                if self.cancel.cancelled:
                    raise _Cancelled from exc
                if self.threads.recover(exc):
                    continue
                if self.capabilities.degrade(exc):
                    self.cache = self.cache and self.capabilities.prompt_cache
                    self.system = system_blocks(self.session, self.cache)
                    self.tools = tool_definitions(self.session, self.cache)
                    continue
                verdict = judge(exc, self.model_name)
                failure = verdict.failure
                failure.request_id = failure.request_id or request_id
                if verdict.retry is None or attempt >= self.attempts:
                    if verdict.retry is not None and attempt > 1:
                        failure.message += f" (gave up after {attempt} attempts)"
                    raise failure from exc
                delay = self._delay(verdict, attempt)
                if delay > self.limits.retry_after_max_s:
                    failure.message += f"; the endpoint asks to wait {delay:.0f} s — try again then"
                    raise failure from exc
                if time.monotonic() + delay >= self.deadline:
                    raise TurnFailure(
                        "timeout",
                        f"{failure.message}; no time left in this turn to try again",
                        request_id=failure.request_id,
                    ) from exc
                attempt += 1
                if failure.request_id:
                    _log.warning(
                        "model call failed (request id %s), retrying in %.1f s: %s",
                        failure.request_id, delay, failure.message,
                    )  # fmt: skip
                yield ModelRetry(
                    attempt=attempt,
                    max_attempts=self.attempts,
                    delay_s=round(delay, 3),
                    reason=verdict.retry,
                    message=failure.message,
                    discard=streamed,
                    request_id=failure.request_id,
                )
                if delay > 0 and self.cancel.wait(delay):
                    raise _Cancelled from exc
                # the failed attempt may have consumed the continue: start a new thread
                self.threads.reset()
                continue
            assert message is not None
            self.calls += 1
            call_usage = _usage_of(message, str(message.model or params["model"]))
            self.usage = self.usage.plus(call_usage)
            request_id = request_id or getattr(message, "_request_id", None)
            yield ModelCallFinished(
                call_index=self.calls,
                model=str(message.model or params["model"]),
                stop_reason=message.stop_reason,
                usage=call_usage,
                request_id=request_id,
                request_bytes=_request_bytes(params),
            )
            return message, request_id

    def _delay(self, verdict: Verdict, attempt: int) -> float:
        if verdict.delay_s is not None:
            return verdict.delay_s
        backoff = min(self.limits.retry_base_s * 2.0 ** (attempt - 1), self.limits.retry_max_s)
        return backoff * (1 - 0.25 * random.random())  # jitter, as the SDK does

    # tools ------------------------------------------------------------------------------
    def _run_tools(self, uses: list[Any]) -> Generator[AgentEvent, None, list[dict[str, Any]]]:
        results: list[dict[str, Any]] = []
        for use in uses:
            if self.cancel.cancelled:
                raise _Cancelled
            request = ToolRequest(use.id, use.name, dict(use.input or {}))
            finished: ToolCallFinished | None = None
            try:
                for step in self.runtime.run(request, self.approver):
                    if self.cancel.cancelled:
                        raise _Cancelled
                    if isinstance(step, ToolCallFinished):
                        finished = step
                    yield step
            except PlatformError as exc:
                if self.cancel.cancelled:
                    raise _Cancelled from exc
                raise platform_failure(exc) from exc
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
        return results


class _StreamEnded(Exception):
    """The response body ended without ``message_stop`` (a dropped connection)."""


_MODEL_CALL_ERRORS = (
    anthropic.AnthropicError,
    httpx2.HTTPError,
    OSError,
    _StreamEnded,
    json.JSONDecodeError,
)
"""What a model call can fail with: the SDK's errors, the transport's (reset, EOF,
truncated chunk) and a stream cut inside an event. Anything else is a bug and ends
the turn as an internal error."""


def _nudge_block() -> dict[str, Any]:
    return {"type": "text", "text": NUDGE}


def _request_bytes(params: dict[str, Any]) -> int:
    body = {k: v for k, v in params.items() if k not in ("extra_headers", "betas")}
    return len(json.dumps(body, ensure_ascii=False, default=str).encode("utf-8"))
