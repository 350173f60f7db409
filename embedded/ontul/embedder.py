"""Dense text embeddings behind a small protocol.

No Korean-capable sentence-embedding model ships offline with this build, so
the default is :class:`HashedNgramEmbedder`: a deterministic bag of hashed
character n-grams (Hangul 1-3 grams, whole Latin/digit words), L2-normalised.
It is the documented fallback; any model that maps texts to unit vectors can
replace it through :class:`Embedder`.
"""

from __future__ import annotations

import re
import zlib
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    from collections.abc import Sequence

_RUNS = re.compile(r"[\uac00-\ud7a3]+|[A-Za-z0-9]+")
CACHE_MAX = 4096
"""Texts whose vectors are remembered (oldest dropped first)."""


class Embedder(Protocol):
    """Maps texts to L2-normalised float32 vectors of a fixed dimension."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return an ``(len(texts), dim)`` float32 matrix of unit rows."""
        ...


class HashedNgramEmbedder:
    """Deterministic hashed character n-gram embedder (the offline fallback)."""

    name = "hashed-char-ngram-v1"

    def __init__(self, dim: int = 1024) -> None:
        """Create the embedder.

        Args:
            dim: Vector dimension (hash buckets).
        """
        self.dim = dim
        self._cache: dict[str, np.ndarray] = {}

    def _features(self, text: str) -> list[str]:
        feats: list[str] = []
        for run in _RUNS.findall(text.lower()):
            if run[0].isascii():
                feats.append(run)
                continue
            for n in (1, 2, 3):
                feats.extend(run[i : i + n] for i in range(len(run) - n + 1))
        return feats

    def _one(self, text: str) -> np.ndarray:
        vec = self._cache.get(text)
        if vec is not None:
            return vec
        vec = np.zeros(self.dim, dtype=np.float32)
        for feat in self._features(text):
            h = zlib.crc32(feat.encode("utf-8"))
            vec[h % self.dim] += 1.0 if (h >> 16) & 1 else -1.0
        norm = float(np.linalg.norm(vec))
        if norm > 0:
            vec /= norm
        if len(self._cache) >= CACHE_MAX:
            # Bounded so the document matrix is not held twice at large scale.
            self._cache.pop(next(iter(self._cache)))
        self._cache[text] = vec
        return vec

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return unit vectors for ``texts`` (identical texts are embedded once)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._one(t) for t in texts])
