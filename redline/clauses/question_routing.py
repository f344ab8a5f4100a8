"""Which kinds of clause a plain question is about, by what it means rather than by one keyword.

A lawyer asks "Is there a maximum amount either party can be liable for?",
not "Is there a cap on liability?". A table of one pattern per kind, tried in
order, answered that question as a volume restriction ("maximum amount"), a
question about jointly owned IP as the parties clause ("parties") and one
about unlimited liability as an unlimited licence ("unlimited"): the first
keyword decided. Here every word of the question counts, against everything
known about each kind at once.

Each kind is described by its own name, a list of the words lawyers use for it
and plain phrasings of questions about it (``question_phrasings.json``,
written without CUAD's questions or category descriptions). A question is
normalised (multi-word phrases to one token, "licence" to "license", light
suffix stripping, synonyms to one word: "staff" and "personnel" are
"employee") and scored against every kind with BM25, each kind's description
being one document: a word shared by few kinds ("escrow") counts for more
than one shared by many ("license"), and no word decides alone. Without
BM25's length normalisation: a description is as long as its phrasings make
it, which says nothing about how likely the kind is, and ``search`` below,
a union of unrelated topics, is the longest of all. A
pseudo-kind, ``search``, describes questions no clause kind answers (payment
terms, notice addresses, definitions); when it wins, or nothing matches, the
question is left to plain retrieval. Kinds scoring within ``MARGIN`` of the
best are consulted together, best first: "Is our liability capped?" reads
both the cap and its carve-outs.

The phrasings' ``held_out`` lists are never used to route: they measure it.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

PHRASINGS_PATH = Path(__file__).with_name("question_phrasings.json")
SEARCH = "search"  # the pseudo-kind of questions that plain retrieval answers
# Consult every kind scoring at least MARGIN x the best (at most MAX_KINDS); when ``search`` is among them, the
# question is as much about something else, and retrieval answers it. Chosen on the routing phrasings alone, each
# left out in turn: 0.85 consults the right kind for 95% of them at 1.18 kinds a question (the best kind alone: 91%;
# 0.7: 96% at 1.36 kinds, and every extra kind is more to read).
MARGIN = 0.85
MAX_KINDS = 3
_K1 = 1.2  # BM25's usual constant: a word's fifth mention in a kind's description adds little to its first
_WORD_RE = re.compile(r"[a-z0-9]+")
_POSSESSIVE_RE = re.compile(r"'s\b")
# Light suffix stripping, longest suffix first, so "terminate", "termination" and "terminating" meet; the
# synonym lists name the forms it cannot join ("sold" and "sell", "liable" and "liability").
_SUFFIXES = sorted(("ively", "ations", "ation", "itions", "ition", "itors", "itor", "itive", "ivity", "ivities", "ments",
                    "ment", "ings", "ing", "ities", "ity", "ibility", "ility", "ably", "able", "ible", "ness", "ives",
                    "ive", "ions", "ion", "ors", "ers", "ies", "ied", "ating", "ated", "ates", "ate", "ed", "es", "er",
                    "or", "ly", "al", "s", "e", "y"), key=len, reverse=True)


@dataclass(frozen=True, slots=True)
class Phrasings:
    """One kind's plain questions: those that describe it to the router, and those kept back to measure it."""

    route: tuple[str, ...]
    held_out: tuple[str, ...]


class QuestionRouter:
    """Scores a question against every clause kind (and ``search``) and picks the kinds to consult."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._stop = frozenset(data["stopwords"].split())
        self._phrases = [(re.compile(_phrase_pattern(variants)), f" {canon} ")
                         for canon, variants in data["phrases"].items()]
        # The words phrases and synonyms are normalised to, kept as they are rather than stemmed.
        self._keep = {w for canon in data["phrases"] for w in canon.split()} | set(data["synonyms"])
        self._by_word: dict[str, str] = {}
        by_stem: dict[str, set[str]] = {}
        for canon, forms in data["synonyms"].items():
            for form in forms.split():
                self._by_word[form] = canon
                by_stem.setdefault(_stem(form), set()).add(canon)
        # A stem two synonym groups share ("exclus": "exclusive", "exclusion") maps to neither, nor does one too
        # short to mean much ("dur", of "duration", is also "during").
        self._by_stem = {s: next(iter(c)) for s, c in by_stem.items() if len(c) == 1 and len(s) >= 4}
        self.phrasings = {name: Phrasings(tuple(kind["route"]), tuple(kind["held_out"]))
                          for name, kind in [*data["kinds"].items(), (SEARCH, data["search"])]}
        docs = {name: [*kind["route"], kind["terms"], name.replace("/", " ")]
                for name, kind in [*data["kinds"].items(), (SEARCH, data["search"])]}
        self._tf = {name: Counter(w for text in texts for w in self.words(text)) for name, texts in docs.items()}
        df = Counter(w for tf in self._tf.values() for w in tf)
        n = len(self._tf)
        self._idf = {w: math.log(1 + (n - f + 0.5) / (f + 0.5)) for w, f in df.items()}

    def words(self, text: str) -> list[str]:
        """The question's words as the router compares them: phrases joined, stopwords out, stems, synonyms."""
        text = _POSSESSIVE_RE.sub("", text.lower().replace("\u2019", "'")).replace("-", " ")
        for rx, canon in self._phrases:
            text = rx.sub(canon, text)
        out = []
        for word in _WORD_RE.findall(text):
            if word in self._stop:
                continue
            if word in self._by_word:
                out.append(self._by_word[word])
            elif word in self._keep:
                out.append(word)
            else:
                stem = _stem(word)
                out.append(self._by_stem.get(stem, stem))
        return out

    def scores(self, question: str) -> list[tuple[str, float]]:
        """Every kind and ``search`` with its BM25 score for the question, best first (ties in data order)."""
        words = set(self.words(question))
        out = []
        for name, tf in self._tf.items():
            score = 0.0
            for w in words:
                f = tf.get(w, 0)
                if f:
                    score += self._idf[w] * f * (_K1 + 1) / (f + _K1)
            out.append((name, score))
        return sorted(out, key=lambda item: -item[1])

    def route(self, question: str) -> list[str]:
        """The clause kinds to consult, best first; empty when plain retrieval should answer instead."""
        ranked = self.scores(question)
        top = ranked[0][1]
        kinds = [name for name, score in ranked if score >= MARGIN * top][:MAX_KINDS]
        if top <= 0 or SEARCH in kinds:
            return []
        return kinds


def _phrase_pattern(variants: list[str]) -> str:
    """A regex for a phrase's written forms; a trailing ``*`` lets its last word run on ("non compet*")."""
    parts = [re.escape(v[:-1]) + r"\w*" if v.endswith("*") else re.escape(v) + r"\b" for v in variants]
    return r"\b(?:" + "|".join(parts) + ")"


def _stem(word: str) -> str:
    """A rough stem: the longest suffix off, a doubled final consonant undone ("capped" -> "cap"), 7 letters."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "ls":
        word = word[:-1]
    return word[:7]


@cache
def default_router() -> QuestionRouter:
    """The router over the shipped phrasings, built once (about 50 ms; routing a question then takes 0.2 ms)."""
    return QuestionRouter(json.loads(PHRASINGS_PATH.read_text(encoding="utf-8")))


def route_question(question: str) -> list[str]:
    """The clause kinds a question is about, best first; empty when it is not about a kind of clause."""
    return default_router().route(question)
