"""The human approval boundary for writes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agent_core.events import ApprovalRequested


@dataclass(frozen=True, slots=True)
class ApprovalDecision:
    """A person's answer to an approval request."""

    approved: bool
    """True when the write may run."""
    reason: str = ""
    """Why; a denial's reason goes back to the model."""


Approver = Callable[[ApprovalRequested], ApprovalDecision]
"""Called in the turn's thread; may block until a person answers."""


def deny_all(request: ApprovalRequested) -> ApprovalDecision:
    """Approver that refuses every write (the default when nobody can be asked).

    Args:
        request: The pending write.

    Returns:
        A denial naming why.
    """
    return ApprovalDecision(False, "no one was available to approve this write")


def approve_all(request: ApprovalRequested) -> ApprovalDecision:
    """Approver that allows every write (explicit ``--approve`` on the CLI).

    Args:
        request: The pending write.

    Returns:
        An approval.
    """
    return ApprovalDecision(True, "approved in advance (--approve)")
