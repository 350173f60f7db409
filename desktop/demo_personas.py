"""The demo organisation's personas and where their passwords come from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication

DEMO_PERSONAS = ("hong", "park", "cho")
"""The demo organisation's personas, offered on first start."""


@dataclass(frozen=True)
class PersonaCardText:
    """What a persona header card says: who this is and what they may see."""

    name: str
    """Display name (the catalog's 성명)."""
    role: str
    """Department and role, in the UI's language."""
    sees: str
    """What the platform lets this persona see, in the UI's language."""


def demo_persona_card(username: str) -> PersonaCardText | None:
    """The header card text of a demo persona (the one place it is written down).

    Written from the demo organisation's description (SPEC section 3), not read from
    the policy files at run time: the card explains, the platform decides.

    Args:
        username: A user name.

    Returns:
        The card text in the UI's language, or None for a persona that is not one
        of the demo organisation's (its card shows name and user name only).
    """
    translate = QCoreApplication.translate
    cards = {
        "hong": PersonaCardText(
            "홍가은",
            translate("DemoPersonas", "Employee · Development (DEV) · 20170003"),
            translate(
                "DemoPersonas",
                "Sees only their own HR records and the regular regulations;"
                " contact numbers are masked.",
            ),
        ),
        "park": PersonaCardText(
            "홍지아",
            translate(
                "DemoPersonas", "Department head (개발팀 부장) · Development (DEV) · 20150010"
            ),
            translate(
                "DemoPersonas",
                "Sees the HR records of the whole DEV department and the regular"
                " regulations; contact numbers are masked.",
            ),
        ),
        "cho": PersonaCardText(
            "조태윤",
            translate("DemoPersonas", "HR officer · Human Resources (HR) · 20090001"),
            translate(
                "DemoPersonas", "Sees every HR record and the restricted regulations (대외비)."
            ),
        ),
    }
    return cards.get(username)


def demo_passwords(ground_truth: dict[str, Any] | None) -> dict[str, str]:
    """Demo persona passwords recorded in the embedded organisation's ground truth.

    Args:
        ground_truth: ``Endpoints.ground_truth`` (None for a real platform).

    Returns:
        Passwords by username; empty when there is no demo organisation.
    """
    if not ground_truth:
        return {}
    found: dict[str, str] = {}
    personas = ground_truth.get("personas") or ground_truth.get("users") or {}
    entries = personas.items() if isinstance(personas, dict) else enumerate(personas)
    for key, entry in entries:
        if isinstance(entry, dict) and entry.get("password"):
            name = entry.get("username") or entry.get("user_id") or key
            found[str(name)] = str(entry["password"])
    for name, password in (ground_truth.get("passwords") or {}).items():
        found.setdefault(str(name), str(password))
    return found
