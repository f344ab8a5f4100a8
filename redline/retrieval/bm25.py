"""Okapi BM25 over passages: the lexical half of hybrid retrieval.

Contracts repeat their own vocabulary ("Licensed Product", "Net Sales"), so
exact term overlap is a strong signal that embeddings alone blur.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from .tokens import tokens


class BM25:
    """A BM25 index over a fixed list of texts (``k1``/``b`` are the usual defaults)."""

    def __init__(self, texts: Sequence[str], *, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.docs = [Counter(tokens(t)) for t in texts]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.avg = (sum(self.lengths) / len(self.lengths)) if self.lengths else 0.0
        df: Counter[str] = Counter()
        for d in self.docs:
            df.update(d.keys())
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self.postings: dict[str, list[int]] = {}
        for i, d in enumerate(self.docs):
            for t in d:
                self.postings.setdefault(t, []).append(i)

    def scores(self, query: str) -> list[float]:
        """The BM25 score of every text for ``query`` (0 for texts sharing no term)."""
        out = [0.0] * len(self.docs)
        for term in set(tokens(query)):
            idf = self.idf.get(term)
            if idf is None:
                continue
            for i in self.postings[term]:
                tf = self.docs[i][term]
                norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / (self.avg or 1))
                out[i] += idf * tf * (self.k1 + 1) / (tf + norm)
        return out
