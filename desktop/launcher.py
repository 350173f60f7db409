"""The ``regdesk`` entry point: the one place that wires the parts together.

``regdesk`` alone opens the GUI; subcommands run the command line. The embedded
services start here (in-process, on free loopback ports) unless ``ONTUL_URL``
and ``ANTHROPIC_API_KEY`` point at real ones. Qt is imported only for the GUI,
so the command line starts quickly.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
import threading
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_core.config import Endpoints, endpoints_from_env, remote_model_configured
from agent_core.paths import user_data_dir

if TYPE_CHECKING:
    from desktop.tasks import Job
    from embedded.launcher import EmbeddedServices

AGENT_COMMANDS = frozenset({"ask", "compare", "scenarios", "matrix"})


def app_version() -> str:
    """The installed distribution's version (or the source tree's)."""
    try:
        return metadata.version("regdesk")
    except metadata.PackageNotFoundError:
        return "0.1.0+source"


class EmbeddedProvider:
    """Starts whatever services the environment does not provide.

    ``start()`` blocks (the GUI calls it off its thread) and returns the
    endpoints; ``stop()`` stops what was started.
    """

    def __init__(
        self,
        data_dir: Path | None = None,
        *,
        ontul_url: str | None = None,
        api_key: str | None = None,
        model_settings: dict[str, Any] | None = None,
    ) -> None:
        self._data_dir = data_dir
        self._ontul_url = ontul_url or None
        self._api_key = api_key or None
        self._model_settings = dict(model_settings or {})
        self._services: EmbeddedServices | None = None
        self._lock = threading.Lock()

    def start(self) -> Endpoints:
        """Start the needed embedded services and return where everything is."""
        from embedded.launcher import start_embedded

        need_platform = not (os.environ.get("ONTUL_URL") or self._ontul_url)
        need_model = not remote_model_configured(
            self._api_key, self._model_settings.get("configured_base_url")
        )
        with self._lock:
            if self._services is None and (need_platform or need_model):
                data_dir = self._data_dir / "embedded" if self._data_dir else None
                self._services = start_embedded(
                    data_dir=data_dir, platform=need_platform, model=need_model
                )
            services = self._services
        return endpoints_from_env(
            services.ontul_url if services else None,
            services.model_url if services else None,
            services.ground_truth if services else None,
            configured_ontul_url=self._ontul_url,
            configured_api_key=self._api_key,
            **self._model_settings,
        )

    def stop(self) -> None:
        """Stop the services this provider started."""
        with self._lock:
            services, self._services = self._services, None
        if services is not None:
            services.stop()


def _serve(argv: list[str]) -> int:
    from embedded.launcher import start_embedded

    parser = argparse.ArgumentParser(
        prog="regdesk serve",
        description=(
            "Run the embedded Ontul-compatible platform and the offline model until interrupted."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="interface to bind (default loopback)")
    parser.add_argument("--port", type=int, default=8765, help="platform port (0 = any free)")
    parser.add_argument(
        "--model-port", type=int, default=0, help="offline model port (0 = any free)"
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="keep the database here (default: a scratch directory)",
    )
    args = parser.parse_args(argv)
    services = start_embedded(
        host=args.host, ontul_port=args.port, model_port=args.model_port, data_dir=args.data_dir
    )
    print(f"ontul: {services.ontul_url}", flush=True)
    print(f"model: {services.model_url}", flush=True)
    stopped = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stopped.set())
    try:
        while not stopped.wait(0.5):
            pass
    finally:
        services.stop()
    return 0


def _ground_truth(argv: list[str]) -> int:
    from embedded.launcher import platform_today, prepare_demo_database

    argparse.ArgumentParser(
        prog="regdesk ground-truth", description="Print the demo organisation's facts as JSON."
    ).parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="regdesk-gt-") as scratch:
        _, truth = prepare_demo_database(Path(scratch), platform_today())
    print(json.dumps(truth, ensure_ascii=False, indent=2))
    return 0


def _agent_command(argv: list[str]) -> int:
    from desktop.tasks import run_in_background

    provider = EmbeddedProvider()

    def start(_: Job) -> Endpoints:
        return provider.start()

    # The services start while the agent (and the anthropic SDK, ~1 s) imports.
    # There is no Qt event loop on the command line, so the task has no GUI
    # callbacks (then desktop.tasks loads no Qt) and its future carries the
    # endpoints, or the exception, to this thread.
    starting = run_in_background(start, name="regdesk-services")
    try:
        from agent_core import cli

        return cli.main(argv, starting.future.result())
    finally:
        starting.wait()
        provider.stop()


def _mcp(argv: list[str]) -> int:
    from agent_core.mcp_server import main as mcp_main

    started: list[EmbeddedServices] = []

    def platform() -> tuple[str, dict[str, object] | None]:
        # MCP clients bring their own model: only the platform, and only without ONTUL_URL.
        configured = os.environ.get("ONTUL_URL")
        if configured:
            return configured.rstrip("/"), None
        from embedded.launcher import start_embedded

        started.append(start_embedded(model=False))
        return str(started[0].ontul_url), started[0].ground_truth

    try:
        return mcp_main(argv, platform, app_version())
    finally:
        for services in started:
            services.stop()


def _gui(argv: list[str]) -> int:
    if "-h" in argv or "--help" in argv:
        from desktop.headless import gui_parser

        print(gui_parser().format_help())
        return 0
    if "--offscreen" in argv:
        # The headless driver is for demos and checks: it ignores personal settings.
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from desktop.headless import run_headless

        provider = EmbeddedProvider(user_data_dir())
        return run_headless(provider, [a for a in argv if a != "--offscreen"])
    from desktop.display_check import (
        NO_DISPLAY_EXIT,
        display_problem,
        exit_clearly_if_qt_cannot_start,
    )

    problem = display_problem()
    if problem is not None:
        print(problem, file=sys.stderr)
        return NO_DISPLAY_EXIT
    exit_clearly_if_qt_cannot_start()
    from desktop.app import run_app
    from desktop.settings import configured_model, configured_services

    ontul_url, api_key = configured_services()
    provider = EmbeddedProvider(
        user_data_dir(), ontul_url=ontul_url, api_key=api_key, model_settings=configured_model()
    )
    return run_app(provider, argv)


USAGE = """usage: regdesk [COMMAND] [OPTIONS]

With no command, opens the RegDesk window.

commands:
  ask --as PERSONA [--approve|--deny] [--json] QUESTION   ask one question as one persona
  compare --as A --as B [--json] QUESTION                  ask as several personas at once
  scenarios [--json OUT] FILES...                          run scenario files
  matrix --as A,B,C [--questions F] [--baseline F] [--json|--markdown|--html OUT]
                                                           who can see what (access matrix)
  gui [--offscreen --split hong,cho --ask Q ...]           the window (or its headless driver)
  mcp --as PERSONA [--password PW] [--approve-writes]     serve the nine tools over MCP (stdio)
  serve [--host H] [--port P]                              run the embedded platform and model
  ground-truth                                             print the demo organisation's facts
  --version                                                print the version

Set ONTUL_URL for a real Ontul platform and ANTHROPIC_API_KEY for Claude
(ANTHROPIC_BASE_URL and REGDESK_MODEL for any other Messages-API endpoint, such as
Ollama or llama.cpp's server); otherwise everything runs offline on this machine."""


def main(argv: list[str] | None = None) -> int:
    """Run ``regdesk``.

    Args:
        argv: Arguments without the program name; default ``sys.argv[1:]``.

    Returns:
        The process exit status.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        return _gui([])
    command, rest = args[0], args[1:]
    if command in ("-h", "--help", "help"):
        print(USAGE)
        return 0
    if command == "--version":
        print(f"regdesk {app_version()}")
        return 0
    if command == "serve":
        return _serve(rest)
    if command == "ground-truth":
        return _ground_truth(rest)
    if command in AGENT_COMMANDS:
        return _agent_command(args)
    if command == "gui":
        return _gui(rest)
    if command == "mcp":
        return _mcp(rest)
    print(f"regdesk: unknown command {command!r}\n\n{USAGE}", file=sys.stderr)
    return 2


def gui_main() -> int:
    """Entry point of the ``regdesk-gui`` launcher (no console)."""
    return _gui(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
