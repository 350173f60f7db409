"""The redacted twin of chunk text (``body_redacted``)."""

from __future__ import annotations

import re

PHONE_RE = re.compile(r"(?<!\d)(0\d{1,2})-\d{3,4}-\d{4}(?!\d)")
NATIONAL_ID_RE = re.compile(r"(?<!\d)\d{6}-[1-4]\d{6}(?!\d)")


def redact(text: str) -> str:
    """Mask phone numbers and national-ID-shaped strings.

    Args:
        text: chunk body.

    Returns:
        The text with ``02-****-****`` and ``******-*******`` in their place;
        unchanged when it has neither.
    """
    text = NATIONAL_ID_RE.sub("******-*******", text)
    return PHONE_RE.sub(lambda m: f"{m.group(1)}-****-****", text)
