"""Local append-only audit log, hash-chained so an edited line is detectable.

Each line is one JSON object with ``hash`` (sha256 of the record's canonical
JSON without ``hash``) and ``prev`` (the previous record's ``hash``; 64 zeros
for the first). ``verify_audit_log`` recomputes both, so editing any line,
including the last, or deleting or reordering lines is detected.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import sys
import threading
from pathlib import Path
from typing import IO, Any

from agent_core.paths import user_data_dir

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt
else:
    import fcntl

GENESIS = "0" * 64
"""``prev`` of the first record."""

_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


def default_audit_path() -> Path:
    """Default location of the local audit log.

    Returns:
        ``<data dir>/audit.jsonl``.
    """
    return user_data_dir() / "audit.jsonl"


def _lock_for(path: Path) -> threading.Lock:
    key = str(path.resolve())
    with _locks_guard:
        return _locks.setdefault(key, threading.Lock())


def _canonical(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=True, default=str)


def _record_hash(record: dict[str, Any]) -> str:
    body = {k: v for k, v in record.items() if k != "hash"}
    return hashlib.sha256(_canonical(body).encode("utf-8")).hexdigest()


def _last_line_hash(fh: IO[bytes]) -> str:
    fh.seek(0, os.SEEK_END)
    size = fh.tell()
    if size == 0:
        return GENESIS
    block = min(size, 65536)
    while True:
        fh.seek(size - block)
        data = fh.read(block)
        lines = data.rstrip(b"\n").split(b"\n")
        if len(lines) > 1 or block == size:
            try:
                return str(json.loads(lines[-1]).get("hash", GENESIS))
            except ValueError:
                return hashlib.sha256(lines[-1]).hexdigest()
        block = min(size, block * 2)


def _lock_file(fh: IO[bytes]) -> None:
    """Take an exclusive lock on the whole file, waiting for other processes."""
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        # msvcrt locks a byte range; byte 0 serves as the file's mutex. LK_LOCK
        # retries for ~10 s, so loop until it is ours.
        fh.seek(0)
        while True:
            try:
                msvcrt.locking(fh.fileno(), msvcrt.LK_LOCK, 1)
                return
            except OSError:
                continue
    fcntl.flock(fh.fileno(), fcntl.LOCK_EX)


def _unlock_file(fh: IO[bytes]) -> None:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        fh.seek(0)
        msvcrt.locking(fh.fileno(), msvcrt.LK_UNLCK, 1)
        return
    fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


class AuditLog:
    """Appends records to a hash-chained JSON-lines file.

    Args:
        path: File to append to; parent directories are created.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_audit_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def append(self, record: dict[str, Any]) -> dict[str, Any]:
        """Append one record, chained to the previous line.

        Args:
            record: JSON-ready fields (``ts`` and ``prev`` are added).

        Returns:
            The record as written.
        """
        # The thread lock orders this process's writers; the file lock orders
        # other processes (GUI, CLI and MCP server may share one log). Reading
        # the last hash and appending happen under both, on one descriptor.
        with _lock_for(self.path), self.path.open("a+b") as fh:
            _lock_file(fh)
            try:
                prev = _last_line_hash(fh)
                full = json.loads(
                    _canonical({"ts": dt.datetime.now(dt.UTC).isoformat(), **record, "prev": prev})
                )
                full["hash"] = _record_hash(full)
                fh.seek(0, os.SEEK_END)
                fh.write(_canonical(full).encode("utf-8") + b"\n")
                fh.flush()
            finally:
                _unlock_file(fh)
            return full

    def records(self) -> list[dict[str, Any]]:
        """Read every record.

        Returns:
            Records in order.
        """
        if not self.path.exists():
            return []
        with self.path.open(encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]


def verify_audit_log(path: Path) -> tuple[bool, int | None]:
    """Check the hash chain of an audit log.

    Args:
        path: The JSON-lines file.

    Returns:
        ``(True, None)`` when intact, else ``(False, n)`` with the 1-based number
        of the first line that was edited, is out of chain, or is not JSON.
    """
    path = Path(path)
    if not path.exists():
        return True, None
    prev = GENESIS
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            line = raw.rstrip(b"\n")
            try:
                record = json.loads(line)
            except ValueError:
                return False, number
            if not isinstance(record, dict) or record.get("prev") != prev:
                return False, number
            if record.get("hash") != _record_hash(record):
                return False, number
            prev = record["hash"]
    return True, None
