"""Both embedded servers: a client hanging up mid-reply prints nothing; a real error is logged."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from collections.abc import Callable


def _ontul() -> Any:
    from embedded.ontul.http_api import Handler
    from embedded.ontul.server import _ClosingHTTPServer

    return _ClosingHTTPServer(("127.0.0.1", 0), Handler)


def _model() -> Any:
    from embedded.model.server import _Handler, _ModelHTTPServer

    return _ModelHTTPServer(("127.0.0.1", 0), _Handler)


@pytest.mark.parametrize("make", [_ontul, _model], ids=["ontul", "model"])
def test_a_hang_up_is_quiet_and_a_bug_is_logged(
    make: Callable[[], Any], capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    server = make()
    try:
        try:
            raise BrokenPipeError(32, "Broken pipe")  # the fuzz client closed before the reply
        except BrokenPipeError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert caplog.records == []
        with caplog.at_level(logging.ERROR):
            try:
                raise ValueError("a handler bug")
            except ValueError:
                server.handle_error(None, ("127.0.0.1", 2))
    finally:
        server.server_close()
    assert capsys.readouterr().err == ""  # socketserver's default prints a traceback here
    assert [r.exc_info[0] for r in caplog.records if r.exc_info] == [ValueError]
