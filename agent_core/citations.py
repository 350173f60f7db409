"""Citations parsed from an answer's text."""

from __future__ import annotations

import re

from agent_core.events import Citation
from agent_core.rules import DOC_NO_RE

_VERSION_RE = re.compile(
    r"제\s*(\d{1,3})\s*차|(?<![A-Za-z])v\.?\s?(\d{1,3})(?!\d)|version\s+(\d{1,3})(?!\d)|(\d{1,3})\s*차",
    re.IGNORECASE,
)
_DATE_RE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_WINDOW = 80


def parse_citations(text: str) -> tuple[Citation, ...]:
    """Find the regulations an answer cites.

    A version or date counts for a document when it appears after the document
    number and before the next one, within a short window.

    Args:
        text: The answer.

    Returns:
        Citations in order of first appearance, one per (doc_no, version).
    """
    matches = list(DOC_NO_RE.finditer(text))
    seen: dict[tuple[str, int | None], Citation] = {}
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        window = text[match.end() : min(end, match.end() + _WINDOW)]
        version_match = _VERSION_RE.search(window)
        version = None
        if version_match:
            version = int(next(g for g in version_match.groups() if g is not None))
        date_match = _DATE_RE.search(window)
        date = date_match.group(1) if date_match else None
        key = (match.group(1), version)
        if key in seen:
            if seen[key].effective_from is None and date:
                seen[key] = Citation(match.group(1), version, date)
            continue
        if version is None and any(k[0] == match.group(1) for k in seen):
            continue
        seen[key] = Citation(match.group(1), version, date)
    return tuple(seen.values())
