"""Idempotency keys, citations, SELECT checking, date normalisation, runtime decisions."""

from __future__ import annotations

from typing import Any

import pytest

from agent_core.approval import ApprovalDecision
from agent_core.citations import parse_citations
from agent_core.events import ApprovalRequested, Citation, ToolCallFinished, ToolCallStarted
from agent_core.platform_quirks import as_iso_date, iso_to_epoch_days, normalise_dates
from agent_core.runtime import ToolRequest, ToolRuntime
from agent_core.tools import (
    Tool,
    ToolArgumentError,
    ToolResult,
    check_single_select,
    idempotency_key,
)


def test_idempotency_key_is_deterministic_and_distinguishes_inputs() -> None:
    key = idempotency_key("hong", "HR-REG-003", 3)
    assert key == idempotency_key("hong", "hr-reg-003 ", 3)
    assert len(key) == 32
    assert key != idempotency_key("cho", "HR-REG-003", 3)
    assert key != idempotency_key("hong", "HR-REG-003", 4)
    assert key != idempotency_key("hong", "HR-REG-002", 3)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "HR-REG-003 제3차 개정(2025-03-15 시행)에 따라 20일입니다.",
            (Citation("HR-REG-003", 3, "2025-03-15"),),
        ),
        (
            "Per HR-REG-003 version 3 (effective 2025-03-15); see FIN-GDL-001.",
            (Citation("HR-REG-003", 3, "2025-03-15"), Citation("FIN-GDL-001", None, None)),
        ),
        (
            "HR-REG-003 v2는 15일, HR-REG-003 v3는 20일",
            (Citation("HR-REG-003", 2, None), Citation("HR-REG-003", 3, None)),
        ),
        ("규정을 찾지 못했습니다.", ()),
    ],
)
def test_citations_parser(text: str, expected: tuple[Citation, ...]) -> None:
    assert parse_citations(text) == expected


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT 사번 FROM semantic.hr.leave_balance",
        "WITH t AS (SELECT 1 AS a) SELECT a FROM t;",
        "SELECT 1 UNION SELECT 2",
    ],
)
def test_single_select_accepted(sql: str) -> None:
    assert check_single_select(sql).startswith(("SELECT", "WITH"))


@pytest.mark.parametrize(
    "sql",
    [
        "DELETE FROM semantic.hr.employees",
        "SELECT 1; DROP TABLE users",
        "UPDATE semantic.hr.leave_balance SET 사용일수 = 0",
        "INSERT INTO revision_requests VALUES (1)",
        "",
    ],
)
def test_anything_but_one_select_is_refused(sql: str) -> None:
    with pytest.raises(ToolArgumentError):
        check_single_select(sql)


def test_epoch_days_become_iso_dates_only_in_date_columns() -> None:
    rows = normalise_dates(
        ["doc_no", "effective_from", "입사일", "사용일수", "x"],
        [["HR-REG-003", 20162, 17000, 12, 20162]],
        ["TEXT", "", "", "INTEGER", "DATE"],
    )
    assert rows == [["HR-REG-003", "2025-03-15", "2016-07-18", 12, "2025-03-15"]]


def test_epoch_days_as_digit_strings_become_iso_dates_too() -> None:
    rows = normalise_dates(
        ["예정시행일", "effective_to", "청구일", "사용일수"],
        [["20162", "2025-03-15", None, "12"], [" 20443 ", "", "20250315", "7"]],
    )
    # 20250315 is not an epoch day (year 57 413): left alone rather than invented.
    assert rows == [
        ["2025-03-15", "2025-03-15", None, "12"],
        ["2025-12-21", "", "20250315", "7"],
    ]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (20162, "2025-03-15"),
        ("20162", "2025-03-15"),
        ("2025-03-15", "2025-03-15"),
        ("2025-03-15T00:00:00", "2025-03-15"),
        (0, "1970-01-01"),
        (None, None),
        ("", None),
        (True, "True"),
    ],
)
def test_as_iso_date_reads_every_form_a_date_arrives_in(value: Any, expected: str | None) -> None:
    assert as_iso_date(value) == expected


def test_iso_to_epoch_days_round_trips() -> None:
    assert iso_to_epoch_days("2025-03-15") == 20162
    assert as_iso_date(iso_to_epoch_days("2026-12-22")) == "2026-12-22"


def _fake_tools(calls: list[dict[str, Any]]) -> dict[str, Tool]:
    def read(args: dict[str, Any]) -> ToolResult:
        calls.append(args)
        return ToolResult({"rows": [[1]]}, 1)

    def write(args: dict[str, Any]) -> ToolResult:
        calls.append(args)
        return ToolResult({"status": "OK", "doc_no": args["doc_no"]})

    schema: dict[str, Any] = {"type": "object", "properties": {}}
    return {
        "query_hr": Tool("query_hr", "read", schema, "read", read),
        "request_regulation_revision": Tool(
            "request_regulation_revision", "w", schema, "write", write
        ),
    }


def test_runtime_allows_reads_without_asking() -> None:
    calls: list[dict[str, Any]] = []
    runtime = ToolRuntime(_fake_tools(calls), "hong")

    def approver(_: ApprovalRequested) -> ApprovalDecision:
        raise AssertionError("a read must not ask")

    events = list(runtime.run(ToolRequest("c1", "query_hr", {"question_sql": "x"}), approver))
    assert isinstance(events[0], ToolCallStarted) and events[0].decision == "allow"
    assert isinstance(events[-1], ToolCallFinished) and events[-1].status == "ok"
    assert calls == [{"question_sql": "x"}]


def test_runtime_denies_unknown_tools_and_runs_nothing() -> None:
    calls: list[dict[str, Any]] = []
    runtime = ToolRuntime(_fake_tools(calls), "hong")
    events = list(
        runtime.run(ToolRequest("c1", "drop_tables", {}), lambda _: ApprovalDecision(True))
    )
    assert [type(e) for e in events] == [ToolCallStarted, ToolCallFinished]
    assert events[0].decision == "deny"  # type: ignore[union-attr]
    assert events[-1].status == "denied"  # type: ignore[union-attr]
    assert calls == []


def test_runtime_write_needs_approval_and_denial_writes_nothing(tmp_path: Any) -> None:
    from agent_core.audit import AuditLog, verify_audit_log

    calls: list[dict[str, Any]] = []
    audit = AuditLog(tmp_path / "audit.jsonl")
    runtime = ToolRuntime(_fake_tools(calls), "hong", audit=audit, turn_id="t1")
    args = {"doc_no": "HR-REG-003", "version": 3, "reason": "r"}
    seen: list[ApprovalRequested] = []

    def deny(request: ApprovalRequested) -> ApprovalDecision:
        seen.append(request)
        return ApprovalDecision(False, "not now")

    events = list(runtime.run(ToolRequest("c1", "request_regulation_revision", args), deny))
    assert events[0].decision == "approval_required"  # type: ignore[union-attr]
    assert seen and seen[0].idempotency_key == idempotency_key("hong", "HR-REG-003", 3)
    finished = events[-1]
    assert isinstance(finished, ToolCallFinished) and finished.status == "denied"
    assert "DENIED_BY_USER" in finished.result and "not now" in finished.result
    assert calls == []

    list(runtime.run(ToolRequest("c2", "request_regulation_revision", args),
                     lambda _: ApprovalDecision(True, "ok")))  # fmt: skip
    assert calls == [args]
    records = audit.records()
    assert [(r["event"], r["approved"]) for r in records] == [
        ("approval", False),
        ("tool_call", False),
        ("approval", True),
        ("tool_call", True),
    ]
    assert verify_audit_log(audit.path) == (True, None)


def test_endpoints_repr_hides_the_api_key() -> None:
    from agent_core.config import Endpoints

    secret = "sk-ant-secret-0123456789"
    endpoints = Endpoints("http://127.0.0.1:1", None, secret, "claude-x")
    assert endpoints.api_key == secret
    assert secret not in repr(endpoints) and secret not in str(endpoints)
    assert "claude-x" in repr(endpoints)


def test_approval_is_audited_even_when_the_turn_stops_right_after_it(tmp_path: Any) -> None:
    from agent_core.audit import AuditLog, verify_audit_log
    from agent_core.events import ApprovalResolved

    calls: list[dict[str, Any]] = []
    audit = AuditLog(tmp_path / "audit.jsonl")
    runtime = ToolRuntime(_fake_tools(calls), "hong", audit=audit, turn_id="t9")
    args = {"doc_no": "HR-REG-003", "version": 3, "reason": "r"}
    events = runtime.run(
        ToolRequest("c1", "request_regulation_revision", args),
        lambda _: ApprovalDecision(True, "go ahead"),
    )
    for event in events:
        if isinstance(event, ApprovalResolved):
            break  # the consumer cancels here: the call never finishes
    events.close()
    assert calls == []
    records = audit.records()
    assert len(records) == 1
    record = records[0]
    assert record["event"] == "approval" and record["approved"] is True
    assert record["persona"] == "hong" and record["turn_id"] == "t9"
    assert record["tool"] == "request_regulation_revision" and record["arguments"] == args
    assert record["idempotency_key"] == idempotency_key("hong", "HR-REG-003", 3)
    assert record["reason"] == "go ahead"
    assert verify_audit_log(audit.path) == (True, None)


def test_a_tool_bug_is_an_internal_error_not_bad_arguments(caplog: Any) -> None:
    """A TypeError inside a tool is RegDesk's fault: said so, logged with its traceback."""
    from agent_core.tools import ToolResult, _guarded

    def buggy(args: dict[str, Any]) -> ToolResult:
        return ToolResult({"n": len(None)})  # type: ignore[arg-type]

    with caplog.at_level("ERROR", logger="agent_core.tools"):
        result = _guarded(buggy)({"doc_no": "HR-REG-003"})
    assert result.payload["error_kind"] == "internal"
    assert "not in the arguments" in result.payload["error"]
    assert "bad arguments" not in result.payload["error"]
    assert any(r.exc_info for r in caplog.records)


def test_a_non_integer_version_is_the_models_mistake() -> None:
    from agent_core.tools import ToolArgumentError, _int_arg

    assert _int_arg({"version": "3"}, "version", 0) == 3
    assert _int_arg({}, "version", 0) == 0
    for bad in ("three", True, [3]):
        with pytest.raises(ToolArgumentError):
            _int_arg({"version": bad}, "version", 0)


def test_a_missing_system_prompt_is_a_broken_install_not_a_quiet_fallback(tmp_path: Any) -> None:
    from agent_core.errors import InstallationError
    from agent_core.prompting import SYSTEM_PROMPT_PATH, load_system_prompt

    assert "pending_revision" in load_system_prompt()  # the shipped prompt loads
    missing = tmp_path / "system.md"
    with pytest.raises(InstallationError, match=r"system prompt .*system\.md"):
        load_system_prompt(missing)
    assert SYSTEM_PROMPT_PATH.is_file()


def test_a_computed_day_count_is_not_read_as_a_date() -> None:
    """A computed 잔여일 stays 8; 청구일 and declared DATE columns become ISO dates."""
    rows = normalise_dates(["잔여일", "총사용일", "청구일", "d"], [[8, 17, 20089, 20089]])
    assert rows == [[8, 17, "2025-01-01", 20089]]
    typed = normalise_dates(["d"], [[20089]], types=["DATE"])
    assert typed == [["2025-01-01"]]


def test_a_400_about_something_else_does_not_switch_thinking_off() -> None:
    """Only a refusal of the field itself degrades a capability."""
    import anthropic
    import httpx2

    from agent_core.session import ModelCapabilities

    def bad_request(message: str) -> anthropic.BadRequestError:
        request = httpx2.Request("POST", "http://127.0.0.1/v1/messages")
        body = {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
        response = httpx2.Response(400, request=request, json=body)
        return anthropic.BadRequestError(message, response=response, body=body)

    caps = ModelCapabilities(thinking=True, effort="high")
    assert not caps.degrade(bad_request("messages.1: thinking blocks must come first"))
    assert caps.thinking is True
    assert caps.degrade(bad_request("thinking: Extra inputs are not permitted"))
    assert caps.thinking is False
