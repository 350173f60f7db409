"""Before the window opens: is there a display Qt can use? Say so plainly if not.

Without one, Qt's xcb plugin aborts the process (exit 134) with a message about
platform plugins that does not say what to do. This check runs first and names
what to install or set; it never imports Qt, so it costs nothing at start-up.
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path
from typing import Any

NO_DISPLAY_EXIT = 2
"""Exit status when there is no display to open the window on."""

_HEADLESS_HINT = "For a check without a window: regdesk gui --offscreen --as hong --ask QUESTION"


def display_problem(environ: dict[str, str] | None = None) -> str | None:
    """What keeps the window from opening, in words, or None when it can open.

    Only Linux and the BSDs are checked (Windows and macOS always have a display).
    A platform chosen with ``QT_QPA_PLATFORM`` (offscreen, vnc, ...) is respected.

    Args:
        environ: The environment to judge (default ``os.environ``).

    Returns:
        A message naming what to install or set, or None.
    """
    env = os.environ if environ is None else environ
    if sys.platform in ("win32", "darwin"):
        return None
    chosen = env.get("QT_QPA_PLATFORM", "").split(":")[0].strip()
    if chosen and chosen not in ("xcb", "wayland"):
        return None
    if chosen != "xcb" and env.get("WAYLAND_DISPLAY"):
        return None
    display = env.get("DISPLAY", "")
    if not display:
        return (
            "regdesk: there is no display to open the window on (neither DISPLAY nor "
            "WAYLAND_DISPLAY is set).\n"
            "Run it in a desktop session, set DISPLAY to a running X server, or use a "
            "virtual one: install Xvfb (apt install xvfb) and run `xvfb-run regdesk`.\n"
            + _HEADLESS_HINT
        )
    if not _x_server_reachable(display):
        return (
            f"regdesk: cannot reach the X display {display!r} (DISPLAY). Start the X "
            "server (or Xvfb), or set DISPLAY to one that runs.\n" + _HEADLESS_HINT
        )
    return None


def _x_server_reachable(display: str) -> bool:
    """True when something listens at ``DISPLAY`` (a local socket or TCP port 6000+N)."""
    host, _, rest = display.rpartition(":")
    number = rest.split(".")[0]
    if not number.isdigit():
        return True  # a form we do not know: let Qt judge
    if host in ("", "unix") or host.startswith("/"):
        if host.startswith("/"):  # launchd-style path (XQuartz)
            return Path(display).exists() or Path(host).exists()
        socket_path = Path(f"/tmp/.X11-unix/X{number}")
        if socket_path.exists():
            return True
        if sys.platform.startswith("linux"):
            return _abstract_socket_listens(f"/tmp/.X11-unix/X{number}")
        return False
    try:
        with socket.create_connection((host, 6000 + int(number)), timeout=1.0):
            return True
    except OSError:
        return False


def _abstract_socket_listens(name: str) -> bool:
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(1.0)
        probe.connect("\0" + name)
        return True
    except OSError:
        return False
    finally:
        probe.close()


def missing_libraries(plugin: Path) -> list[str]:
    """Shared libraries a Qt platform plugin needs and the system lacks (``ldd``).

    Args:
        plugin: The plugin's ``.so`` file.

    Returns:
        Their file names (``libxcb-icccm.so.4``); empty when ``ldd`` is unavailable.
    """
    import subprocess

    try:
        done = subprocess.run(
            ["ldd", str(plugin)], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return []
    return sorted({line.split()[0] for line in done.stdout.splitlines() if "not found" in line})


def debian_package(library: str) -> str:
    """The Debian/Ubuntu package that usually ships a library (``libxcb-icccm.so.4`` ->
    ``libxcb-icccm4``)."""
    stem, _, version = library.partition(".so")
    version = version.strip(".").split(".")[0]
    if not version:
        return stem
    return f"{stem}-{version}" if stem[-1:].isdigit() else f"{stem}{version}"


def platform_failure_message(message: str) -> str:
    """What to tell people when Qt could not load its platform plugin.

    Args:
        message: Qt's own fatal message.

    Returns:
        A message naming the missing libraries and the packages to install.
    """
    from PySide6.QtCore import QLibraryInfo

    plugins = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms"
    missing = missing_libraries(plugins / "libqxcb.so") if sys.platform.startswith("linux") else []
    lines = ["regdesk: Qt could not open a window: its display plugin did not load."]
    if missing:
        packages = " ".join(sorted({debian_package(lib) for lib in missing}))
        lines.append(f"Missing system libraries: {', '.join(missing)}.")
        lines.append(f"Install them (Debian/Ubuntu: apt install {packages}) and start again.")
    else:
        lines.append(f"Qt said: {message.strip()}")
    lines.append(_HEADLESS_HINT)
    return "\n".join(lines)


def exit_clearly_if_qt_cannot_start() -> None:
    """Turn Qt's abort on a missing platform plugin into a clear message and exit 2.

    Qt reports the failure as a fatal message and then aborts (exit 134); the
    handler installed here prints what to install instead and exits with
    ``NO_DISPLAY_EXIT``. Every other message goes where it went before.
    """
    from PySide6.QtCore import QtMsgType, qFormatLogMessage, qInstallMessageHandler

    previous: Any = None

    def handler(kind: QtMsgType, context: Any, message: str) -> None:
        if kind == QtMsgType.QtFatalMsg and "platform plugin" in message:
            sys.stderr.write(platform_failure_message(message) + "\n")
            sys.stderr.flush()
            os._exit(NO_DISPLAY_EXIT)
        if "xcb-cursor0 or libxcb-cursor0 is needed" in message:
            return  # Qt's guess; the message above names what is really missing
        if previous is not None:
            previous(kind, context, message)
        else:
            sys.stderr.write(qFormatLogMessage(kind, context, message) + "\n")

    previous = qInstallMessageHandler(handler)
