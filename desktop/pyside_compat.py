"""A guard against a reference-count bug in PySide6 6.12 on Python 3.11.

Measured here: with PySide6-Essentials 6.12.0 on CPython 3.11, every call of a
Qt method that returns ``void`` (``QPainter.save()``, ``QWidget.update()``,
``QTimer.setInterval()``, ...) drops one reference to ``None`` without having
taken it, and some ``bool`` returns do the same to ``True``/``False``. CPython
3.12 made these objects immortal, which hides the bug there; on 3.11 the count
reaches zero after some thousands of calls and the process aborts with
``Fatal Python error: none_dealloc`` (or ``bool_dealloc``). 6.11.3 does not
have the bug (same test, zero drift).

The real fix is a PySide6 without the bug (or Python ≥ 3.12). Until then,
:func:`guard_singleton_refcounts` gives the three singletons a reference count
so large that no session can exhaust it — the same thing Python 3.12 does by
design. It does nothing where the bug cannot occur.
"""

from __future__ import annotations

import ctypes
import sys

_HEADROOM = 1 << 40
"""References added: more void calls than any process will ever make."""

_guarded = False


def needs_guard() -> bool:
    """True for CPython < 3.12 with PySide6 6.12.x."""
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False
    try:
        import PySide6
    except ImportError:
        return False
    return str(PySide6.__version__).startswith("6.12.")


def guard_singleton_refcounts() -> bool:
    """Make ``None``, ``True`` and ``False`` effectively immortal (once).

    Returns:
        True when the guard was applied (now or earlier).
    """
    global _guarded
    if _guarded:
        return True
    if not needs_guard():
        return False
    for singleton in (None, True, False):
        refcount = ctypes.c_ssize_t.from_address(id(singleton))
        refcount.value += _HEADROOM
    _guarded = True
    return True
