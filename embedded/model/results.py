"""Reading tool results the way a model reads them: JSON, framed JSON or plain prose.

A real model reads whatever a client's tool returns: RegDesk frames JSON in
``<tool-data>``; the reference client returns Korean prose
(``[HR-REG-003 제3차 제3조 시행 2025-03-15]\\n…``) and pipe tables
(``사번 | 성명 | …``). Each reader here turns one tool's result, in any of those
forms, into the same small dict the plans read, and renders every date (ISO
text, epoch-day integers or digit strings) as ISO. Nothing here depends on one
client's JSON key names: Korean and English keys are both understood.

Every pattern is linear: no nested quantifiers, matched per line.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

_EPOCH = dt.date(1970, 1, 1)
_JSON_STARTS = 3
_NO_LEXICAL_MATCH = 'Encountered "WHERE"'
_FRAME_OPEN = "<tool-data"
_FRAME_CLOSE = "</tool-data>"
DOC_NO = re.compile(r"(?<![A-Za-z0-9-])[A-Z]{2,4}-[A-Z]{2,4}-\d{3}(?!\d)")
"""A document number (HR-REG-003)."""
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATE_TOKEN = re.compile(r"\d{4}-\d{2}-\d{2}|(?<![\d-])\d{4,6}(?![\d-])")
_VERSION = re.compile(r"제\s?(\d{1,4})\s?차|\b[Vv]ersion\s?(\d{1,4})\b|\bv(\d{1,4})\b")
_STAGES = ("IN_REVIEW", "APPROVED", "REJECTED", "DRAFT", "SUPERSEDED", "CURRENT", "PENDING")
_DRAFTER = re.compile(r"기안\s?(\d{8})")
_TRAILING_PAREN = re.compile(r"\(([^()]*)\)\s*$")
_FAILURE_PREFIXES = (
    "조회 실패",
    "결재 현황 조회 실패",
    "순회 실패",
    "판 조회 실패",
    "개정 요청이 거부",
    "조회(select)만 가능",
    "error",
    "failed",
    "denied",
    "forbidden",
    "permission denied",
)
_EMPTY_PHRASES = (
    "찾지 못했습니다",
    "찾을 수 없습니다",
    "결과가 없습니다",
    "유효한 버전이 없습니다",
    "목록에 없습니다",
    "하위 문서가 없습니다",
    "결재가 없습니다",
    "근거 규정이 없습니다",
    "no rows",
    "not found",
    "no results",
)
DATE_KEYS = frozenset(
    {"effective_from", "effective_to", "stated_from", "expected_from", "as_of", "asOf"}
    | {"예정시행일", "입사일", "청구일", "시행일", "종료일"}
)
"""Keys and columns that hold dates (always rendered as ISO)."""

# Korean (and older English) keys → the keys the plans read.
_ALIASES = {
    "문서번호": "doc_no",
    "제목": "title",
    "개정차수": "version",
    "단계": "status",
    "stage": "status",
    "요지": "summary",
    "예정시행일": "effective_from",
    "expected_from": "effective_from",
    "기안자사번": "drafter",
    "body": "text",
    "asOf": "as_of",
}
_COLUMN_ALIASES = {"부서코드": "부서", "휴가유형": "휴가종류"}


# ── dates ────────────────────────────────────────────────────────────────────


def iso_date(value: Any) -> Any:
    """Render a DATE as ISO: epoch days (int or digit string) or ISO text; others unchanged."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
        days = int(value)
        if 0 < days < 100_000:  # 1970 … 2243
            return (_EPOCH + dt.timedelta(days=days)).isoformat()
        return value
    if isinstance(value, str) and _ISO.match(value.strip()):
        return value.strip()[:10]
    return value


def _date_column(name: str) -> bool:
    lowered = name.lower()
    if name in DATE_KEYS:
        return True
    if name.endswith("일수") or lowered.endswith("days"):
        return False
    return name.endswith(("일자", "일")) or lowered.endswith(("_date", "_at", "date"))


def _canonical(record: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in record.items():
        name = _ALIASES.get(str(key), str(key))
        out[name] = iso_date(value) if name in DATE_KEYS or str(key) in DATE_KEYS else value
    if "date_mismatch" in out:
        out["date_mismatch"] = out["date_mismatch"] in (True, 1, "1", "true", "True")
    return out


# ── JSON ─────────────────────────────────────────────────────────────────────


def _frame_body(text: str) -> str:
    start = text.find(_FRAME_OPEN)
    if start < 0:
        return text
    header_end = text.find("\n", start)
    body = text[header_end + 1 :] if header_end >= 0 else text[start:]
    close = body.rfind(_FRAME_CLOSE)
    return body[:close] if close >= 0 else body


def json_value(text: str) -> dict[str, Any] | list[Any] | None:
    """The JSON object (or list of records) a result carries, or None.

    A JSON value counts when it starts a line and nothing but whitespace follows
    it, so a bracket in prose (``[HR-REG-003 제3차 …]``) is never taken for JSON.
    """
    body = _frame_body(text)
    decoder = json.JSONDecoder()
    offset, tried = 0, 0
    for line in body.splitlines(keepends=True):
        stripped = line.lstrip()
        start = offset + len(line) - len(stripped)
        offset += len(line)
        if not stripped.startswith(("{", "[")):
            continue
        tried += 1
        if tried > _JSON_STARTS:
            break  # JSON results start in the first lines; prose full of brackets is not JSON
        try:
            value, end = decoder.raw_decode(body, start)
        except (json.JSONDecodeError, RecursionError):
            continue
        if body[end:].strip():
            continue
        if isinstance(value, dict):
            return value
        if isinstance(value, list) and all(isinstance(v, dict | list) for v in value):
            return value
    return None


def _records(data: Any, *keys: str) -> list[dict[str, Any]]:
    """Records under the first present key: a list of objects, or columns + rows."""
    if isinstance(data, list):
        return [_canonical(r) for r in data if isinstance(r, dict)]
    if not isinstance(data, dict):
        return []
    for key in keys:
        value = data.get(key)
        if isinstance(value, list):
            if value and all(isinstance(r, list) for r in value):
                columns = column_names(data.get("columns"))
                return [_canonical(dict(zip(columns, r, strict=False))) for r in value]
            return [_canonical(r) for r in value if isinstance(r, dict)]
    return []


def column_names(columns: Any) -> list[str]:
    """Column names from ``[name, …]`` or ``[{name, type}, …]``."""
    names = []
    for column in columns or []:
        name = column.get("name") if isinstance(column, dict) else column
        names.append(_COLUMN_ALIASES.get(str(name), str(name)))
    return names


def _error_of(data: Any) -> str | None:
    if isinstance(data, dict) and data.get("error"):
        error = data["error"]
        return str(error.get("message") if isinstance(error, dict) else error)
    if isinstance(data, dict) and str(data.get("status", "")).lower() == "error":
        return str(data.get("message") or data.get("error") or "error")
    return None


# ── prose ────────────────────────────────────────────────────────────────────


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in _frame_body(text).splitlines()]


def _version_of(text: str) -> int | None:
    match = _VERSION.search(text)
    if not match:
        return None
    return int(next(g for g in match.groups() if g))


def _date_after(text: str, word: str) -> str | None:
    at = text.find(word)
    if at < 0:
        return None
    match = _DATE_TOKEN.search(text, at + len(word), at + len(word) + 24)
    return str(iso_date(match.group())) if match else None


def _is_empty_prose(text: str) -> bool:
    lowered = text.lower()
    return any(p in lowered for p in _EMPTY_PHRASES)


def failure_text(text: str, is_error: bool) -> str | None:
    """The error message when a prose result is a failure or a refusal, else None."""
    first = text.strip().splitlines()[0].strip() if text.strip() else ""
    lowered = first.lower()
    if is_error or any(lowered.startswith(p) for p in _FAILURE_PREFIXES):
        return text.strip()[:300] or "error"
    return None


def _search_prose(text: str) -> dict[str, Any]:
    hits: list[dict[str, Any]] = []
    bodies: list[list[str]] = []
    current: dict[str, Any] | None = None
    for line in _lines(text):
        stripped = line.strip()
        doc = DOC_NO.search(stripped) if stripped.startswith("[") else None
        if doc is not None and stripped.endswith("]") and doc.start() <= 2:
            inside = stripped[1:-1]
            version = _VERSION.search(inside)
            head = inside[doc.end() : version.start() if version else len(inside)].strip()
            rest = inside[version.end() :] if version else ""
            article = rest.split("시행")[0].strip()
            current = {
                "doc_no": doc.group(),
                "title": head,
                "version": _version_of(inside),
                "article_no": article,
                "article_title": "",
                "effective_from": _date_after(inside, "시행") or _date_after(inside, "effective"),
                "date_mismatch": False,
                "text": "",
            }
            hits.append(current)
            bodies.append([])
        elif current is not None:
            bodies[-1].append(line)
    for hit, lines in zip(hits, bodies, strict=True):
        hit["text"] = "\n".join(lines).strip()
    if not hits:
        for line in _lines(text):
            doc = DOC_NO.search(line)
            if doc is not None:
                hits.append(
                    {
                        "doc_no": doc.group(),
                        "title": "",
                        "version": _version_of(line),
                        "effective_from": _date_after(line, "시행"),
                        "date_mismatch": False,
                        "text": line.strip(),
                    }
                )
    return {"as_of": None, "hits": hits}


def _effective_prose(text: str) -> dict[str, Any]:
    doc = DOC_NO.search(text)
    version = _VERSION.search(text)
    if doc is None or version is None or _is_empty_prose(text):
        return {"doc_no": doc.group() if doc else None, "as_of": None, "version": None}
    title = text[doc.end() : version.start()].strip(" :,")
    effective = _date_after(text, "시행") or _date_after(text, "effective")
    stated = _date_after(text, "부칙에는") or _date_after(text, "states")
    return {
        "doc_no": doc.group(),
        "as_of": None,
        "version": {
            "doc_no": doc.group(),
            "title": title,
            "version": _version_of(text),
            "effective_from": effective,
            "stated_from": stated or effective,
            "date_mismatch": bool(stated and stated != effective),
            "summary": "",
        },
    }


def _lineage_prose(text: str) -> dict[str, Any]:
    rows = []
    for line in _lines(text):
        doc = DOC_NO.search(line)
        if doc is None:
            continue
        prefix = line[: doc.start()]
        if prefix.strip(" └├─│-*•·>") != "":
            continue  # a sentence that merely mentions a document
        indent = len(prefix) - len(prefix.lstrip(" "))
        depth = max(1, indent // 2) if "└" in prefix or "├" in prefix else None
        rest = line[doc.end() :].strip()
        row: dict[str, Any] = {"doc_no": doc.group(), "depth": depth}
        paren = _TRAILING_PAREN.search(rest)
        if paren:
            rest = rest[: paren.start()].strip()
            for part in paren.group(1).split(","):
                key, _, value = part.strip().partition(" ")
                if key == "위계":
                    row["tier"] = value.strip()
                elif key == "구분":
                    row["doc_class"] = value.strip()
                elif key == "소관":
                    row["owner_dept"] = value.strip()
                elif part.strip():
                    row.setdefault("owner_dept", part.strip())
        row["title"] = rest
        rows.append(row)
    return {"rows": rows}


def _split_row(line: str) -> list[str]:
    cells = line.strip()
    if cells.startswith("|"):
        cells = cells[1:]
    if cells.endswith("|"):
        cells = cells[:-1]
    return [c.strip() for c in cells.split("|")]


def _cell(value: str) -> Any:
    return None if value in ("None", "NULL", "null", "") else value


def _table_prose(text: str) -> dict[str, Any]:
    columns: list[str] = []
    rows: list[list[Any]] = []
    for line in _lines(text):
        if "|" not in line:
            if columns and rows:
                break  # a trailing note ('… 외 N건')
            continue
        cells = _split_row(line)
        if all(set(c) <= set("-: ") for c in cells):
            continue  # a markdown separator row
        if not columns:
            columns = [_COLUMN_ALIASES.get(c, c) for c in cells]
            continue
        rows.append([_cell(c) for c in cells[: len(columns)]])
    dates = [i for i, c in enumerate(columns) if _date_column(c)]
    for row in rows:
        for i in dates:
            if i < len(row):
                row[i] = iso_date(row[i])
    return {"columns": columns, "rows": rows}


def _pending_prose(text: str) -> dict[str, Any]:
    pending = []
    for line in _lines(text):
        doc = DOC_NO.search(line)
        if doc is None:
            continue
        upper = line.upper()
        stage = next((s for s in _STAGES if s in upper), "")
        close = line.find("]")
        summary = line[close + 1 :] if close >= 0 else line[doc.end() :]
        cut = summary.find("(예정 시행일")
        summary = (summary[:cut] if cut >= 0 else summary).strip()
        drafter = _DRAFTER.search(line)
        pending.append(
            {
                "doc_no": doc.group(),
                "title": "",
                "version": _version_of(line[doc.end() :]),
                "status": stage,
                "summary": summary,
                "effective_from": _date_after(line, "예정 시행일") or _date_after(line, "시행"),
                "drafter": drafter.group(1) if drafter else None,
            }
        )
    return {"doc_no": None, "pending": pending}


def _describe_prose(text: str) -> dict[str, Any]:
    lines = [ln for ln in _lines(text) if ln.strip()]
    first = lines[0] if lines else ""
    doc = DOC_NO.search(first)
    if doc is None or _is_empty_prose(first):
        return {"regulation": None, "versions": []}
    row = _lineage_prose(first)["rows"]
    regulation = {"doc_no": doc.group(), "title": row[0]["title"] if row else ""}
    if row:
        regulation.update({k: v for k, v in row[0].items() if k in ("doc_class", "tier")})
        if "owner_dept" in row[0]:
            regulation["owner_dept"] = row[0]["owner_dept"]
    versions = []
    for line in lines[1:]:
        number = _version_of(line)
        if number is None:
            continue
        upper = line.upper()
        versions.append(
            {
                "version": number,
                "status": next((s for s in _STAGES if s in upper), ""),
                "effective_from": _date_after(line, "시행") or _date_after(line, "effective"),
            }
        )
    return {"regulation": regulation, "versions": versions}


def _revision_prose(text: str) -> dict[str, Any]:
    upper = text.upper()
    for status in ("REPLAYED", "PENDING_APPROVAL", "DENIED_BY_USER"):
        if status in upper:
            return {"status": status}
    return {"status": "OK" if ("접수" in text or "filed" in text.lower()) else "UNKNOWN"}


# ── per tool ─────────────────────────────────────────────────────────────────


def _json_search(data: Any) -> dict[str, Any]:
    hits = _records(data, "hits", "results", "rows")
    for hit in hits:
        hit.setdefault("text", hit.get("content") or "")
        hit.setdefault("date_mismatch", False)
    as_of = iso_date(data.get("as_of") or data.get("asOf")) if isinstance(data, dict) else None
    return {"as_of": as_of, "hits": hits}


def _json_effective(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        return {"doc_no": None, "as_of": None, "version": None}
    version = data.get("version")
    if isinstance(version, dict):
        chosen: dict[str, Any] | None = _canonical(version)
    elif version is not None:
        chosen = _canonical({k: v for k, v in data.items() if k not in ("as_of", "asOf", "note")})
    else:
        chosen = None
    if chosen is not None:
        chosen.setdefault("date_mismatch", False)
        chosen.setdefault("doc_no", data.get("doc_no"))
    return {"doc_no": data.get("doc_no"), "as_of": iso_date(data.get("as_of")), "version": chosen}


def _json_lineage(data: Any) -> dict[str, Any]:
    return {"rows": _records(data, "chain", "dependents", "related", "rows", "documents")}


def _json_table(data: Any) -> dict[str, Any]:
    if isinstance(data, list):
        records = [r for r in data if isinstance(r, dict)]
        columns = column_names(list(records[0])) if records else []
        rows = [list(r.values()) for r in records]
        raw_types: list[Any] = []
    else:
        columns = column_names(data.get("columns"))
        raw_types = list(data.get("columns") or [])
        rows = [list(r) for r in data.get("rows") or [] if isinstance(r, list)]
        if not rows and data.get("rows") and isinstance(data["rows"][0], dict):
            records = [r for r in data["rows"] if isinstance(r, dict)]
            columns = column_names(list(records[0]))
            rows = [list(r.values()) for r in records]
    dates = [
        i
        for i, name in enumerate(columns)
        if _date_column(name)
        or (i < len(raw_types) and isinstance(raw_types[i], dict)
            and str(raw_types[i].get("type", "")).upper() == "DATE")
    ]  # fmt: skip
    for row in rows:
        for i in dates:
            if i < len(row):
                row[i] = iso_date(row[i])
    return {"columns": columns, "rows": rows}


def _json_pending(data: Any) -> dict[str, Any]:
    doc_no = data.get("doc_no") if isinstance(data, dict) else None
    return {"doc_no": doc_no, "pending": _records(data, "pending", "rows", "revisions")}


def _json_describe(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        return {"regulation": None, "versions": []}
    regulation = data.get("regulation")
    if regulation is None and "doc_no" in data and "title" in data:
        regulation = data
    return {
        "regulation": _canonical(regulation) if isinstance(regulation, dict) else None,
        "versions": _records(data, "versions"),
    }


def _json_revision(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        return {"status": "UNKNOWN"}
    return {**data, "status": str(data.get("status") or ("OK" if data.get("ok") else "UNKNOWN"))}


_READERS = {
    "search_regulations": (_json_search, _search_prose),
    "get_effective_version": (_json_effective, _effective_prose),
    "trace_authority": (_json_lineage, _lineage_prose),
    "impact_of_change": (_json_lineage, _lineage_prose),
    "related_regulations": (_json_lineage, _lineage_prose),
    "query_hr": (_json_table, _table_prose),
    "pending_revision": (_json_pending, _pending_prose),
    "describe_regulation": (_json_describe, _describe_prose),
    "request_regulation_revision": (_json_revision, _revision_prose),
}


def read_result(tool: str, text: str, is_error: bool = False) -> dict[str, Any]:
    """Read one tool result into the dict the plans use.

    Args:
        tool: The tool's name.
        text: The result text (JSON, framed JSON or prose).
        is_error: The client marked the result as an error.

    Returns:
        The tool's data, or ``{"error": message}`` for a failure or a refusal.
    """
    data = json_value(text)
    error = _error_of(data) if data is not None else failure_text(text, is_error)
    if error is None and is_error:
        error = failure_text(text, True)
    if error is not None and _NO_LEXICAL_MATCH in error and tool == "search_regulations":
        # The real platform fails a hybrid search whose lexical side matches
        # nothing with this parse error; it means "no rows" (SPEC §2).
        return {"as_of": None, "hits": []}
    if error is not None:
        return {"error": error}
    from_json, from_prose = _READERS.get(tool, (_json_table, _table_prose))
    return from_json(data) if data is not None else from_prose(text)
