"""Load the Korean (or no) translation of the UI with ``QTranslator``."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

TRANSLATIONS_DIR = Path(__file__).resolve().parent.parent / "resources" / "translations"
"""Where ``regdesk_<lang>.qm`` files live (``scripts/update_translations`` builds them)."""

SUPPORTED = ("en", "ko")
"""Languages the UI speaks; English is the source language."""

_installed: list[QTranslator] = []


def resolve_language(language: str) -> str:
    """Turn a preference into a language code the UI has.

    Args:
        language: ``'en'``, ``'ko'`` or ``'system'``.

    Returns:
        ``'ko'`` or ``'en'``; the system locale decides for ``'system'``.
    """
    if language == "system":
        language = QLocale.system().name().split("_")[0]
    return language if language in SUPPORTED else "en"


def install_translator(app: QCoreApplication, language: str) -> bool:
    """Install the translation for a language, replacing any installed before.

    Qt's own strings (standard buttons, file dialogs) are translated too when
    Qt ships them for that language.

    Args:
        app: The application.
        language: ``'en'``, ``'ko'`` or ``'system'``.

    Returns:
        True when a RegDesk translation was installed; False for English (the
        source language) or when the ``.qm`` file is missing.
    """
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    code = resolve_language(language)
    if code == "en":
        return False
    ours = QTranslator(app)
    if not ours.load(str(TRANSLATIONS_DIR / f"regdesk_{code}.qm")):
        return False
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    qt_own = QTranslator(app)
    if qt_own.load(f"qtbase_{code}", qt_dir):
        app.installTranslator(qt_own)
        _installed.append(qt_own)
    app.installTranslator(ours)
    _installed.append(ours)
    return True
