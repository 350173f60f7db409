"""An HTTP client for the model whose open sockets can be shut down on cancel.

Closing a socket from another thread does not wake a blocked read on Linux;
``shutdown`` does. This wraps the SDK's HTTP transport so a cancellation can end
an in-flight model request at once, whether it is waiting for headers or in the
middle of a stream.
"""

from __future__ import annotations

import socket
import threading
from typing import Any

import httpcore2
import httpx2
from httpcore2._backends.sync import SyncBackend
from httpx2._utils import get_environment_proxies


class _TrackingBackend(SyncBackend):
    """A socket backend that remembers the sockets it opened."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []

    def connect_tcp(self, *args: Any, **kwargs: Any) -> Any:
        stream = super().connect_tcp(*args, **kwargs)
        sock = stream.get_extra_info("socket")
        if isinstance(sock, socket.socket):
            with self._lock:
                self._sockets = [s for s in self._sockets if s.fileno() != -1]
                self._sockets.append(sock)
        return stream

    def abort(self) -> None:
        with self._lock:
            sockets = list(self._sockets)
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


LOOPBACK_PATTERNS = ("all://127.0.0.1", "all://localhost", "all://[::1]")
"""Hosts whose traffic never goes through a proxy (the offline model, a local LLM)."""


class AbortableHttpClient(httpx2.Client):
    """``httpx2.Client`` with ``abort()``: shut down every socket it has open.

    Proxies: loopback is always direct; other hosts honour ``HTTP(S)_PROXY`` /
    ``ALL_PROXY`` and ``NO_PROXY`` (httpx ignores the environment once a
    transport is given, so the proxy mounts are built here, tracked like the rest).
    """

    def __init__(self, **kwargs: Any) -> None:
        self._backend = _TrackingBackend()
        transport = self._tracked(httpx2.HTTPTransport())
        mounts: dict[str, httpx2.BaseTransport | None] = {}
        if kwargs.get("trust_env", True):
            for pattern, proxy in get_environment_proxies().items():
                try:
                    mounts[pattern] = (
                        None if proxy is None else self._tracked(httpx2.HTTPTransport(proxy=proxy))
                    )
                except ImportError:
                    continue  # a SOCKS proxy without socksio: direct, as before, not a crash
        mounts.update(dict.fromkeys(LOOPBACK_PATTERNS, transport))
        mounts.update(kwargs.pop("mounts", None) or {})
        super().__init__(transport=transport, mounts=mounts, **kwargs)

    def _tracked(self, transport: httpx2.HTTPTransport) -> httpx2.HTTPTransport:
        pool = getattr(transport, "_pool", None)
        if isinstance(pool, httpcore2.ConnectionPool):
            pool._network_backend = self._backend
        return transport

    def abort(self) -> None:
        """End in-flight requests from any thread."""
        self._backend.abort()
