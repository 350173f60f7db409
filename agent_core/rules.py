"""One definition of the regulation rules the agent, CLI and GUI rely on.

* What a document number looks like (``HR-REG-003``).
* When a version is in force: from its ``effective_from`` (the approval date,
  authoritative) up to, not including, its ``effective_to`` (the next version's
  ``effective_from``); an open end means it is current.

Everything in ``agent_core`` and ``desktop`` imports these. The stand-ins in
``embedded`` may not import ``agent_core`` (the stand-ins must not lean on the
client they stand in for), so they keep copies that
``tests/unit/test_rules_contract.py`` pins to these definitions.
"""

from __future__ import annotations

import re

DOC_NO_PATTERN = r"[A-Z]{2,4}-[A-Z]{2,4}-\d{3}"
"""A document number: department, class and a three-digit serial (``HR-REG-003``)."""

DOC_NO_RE = re.compile(rf"(?<![A-Za-z0-9-])({DOC_NO_PATTERN})(?![A-Za-z0-9])")
"""A document number inside running text; group 1 is the number."""


def is_doc_no(text: str) -> bool:
    """Whether ``text`` is exactly one document number."""
    return re.fullmatch(DOC_NO_PATTERN, text) is not None


def in_force(effective_from: str | None, effective_to: str | None, on: str) -> bool:
    """Whether a version with these ISO dates is in force on the ISO date ``on``.

    Args:
        effective_from: Start (approval date); None for a version never approved.
        effective_to: Exclusive end; None while it is the current version.
        on: The day asked about.

    Returns:
        ``effective_from <= on < effective_to`` (an open end never ends).
    """
    if not effective_from:
        return False
    return effective_from[:10] <= on[:10] and (not effective_to or on[:10] < effective_to[:10])
