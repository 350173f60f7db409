"""Typed errors of the platform client, each carrying the server's message."""

from __future__ import annotations


class PlatformError(Exception):
    """Any failure talking to the platform.

    Attributes:
        message: The server's (or transport's) message, for people.
        status: HTTP status when there was a response, else None.
    """

    kind = "server"
    """Short name of the failure class, used in tool results."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class PlatformAuthError(PlatformError):
    """Credentials refused, or a token refused even after one re-authentication."""

    kind = "auth"


class PlatformForbiddenError(PlatformError):
    """The platform's policy refused the request (403 or a policy error)."""

    kind = "forbidden"


class PlatformNetworkError(PlatformError):
    """The platform could not be reached (connection refused, reset, DNS)."""

    kind = "network"


class PlatformTimeoutError(PlatformError):
    """The platform did not answer within the timeout."""

    kind = "timeout"


class PlatformServerError(PlatformError):
    """The platform answered 5xx or with something that is not the protocol."""

    kind = "server"


class PlatformBadRequestError(PlatformError):
    """The platform rejected the request as malformed (400, failed statement)."""

    kind = "bad_request"


class PlatformNotFoundError(PlatformError):
    """The named relation, retriever, object type, link or action does not exist."""

    kind = "not_found"


class AdminRefusedError(Exception):
    """A persona session was attempted with an administrator account."""


class InstallationError(Exception):
    """A file the installed app needs is missing (a broken install, not a user error)."""
