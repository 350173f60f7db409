"""Running the offline model in a process of its own.

The launcher starts the model beside the embedded platform (and, in the desktop
app, beside the GUI). The planner and the JSON handling are CPU-bound Python;
on a thread of that process they would hold the GIL while platform requests
wait. So the model gets its own interpreter:

* From source or an installed package: ``python -c <bootstrap>`` with the
  parent's ``sys.path``. Not ``multiprocessing`` spawn, which re-runs the
  parent's main script in the child: a script that starts the services without
  an ``if __name__ == "__main__":`` guard would start them again, recursively.
* In the frozen (PyInstaller) build ``sys.executable`` is the app itself and
  takes no ``-c``: there it is ``multiprocessing`` spawn, which the entry script
  supports (``freeze_support()`` under its main guard).

The child reports its address on a pipe and serves until that pipe closes:
``stop()`` closes it, and so does the parent's exit or death, so the model never
outlives the process that started it.
"""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
import threading
from dataclasses import asdict, dataclass
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

_BOOTSTRAP = (
    "import json, sys; sys.path[:0] = json.loads(sys.argv[1]); "
    "from embedded.model.child import bootstrap_main; bootstrap_main(sys.argv[2])"
)


@dataclass(frozen=True, slots=True)
class ServeOptions:
    """What the child serves with (JSON-able: it crosses a process boundary)."""

    host: str
    port: int
    pace_s: float
    thread_ttl_s: float
    max_thread_replies: int
    max_thread_bytes: int


def bootstrap_main(options_json: str) -> None:
    """Entry of the ``python -c`` child: report on stdout, serve until stdin closes."""
    from embedded.model.server import serve

    options = ServeOptions(**json.loads(options_json))

    def report(message: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    serve(options, report, sys.stdin.buffer.read)


def spawn_main(control: Connection, options_json: str) -> None:
    """Entry of the ``multiprocessing`` child (frozen build): report and wait on a pipe."""
    from embedded.model.server import serve

    def wait() -> None:
        try:
            control.recv()
        except (EOFError, OSError):
            pass

    serve(ServeOptions(**json.loads(options_json)), control.send, wait)


class ModelChild:
    """The model's process: start it, learn its address, stop it."""

    def __init__(self, options: ServeOptions) -> None:
        self._options = options
        self._popen: subprocess.Popen[bytes] | None = None
        self._process: BaseProcess | None = None
        self._control: Connection | None = None

    @property
    def pid(self) -> int | None:
        """The child's process id (None before start)."""
        if self._popen is not None:
            return self._popen.pid
        return self._process.pid if self._process is not None else None

    def start(self, timeout_s: float) -> tuple[str, int]:
        """Start the child and return the (host, port) it bound.

        Raises:
            OSError: The child could not bind the address.
            RuntimeError: The child did not come up.
        """
        options = json.dumps(asdict(self._options))
        if getattr(sys, "frozen", False):
            message = self._start_spawned(options, timeout_s)
        else:
            message = self._start_bootstrapped(options, timeout_s)
        if message is None or "ok" not in message:
            self.stop()
            if message is not None and "error" in message:
                raise OSError(str(message["error"]))
            raise RuntimeError("the offline model process did not start")
        host, port = message["ok"]
        return str(host), int(port)

    def _start_bootstrapped(self, options: str, timeout_s: float) -> dict[str, Any] | None:
        self._popen = subprocess.Popen(
            [sys.executable, "-c", _BOOTSTRAP, json.dumps(sys.path), options],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self._popen.stdout is not None
        return _first_line(self._popen.stdout, timeout_s)

    def _start_spawned(self, options: str, timeout_s: float) -> dict[str, Any] | None:
        ctx = multiprocessing.get_context("spawn")
        self._control, child_end = ctx.Pipe(duplex=True)
        self._process = ctx.Process(
            target=spawn_main, args=(child_end, options), name="regdesk-model", daemon=True
        )
        self._process.start()
        child_end.close()
        try:
            if not self._control.poll(timeout_s):
                return None
            message: dict[str, Any] = self._control.recv()
        except (EOFError, OSError):
            return None
        return message

    def stop(self) -> None:
        """Let the child go (it exits when its pipe closes); kill it if it lingers."""
        if self._popen is not None:
            popen, self._popen = self._popen, None
            for stream in (popen.stdin, popen.stdout):
                if stream is not None:
                    stream.close()
            _reap(popen.wait, popen.kill)
        if self._process is not None:
            process, self._process = self._process, None
            if self._control is not None:
                self._control.close()
                self._control = None
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join(timeout=5)


def _reap(wait: Callable[..., Any], kill: Callable[[], None]) -> None:
    try:
        wait(timeout=5)
    except subprocess.TimeoutExpired:
        kill()
        wait(timeout=5)


def _first_line(stream: IO[bytes], timeout_s: float) -> dict[str, Any] | None:
    """The child's JSON report (its first stdout line), or None if none comes in time."""
    box: list[bytes] = []
    reader = threading.Thread(target=lambda: box.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(timeout_s)
    if not box or not box[0].strip():
        return None
    try:
        message = json.loads(box[0])
    except ValueError:
        return None
    return message if isinstance(message, dict) else None
