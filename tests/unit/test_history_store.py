"""HistoryStore: round trip, restart, failures that keep earlier turns, threads."""

from __future__ import annotations

import os
import resource
import signal
import threading
from pathlib import Path

import pytest

from desktop.history_store import HistoryStore, HistoryWriteError

EVENTS = [
    {
        "kind": "turn_started",
        "turn_id": "t1",
        "persona": "hong",
        "question": "육아휴직?",
        "model": "offline",
    },
    {
        "kind": "answer_finished",
        "text": "8일 남았습니다.",
        "citations": [{"doc_no": "HR-REG-003", "version": 3, "effective_from": "2025-03-15"}],
    },
]


def _append(store: HistoryStore, persona: str, question: str, answer: str = "답") -> int:
    return store.append_turn(persona, question, answer, EVENTS, 1_700_000_000.5, 812.0, "answered")


def test_round_trip_keeps_every_field_and_separates_personas(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "history.db")
    first = _append(store, "hong", "육아휴직 며칠 남았나요?", "8일 남았습니다.")
    _append(store, "cho", "징계 기준은?")
    second = _append(store, "hong", "두 번째 질문")

    turns = store.turns("hong")

    assert [t.id for t in turns] == [first, second]
    assert turns[0].persona == "hong"
    assert turns[0].question == "육아휴직 며칠 남았나요?"
    assert turns[0].answer == "8일 남았습니다."
    assert turns[0].events == EVENTS
    assert turns[0].started_at == 1_700_000_000.5
    assert turns[0].elapsed_ms == 812.0
    assert turns[0].status == "answered"
    assert [t.question for t in store.turns("cho")] == ["징계 기준은?"]


def test_limit_returns_the_latest_turns_oldest_first(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "history.db")
    for i in range(5):
        _append(store, "hong", f"q{i}")
    assert [t.question for t in store.turns("hong", limit=2)] == ["q3", "q4"]


def test_history_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "history.db"
    store = HistoryStore(path)
    _append(store, "park", "부서 연차 현황")
    store.close()

    reopened = HistoryStore(path)
    assert [t.question for t in reopened.turns("park")] == ["부서 연차 현황"]
    assert reopened.writable


def test_clear_forgets_one_persona_only(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "history.db")
    _append(store, "hong", "a")
    _append(store, "cho", "b")
    store.clear("hong")
    assert store.turns("hong") == []
    assert [t.question for t in store.turns("cho")] == ["b"]


def test_unwritable_location_raises_a_clear_error(tmp_path: Path) -> None:
    # /proc refuses new folders even to root, unlike a chmod-ed directory.
    store = HistoryStore(Path("/proc/regdesk-history/history.db"))
    assert not store.writable
    assert store.turns("hong") == []
    with pytest.raises(HistoryWriteError, match="Could not save the conversation history"):
        _append(store, "hong", "q")


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_read_only_folder_raises_and_keeps_earlier_turns(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    store = HistoryStore(folder / "history.db")
    _append(store, "hong", "before")
    store.close()
    (folder / "history.db").chmod(0o444)
    folder.chmod(0o555)
    try:
        reopened = HistoryStore(folder / "history.db")
        with pytest.raises(HistoryWriteError):
            _append(reopened, "hong", "after")
        assert [t.question for t in reopened.turns("hong")] == ["before"]
        reopened.close()
    finally:
        folder.chmod(0o755)
        (folder / "history.db").chmod(0o644)


def test_disk_full_fails_one_turn_and_keeps_the_others(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "history.db")
    _append(store, "hong", "before")
    # A file-size limit makes the OS refuse the write exactly like a full disk.
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, limit[1]))
    try:
        with pytest.raises(HistoryWriteError):
            _append(store, "hong", "too big", answer="가" * 300_000)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limit)
        signal.signal(signal.SIGXFSZ, previous)

    assert [t.question for t in store.turns("hong")] == ["before"]
    _append(store, "hong", "after")
    store.close()
    assert [t.question for t in HistoryStore(tmp_path / "history.db").turns("hong")] == [
        "before",
        "after",
    ]


def test_two_threads_write_at_once_without_losing_turns(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "history.db")
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def write(persona: str) -> None:
        try:
            barrier.wait()
            for i in range(50):
                _append(store, persona, f"{persona}-{i}")
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(p,)) for p in ("hong", "cho")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    for persona in ("hong", "cho"):
        assert [t.question for t in store.turns(persona)] == [f"{persona}-{i}" for i in range(50)]


def _submit(store: HistoryStore, question: str, errors: list[HistoryWriteError]) -> object:
    return store.submit_turn(
        "hong", question, "답", EVENTS, 1_700_000_000.5, 1.0, "answered", on_error=errors.append
    )


def test_a_turn_submitted_just_before_close_does_not_deadlock(tmp_path: Path) -> None:
    """A submit landing between close's wait for queued turns and its shutdown."""
    store = HistoryStore(tmp_path / "history.db")
    errors: list[HistoryWriteError] = []
    _submit(store, "first", errors)
    original_wait = store.wait_written
    late: list[object] = []

    def wait_then_submit() -> None:
        original_wait()
        late.append(_submit(store, "late", errors))

    store.wait_written = wait_then_submit  # type: ignore[method-assign]
    closer = threading.Thread(target=store.close, daemon=True)
    closer.start()
    closer.join(10)
    assert not closer.is_alive(), "close() deadlocked with the writer thread"
    reopened = HistoryStore(tmp_path / "history.db")
    saved = [t.question for t in reopened.turns("hong")]
    reopened.close()
    # a late turn (if close still waits first) is written or reported, never dropped
    if late:
        assert saved == ["first", "late"] or (saved == ["first"] and len(errors) == 1)
    else:
        assert saved == ["first"] and not errors


def test_close_while_many_threads_submit_loses_nothing_silently(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "history.db")
    errors: list[HistoryWriteError] = []
    futures: list[object] = []
    futures_lock = threading.Lock()
    go = threading.Barrier(5)

    def submitter(n: int) -> None:
        go.wait()
        for i in range(40):
            future = _submit(store, f"{n}-{i}", errors)
            with futures_lock:
                futures.append(future)

    def closer() -> None:
        go.wait()
        store.close()

    threads = [threading.Thread(target=submitter, args=(n,), daemon=True) for n in range(4)]
    threads.append(threading.Thread(target=closer, daemon=True))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
        assert not thread.is_alive(), "close() and submit_turn deadlocked"
    assert len(futures) == 160
    written = [f.result() for f in futures if f.exception(5) is None]  # type: ignore[attr-defined]
    failed = [f for f in futures if f.exception(5) is not None]  # type: ignore[attr-defined]
    assert len(written) + len(failed) == 160
    assert len(errors) == len(failed)  # every unsaved turn was reported
    assert all("closed" in str(e) for e in errors)
    reopened = HistoryStore(tmp_path / "history.db")
    assert len(reopened.turns("hong", limit=1000)) == len(written)
    reopened.close()


def test_submit_after_close_reports_an_error_without_a_new_writer(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "history.db")
    errors: list[HistoryWriteError] = []
    _submit(store, "before", errors)
    store.close()
    future = _submit(store, "after", errors)
    assert isinstance(future.exception(5), HistoryWriteError)  # type: ignore[attr-defined]
    assert [str(e) for e in errors] == [str(future.exception())]  # type: ignore[attr-defined]
    assert "closed" in str(errors[0])
    assert not any(t.name.startswith("regdesk-history") for t in threading.enumerate())
    store.close()  # closing twice is harmless
