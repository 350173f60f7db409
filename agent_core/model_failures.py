"""How a failed model call reads, and whether the SDK's retry policy tries it again.

The turn loop retries itself (so a wait is announced and Stop ends it); this
module only judges an exception: the failure kind and words a person sees, the
API's request id, and the retry reason, if any.
"""

from __future__ import annotations

import email.utils
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import anthropic

from agent_core.errors import (
    PlatformAuthError,
    PlatformError,
    PlatformNetworkError,
    PlatformTimeoutError,
)

if TYPE_CHECKING:
    from agent_core.events import FailureKind, RetryReason


class TurnFailure(Exception):
    """Ends the turn as ``TurnFailed(kind, message)``; raised inside the loop."""

    def __init__(
        self,
        kind: FailureKind,
        message: str,
        *,
        action: Literal["settings"] | None = None,
        request_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.kind: FailureKind = kind
        self.message = message
        self.action: Literal["settings"] | None = action
        self.request_id = request_id


@dataclass(frozen=True)
class Verdict:
    """What a failed model call means: the failure, and whether to try again."""

    failure: TurnFailure
    retry: RetryReason | None = None
    delay_s: float | None = None
    """``retry-after`` from the response, when it sent one."""


def _retry_after(headers: Any) -> float | None:
    """Seconds from ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP date)."""
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        raw = headers.get(name)
        if raw is None:
            continue
        try:
            return max(0.0, float(raw) / scale)
        except ValueError:
            parsed = email.utils.parsedate_tz(raw)
            if parsed is not None:
                return max(0.0, float(email.utils.mktime_tz(parsed) - time.time()))
    return None


def _api_words(exc: anthropic.APIStatusError) -> str:
    message = exc.api_message
    if not message:
        body = exc.body
        message = body if isinstance(body, str) and body else f"HTTP {exc.status_code}"
    return str(message)


def judge(exc: Exception, model: str) -> Verdict:
    """Words for a failed model call and whether the SDK's retry policy retries it."""
    if isinstance(exc, anthropic.APITimeoutError):
        return Verdict(TurnFailure("timeout", "the model did not answer in time"), "timeout")
    if isinstance(exc, anthropic.APIConnectionError):
        return Verdict(
            TurnFailure("network", f"the model endpoint is unreachable: {exc}"), "connection"
        )
    if isinstance(exc, anthropic.APIStatusError):
        return _judge_status(exc, model)
    if isinstance(exc, anthropic.AnthropicError):
        return Verdict(TurnFailure("model", f"model error: {exc}"))
    # the transport broke while the body streamed (reset, truncated chunk, EOF)
    return Verdict(
        TurnFailure("network", f"the model's stream broke: {type(exc).__name__}: {exc}"),
        "stream_broken",
    )


def _judge_status(exc: anthropic.APIStatusError, model: str) -> Verdict:
    status = exc.status_code
    kind = exc.type or ""
    words = _api_words(exc)
    rid = exc.request_id
    headers = exc.response.headers if exc.response is not None else None
    delay = _retry_after(headers)
    should = headers.get("x-should-retry") if headers is not None else None

    def fail(
        message: str, failure: FailureKind = "model", action: Literal["settings"] | None = None
    ) -> TurnFailure:
        return TurnFailure(failure, message, action=action, request_id=rid)

    if status == 401 or kind == "authentication_error":
        return Verdict(fail(f"the API key was rejected: {words}", "auth", "settings"))
    if status == 403 or kind == "permission_error":
        return Verdict(fail(f"this API key may not do that: {words}", "refused", "settings"))
    if status == 404 or kind == "not_found_error":
        return Verdict(
            fail(f"model {model} is not available — choose another ({words})", action="settings")
        )
    if status == 402 or kind == "billing_error":
        return Verdict(fail(f"billing problem on this API account: {words}", action="settings"))
    if status == 413 or kind == "request_too_large":
        return Verdict(fail(f"the request is too large for the model endpoint: {words}"))
    if exc.error_code == "enforced_spend_limit_reached":
        return Verdict(fail(f"the spend limit of this API account is reached: {words}"))
    if should == "false":
        return Verdict(fail(f"the model endpoint refused the request: {words}"))
    if status == 429 or kind == "rate_limit_error":
        return Verdict(fail(f"rate limit reached: {words}"), "rate_limited", delay)
    if status == 529 or kind == "overloaded_error":
        return Verdict(fail(f"the model is overloaded: {words}"), "overloaded", delay)
    if status in (408, 409) or status >= 500 or kind in ("api_error", "timeout_error"):
        return Verdict(fail(f"the model endpoint had an error: {words}"), "server_error", delay)
    if should == "true":
        return Verdict(fail(f"the model endpoint asked to retry: {words}"), "server_error", delay)
    if status == 400 or kind == "invalid_request_error":
        return Verdict(fail(f"the model endpoint rejected the request as invalid: {words}"))
    return Verdict(fail(f"the model endpoint refused the request (HTTP {status}): {words}"))


RETRY_WORDS: dict[str, str] = {
    "overloaded": "overloaded",
    "rate_limited": "rate limited",
    "server_error": "server error",
    "timeout": "timed out",
    "connection": "connection failed",
    "stream_broken": "stream broke",
    "max_tokens": "output limit reached",
}
"""The short reason a pane shows in "retrying in N s (overloaded)"."""


def platform_failure(exc: PlatformError) -> TurnFailure:
    if isinstance(exc, PlatformAuthError):
        return TurnFailure("auth", f"the platform no longer accepts this login: {exc.message}")
    if isinstance(exc, PlatformTimeoutError):
        return TurnFailure("timeout", exc.message)
    if isinstance(exc, PlatformNetworkError):
        return TurnFailure("network", exc.message)
    return TurnFailure("model", exc.message)
