"""Unique marker strings placed on everything some persona must not see."""

from __future__ import annotations

import random


class CanaryMint:
    """Issues unique ``CANARY-<8 hex>`` markers from a seeded generator."""

    def __init__(self, seed: int) -> None:
        """Start a deterministic sequence for ``seed``.

        Args:
            seed: generator seed.
        """
        self._rng = random.Random(f"{seed}:canary")
        self._issued: set[str] = set()

    def mint(self) -> str:
        """Return a marker never issued before by this mint.

        Returns:
            A string like ``CANARY-3fa9c2d1``.
        """
        while True:
            marker = f"CANARY-{self._rng.getrandbits(32):08x}"
            if marker not in self._issued:
                self._issued.add(marker)
                return marker
