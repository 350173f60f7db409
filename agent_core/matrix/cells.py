"""The matrix's records: access cells, the probes behind them, question cells, a run.

One run serialises to one JSON document; ``cells`` is the flat list scripts rely
on: ``{"persona", "kind", "name", "status", "rows"?, "detail"?}``.
The probes behind each cell (the request sent and a summary of the answer, never
the rows themselves) sit beside it under ``probes``; question cells under
``questions``; a baseline comparison under ``diff``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

CellKind = Literal["relation", "column", "document", "action"]
CellStatus = Literal[
    "visible", "masked", "denied", "hidden", "allowed", "not_probed", "not_observed", "error"
]
"""``denied`` is a policy refusal only; ``error`` is any other platform error (the
message in ``detail``); ``not_observed`` is a column with no value to judge a mask by."""
QuestionStatus = Literal["pass", "fail", "answered", "error", "cancelled"]

KINDS: tuple[CellKind, ...] = ("relation", "column", "document", "action")
"""Cell kinds in display order."""


@dataclass(frozen=True, slots=True)
class Cell:
    """What one persona can do with one catalog entry."""

    persona: str
    """Username the probe ran as."""
    kind: CellKind
    """``relation`` (also retrievers, object types, links), ``column``, ``document``, ``action``."""
    name: str
    """Entry name; a column's is ``relation.column``."""
    status: CellStatus
    """The observed access."""
    rows: int | None = None
    """Rows the persona sees (relations), when counted."""
    detail: str | None = None
    """The platform's message, or how the status was decided."""

    @property
    def key(self) -> tuple[str, str, str]:
        """``(persona, kind, name)``: unique within a run."""
        return (self.persona, self.kind, self.name)

    def to_dict(self) -> dict[str, Any]:
        """The cell as the flat JSON object of the issue's contract."""
        out: dict[str, Any] = {
            "persona": self.persona,
            "kind": self.kind,
            "name": self.name,
            "status": self.status,
        }
        if self.rows is not None:
            out["rows"] = self.rows
        if self.detail:
            out["detail"] = self.detail
        return out

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Cell:
        """Read a cell back from its JSON object."""
        rows = raw.get("rows")
        return cls(
            persona=str(raw["persona"]),
            kind=raw["kind"],
            name=str(raw["name"]),
            status=raw["status"],
            rows=int(rows) if rows is not None else None,
            detail=raw.get("detail"),
        )


@dataclass(frozen=True, slots=True)
class ProbeStep:
    """One request a probe sent and what came back (summarised, no row values)."""

    request: str
    """Endpoint and body, or the SQL statement."""
    outcome: str
    """Row count and columns, or the platform's error message."""

    def to_dict(self) -> dict[str, str]:
        """JSON form."""
        return {"request": self.request, "outcome": self.outcome}


@dataclass(frozen=True, slots=True)
class Probe:
    """The requests behind one cell (the click-through of the Matrix view)."""

    persona: str
    """Username."""
    kind: CellKind
    """Cell kind."""
    name: str
    """Cell name."""
    steps: tuple[ProbeStep, ...]
    """Requests in the order they were sent."""

    @property
    def key(self) -> tuple[str, str, str]:
        """Key of the cell this probe explains."""
        return (self.persona, self.kind, self.name)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "persona": self.persona,
            "kind": self.kind,
            "name": self.name,
            "steps": [s.to_dict() for s in self.steps],
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Probe:
        """Read a probe back."""
        steps = tuple(ProbeStep(str(s["request"]), str(s["outcome"])) for s in raw["steps"])
        return cls(str(raw["persona"]), raw["kind"], str(raw["name"]), steps)


@dataclass(frozen=True, slots=True)
class QuestionCell:
    """One question asked as one persona: a real agent turn, checked."""

    persona: str
    """Who asked."""
    case: str
    """Case name (``suite/id``), or ``adhoc/N`` for a typed question."""
    ask: str
    """The question."""
    status: QuestionStatus
    """``pass`` / ``fail`` (assertions), ``answered`` (none apply), ``error``, ``cancelled``."""
    answer: str = ""
    """The final answer text."""
    failures: tuple[str, ...] = ()
    """Assertion failures (or the turn's failure)."""
    figures: tuple[str, ...] = ()
    """Numbers with units and document numbers in the answer (what a diff compares)."""
    tools: tuple[str, ...] = ()
    """Tools called, in order."""
    tool_calls: tuple[dict[str, Any], ...] = ()
    """Each call's name, arguments, status and row count."""
    notes: tuple[str, ...] = ()
    """Assertions not checked and why."""
    elapsed_ms: float = 0.0
    """Wall time of the turn."""

    @property
    def key(self) -> tuple[str, str]:
        """``(persona, case)``."""
        return (self.persona, self.case)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "persona": self.persona,
            "case": self.case,
            "ask": self.ask,
            "status": self.status,
            "answer": self.answer,
            "failures": list(self.failures),
            "figures": list(self.figures),
            "tools": list(self.tools),
            "tool_calls": list(self.tool_calls),
            "notes": list(self.notes),
            "elapsed_ms": round(self.elapsed_ms, 1),
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> QuestionCell:
        """Read a question cell back."""
        return cls(
            persona=str(raw["persona"]),
            case=str(raw["case"]),
            ask=str(raw.get("ask") or ""),
            status=raw["status"],
            answer=str(raw.get("answer") or ""),
            failures=tuple(raw.get("failures") or ()),
            figures=tuple(raw.get("figures") or ()),
            tools=tuple(raw.get("tools") or ()),
            tool_calls=tuple(raw.get("tool_calls") or ()),
            notes=tuple(raw.get("notes") or ()),
            elapsed_ms=float(raw.get("elapsed_ms") or 0.0),
        )


@dataclass(frozen=True, slots=True)
class Change:
    """One difference between a baseline and a rerun."""

    area: Literal["access", "question"]
    """Access cell or question cell."""
    persona: str
    """Whose cell changed."""
    kind: str
    """Access cell kind, or ``question``."""
    name: str
    """Cell name, or the case name."""
    field: str
    """What changed: ``status``, ``rows``, ``figures``, ``failures``, ``tools``, ``cell``."""
    before: Any
    """Baseline value (None when the cell is new)."""
    after: Any
    """Rerun value (None when the cell is gone)."""

    def describe(self) -> str:
        """One line naming the change, e.g. ``park column semantic.hr.employees.연락처:
        status masked → visible``."""
        return f"{self.persona} {self.kind} {self.name}: {self.field} {self.before} → {self.after}"

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "area": self.area,
            "persona": self.persona,
            "kind": self.kind,
            "name": self.name,
            "field": self.field,
            "before": self.before,
            "after": self.after,
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Change:
        """Read a change back."""
        return cls(
            raw["area"],
            str(raw["persona"]),
            str(raw["kind"]),
            str(raw["name"]),
            str(raw["field"]),
            raw.get("before"),
            raw.get("after"),
        )


@dataclass
class MatrixRun:
    """Everything one matrix run observed, plus where and when."""

    personas: list[str]
    """Personas in column order."""
    cells: list[Cell] = field(default_factory=list)
    """Access cells."""
    probes: list[Probe] = field(default_factory=list)
    """The requests behind each access cell."""
    questions: list[QuestionCell] = field(default_factory=list)
    """Question cells (empty when no questions were asked)."""
    diff: list[Change] | None = None
    """Changes against a baseline (None when no baseline was given)."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Platform URL, time, RegDesk version, model, catalog, baseline file."""

    def cell(self, persona: str, kind: str, name: str) -> Cell | None:
        """The access cell with this key, if any."""
        return next((c for c in self.cells if c.key == (persona, kind, name)), None)

    def probe(self, persona: str, kind: str, name: str) -> Probe | None:
        """The probe behind a cell, if any."""
        return next((p for p in self.probes if p.key == (persona, kind, name)), None)

    def entries(self) -> list[tuple[str, str]]:
        """Distinct ``(kind, name)`` rows of the grid, in first-seen order by kind."""
        seen: dict[tuple[str, str], None] = {}
        for kind in KINDS:
            for c in self.cells:
                if c.kind == kind:
                    seen.setdefault((c.kind, c.name), None)
        return list(seen)

    def cases(self) -> list[tuple[str, str]]:
        """Distinct ``(case, ask)`` rows of the question grid, in order."""
        seen: dict[str, str] = {}
        for q in self.questions:
            seen.setdefault(q.case, q.ask)
        return list(seen.items())

    def to_dict(self) -> dict[str, Any]:
        """The JSON document (``personas`` and the flat ``cells`` first)."""
        out: dict[str, Any] = {
            "personas": list(self.personas),
            "cells": [c.to_dict() for c in self.cells],
            "probes": [p.to_dict() for p in self.probes],
            "meta": dict(self.meta),
        }
        if self.questions:
            out["questions"] = [q.to_dict() for q in self.questions]
        if self.diff is not None:
            out["diff"] = [d.to_dict() for d in self.diff]
        return out

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> MatrixRun:
        """Read a saved run (a baseline) back.

        Args:
            raw: The JSON document.

        Returns:
            The run.
        """
        diff = raw.get("diff")
        return cls(
            personas=[str(p) for p in raw.get("personas") or ()],
            cells=[Cell.from_dict(c) for c in raw.get("cells") or ()],
            probes=[Probe.from_dict(p) for p in raw.get("probes") or ()],
            questions=[QuestionCell.from_dict(q) for q in raw.get("questions") or ()],
            diff=[Change.from_dict(d) for d in diff] if diff is not None else None,
            meta=dict(raw.get("meta") or {}),
        )
