"""Errors the platform turns into JSON responses."""

from __future__ import annotations


class ApiError(Exception):
    """A request failed in a way the caller should be told about.

    Attributes:
        status: HTTP status code to answer with.
        message: Human-readable reason, sent as ``{"error": message}``.
    """

    def __init__(self, status: int, message: str) -> None:
        """Create the error.

        Args:
            status: HTTP status code (4xx for caller mistakes).
            message: What went wrong, in words the caller can act on.
        """
        super().__init__(message)
        self.status = status
        self.message = message


class QueryRefused(Exception):
    """A SQL statement was refused by the rewriter or policy (HTTP 200, status error)."""


class PolicyDenied(Exception):
    """The caller holds no grant for the resource and action."""

    def __init__(self, action: str, resource: str) -> None:
        """Create the denial.

        Args:
            action: The action asked for, e.g. ``data:Select``.
            resource: The resource name, e.g. ``semantic.hr.employees``.
        """
        super().__init__(f"access denied: {action} on {resource}")
        self.action = action
        self.resource = resource
