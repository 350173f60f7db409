"""The tool runtime boundary between the model and the tools.

Every call the model asks for becomes a ``ToolRequest``; the runtime decides
(read → allow, write → approval required, unknown → deny), asks a person when
needed, executes, guards the result and writes an audit record. It yields the
events of the call; the last one is always a ``ToolCallFinished``.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from agent_core.errors import PlatformError
from agent_core.events import (
    AgentEvent,
    ApprovalRequested,
    ApprovalResolved,
    ToolCallFinished,
    ToolCallStarted,
    ToolDecision,
    ToolStatus,
)
from agent_core.guard import MAX_RESULT_CHARS, frame_result
from agent_core.tools import Tool, ToolResult, idempotency_key

if TYPE_CHECKING:
    from collections.abc import Iterator

    from agent_core.approval import Approver
    from agent_core.audit import AuditLog


@dataclass(frozen=True, slots=True)
class ToolRequest:
    """One call the model asked for."""

    call_id: str
    """The model's tool_use id."""
    tool: str
    """Tool name as the model wrote it."""
    arguments: dict[str, Any]
    """Arguments as the model gave them."""


def _preview(tool: str, result: ToolResult) -> str:
    payload = result.payload
    if "error" in payload:
        return f"error: {payload['error']}"[:160]
    if tool == "request_regulation_revision":
        return f"{payload.get('status')} {payload.get('doc_no')} v{payload.get('version')}"
    if result.status == "empty":
        return "no rows"
    if tool == "search_regulations":
        hits = payload.get("hits") or []
        docs = ", ".join(dict.fromkeys(f"{h['doc_no']} v{h['version']}" for h in hits))
        return f"{len(hits)} hits: {docs}"[:160]
    if tool == "get_effective_version":
        v = payload.get("version") or {}
        return f"{payload.get('doc_no')} v{v.get('version')} from {v.get('effective_from')}"
    if tool == "describe_regulation":
        reg = payload.get("regulation") or {}
        return (
            f"{reg.get('doc_no')} {reg.get('title')}, {len(payload.get('versions') or [])} versions"
        )
    return f"{result.row_count} rows" if result.row_count is not None else "ok"


class ToolRuntime:
    """Decides on, runs, guards and audits tool calls for one persona.

    Args:
        tools: The persona's tools by name.
        persona: Username the calls run as.
        audit: Local audit log, or None to skip local auditing.
        turn_id: Id of the turn, recorded in audit records.
        result_limit: Size limit of a framed result body.
    """

    def __init__(
        self,
        tools: dict[str, Tool],
        persona: str,
        audit: AuditLog | None = None,
        turn_id: str = "",
        result_limit: int = MAX_RESULT_CHARS,
    ) -> None:
        self.tools = tools
        self.persona = persona
        self.audit = audit
        self.turn_id = turn_id
        self.result_limit = result_limit

    def decide(self, request: ToolRequest) -> ToolDecision:
        """Return the policy decision for a request.

        Args:
            request: The call.

        Returns:
            ``allow`` for reads, ``approval_required`` for writes, ``deny`` otherwise.
        """
        tool = self.tools.get(request.tool)
        if tool is None:
            return "deny"
        return "allow" if tool.kind == "read" else "approval_required"

    def _audit(self, record: dict[str, Any]) -> None:
        if self.audit is not None:
            self.audit.append({"persona": self.persona, "turn_id": self.turn_id, **record})

    def _finish(
        self,
        request: ToolRequest,
        result: ToolResult,
        status: ToolStatus,
        started: float,
        decision: ToolDecision,
        extra: dict[str, Any] | None = None,
    ) -> ToolCallFinished:
        body = json.dumps(result.payload, ensure_ascii=False, default=str)
        guarded = frame_result(request.tool, body, self.result_limit)
        duration = (time.perf_counter() - started) * 1000.0
        error = result.payload.get("error") or result.payload.get("reason")
        self._audit(
            {
                "event": "tool_call",
                "call_id": request.call_id,
                "tool": request.tool,
                "arguments": request.arguments,
                "decision": decision,
                "status": status,
                "row_count": result.row_count,
                "duration_ms": round(duration, 1),
                "truncated": guarded.truncated,
                "injection_suspected": guarded.injection_suspected,
                "injection_matches": list(guarded.matches),
                "error": error if status in ("error", "denied") else None,
                **(extra or {}),
            }
        )
        return ToolCallFinished(
            call_id=request.call_id,
            tool=request.tool,
            status=status,
            duration_ms=duration,
            row_count=result.row_count,
            preview=_preview(request.tool, result),
            result=guarded.text,
            truncated=guarded.truncated,
            injection_suspected=guarded.injection_suspected,
            error=str(error) if status in ("error", "denied") and error else None,
            payload=MappingProxyType(result.payload),
        )

    def run(self, request: ToolRequest, approver: Approver) -> Iterator[AgentEvent]:
        """Decide on, maybe approve, execute and audit one call.

        Args:
            request: The call.
            approver: Asked (in this thread) before a write runs.

        Yields:
            ToolCallStarted, maybe ApprovalRequested/ApprovalResolved, then
            ToolCallFinished. Auth, network and timeout failures of the
            platform propagate as exceptions (they end the turn).
        """
        decision = self.decide(request)
        yield ToolCallStarted(request.call_id, request.tool, dict(request.arguments), decision)
        started = time.perf_counter()
        if decision == "deny":
            result = ToolResult(
                {"error": f"unknown tool {request.tool!r}; nothing was run", "error_kind": "denied"}
            )
            yield self._finish(request, result, "denied", started, decision)
            return
        tool = self.tools[request.tool]
        extra: dict[str, Any] = {}
        if decision == "approval_required":
            if tool.prepare is not None:
                try:
                    prepared = tool.prepare(dict(request.arguments))
                except PlatformError as exc:
                    if exc.kind in ("auth", "network", "timeout"):
                        raise
                    prepared = dict(request.arguments)
                request = ToolRequest(request.call_id, request.tool, prepared)
            key = self._write_key(request)
            asked = ApprovalRequested(
                request.call_id, self.persona, request.tool, dict(request.arguments), key
            )
            yield asked
            answer = approver(asked)
            # Audited now, not when the call finishes: a turn cancelled after
            # the decision must still leave the decision on record.
            self._audit(
                {
                    "event": "approval",
                    "call_id": request.call_id,
                    "tool": request.tool,
                    "arguments": request.arguments,
                    "idempotency_key": key,
                    "approved": answer.approved,
                    "reason": answer.reason,
                }
            )
            yield ApprovalResolved(request.call_id, answer.approved, answer.reason)
            extra = {"idempotency_key": key, "approved": answer.approved, "reason": answer.reason}
            if not answer.approved:
                args = request.arguments
                result = ToolResult(
                    {
                        "status": "DENIED_BY_USER",
                        "doc_no": args.get("doc_no"),
                        "version": args.get("version"),
                        "idempotency_key": key,
                        "reason": answer.reason or "the person declined to approve this write",
                    }
                )
                yield self._finish(request, result, "denied", started, decision, extra)
                return
            started = time.perf_counter()
        result = tool.run(request.arguments)
        yield self._finish(request, result, result.status, started, decision, extra)

    def _write_key(self, request: ToolRequest) -> str:
        args = request.arguments
        try:
            version = int(args.get("version") or 0)
        except (TypeError, ValueError):
            version = 0
        return idempotency_key(self.persona, str(args.get("doc_no") or ""), version)
