"""The local audit log is append-only and hash-chained; edits are detected."""

from __future__ import annotations

import json
import multiprocessing
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_core.audit import AuditLog, default_audit_path, verify_audit_log
from agent_core.paths import user_data_dir

if TYPE_CHECKING:
    import pytest


def _write(path: Path, n: int) -> AuditLog:
    log = AuditLog(path)
    for i in range(n):
        log.append({"event": "tool_call", "tool": "query_hr", "i": i, "note": "한글 기록"})
    return log


def test_intact_chain_verifies(tmp_path: Path) -> None:
    log = _write(tmp_path / "a" / "audit.jsonl", 5)
    assert verify_audit_log(log.path) == (True, None)
    records = log.records()
    assert [r["i"] for r in records] == [0, 1, 2, 3, 4]
    assert all(records[i]["prev"] == records[i - 1]["hash"] for i in range(1, 5))


def test_edited_middle_line_is_reported(tmp_path: Path) -> None:
    log = _write(tmp_path / "audit.jsonl", 5)
    lines = log.path.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[2])
    record["tool"] = "request_regulation_revision"
    lines[2] = json.dumps(record, ensure_ascii=False, sort_keys=True)
    log.path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert verify_audit_log(log.path) == (False, 3)


def test_edited_last_line_and_deleted_line_are_reported(tmp_path: Path) -> None:
    log = _write(tmp_path / "audit.jsonl", 4)
    original = log.path.read_text(encoding="utf-8").splitlines()
    log.path.write_text("\n".join([*original[:-1], original[-1].replace("query_hr", "x")]) + "\n")
    assert verify_audit_log(log.path) == (False, 4)
    log.path.write_text("\n".join(original[:1] + original[2:]) + "\n")
    assert verify_audit_log(log.path) == (False, 2)


def test_appending_continues_the_chain_across_instances(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    _write(path, 2)
    _write(path, 2)
    assert verify_audit_log(path) == (True, None)
    assert len(AuditLog(path).records()) == 4


def test_default_location_honours_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGDESK_DATA_DIR", str(tmp_path))
    assert user_data_dir() == tmp_path
    assert default_audit_path() == tmp_path / "audit.jsonl"


def _append_many(path: str, who: str, count: int, go: Any) -> None:
    go.wait()
    log = AuditLog(Path(path))
    for i in range(count):
        log.append({"event": "test", "who": who, "n": i})


def test_two_processes_appending_keep_one_chain(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    ctx = multiprocessing.get_context("spawn")
    go = ctx.Event()
    workers = [
        ctx.Process(target=_append_many, args=(str(path), who, 200, go)) for who in ("a", "b")
    ]
    for worker in workers:
        worker.start()
    go.set()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    records = AuditLog(path).records()
    assert len(records) == 400
    assert {r["who"] for r in records} == {"a", "b"}
    assert verify_audit_log(path) == (True, None)


def test_user_data_dir_per_platform(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REGDESK_DATA_DIR", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert user_data_dir() == tmp_path / "xdg" / "regdesk"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert user_data_dir() == Path.home() / ".local" / "share" / "regdesk"
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("APPDATA", str(tmp_path / "roaming"))
    assert user_data_dir() == tmp_path / "roaming" / "RegDesk"
    monkeypatch.setattr(sys, "platform", "darwin")
    assert user_data_dir() == Path.home() / "Library" / "Application Support" / "RegDesk"


def test_launcher_uses_the_shared_data_dir() -> None:
    from desktop import launcher

    assert launcher.user_data_dir is user_data_dir
