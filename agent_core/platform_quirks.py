"""How the platform client reads what real Ontul deployments send.

Three habits of real deployments are smoothed here so the rest of the client
sees one shape: DATE values arrive as integer epoch days (they become ISO
dates), a hybrid search whose lexical side matched nothing fails with
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
_DATE_NAME = re.compile(r"(_from|_to|_date|일)$")
_EPOCH = dt.date(1970, 1, 1)


def epoch_days_to_iso(value: int) -> str:
    """Render an integer count of days since 1970-01-01 as an ISO date.

    Args:
        value: Days since the Unix epoch.

    Returns:
        ``YYYY-MM-DD``.
    """
    return (_EPOCH + dt.timedelta(days=value)).isoformat()


def normalise_dates(
    columns: list[str], rows: list[list[Any]], types: list[str] | None = None
) -> list[list[Any]]:
    """Turn integer epoch days in date columns into ISO strings.

    A column counts as a date when its declared type says DATE, or its name ends
    in ``_from``, ``_to``, ``_date`` or ``일`` (입사일, 청구일).

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
        if "DATE" in declared.upper() or _DATE_NAME.search(str(name)):
            date_cols.add(i)
    if not date_cols:
        return [list(r) for r in rows]
    out: list[list[Any]] = []
    for row in rows:
        new = list(row)
        for i in date_cols:
            if i < len(new) and isinstance(new[i], int) and not isinstance(new[i], bool):
                new[i] = epoch_days_to_iso(new[i])
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
