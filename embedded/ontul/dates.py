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


def in_force(effective_from: str | None, effective_to: str | None, on: str) -> bool:
    """Whether a version with these ISO dates is in force on ``on`` (ISO).

    ``effective_from <= on < effective_to``: the end is exclusive (the next
    version's start) and open while the version is current. The same rule as
    ``agent_core.rules.in_force``, which the stand-ins may not import; a contract
    test pins the two together.
    """
    if not effective_from:
        return False
    return effective_from[:10] <= on[:10] and (not effective_to or on[:10] < effective_to[:10])
