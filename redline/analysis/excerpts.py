"""A rule's excerpt of a long paragraph: the sentences that concern it, marked as an excerpt.

A language model is paid by the token, and a long paragraph routed to a rule
for one sentence costs its whole length for every rule that selects it. So a
model provider is given, of a paragraph longer than :data:`WHOLE_UP_TO`, only
the sentence units (the clause engine's, ``redline/clauses/units.py``) that
the engine rates for the rule's CUAD kinds at :data:`SENTENCE_FLOOR` ×
√(sentence length) or more, that hold one of the rule's keywords or red
flags, or that the keyword classifier reads as the rule's category (what
routes the part of a category CUAD does not label, such as payment terms
besides revenue sharing); "[…]" marks what is left out. A paragraph none of
whose sentences qualifies (routed by its heading, or by wording spread over
sentences) is given whole. The prompt says the text is an excerpt,
so the model neither quotes across a gap nor rewrites or deletes a paragraph
it has seen only part of (the pipeline drops such findings), and every quote
is still grounded against the whole paragraph. Short paragraphs, rules the
engine does not cover and the offline engine (whose checks read whole
paragraphs) are given whole paragraphs. ``docs/clauses.md`` has the measured
context recall and characters.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from redline.clauses import PLAYBOOK_TO_CUAD
from redline.clauses.prefilter import Matcher

from .categories import classify_text
from .document import Document
from .playbook.model import Rule

# Paragraphs of at most this many characters are given whole (measured on dev with SENTENCE_FLOOR: 94.97%
# context recall at 4.81 M characters; 500 gives 94.8% at 4.74 M, 800 the same 94.97% at 4.99 M).
WHOLE_UP_TO = 600
# A sentence is kept at this × √(its length) or more for one of the rule's CUAD kinds (0.045% for a
# 500-character sentence): like ROUTE_FLOOR, a longer sentence must be likelier to hold the clause.
SENTENCE_FLOOR = 2e-5
GAP = "[…]"


@dataclass(frozen=True, slots=True)
class Excerpt:
    """The kept ``spans`` of a paragraph (``[start, end)``, sentence-complete, adjacent ones merged) and
    the ``text`` a provider is shown: the spans joined by :data:`GAP`, which also marks a left-out start
    or end."""

    spans: tuple[tuple[int, int], ...]
    text: str

    def hint(self, paragraph: str, quote: str) -> tuple[int, int] | None:
        """Where ``quote`` is inside the shown spans of ``paragraph`` (None: not verbatim in one of them),
        so a phrase that also occurs in the left-out text grounds to the copy the model was shown."""
        for start, end in self.spans:
            at = paragraph.find(quote, start, end) if quote else -1
            if at != -1:
                return at, at + len(quote)
        return None


def excerpt_of(doc: Document, rule: Rule, i: int, matchers: tuple[Matcher | None, list[Matcher]]) -> Excerpt | None:
    """Paragraph *i* cut down for ``rule``, or None when the rule is given the whole paragraph.

    ``matchers`` is :func:`redline.analysis.selection.rule_matchers` for the rule and document.
    """
    text = doc.clauses[i].text
    if len(text) <= WHOLE_UP_TO or rule.category.value not in PLAYBOOK_TO_CUAD:
        return None
    units = doc.found.sentence_probabilities(rule.category.value, i)
    if len(units) < 2:
        return None
    keywords, flags = matchers
    keep = []
    for start, end, prob in units:
        piece = text[start:end]
        lower = piece.lower()
        keep.append(prob >= SENTENCE_FLOOR * math.sqrt(max(end - start, 50))
                    or (keywords is not None and keywords.search(piece, lower) is not None)
                    or any(m.search(piece, lower) for m in flags)
                    or rule.category in classify_text(piece))
    if not any(keep) or all(keep):
        return None
    spans: list[tuple[int, int]] = []
    for n, (start, end, _) in enumerate(units):
        if keep[n] and n and keep[n - 1]:
            spans[-1] = (spans[-1][0], end)  # adjacent sentences read as one passage
        elif keep[n]:
            spans.append((start, end))
    return Excerpt(tuple(spans), render(text, spans))


def render(text: str, spans: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> str:
    """The kept spans of ``text`` joined by :data:`GAP`, with a leading/trailing gap for a cut start/end."""
    head = f"{GAP} " if text[: spans[0][0]].strip() else ""
    tail = f" {GAP}" if text[spans[-1][1]:].strip() else ""
    return head + f" {GAP} ".join(text[a:b] for a, b in spans) + tail
