"""The login accounts of the demo organisation.

Passwords are derived from the seed (so a rebuilt database keeps working with
the passwords recorded in ``ground_truth.json``) and stored only as salted hashes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from embedded.ontul.demo_org.passwords import hash_password


@dataclass(frozen=True)
class Persona:
    """A user account; ``emp_no`` links it to ``hr_employees``."""

    user_id: str
    """Login name."""
    display_name: str
    """Korean name shown in the app."""
    emp_no: str
    """Employee number (empty for admin)."""
    dept: str
    """Department code (empty for admin)."""
    clearance: str
    """``none`` | ``manager`` | ``hr`` | ``admin``."""
    groups: tuple[str, ...]
    """Policy groups the user belongs to."""
    rank: str = ""
    """직급 of the matching employee row."""
    is_admin: bool = False
    """Administrator account (setup and verification only)."""
    active: bool = True
    """False for a revoked account."""


PERSONAS: tuple[Persona, ...] = (
    Persona("hong", "홍가은", "20170003", "DEV", "none", ("employees", "general"), "대리"),
    Persona(
        "park", "홍지아", "20150010", "DEV", "manager", ("employees", "general", "managers"), "부장"
    ),
    Persona("cho", "조태윤", "20090001", "HR", "hr", ("employees", "hr"), "차장"),
    Persona(
        "kim", "김도현", "20180007", "DEV", "none", ("employees", "general"), "사원", active=False
    ),
    Persona("admin", "시스템 관리자", "", "", "admin", ("admins",), is_admin=True),
)
"""Every account, in insertion order."""


def persona_password(seed: int, user_id: str) -> str:
    """The clear-text password of a demo account, derived from the seed.

    Args:
        seed: generator seed.
        user_id: login name.

    Returns:
        A password such as ``hong-3f9a1c2e``.
    """
    digest = hashlib.sha256(f"{seed}:password:{user_id}".encode()).hexdigest()
    return f"{user_id}-{digest[:8]}"


def persona_salt(seed: int, user_id: str) -> bytes:
    """The 16-byte salt of a demo account, derived from the seed.

    Args:
        seed: generator seed.
        user_id: login name.

    Returns:
        Salt bytes.
    """
    return hashlib.sha256(f"{seed}:salt:{user_id}".encode()).digest()[:16]


def persona_credentials(seed: int, persona: Persona) -> tuple[str, str, str]:
    """Password, salt and hash for one account.

    Args:
        seed: generator seed.
        persona: the account.

    Returns:
        ``(password, salt_hex, hash_hex)``.
    """
    password = persona_password(seed, persona.user_id)
    salt = persona_salt(seed, persona.user_id)
    return password, salt.hex(), hash_password(password, salt)
