"""QApplication set-up and the interactive entry point."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QApplication

from desktop.bundled_font import ensure_korean_font

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings

    from desktop.services import ServiceProvider

GIL_SWITCH_INTERVAL_S = 0.001
"""How long a busy worker thread may keep the GIL while the GUI thread waits.

Every paint callback and slot the GUI runs in Python needs the GIL; with
CPython's default 5 ms a turn thread parsing a fast stream can hold the GUI
back most of a frame each time. One millisecond keeps a frame within budget
(bench/bench_gui.py: median longest stall 23 -> 13 ms) at a negligible cost
to the worker's throughput.
"""


def ensure_app(argv: list[str] | None = None) -> QApplication:
    """The one QApplication, created with RegDesk's names, translation and theme."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
    keep_qt_settings_in_data_dir()
    app = QApplication([sys.argv[0] if sys.argv else "regdesk", *(argv or [])])
    app.setApplicationName("RegDesk")
    app.setOrganizationName("RegDesk")
    app.setApplicationDisplayName("RegDesk")
    ensure_korean_font()  # the offline build's bundled font, only where none is installed
    try:
        from desktop.settings import AppSettings

        settings = AppSettings()
        language, theme = settings.language, settings.theme
    except Exception:  # settings are a convenience; defaults work
        language, theme = "system", "system"
    try:
        from desktop.i18n import install_translator

        install_translator(app, language)
    except ImportError:
        pass
    from desktop.fonts import apply_ui_font
    from desktop.i18n import resolve_language

    apply_ui_font(app, resolve_language(language))
    try:
        from desktop.theme import app_icon, apply_theme

        apply_theme(app, theme)
        app.setWindowIcon(app_icon())
    except ImportError:
        pass
    return app


def keep_qt_settings_in_data_dir() -> None:
    """With ``$REGDESK_DATA_DIR`` set, Qt's own settings (the file dialog's
    ``QtProject.conf``) go there too, not to ``~/.config``: a throw-away data
    directory leaves nothing behind. RegDesk's own settings follow the same
    variable (``desktop.settings``)."""
    import os

    from PySide6.QtCore import QSettings

    data_dir = os.environ.get("REGDESK_DATA_DIR")
    if not data_dir:
        return
    for settings_format in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(settings_format, QSettings.Scope.UserScope, data_dir)


def run_app(provider: ServiceProvider, argv: list[str]) -> int:
    """Open the main window at once and start the services behind it.

    Args:
        provider: Starts (or finds) the platform and the model.
        argv: Extra Qt arguments.

    Returns:
        The exit status.
    """
    app = ensure_app(argv)
    from desktop.main_window import MainWindow
    from desktop.window_fit import fit_to_screen

    window = MainWindow(provider)
    state = _ui_state()
    if state is not None and state.value("window/geometry") is not None:
        window.restoreGeometry(state.value("window/geometry"))
        fit_to_screen(window)  # saved on a larger screen, or at another scale factor
    window.show()
    try:
        return app.exec()
    finally:
        if state is not None:
            state.setValue("window/geometry", window.saveGeometry())
            state.sync()
        window.shutdown()
        provider.stop()


def _ui_state() -> QSettings | None:
    """QSettings for window state (UI state only; never credentials)."""
    try:
        from desktop.settings import AppSettings

        return AppSettings().qsettings
    except Exception:  # no settings module or unreadable settings: defaults
        return None
