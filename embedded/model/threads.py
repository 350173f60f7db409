"""Message threads (beta ``message-threads-2026-08-12``): server-held conversation state.

Why the offline model holds state rather than refusing threads: ``anthropic``
2.14's ``tool_runner`` threads every conversation by default, and a stand-in
that ignored the ``thread`` field saw only the new messages of each turn (the
tool results) and never the question. Refusing with
``thread_unsupported_request`` would make the SDK raise unless the caller opted
into ``continue_unthreaded``; holding the state is what the real API does and
what the SDK's default path expects.

How it behaves, as the Messages API documents it:

* ``{"type": "create"}``: the full conversation (with ``system`` and ``tools``)
  and the reply are stored under the reply's ``id``.
* ``{"type": "continue", "previous_message_id": id}``: only the messages after
  that reply are sent, without ``system`` and ``tools`` (the thread keeps
  those); the stored conversation is rebuilt before the planner runs.
* Each stored reply can be continued once (``thread_already_continued``, 400),
  and not while another continue of it is in flight
  (``thread_continue_in_flight``, 400). A thread expires a while after its last
  stored reply (five minutes by default) and the store holds a bounded number
  of replies and bytes, least recently used evicted first; an unknown, expired
  or evicted id is ``thread_not_found`` (404), on which the SDK replays the
  full history under a new thread. A different ``model`` on a continue is
  ``thread_fingerprint_mismatch`` (400).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from embedded.model.wire import RequestError

if TYPE_CHECKING:
    from collections.abc import Callable

THREADS_BETA = "message-threads-2026-08-12"
"""The ``anthropic-beta`` value that enables the ``thread`` field."""

DEFAULT_TTL_S = 300.0
"""A thread expires this long after its last stored reply."""
DEFAULT_MAX_REPLIES = 512
"""Stored replies (threads and their continued predecessors) kept at most."""
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
"""Approximate bytes of stored conversations kept at most."""

State = Literal["ready", "in_flight", "continued"]


@dataclass(slots=True)
class StoredReply:
    """One reply the server stored, and the conversation up to and including it."""

    model: str
    """The model the thread was created with (part of its fingerprint)."""
    system: str
    """System prompt text of the create request."""
    tools: list[dict[str, Any]]
    """Tool definitions of the create request."""
    messages: list[dict[str, Any]] = field(default_factory=list)
    """The whole conversation, the reply last."""
    size: int = 0
    """Approximate bytes of the conversation (for the byte bound)."""
    expires_at: float = 0.0
    """Clock time after which the reply can no longer be continued."""
    state: State = "ready"
    """ready, in_flight (a continue is running) or continued (used up)."""


class ThreadStore:
    """Stored replies by id, bounded in count, bytes and lifetime (thread-safe).

    Args:
        ttl_s: Lifetime of a stored reply.
        max_replies: Most stored replies kept (least recently used evicted).
        max_bytes: Most conversation bytes kept (least recently used evicted).
        clock: Monotonic clock (tests pass their own).
    """

    def __init__(
        self,
        ttl_s: float = DEFAULT_TTL_S,
        max_replies: int = DEFAULT_MAX_REPLIES,
        max_bytes: int = DEFAULT_MAX_BYTES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._ttl_s = ttl_s
        self._max_replies = max(1, max_replies)
        self._max_bytes = max(1, max_bytes)
        self._clock = clock
        self._lock = threading.Lock()
        self._replies: OrderedDict[str, StoredReply] = OrderedDict()
        self._bytes = 0

    def __len__(self) -> int:
        with self._lock:
            return len(self._replies)

    @property
    def stored_bytes(self) -> int:
        """Approximate bytes held."""
        with self._lock:
            return self._bytes

    def begin_continue(self, previous_id: str, model: str) -> StoredReply:
        """Claim a stored reply for a continue request.

        Args:
            previous_id: ``thread.previous_message_id``.
            model: The continue request's model.

        Returns:
            The stored reply (now in flight; call ``finish`` or ``abort``).

        Raises:
            RequestError: thread_not_found (404), thread_already_continued,
                thread_continue_in_flight or thread_fingerprint_mismatch (400).
        """
        with self._lock:
            self._expire()
            stored = self._replies.get(previous_id)
            if stored is None:
                raise RequestError(
                    f"No usable thread state was found for previous_message_id {previous_id!r} "
                    "(unknown or expired). Replay the full conversation with "
                    '`thread: {"type": "create"}`.',
                    status=404,
                    error_type="not_found_error",
                    code="thread_not_found",
                )
            if stored.state == "continued":
                raise RequestError(
                    f"The response {previous_id!r} has already been continued; each response "
                    "can be continued only once. Continue from the thread's most recent "
                    "response id.",
                    code="thread_already_continued",
                )
            if stored.state == "in_flight":
                raise RequestError(
                    f"Another request is still continuing from {previous_id!r}. Wait for it "
                    "and continue from its response id, or replay the full conversation.",
                    code="thread_continue_in_flight",
                )
            if stored.model != model:
                raise RequestError(
                    f"model differs from the value stored with the thread ({stored.model!r}). "
                    'Send the stored value, or replay with `thread: {"type": "create"}`.',
                    code="thread_fingerprint_mismatch",
                )
            stored.state = "in_flight"
            self._replies.move_to_end(previous_id)
            return stored

    def abort(self, previous_id: str) -> None:
        """Give back a claimed reply (the continue failed before a reply was stored)."""
        with self._lock:
            stored = self._replies.get(previous_id)
            if stored is not None and stored.state == "in_flight":
                stored.state = "ready"

    def store(
        self,
        reply_id: str,
        stored: StoredReply,
        *,
        previous_id: str | None = None,
        added_bytes: int = 0,
    ) -> None:
        """Store a reply; a continued predecessor is used up and its conversation dropped.

        Args:
            reply_id: The new reply's id.
            stored: Its thread state (conversation including the reply).
            previous_id: The reply this one continued, if any.
            added_bytes: Bytes this turn added to the conversation.
        """
        with self._lock:
            base = 0
            if previous_id is not None and previous_id in self._replies:
                before = self._replies[previous_id]
                base = before.size
                before.state = "continued"
                # The successor holds the conversation; keep only the marker.
                self._bytes -= before.size
                before.messages, before.tools, before.size = [], [], 0
            stored.size = base + max(0, added_bytes)
            if stored.size > self._max_bytes:
                # One conversation larger than the whole store is not held: its next
                # continue is thread_not_found, and the client replays the history.
                return
            stored.expires_at = self._clock() + self._ttl_s
            self._replies[reply_id] = stored
            self._bytes += stored.size
            self._evict()

    def _expire(self) -> None:
        now = self._clock()
        for key in [k for k, v in self._replies.items() if v.expires_at <= now]:
            self._drop(key)

    def _evict(self) -> None:
        self._expire()
        while len(self._replies) > self._max_replies or (
            self._bytes > self._max_bytes and len(self._replies) > 1
        ):
            self._drop(next(iter(self._replies)))

    def _drop(self, key: str) -> None:
        stored = self._replies.pop(key)
        self._bytes -= stored.size
