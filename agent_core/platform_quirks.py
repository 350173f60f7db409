"""How the platform client reads what real Ontul deployments send.

Three habits of real deployments are smoothed here so the rest of the client
sees one shape: DATE values arrive as epoch days, as integers or digit strings
(they become ISO dates), a hybrid search whose lexical side matched nothing fails with
``SQL parse error: Encountered "WHERE"`` (it means zero rows), and some errors
arrive as a 200 body whose only clue is the wording of its message.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from agent_core.errors import (
    PlatformBadRequestError,
    PlatformError,
    PlatformForbiddenError,
    PlatformNotFoundError,
)

EMPTY_SEARCH_QUIRK = 'SQL parse error: Encountered "WHERE"'
"""Error text a real Ontul returns for a hybrid search with no lexical match."""

_FORBIDDEN_WORDS = re.compile(
    r"denied|not allowed|not permitted|forbidden|permission|unauthori[sz]ed|권한|거부",
    re.IGNORECASE,
)
_NOT_FOUND_WORDS = re.compile(r"not found|unknown|does not exist|no such", re.IGNORECASE)
DATE_COLUMNS = frozenset(
    {"effective_from", "effective_to", "stated_from", "입사일", "청구일", "예정시행일"}
)
"""The catalog's DATE columns, for endpoints that do not declare column types.

Named one by one: a name rule (say, ending in 일) would turn a computed
``부여일수_ERP - 사용일수 AS 잔여일`` of 8 days into 1970-01-09."""
_EPOCH = dt.date(1970, 1, 1)


_MAX_EPOCH_DAY = 99_999
"""Largest epoch day read from a digit string (2243-10-16); longer digit runs are not days."""


def epoch_days_to_iso(value: int) -> str:
    """Render an integer count of days since 1970-01-01 as an ISO date.

    Args:
        value: Days since the Unix epoch.

    Returns:
        ``YYYY-MM-DD``.
    """
    return (_EPOCH + dt.timedelta(days=value)).isoformat()


def iso_to_epoch_days(iso: str) -> int:
    """Days since 1970-01-01 of an ISO date, which is how the engine stores a DATE.

    Args:
        iso: ``YYYY-MM-DD`` (anything after the tenth character is ignored).

    Returns:
        The epoch day.

    Raises:
        ValueError: Not an ISO date.
    """
    return (dt.date.fromisoformat(str(iso).strip()[:10]) - _EPOCH).days


def epoch_day_value(value: Any) -> int | None:
    """The epoch day a DATE value carries, if it is one (an int or a digit string).

    Args:
        value: A cell of a DATE column.

    Returns:
        The day count, or None for anything else (None, ISO text, booleans).
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.isdigit() and int(text) <= _MAX_EPOCH_DAY:
            return int(text)
    return None


def as_iso_date(value: Any) -> str | None:
    """Render a DATE value as ``YYYY-MM-DD`` whichever way it arrived.

    Args:
        value: Epoch days (int or digit string), an ISO date or timestamp, or None.

    Returns:
        The ISO date, or None for an empty value; other text is returned unchanged.
    """
    if value is None or value == "":
        return None
    day = epoch_day_value(value)
    if day is not None:
        return epoch_days_to_iso(day)
    text = str(value).strip()
    try:
        return dt.date.fromisoformat(text[:10]).isoformat()
    except ValueError:
        return text


def normalise_dates(
    columns: list[str], rows: list[list[Any]], types: list[str] | None = None
) -> list[list[Any]]:
    """Turn epoch days (integers or digit strings) in date columns into ISO strings.

    A column counts as a date when its declared type says DATE, or it is one of
    the catalog's DATE columns (:data:`DATE_COLUMNS`).

    Args:
        columns: Column names.
        rows: Row values, in column order.
        types: Declared column types, when the endpoint sends them.

    Returns:
        New rows with converted values.
    """
    date_cols = set()
    for i, name in enumerate(columns):
        declared = (types[i] if types and i < len(types) else "") or ""
        if "DATE" in declared.upper() or str(name) in DATE_COLUMNS:
            date_cols.add(i)
    if not date_cols:
        return [list(r) for r in rows]
    out: list[list[Any]] = []
    for row in rows:
        new = list(row)
        for i in date_cols:
            day = epoch_day_value(new[i]) if i < len(new) else None
            if day is not None:
                new[i] = epoch_days_to_iso(day)
        out.append(new)
    return out


def error_class_for_message(message: str) -> type[PlatformError]:
    """Pick the error class an error message's wording points to.

    Args:
        message: The platform's error text.

    Returns:
        ``PlatformForbiddenError`` for refusals, ``PlatformNotFoundError`` for
        unknown names, else ``PlatformBadRequestError``.
    """
    if _FORBIDDEN_WORDS.search(message):
        return PlatformForbiddenError
    if _NOT_FOUND_WORDS.search(message):
        return PlatformNotFoundError
    return PlatformBadRequestError
