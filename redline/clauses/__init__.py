"""The clause engine: which kinds of clause a contract has, how sure we are, and where they are.

Pure (no Django): it takes a document's paragraphs and returns, for each of
CUAD's 41 categories and each playbook category the model covers, a
calibrated presence probability and ranked sentence-complete passages
anchored to paragraphs. The model is trained on CUAD v1's ``train`` split
(The Atticus Project, CC BY 4.0); see ``docs/clauses.md`` for how it was
chosen, what it scores on the ``dev`` split and the category mapping.

Entry point: :func:`analyse`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from .cues import CUE_PROBABILITY, CUES
from .document import Unit, units_of
from .mapping import COMPLETE, PLAYBOOK_TO_CUAD
from .model import ClauseModel, Finding, Passage, default_model
from .scan import Corpus

# Below this presence probability a category is "absent with high confidence": only then may the
# product say a clause is missing.
CONFIDENT_ABSENCE = 0.15

__all__ = ["COMPLETE", "CONFIDENT_ABSENCE", "PLAYBOOK_TO_CUAD", "ClauseModel",
           "ClauseReport", "Finding", "Passage", "SentenceScores", "analyse", "default_model"]


class ParagraphLike(Protocol):
    """A paragraph of the OOXML model or an analysis clause: text, heading level, anchor."""

    @property
    def text(self) -> str: ...


@dataclass(frozen=True, slots=True)
class ClauseReport:
    """Findings per CUAD category and per covered playbook category, with paragraph anchors."""

    cuad: dict[str, Finding]
    playbook: dict[str, Finding]
    anchors: list[str | None] = field(default_factory=list)
    routes: dict[str, list[tuple[int, float]]] = field(default_factory=dict)
    sentences: SentenceScores | None = None

    def routed(self, category: str) -> dict[int, float]:
        """Paragraphs worth showing a reviewer of a CUAD or playbook category, with their best sentence's
        probability for it, most likely first."""
        kinds = PLAYBOOK_TO_CUAD.get(category, (category,))
        best: dict[int, float] = {}
        for kind in kinds:
            for paragraph, prob in self.routes.get(kind, []):
                best[paragraph] = max(best.get(paragraph, 0.0), prob)
        return dict(sorted(best.items(), key=lambda kv: (-kv[1], kv[0])))

    def sentence_probabilities(self, category: str, paragraph: int) -> list[tuple[int, int, float]]:
        """``(start, end, probability)`` of each sentence unit of a paragraph for a CUAD or playbook
        category (the best of its kinds), in order; empty without sentence scores."""
        if self.sentences is None:
            return []
        return self.sentences.of(PLAYBOOK_TO_CUAD.get(category, (category,)), paragraph)

    def anchor_of(self, passage: Passage) -> str | None:
        """The anchor of the paragraph a passage is in (None for an unanchored paragraph)."""
        return self.anchors[passage.paragraph] if passage.paragraph < len(self.anchors) else None

    def confidently_absent(self, category: str) -> bool:
        """Whether a CUAD or playbook category is absent with high confidence (may be called missing)."""
        finding = self.cuad.get(category) or self.playbook.get(category)
        return finding is not None and not finding.present and finding.probability < CONFIDENT_ABSENCE

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form: passages carry their paragraph's anchor."""
        def one(f: Finding) -> dict[str, object]:
            d = f.to_dict()
            for p, passage in zip(d["passages"], f.passages, strict=True):
                p["anchor"] = self.anchor_of(passage)
            return d

        return {"cuad": [one(f) for f in self.cuad.values()], "playbook": [one(f) for f in self.playbook.values()]}


def analyse(paragraphs: Sequence[ParagraphLike], *, model: ClauseModel | None = None, k: int = 5) -> ClauseReport:
    """Classify a document given as paragraph objects (index in the sequence = paragraph number)."""
    model = model or default_model()
    texts = [p.text for p in paragraphs]
    levels = [getattr(p, "heading_level", None) for p in paragraphs]
    scores = model.score_units(units_of(texts, levels), texts)
    cuad = model.findings(scores, k=k)
    sentences = SentenceScores([(u.paragraph, u.start, u.end) for u in scores.units],
                               model.sentence_probabilities(scores), model.categories)
    return ClauseReport(cuad, _playbook(cuad, k, _cued(scores.units, texts)),
                        [getattr(p, "anchor", None) for p in paragraphs], model.routes(scores), sentences)


class SentenceScores:
    """Every sentence unit's probability per CUAD category, looked up by paragraph: what the review cuts a
    long paragraph down to for one rule (``redline/analysis/excerpts.py``)."""

    def __init__(self, spans: Sequence[tuple[int, int, int]], probs: np.ndarray, categories: Sequence[str]) -> None:
        self._probs = probs
        self._column = {c: n for n, c in enumerate(categories)}
        self._rows: dict[int, list[tuple[int, int, int]]] = {}
        for row, (paragraph, start, end) in enumerate(spans):
            self._rows.setdefault(paragraph, []).append((row, start, end))

    def __eq__(self, other: object) -> bool:
        """Equal scores (a report read back from the cache equals the one computed)."""
        if not isinstance(other, SentenceScores):
            return NotImplemented
        return (self._column == other._column and self._rows == other._rows
                and np.array_equal(self._probs, other._probs))

    __hash__ = None  # mutable contents: compared by value, not hashable

    def of(self, kinds: Sequence[str], paragraph: int) -> list[tuple[int, int, float]]:
        """``(start, end, best probability over kinds)`` of the paragraph's units, in order."""
        columns = [self._column[k] for k in kinds if k in self._column]
        return [(start, end, float(self._probs[row, columns].max()) if columns else 0.0)
                for row, start, end in self._rows.get(paragraph, [])]


def _cued(units: Sequence[Unit], texts: Sequence[str]) -> dict[str, list[Passage]]:
    """The body sentences with a :data:`.cues.CUES` wording, per playbook category, as passages."""
    body = [u for u in units if not u.is_heading]
    corpus = Corpus([u.text for u in body])
    return {name: [Passage(body[i].paragraph, body[i].start, body[i].end, body[i].text, CUE_PROBABILITY)
                   for i in sorted(corpus.matching(rx))]
            for name, rx in CUES.items()}


def _playbook(cuad: dict[str, Finding], k: int, cued: dict[str, list[Passage]]) -> dict[str, Finding]:
    """A playbook category is present when any of its CUAD kinds is, or a body sentence has one of its
    cues (the kinds CUAD does not label); its passages are theirs, best first."""
    out: dict[str, Finding] = {}
    for name, kinds in PLAYBOOK_TO_CUAD.items():
        found = [cuad[c] for c in kinds if c in cuad]
        if not found:
            continue
        prob = 1.0
        for f in found:  # P(at least one kind present), treating the kinds as independent
            prob *= 1.0 - f.probability
        cues = cued.get(name, [])
        if cues:
            prob = min(prob, 1.0 - CUE_PROBABILITY)
        passages = sorted([*(p for f in found for p in f.passages), *cues], key=lambda p: -p.score)
        unique: list[Passage] = []
        for p in passages:
            if all((q.paragraph, q.start) != (p.paragraph, p.start) for q in unique):
                unique.append(p)
        out[name] = Finding(name, any(f.present for f in found) or bool(cues), 1.0 - prob, unique[:k])
    return out
