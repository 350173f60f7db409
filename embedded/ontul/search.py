"""Hybrid regulation search index: FTS5 BM25 over Hangul bigrams + dense vectors.

Korean words of two syllables (징계, 육아) slip through a trigram tokenizer, so
text is indexed as Hangul character bigrams (a one-syllable run as itself) and
Latin/digit words, in an FTS5 ``unicode61`` table; queries are tokenised the
same way. Only ``title``, ``article_title`` and the *redacted* body are indexed,
so a hit can never reveal text the caller would get masked. Both sides rank
only the candidate set the caller is allowed to see; ranks fuse by reciprocal
rank (RRF). No lexical match means no rows (what real Ontul answers).
"""

from __future__ import annotations

import re
import sqlite3
import threading
from typing import TYPE_CHECKING

import numpy as np

from embedded.ontul.guarded_sqlite import open_read_only

if TYPE_CHECKING:
    from collections.abc import Collection
    from pathlib import Path

    from embedded.ontul.embedder import Embedder

RRF_K = 60
"""Reciprocal-rank-fusion constant."""
SIDE_DEPTH = 50
"""How many ranks of each side enter the fusion."""

_RUNS = re.compile(r"[\uac00-\ud7a3]+|[A-Za-z0-9]+")


def search_terms(text: str) -> list[str]:
    """Return the index terms of ``text``: Hangul bigrams and lower-cased words."""
    terms: list[str] = []
    for run in _RUNS.findall(text.lower()):
        if run[0].isascii() or len(run) == 1:
            terms.append(run)
        else:
            terms.extend(run[i : i + 2] for i in range(len(run) - 1))
    return terms


class SearchIndex:
    """In-memory lexical and dense index of every regulation chunk."""

    def __init__(self, db_path: Path, embedder: Embedder) -> None:
        """Build the index from the platform database.

        Args:
            db_path: The platform database.
            embedder: Dense embedder.
        """
        self.embedder = embedder
        src = open_read_only(db_path)
        try:
            rows = src.execute(
                "SELECT c.chunk_id, coalesce(r.title, ''), coalesce(c.article_title, ''), "
                "coalesce(c.body_redacted, c.body, '') FROM regulation_chunks AS c "
                "LEFT JOIN regulations AS r ON r.doc_no = c.doc_no ORDER BY c.chunk_id"
            ).fetchall()
        finally:
            src.close()
        self._lock = threading.Lock()
        self._fts = sqlite3.connect(":memory:", check_same_thread=False)
        self._fts.execute(
            "CREATE VIRTUAL TABLE chunk_fts USING fts5(title, article_title, body, "
            "tokenize='unicode61')"
        )
        self._fts.executemany(
            "INSERT INTO chunk_fts(rowid, title, article_title, body) VALUES (?, ?, ?, ?)",
            [
                (cid, " ".join(search_terms(t)), " ".join(search_terms(a)),
                 " ".join(search_terms(b)))
                for cid, t, a, b in rows
            ],
        )
        self.chunk_ids = np.array([r[0] for r in rows], dtype=np.int64)
        self._row_of = {int(cid): i for i, cid in enumerate(self.chunk_ids)}
        self.vectors = embedder.embed([f"{t}\n{a}\n{b}" for _, t, a, b in rows])

    def __len__(self) -> int:
        """Number of indexed chunks."""
        return len(self.chunk_ids)

    def lexical(self, query: str, allowed: Collection[int]) -> list[int]:
        """Chunk ids matching ``query`` among ``allowed``, best BM25 first."""
        terms = sorted(set(search_terms(query)))
        if not terms:
            return []
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        with self._lock:
            hits = self._fts.execute(
                "SELECT rowid FROM chunk_fts WHERE chunk_fts MATCH ? "
                "ORDER BY bm25(chunk_fts, 2.0, 3.0, 1.0)",
                (match,),
            ).fetchall()
        out: list[int] = []
        for (cid,) in hits:
            if cid in allowed:
                out.append(int(cid))
                if len(out) >= SIDE_DEPTH:
                    break
        return out

    def dense(self, query: str, allowed_rows: np.ndarray) -> list[int]:
        """Chunk ids among ``allowed_rows`` (matrix row indices), nearest first."""
        if allowed_rows.size == 0:
            return []
        qv = self.embedder.embed([query])[0]
        scores = self.vectors[allowed_rows] @ qv
        n = min(SIDE_DEPTH, scores.size)
        top = np.argpartition(-scores, n - 1)[:n]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [int(self.chunk_ids[allowed_rows[i]]) for i in top]

    def rows_of(self, chunk_ids: Collection[int]) -> np.ndarray:
        """Matrix row indices of ``chunk_ids`` (unknown ids are skipped)."""
        return np.array(
            sorted(self._row_of[c] for c in chunk_ids if c in self._row_of), dtype=np.int64
        )

    def hybrid(
        self, query: str, allowed: Collection[int], allowed_rows: np.ndarray, k: int
    ) -> list[tuple[int, float]]:
        """Fuse lexical and dense ranks over the allowed candidates.

        Args:
            query: The caller's text.
            allowed: Chunk ids the caller may see, in force, citable.
            allowed_rows: The same candidates as matrix row indices.
            k: How many results.

        Returns:
            ``(chunk_id, fused score)`` best first; empty when nothing matches lexically.
        """
        lex = self.lexical(query, allowed)
        if not lex:
            return []
        fused: dict[int, float] = {}
        for rank, cid in enumerate(lex):
            fused[cid] = fused.get(cid, 0.0) + 1.0 / (RRF_K + rank + 1)
        for rank, cid in enumerate(self.dense(query, allowed_rows)):
            fused[cid] = fused.get(cid, 0.0) + 1.0 / (RRF_K + rank + 1)
        return sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))[:k]
