"""The trained clause model: score every sentence for every category, decide presence, rank passages.

The artifact is a hashed linear model (one weight column per category, stored
as int8 with a scale per column) plus, per category, a Platt calibration of
the document's best sentence score and the decision threshold chosen on
out-of-fold training predictions (or, in the few categories where that was
better on the training data, the keyword search decides presence), and the
logit bonus a sentence matching the category's keyword search gets when
passages are ranked and paragraphs routed. Scoring is a gather and a sum in
NumPy: no vocabulary, no scikit-learn and no model download at run time.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from .document import Unit
from .features import KEYWORD_NAMES, hashed, keyword_matches

MODEL_DIR = Path(__file__).with_name("model")
DEFAULT_K = 5
# A paragraph is routed to a category when its best sentence's probability (lifted by the category's keyword
# bonus) is at least ROUTE_FLOOR times the square root of its length (at least 50 characters): 0.24% for a
# 400-character paragraph, 0.6% for 2,500. A long paragraph costs more of the reviewer's tokens, so it must be
# likelier to hold the clause. Chosen on dev as the lightest routing that keeps a rule's recall of its gold
# spans clear of 95% (docs/clauses.md has the curve).
ROUTE_FLOOR = 1.2e-4
_CHUNK = 512
# Passages grow from their best sentence into neighbouring sentences of the same paragraph while the k
# passages together stay within PASSAGE_BUDGET characters and each within PASSAGE_MAX: a clause is often
# two or three sentences, and a reader takes in five passages, not five pages. Chosen on dev: 3,800 / 1,500
# gave R@5 73.9 at 2,503 characters in the top five, 6,000 / 2,500 gives 74.5 at 2,858 (the issue allows
# 4,000); larger budgets add little, since a passage never leaves its paragraph.
PASSAGE_BUDGET = 6000
PASSAGE_MAX = 2500


@dataclass(frozen=True, slots=True)
class Passage:
    """A sentence-complete span of one paragraph and how likely it belongs to the category."""

    paragraph: int
    start: int
    end: int
    text: str
    score: float

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"paragraph": self.paragraph, "start": self.start, "end": self.end, "text": self.text,
                "score": round(self.score, 4)}


@dataclass(frozen=True, slots=True)
class Finding:
    """One category in one contract: present or not, how sure, and where.

    ``probability`` is the calibrated probability that the contract has this
    kind of clause; ``present`` applies the category's threshold. Passages are
    ranked best first and given for present categories only.
    """

    category: str
    present: bool
    probability: float
    passages: list[Passage] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"category": self.category, "present": self.present, "probability": round(self.probability, 4),
                "passages": [p.to_dict() for p in self.passages]}


@dataclass(frozen=True, slots=True)
class Scores:
    """Sentence logits of one document: ``logits[i, c]`` for unit ``i`` and category ``c``; ``hits[i, c]``
    whether unit ``i`` matches category ``c``'s keyword search."""

    units: list[Unit]
    logits: np.ndarray
    texts: Sequence[str]  # the paragraphs the units index, so passages quote them verbatim
    hits: np.ndarray


class ClauseModel:
    """A loaded model: :meth:`score_units`, then :meth:`findings` and :meth:`routes` (see ``analyse``)."""

    def __init__(self, arrays: dict[str, np.ndarray], meta: dict, fingerprint: str) -> None:
        self.meta = meta
        self.fingerprint = fingerprint  # of the artifact's bytes: what a cached result was computed with
        self.categories: list[str] = list(meta["categories"])
        self.buckets = int(meta["buckets"])
        self._weights = arrays["weights"]  # int8: 11 MB, against 43 MB as float32
        self._scales = arrays["scales"].astype(np.float32)
        self._bias = arrays["bias"].astype(np.float32)
        self._calib = arrays["calibration"].astype(np.float64)
        self._threshold = arrays["threshold"].astype(np.float64)
        self._by_keywords = arrays["keyword_presence"].astype(bool)
        self._keyword_probability = arrays["keyword_probability"].astype(np.float64)
        self._keyword_bonus = arrays["keyword_bonus"].astype(np.float32)
        self._keyword_confirms = arrays["keyword_confirms"].astype(np.float64)
        self._index = {c: i for i, c in enumerate(self.categories)}
        # Column of each category's keyword search in keyword_matches (-1: the category has none).
        self._search = np.asarray([KEYWORD_NAMES.index(c) if c in KEYWORD_NAMES else -1 for c in self.categories])

    @classmethod
    def load(cls, directory: str | Path = MODEL_DIR) -> ClauseModel:
        """Read ``clauses.npz`` and ``model.json`` from ``directory``."""
        directory = Path(directory)
        weights, meta = (directory / "clauses.npz").read_bytes(), (directory / "model.json").read_bytes()
        with np.load(io.BytesIO(weights)) as data:
            arrays = {k: data[k] for k in data.files}
        return cls(arrays, json.loads(meta), hashlib.sha256(weights + meta).hexdigest()[:16])

    def score_units(self, units: Sequence[Unit], texts: Sequence[str]) -> Scores:
        """Logits of every unit for every category (``texts``: the paragraphs the units index).

        Scored in chunks of units, so a 300-page contract never holds all its
        gathered weight rows at once.
        """
        logits = np.zeros((len(units), len(self.categories)), dtype=np.float32)
        matches = keyword_matches(units)
        for lo in range(0, len(units), _CHUNK):
            chunk = units[lo: lo + _CHUNK]
            idx, offsets = hashed(chunk, self.buckets, matches[lo: lo + _CHUNK])
            if len(idx):
                sums = np.add.reduceat(self._weights[idx].astype(np.float32), offsets[:-1], axis=0)
                sums[offsets[1:] == offsets[:-1]] = 0.0  # reduceat repeats the next row for an empty slice
                logits[lo: lo + len(chunk)] = sums * self._scales
        hits = np.zeros((len(units), len(self.categories)), dtype=bool)
        has = self._search >= 0
        hits[:, has] = matches[:, self._search[has]]
        return Scores(list(units), logits + self._bias[None, :], texts, hits)

    def presence(self, best_logit: float, category: str) -> float:
        """Calibrated probability that the contract has ``category``, from its best sentence's logit."""
        a, b = self._calib[self._index[category]]
        return float(1.0 / (1.0 + np.exp(-(a * best_logit + b))))

    def findings(self, scores: Scores, *, k: int = DEFAULT_K) -> dict[str, Finding]:
        """A :class:`Finding` per category from sentence scores."""
        out: dict[str, Finding] = {}
        n = len(scores.units)
        body = np.asarray([not u.is_heading for u in scores.units], dtype=bool)
        for c, name in enumerate(self.categories):
            if n == 0:
                out[name] = Finding(name, False, 0.0)
                continue
            column, hits = scores.logits[:, c], scores.hits[:, c]
            ranking = column + self._keyword_bonus[c] * hits
            if self._by_keywords[c]:
                top = np.lexsort((-ranking, ~hits))[:k]  # keyword sentences first, each group by score
                present = bool(hits.any())
                prob = float(self._keyword_probability[c, 0 if present else 1])
            else:
                top = np.argsort(-ranking, kind="stable")[:k]
                prob = self.presence(float(column.max()), name)
                if self._keyword_confirms[c] and (hits & body).any():  # a search that almost never hits in vain
                    prob = max(prob, float(self._keyword_confirms[c]))
                present = prob >= self._threshold[c]
            passages = _passages(scores, column, top) if present else []
            out[name] = Finding(name, bool(present), prob, passages)
        return out

    def sentence_probabilities(self, scores: Scores) -> np.ndarray:
        """``[unit, category]``: each sentence's probability with its category's keyword bonus, what routing
        ranks paragraphs by and what a rule's excerpt of a long paragraph is cut by."""
        lifted = scores.logits.astype(np.float64) + self._keyword_bonus[None, :] * scores.hits
        return 1.0 / (1.0 + np.exp(-lifted))

    def routes(self, scores: Scores, *, floor: float = ROUTE_FLOOR) -> dict[str, list[tuple[int, float]]]:
        """Per category, the paragraphs worth a rule's look, best first, with their best sentence's probability.

        This is what the review pipeline sends a rule: a paragraph the model
        gives even a small chance, for its length, is worth a reviewer's (or a
        model's) look (see :data:`ROUTE_FLOOR`).
        """
        if not scores.units:
            return {name: [] for name in self.categories}
        paragraphs = np.asarray([u.paragraph for u in scores.units])
        probs = self.sentence_probabilities(scores)
        best = np.zeros((len(scores.texts), len(self.categories)))
        np.maximum.at(best, paragraphs, probs)
        lengths = np.maximum(np.asarray([len(t) for t in scores.texts], dtype=np.float64), 50.0)
        keep = best >= floor * np.sqrt(lengths)[:, None]
        out: dict[str, list[tuple[int, float]]] = {}
        for c, name in enumerate(self.categories):
            rows = np.nonzero(keep[:, c])[0]
            out[name] = sorted(((int(p), float(best[p, c])) for p in rows), key=lambda kv: (-kv[1], kv[0]))
        return out


def _passages(scores: Scores, column: np.ndarray, top: np.ndarray) -> list[Passage]:
    """The top units, each grown into its paragraph's best-scoring neighbours within the budgets."""
    units = scores.units
    spans = [[int(i), int(i)] for i in top]
    used = {int(i) for i in top}
    total = sum(len(units[i].text) for i in used)
    for span in spans:
        while True:
            lo, hi = span
            options = [j for j in (lo - 1, hi + 1)
                       if 0 <= j < len(units) and j not in used and units[j].paragraph == units[lo].paragraph]
            if not options:
                break
            j = max(options, key=lambda x: column[x])
            size = units[max(hi, j)].end - units[min(lo, j)].start
            if total + len(units[j].text) > PASSAGE_BUDGET or size > PASSAGE_MAX:
                break
            used.add(j)
            total += len(units[j].text)
            span[:] = [min(lo, j), max(hi, j)]
    out = []
    for lo, hi in spans:
        best = max(range(lo, hi + 1), key=lambda x: column[x])
        text = scores.texts[units[lo].paragraph][units[lo].start: units[hi].end]
        out.append(Passage(units[lo].paragraph, units[lo].start, units[hi].end, text,
                           float(1.0 / (1.0 + np.exp(-column[best])))))
    return out


@lru_cache(maxsize=1)
def default_model() -> ClauseModel:
    """The committed model, loaded once per process."""
    return ClauseModel.load()
