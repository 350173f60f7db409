"""Where RegDesk keeps its local data (audit log, history, embedded database).

One function for every part (GUI, command line, MCP server), so they all read
and write the same files.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def user_data_dir() -> Path:
    """The per-user data directory (not created).

    ``$REGDESK_DATA_DIR`` when set; otherwise ``%APPDATA%/RegDesk`` on Windows,
    ``~/Library/Application Support/RegDesk`` on macOS, and
    ``$XDG_DATA_HOME/regdesk`` (default ``~/.local/share/regdesk``) elsewhere.

    Returns:
        The directory.
    """
    configured = os.environ.get("REGDESK_DATA_DIR")
    if configured:
        return Path(configured)
    if sys.platform == "win32":
        appdata = os.environ.get("APPDATA")
        base = Path(appdata) if appdata else Path.home() / "AppData" / "Roaming"
        return base / "RegDesk"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "RegDesk"
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "share") / "regdesk"
