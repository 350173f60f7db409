"""Hybrid regulation search index: BM25 over Hangul bigrams + dense vectors.

Korean words of two syllables (징계, 육아) slip through a trigram tokenizer, so
text is indexed as Hangul character bigrams (a one-syllable run as itself) and
Latin/digit words. Only ``title``, ``article_title`` and the *redacted* body are
indexed, so a hit can never reveal text the caller would get masked.

Both sides rank only a :class:`CandidateSet` (the chunks the caller may see, in
force and citable), and every ranking statistic is computed over that set:
BM25's document count, document frequencies and average length come from the
candidates, never from the whole corpus. SQLite FTS5's ``bm25()`` uses
corpus-wide statistics, so a hidden document containing a term would shift the
scores of visible ones; this index keeps its own postings (numpy arrays) so that
ranking a caller's results cannot depend on rows the caller cannot see.

The dense side keeps the document matrix transposed (one row per dimension) and
scores only the query's non-zero dimensions: for the sparse hashed-n-gram
embedder that touches a dozen rows instead of the whole matrix, and for a dense
model it is an ordinary matrix-vector product. Ranks fuse by reciprocal rank
(RRF). No lexical match means no rows (what real Ontul answers).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from embedded.ontul.guarded_sqlite import open_read_only

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Hashable
    from pathlib import Path

    from embedded.ontul.embedder import Embedder

RRF_K = 60
"""Reciprocal-rank-fusion constant."""
SIDE_DEPTH = 50
"""How many ranks of each side enter the fusion."""
FIELD_WEIGHTS = (2.0, 3.0, 1.0)
"""Term-frequency weights of title, article title and body (as FTS5 bm25 weights)."""
BM25_K1 = 1.2
BM25_B = 0.75
CANDIDATE_CACHE_SIZE = 64
"""Candidate sets remembered (one per distinct row filter, as_of and dept)."""
_EMBED_BLOCK = 2048

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


@dataclass(frozen=True)
class CandidateSet:
    """The chunks one caller may rank, as matrix rows, with their BM25 statistics.

    Attributes:
        mask: Boolean over matrix rows, True for a candidate.
        rows: Candidate matrix rows, ascending.
        count: Number of candidates.
        avg_length: Mean indexed length (tokens) over the candidates.
    """

    mask: np.ndarray
    rows: np.ndarray
    count: int
    avg_length: float


class SearchIndex:
    """In-memory lexical and dense index of every regulation chunk."""

    def __init__(self, db_path: Path, embedder: Embedder) -> None:
        """Build the index from the platform database.

        Args:
            db_path: The platform database.
            embedder: Dense embedder.
        """
        self.embedder = embedder
        self._cache: OrderedDict[Hashable, CandidateSet] = OrderedDict()
        self._cache_lock = threading.Lock()
        src = open_read_only(db_path)
        try:
            rows = src.execute(
                "SELECT c.chunk_id, coalesce(r.title, ''), coalesce(c.article_title, ''), "
                "coalesce(c.body_redacted, c.body, '') FROM regulation_chunks AS c "
                "LEFT JOIN regulations AS r ON r.doc_no = c.doc_no ORDER BY c.chunk_id"
            ).fetchall()
        finally:
            src.close()
        self.chunk_ids = np.array([r[0] for r in rows], dtype=np.int64)
        self._row_of = {int(cid): i for i, cid in enumerate(self.chunk_ids)}
        self._build_postings(rows)
        self._build_dense([f"{t}\n{a}\n{b}" for _, t, a, b in rows])

    def _build_postings(self, rows: list[tuple[int, str, str, str]]) -> None:
        vocab: dict[str, int] = {}
        post_term: list[int] = []
        post_row: list[int] = []
        post_tf: list[float] = []
        lengths = np.zeros(len(rows), dtype=np.float64)
        for i, (_, *fields) in enumerate(rows):
            weighted: dict[str, float] = {}
            for weight, text in zip(FIELD_WEIGHTS, fields, strict=True):
                terms = search_terms(text)
                lengths[i] += len(terms)
                for term in terms:
                    weighted[term] = weighted.get(term, 0.0) + weight
            for term, tf in weighted.items():
                post_term.append(vocab.setdefault(term, len(vocab)))
                post_row.append(i)
                post_tf.append(tf)
        terms_arr = np.array(post_term, dtype=np.int64)
        order = np.argsort(terms_arr, kind="stable")  # rows stay ascending per term
        self._vocab = vocab
        self._post_row = np.array(post_row, dtype=np.int32)[order]
        self._post_tf = np.array(post_tf, dtype=np.float32)[order]
        self._post_start = np.searchsorted(terms_arr[order], np.arange(len(vocab) + 1))
        self._lengths = lengths

    def _build_dense(self, texts: list[str]) -> None:
        self._dense_t = np.zeros((self.embedder.dim, len(texts)), dtype=np.float32)
        for start in range(0, len(texts), _EMBED_BLOCK):
            block = self.embedder.embed(texts[start : start + _EMBED_BLOCK])
            self._dense_t[:, start : start + len(block)] = block.T

    def __len__(self) -> int:
        """Number of indexed chunks."""
        return len(self.chunk_ids)

    def cached_candidates(self, key: Hashable, load: Callable[[], Collection[int]]) -> CandidateSet:
        """Return the candidate set remembered under ``key``, loading it on a miss.

        Args:
            key: What determines the set (row filter, as_of, dept).
            load: Returns the candidate chunk ids (runs outside the lock).

        Returns:
            The candidate set.
        """
        with self._cache_lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        result = self.candidate_set(load())
        with self._cache_lock:
            self._cache[key] = result
            if len(self._cache) > CANDIDATE_CACHE_SIZE:
                self._cache.popitem(last=False)
        return result

    def candidate_set(self, chunk_ids: Collection[int]) -> CandidateSet:
        """Return the candidate set of ``chunk_ids`` (unknown ids are skipped).

        Args:
            chunk_ids: Chunks the caller may see, in force and citable.

        Returns:
            The set with its BM25 statistics.
        """
        mask = np.zeros(len(self.chunk_ids), dtype=bool)
        known = [self._row_of[c] for c in chunk_ids if c in self._row_of]
        mask[np.array(known, dtype=np.int64)] = True
        rows = np.flatnonzero(mask).astype(np.int32)
        avg = float(self._lengths[rows].mean()) if rows.size else 0.0
        return CandidateSet(mask=mask, rows=rows, count=int(rows.size), avg_length=avg)

    def lexical_scores(self, query: str, cands: CandidateSet) -> tuple[np.ndarray, np.ndarray]:
        """BM25 score of every candidate row matching a query term.

        Args:
            query: The caller's text.
            cands: The caller's candidate set (all statistics come from it).

        Returns:
            ``(matrix rows, scores)``, rows ascending; higher scores are better.
        """
        parts: list[tuple[np.ndarray, np.ndarray]] = []
        for term in sorted(set(search_terms(query))) if cands.count else ():
            tid = self._vocab.get(term)
            if tid is None:
                continue
            lo, hi = self._post_start[tid], self._post_start[tid + 1]
            prow = self._post_row[lo:hi]
            keep = cands.mask[prow]
            prow = prow[keep]
            if prow.size == 0:
                continue
            tf = self._post_tf[lo:hi][keep].astype(np.float64)
            df = prow.size
            idf = max(float(np.log((cands.count - df + 0.5) / (df + 0.5))), 1e-6)
            norm = BM25_K1 * (1 - BM25_B + BM25_B * self._lengths[prow] / cands.avg_length)
            parts.append((prow, idf * tf * (BM25_K1 + 1) / (tf + norm)))
        if not parts:
            return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float64)
        hit_rows = np.concatenate([p[0] for p in parts])
        uniq, inverse = np.unique(hit_rows, return_inverse=True)
        summed = np.bincount(
            inverse, weights=np.concatenate([p[1] for p in parts]), minlength=uniq.size
        )
        return uniq, summed

    def lexical(self, query: str, cands: CandidateSet) -> list[int]:
        """Chunk ids matching ``query`` among the candidates, best BM25 first."""
        rows, scores = self.lexical_scores(query, cands)
        return [int(self.chunk_ids[r]) for r in _top(rows, scores, SIDE_DEPTH)]

    def dense(self, query: str, cands: CandidateSet) -> list[int]:
        """Chunk ids among the candidates, nearest to ``query`` first."""
        if cands.count == 0:
            return []
        qv = self.embedder.embed([query])[0]
        dims = np.flatnonzero(qv)
        if dims.size == 0:
            return []
        scores = (qv[dims] @ self._dense_t[dims])[cands.rows]
        return [int(self.chunk_ids[r]) for r in _top(cands.rows, scores, SIDE_DEPTH)]

    def hybrid(
        self, query: str, cands: CandidateSet, k: int, *, use_dense: bool = True
    ) -> list[tuple[int, float]]:
        """Fuse lexical and dense ranks over the caller's candidates.

        Args:
            query: The caller's text.
            cands: Chunks the caller may see, in force, citable.
            k: How many results.
            use_dense: False ranks by BM25 alone (for measuring the dense side).

        Returns:
            ``(chunk_id, fused score)`` best first; empty when nothing matches lexically.
        """
        lex = self.lexical(query, cands)
        if not lex:
            return []
        fused: dict[int, float] = {}
        for rank, cid in enumerate(lex):
            fused[cid] = fused.get(cid, 0.0) + 1.0 / (RRF_K + rank + 1)
        for rank, cid in enumerate(self.dense(query, cands) if use_dense else []):
            fused[cid] = fused.get(cid, 0.0) + 1.0 / (RRF_K + rank + 1)
        return sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))[:k]


def _top(rows: np.ndarray, scores: np.ndarray, n: int) -> list[int]:
    """The ``n`` best rows, highest score first, ties by ascending row."""
    if rows.size == 0:
        return []
    n = min(n, rows.size)
    top = np.argpartition(-scores, n - 1)[:n]
    top = top[np.lexsort((rows[top], -scores[top]))]
    return [int(r) for r in rows[top]]
