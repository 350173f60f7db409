"""The demo organisation's personas and where their passwords come from."""

from __future__ import annotations

from typing import Any

DEMO_PERSONAS = ("hong", "park", "cho")
"""The demo organisation's personas, offered on first start."""


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
