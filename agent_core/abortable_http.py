"""A ``requests`` transport whose in-flight calls another thread can end.

Cancelling a turn must not wait for a blocked read to time out: every socket
the adapter opens is tracked, and :meth:`AbortableAdapter.abort` shuts them all
down so the blocked call fails at once (SPEC: cancellation is prompt).
"""

from __future__ import annotations

import socket
import weakref
from typing import Any

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
