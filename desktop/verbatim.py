"""Values from tool results, kept verbatim wherever Markdown is rendered or written.

A masked phone number ``02-****-****`` or national ID ``850315-2******`` is data,
not emphasis; a remark with ``_`` or ``|`` or a backslash is data, not markup.
The answer itself is Markdown (the model may write tables and bold text), so
only the parts that came from tool results (and mask-shaped runs of ``*``) are
escaped before rendering or export; plain text such as a question or a table
cell is escaped whole.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

MARKDOWN_PUNCTUATION = frozenset("\\`*_{}[]<>()#+!|~&")
"""Characters Markdown (CommonMark + GitHub tables) may read as markup; a backslash
before any of them shows the character itself."""

_JSON_STRING = re.compile(r'"((?:[^"\\\n]|\\.){0,2000})"(\s*:)?')
"""A JSON string literal, and the colon after it when it is a key (keys are skipped);
also inside a result cut at the size limit."""

_MASK_RUN = re.compile(r"(?<=-)\*+|\*+(?=-)|(?<=\d)\*{2,}")
"""Asterisks that mask digits: touching a hyphen (``02-****-****``, ``******-*******``)
or following a digit (``850315-2******``). Bold (``**8일**``) never touches a hyphen."""

_CODE_SPAN = re.compile(r"(```.*?```|`[^`\n]*`)", re.DOTALL)
"""Code spans and fences: shown literally already, so nothing in them is escaped."""


_ALWAYS_MARKUP = frozenset("\\`*|~[]<>&")
"""Characters that can be markup anywhere in a line."""

_LINE_START_MARKUP = frozenset("#+-=>")
"""Characters that are markup only where a line (or table cell) begins."""


def escape_markdown(text: str) -> str:
    """Escape every character of plain text that Markdown could read as markup.

    What can never be markup stays as it is, so the Markdown source stays
    readable: ``_`` between letters (no intraword emphasis in CommonMark),
    braces and parentheses.

    Args:
        text: Plain text (a question, a table cell, a value).

    Returns:
        Markdown that renders as exactly ``text``.
    """
    out: list[str] = []
    for position, char in enumerate(text):
        before = text[position - 1] if position else ""
        after = text[position + 1] if position + 1 < len(text) else ""
        if char in _ALWAYS_MARKUP:
            out.append(f"\\{char}")
        elif char == "_" and not (before.isalnum() and after.isalnum()):
            out.append("\\_")
        elif char in _LINE_START_MARKUP and not text[:position].strip():
            out.append(f"\\{char}")
        else:
            out.append(char)
    return "".join(out)


def tool_values(results: Iterable[str]) -> tuple[str, ...]:
    """The string values of tool results that contain Markdown punctuation.

    Results are read as text (every JSON string literal in them), so a result cut
    at the size limit still gives its values.

    Args:
        results: Tool result texts as the model saw them (framed JSON).

    Returns:
        Distinct values, longest first (a longer value wins where two overlap).
    """
    found: set[str] = set()
    for result in results:
        for literal, key in _JSON_STRING.findall(result or ""):
            if key:
                continue
            try:
                value = json.loads(f'"{literal}"')
            except ValueError:
                continue
            if len(value) >= 2 and any(c in MARKDOWN_PUNCTUATION for c in value):
                found.add(value)
    return tuple(sorted(found, key=lambda v: (-len(v), v)))


def protect_values(markdown: str, values: Iterable[str] = ()) -> str:
    """Escape the tool values and mask runs inside Markdown, outside code spans.

    Args:
        markdown: Text the model wrote (Markdown).
        values: Values that must show verbatim (:func:`tool_values`).

    Returns:
        Markdown in which every occurrence of a value renders as the value itself.
    """
    ordered = sorted({v for v in values if v}, key=len, reverse=True)
    parts = _CODE_SPAN.split(markdown)
    for number in range(0, len(parts), 2):  # even parts are outside code
        parts[number] = _protect(parts[number], ordered)
    return "".join(parts)


def _protect(text: str, values: list[str]) -> str:
    if not text:
        return text
    escape = [False] * len(text)
    taken = [False] * len(text)
    for value in values:
        start = text.find(value)
        while start >= 0:
            end = start + len(value)
            if not any(taken[start:end]):
                for position in range(start, end):
                    taken[position] = True
                    escape[position] = text[position] in MARKDOWN_PUNCTUATION
            start = text.find(value, end)
    for match in _MASK_RUN.finditer(text):
        for position in range(match.start(), match.end()):
            escape[position] = True
    if not any(escape):
        return text
    return "".join(f"\\{c}" if flag else c for c, flag in zip(text, escape, strict=True))
