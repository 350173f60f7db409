"""Salted PBKDF2-SHA256 password hashes for the demo users.

Only the salt and the hash are stored; the server verifies a login with
:func:`verify_password`.
"""

from __future__ import annotations

import hashlib
import hmac

PBKDF2_ITERATIONS = 120_000
"""Work factor; fixed so stored hashes stay verifiable."""


def hash_password(password: str, salt: bytes) -> str:
    """Hash ``password`` with ``salt``.

    Args:
        password: the clear-text password.
        salt: random (or seed-derived) salt bytes.

    Returns:
        The derived key as lower-case hex.
    """
    return hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, PBKDF2_ITERATIONS).hex()


def verify_password(salt_hex: str, hash_hex: str, password: str) -> bool:
    """Check a login attempt against a stored salt and hash.

    Args:
        salt_hex: stored salt, hex.
        hash_hex: stored PBKDF2-SHA256 hash, hex.
        password: the password the caller typed.

    Returns:
        True when the password matches (constant-time comparison).
    """
    try:
        salt = bytes.fromhex(salt_hex)
    except ValueError:
        return False
    return hmac.compare_digest(hash_password(password, salt), hash_hex.lower())
