"""The local audit log is append-only and hash-chained; edits are detected."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from agent_core.audit import AuditLog, default_data_dir, verify_audit_log

if TYPE_CHECKING:
    from pathlib import Path

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
    assert default_data_dir() == tmp_path
