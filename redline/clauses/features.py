"""Hashed features of a sentence unit: its words, its clause's title, its section and its place.

Hashing (CRC-32 into a fixed number of buckets) keeps the model a plain
weight matrix with no vocabulary to ship, and CRC-32 is stable across
processes and platforms where Python's ``hash`` is salted. The feature
families are chosen for what lawyers and CUAD's annotators key on: wording
(unigrams and bigrams), the heading and caption a clause sits under, where in
the contract it is (the title and parties come first, boilerplate last), and
shapes such as dates, defined terms, company suffixes and amounts.
"""

from __future__ import annotations

import functools
import itertools
import re
import zlib
from collections.abc import Callable, Sequence

import numpy as np

from .document import Unit
from .keywords import COMPILED
from .scan import Corpus

_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)?|[0-9]+")
_MONTH = re.compile(r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
                    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b", re.IGNORECASE)
_DATE = re.compile(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b(?:19|20)\d\d\b")
_DEFINED = re.compile(r"\(\s*(?:the\s+|each\s+a\s+|collectively\s+)?[\"“][^\"”]{1,40}[\"”]\s*\)")
_ENTITY = re.compile(r"\b(?:inc|corp|corporation|llc|l\.l\.c|ltd|limited|company|plc|gmbh|s\.a|n\.v|b\.v|l\.p|lp)\b\.?",
                     re.IGNORECASE)
_MONEY = re.compile(r"[$€£]\s?\d|\b(?:usd|dollars|eur)\b", re.IGNORECASE)
_PERCENT = re.compile(r"\d\s?%|\bpercent\b", re.IGNORECASE)
_STATE = re.compile(r"\blaws? of (?:the )?(?:state|commonwealth|province)\b", re.IGNORECASE)


_TITLE_COMMON = frozenset(["agreement", "the", "and", "of", "this", "0", "yyyy", "to", "for", "between", "by", "a", "an"])

FEATURE_VERSION = 3


def _num(token: str) -> str:
    return "0" if token.isdigit() and len(token) != 4 else ("yyyy" if token.isdigit() else token)


def tokens(text: str) -> list[str]:
    """Lower-case word tokens with digits folded (years kept apart as ``yyyy``)."""
    return [t if not t[0].isdigit() else _num(t) for t in _TOKEN.findall(text.lower())]  # most tokens are words


KEYWORD_NAMES = tuple(COMPILED)


def keyword_matches(units: Sequence[Unit]) -> np.ndarray:
    """Which reviewer's keyword searches (:data:`KEYWORD_NAMES`) each unit matches: units x searches, bool.

    Computed once per document: it is a feature of the model and, in the
    categories where it helped out of fold, a ranking bonus and a presence cue.
    """
    out = np.zeros((len(units), len(KEYWORD_NAMES)), dtype=bool)
    corpus = Corpus([unit.text for unit in units])
    for k, name in enumerate(KEYWORD_NAMES):
        out[sorted(corpus.matching(COMPILED[name])), k] = True
    return out


_SHAPES = (("date", _DATE), ("month", _MONTH), ("defined", _DEFINED), ("entity", _ENTITY),
           ("money", _MONEY), ("percent", _PERCENT), ("state", _STATE))


def feature_strings(unit: Unit, matched: Sequence[str] | None = None, shapes: Sequence[str] | None = None,
                    context: Callable[[str], list[str]] = tokens) -> list[str]:
    """The named features of one unit (before hashing): readable, so a weight can be explained.

    ``matched`` names the keyword searches the unit matches and ``shapes`` the shape patterns it matches,
    when already known; ``context`` tokenises its heading, caption and title (memoised by :func:`hashed`:
    a heading is shared by every sentence under it).
    """
    toks = tokens(unit.text)
    feats = [f"w:{t}" for t in toks]
    feats += [f"b:{a}_{b}" for a, b in itertools.pairwise(toks)]
    if toks:
        feats.append(f"first:{toks[0]}")
        feats.extend(f"open:{t}" for t in toks[:4])
    feats += [f"h:{t}" for t in set(context(unit.heading))]
    feats += [f"c:{t}" for t in set(context(unit.caption))]
    feats += [f"t:{t}" for t in set(context(unit.title)) - _TITLE_COMMON]
    feats.append(f"pos:{min(9, int(unit.position * 10))}")
    if unit.position < 0.02:
        feats.append("pos:start")
    if unit.position > 0.9:
        feats.append("pos:end")
    n = len(unit.text)
    feats.append(f"len:{0 if n < 40 else 1 if n < 120 else 2 if n < 300 else 3}")
    if unit.is_heading:
        feats.append("shape:heading")
    if unit.text.isupper():
        feats.append("shape:upper")
    if unit.first_in_paragraph:
        feats.append("shape:first")
    if shapes is None:
        shapes = [name for name, rx in _SHAPES if rx.search(unit.text)]
    feats += [f"shape:{name}" for name in shapes]
    if matched is None:
        matched = [name for name, rx in COMPILED.items() if rx.search(unit.text)]
    feats += [f"kw:{name}" for name in matched]
    if "entity" in shapes and len(_ENTITY.findall(unit.text)) >= 2:
        feats.append("shape:entities")
    feats.append("bias")
    return feats


def hashed(units: Sequence[Unit], buckets: int, matches: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Feature indices of every unit, flattened, and the offsets where each unit's indices start.

    Returns ``(indices, offsets)`` with ``len(offsets) == len(units) + 1``:
    unit ``i``'s features are ``indices[offsets[i]:offsets[i + 1]]`` (repeats
    dropped: a feature is there or not, so a long sentence does not win on length). ``matches``:
    :func:`keyword_matches` of the units, when already computed. The shape patterns are found across
    all the units at once, and each feature string is hashed once (words repeat).
    """
    if matches is None:
        matches = keyword_matches(units)
    corpus = Corpus([unit.text for unit in units])
    shape_hits = [(name, corpus.matching(rx)) for name, rx in _SHAPES]
    context = functools.lru_cache(maxsize=None)(tokens)
    bucket_of: dict[str, int] = {}
    idx: list[int] = []
    offsets = [0]
    for i, (unit, row) in enumerate(zip(units, matches, strict=True)):
        matched = [KEYWORD_NAMES[k] for k in np.flatnonzero(row)]
        shapes = [name for name, hits in shape_hits if i in hits]
        own: set[int] = set()
        for f in feature_strings(unit, matched, shapes, context):
            b = bucket_of.get(f)
            if b is None:
                b = bucket_of[f] = zlib.crc32(f.encode()) % buckets
            own.add(b)
        idx.extend(own)
        offsets.append(len(idx))
    return np.asarray(idx, dtype=np.int64), np.asarray(offsets, dtype=np.int64)
