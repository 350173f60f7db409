"""The message-thread store: one continue per reply, bounded count, bytes and lifetime."""

from __future__ import annotations

import pytest

from embedded.model.threads import StoredReply, ThreadStore
from embedded.model.wire import RequestError


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def reply(text: str = "q") -> StoredReply:
    return StoredReply("m", "system", [], [{"role": "user", "content": text}])


def code_of(exc: pytest.ExceptionInfo[RequestError]) -> tuple[int, str | None]:
    return exc.value.status, exc.value.code


def test_continue_once_then_already_continued() -> None:
    store = ThreadStore()
    store.store("msg_a", reply(), added_bytes=10)
    claimed = store.begin_continue("msg_a", "m")
    assert claimed.messages[0]["content"] == "q"
    with pytest.raises(RequestError) as busy:
        store.begin_continue("msg_a", "m")
    assert code_of(busy) == (400, "thread_continue_in_flight")
    store.store("msg_b", reply(), previous_id="msg_a", added_bytes=5)
    with pytest.raises(RequestError) as used:
        store.begin_continue("msg_a", "m")
    assert code_of(used) == (400, "thread_already_continued")
    assert store.stored_bytes == 15  # the successor carries the whole conversation


def test_abort_gives_the_reply_back() -> None:
    store = ThreadStore()
    store.store("msg_a", reply())
    store.begin_continue("msg_a", "m")
    store.abort("msg_a")
    assert store.begin_continue("msg_a", "m") is not None


def test_unknown_and_expired_are_thread_not_found() -> None:
    clock = Clock()
    store = ThreadStore(ttl_s=300, clock=clock)
    with pytest.raises(RequestError) as unknown:
        store.begin_continue("msg_nope", "m")
    assert code_of(unknown) == (404, "thread_not_found")
    assert unknown.value.body()["error"]["type"] == "not_found_error"
    store.store("msg_a", reply())
    clock.now += 299
    store.store("msg_b", reply())
    clock.now += 2
    with pytest.raises(RequestError) as expired:
        store.begin_continue("msg_a", "m")
    assert code_of(expired) == (404, "thread_not_found")
    assert store.begin_continue("msg_b", "m") is not None
    assert len(store) == 1


def test_least_recently_used_is_evicted_by_count_and_bytes() -> None:
    store = ThreadStore(max_replies=2, max_bytes=100)
    store.store("msg_a", reply(), added_bytes=10)
    store.store("msg_b", reply(), added_bytes=10)
    store.begin_continue("msg_a", "m")  # a is used again: b is now the oldest
    store.abort("msg_a")
    store.store("msg_c", reply(), added_bytes=10)
    with pytest.raises(RequestError):
        store.begin_continue("msg_b", "m")
    store.store("msg_d", reply(), added_bytes=95)
    assert store.stored_bytes <= 100 and len(store) == 1


def test_another_model_is_a_fingerprint_mismatch() -> None:
    store = ThreadStore()
    store.store("msg_a", reply())
    with pytest.raises(RequestError) as other:
        store.begin_continue("msg_a", "another-model")
    assert code_of(other) == (400, "thread_fingerprint_mismatch")


def test_a_conversation_larger_than_the_store_is_not_held() -> None:
    store = ThreadStore(max_bytes=100)
    store.store("msg_a", reply(), added_bytes=60)
    store.begin_continue("msg_a", "m")
    store.store("msg_b", reply(), previous_id="msg_a", added_bytes=60)
    with pytest.raises(RequestError) as lost:
        store.begin_continue("msg_b", "m")
    assert code_of(lost) == (404, "thread_not_found")
    assert store.stored_bytes == 0
