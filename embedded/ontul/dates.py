"""DATE values as the real engine keeps them: Int32 days since 1970-01-01.

A real Ontul deployment stores a DATE column as the epoch day and hands it back
as that integer (sometimes as its digit string); SQL compares it as
``CAST(col AS VARCHAR) <= '<epoch-day>'``. The embedded platform stores and
serves dates the same way, so a client that renders them wrongly fails here
rather than in front of an employee. ISO strings stay inside the generator and
the ground truth, which people read.
"""

from __future__ import annotations

from datetime import date, timedelta

EPOCH = date(1970, 1, 1)


def epoch_day(value: date | str) -> int:
    """Days since 1970-01-01 for a date or an ISO ``YYYY-MM-DD`` string."""
    day = value if isinstance(value, date) else date.fromisoformat(str(value)[:10])
    return (day - EPOCH).days


def epoch_or_none(value: str | None) -> int | None:
    """:func:`epoch_day`, passing ``None`` through (an open-ended or undated column)."""
    return None if value is None else epoch_day(value)


def iso_from_epoch(days: int) -> str:
    """The ISO date of an epoch day."""
    return (EPOCH + timedelta(days=int(days))).isoformat()
