"""A ``requests`` transport whose in-flight calls another thread can end.

Cancelling a turn must not wait for a blocked read to time out: every socket
the adapter opens is tracked, and :meth:`AbortableAdapter.abort` shuts them all
down so the blocked call fails at once (SPEC: cancellation is prompt).

Proxies: :class:`DirectLoopbackSession` never sends loopback traffic (the
embedded services on 127.0.0.1 / localhost / ::1) through a proxy, whatever
``HTTP(S)_PROXY`` says — on a company laptop with a proxy set, the embedded
platform must still answer offline — while every other URL honours
``HTTP(S)_PROXY`` / ``ALL_PROXY`` and ``NO_PROXY`` as ``requests`` always does.
"""

from __future__ import annotations

import ipaddress
import socket
import weakref
from typing import Any
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool


class TrackedConnection(HTTPConnection):
    """An HTTP connection that registers its socket so ``abort()`` can end it."""

    registry: weakref.WeakSet[HTTPConnection]

    def connect(self) -> None:
        """Connect, then register with the owning adapter."""
        super().connect()
        self.registry.add(self)


class TrackedHTTPSConnection(HTTPSConnection):
    """The TLS twin of ``TrackedConnection`` (its ``sock`` is the TLS socket)."""

    registry: weakref.WeakSet[HTTPConnection]

    def connect(self) -> None:
        """Connect, then register with the owning adapter."""
        super().connect()
        self.registry.add(self)


class AbortableAdapter(HTTPAdapter):
    """Transport adapter whose open sockets can be shut down from another thread."""

    def __init__(self) -> None:
        """Create the adapter with a small pool and no automatic retries."""
        self.connections: weakref.WeakSet[HTTPConnection] = weakref.WeakSet()
        super().__init__(pool_connections=2, pool_maxsize=4, max_retries=0)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        """Build the pool manager with pools whose connections register here."""
        super().init_poolmanager(*args, **kwargs)
        registry = self.connections
        http_conn = type("Conn", (TrackedConnection,), {"registry": registry})
        https_conn = type("TLSConn", (TrackedHTTPSConnection,), {"registry": registry})
        http_pool = type("Pool", (HTTPConnectionPool,), {"ConnectionCls": http_conn})
        https_pool = type("TLSPool", (HTTPSConnectionPool,), {"ConnectionCls": https_conn})
        self.poolmanager.pool_classes_by_scheme = {
            **self.poolmanager.pool_classes_by_scheme,
            "http": http_pool,
            "https": https_pool,
        }

    def abort(self) -> None:
        """Shut down every open socket so blocked reads return at once."""
        for conn in list(self.connections):
            sock = getattr(conn, "sock", None)
            if sock is not None:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


def is_loopback_host(host: str | None) -> bool:
    """True for a name or address that can only mean this machine.

    ``localhost`` (and ``*.localhost``, RFC 6761), 127.0.0.0/8, ``::1`` and
    IPv4-mapped loopback (``::ffff:127.0.0.1``).

    Args:
        host: A host name or IP address (IPv6 with or without brackets).

    Returns:
        Whether traffic to it stays on this machine.
    """
    if not host:
        return False
    name = host.strip().strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return bool(address.is_loopback or (mapped is not None and mapped.is_loopback))


def is_loopback_url(url: str | bytes | None) -> bool:
    """True when ``url`` points at this machine (see :func:`is_loopback_host`).

    Args:
        url: An absolute URL.

    Returns:
        Whether the URL's host is loopback.
    """
    if not url:
        return False
    text = url.decode("ascii", "replace") if isinstance(url, bytes) else str(url)
    try:
        return is_loopback_host(urlsplit(text).hostname)
    except ValueError:
        return False


class DirectLoopbackSession(requests.Session):
    """A ``requests`` session that never routes loopback URLs through a proxy.

    Everything else is ``requests``' own environment handling: other URLs use
    ``HTTP(S)_PROXY`` / ``ALL_PROXY`` unless ``NO_PROXY`` says otherwise, and
    ``REQUESTS_CA_BUNDLE`` still applies to loopback (``trust_env`` stays on).
    """

    def merge_environment_settings(
        self, url: str | bytes | None, proxies: Any, stream: Any, verify: Any, cert: Any
    ) -> Any:
        """Environment settings for one request, with no proxy for a loopback URL."""
        settings = super().merge_environment_settings(url, proxies, stream, verify, cert)
        if is_loopback_url(url):
            settings["proxies"] = {}
        return settings

    def rebuild_proxies(self, prepared_request: Any, proxies: Any) -> dict[str, str]:
        """Proxies for a redirect: none when it lands on loopback."""
        if is_loopback_url(getattr(prepared_request, "url", None)):
            prepared_request.headers.pop("Proxy-Authorization", None)
            return {}
        rebuilt: dict[str, str] = super().rebuild_proxies(prepared_request, proxies)
        return rebuilt
