"""The keyword baseline the clause model must beat in every category.

A list of the words a reviewer would search for, one short pattern per CUAD
category: a sentence matching it is a passage (first five in document order),
and a category with no matching sentence is absent. It is the yardstick of
``docs/clauses.md``: a learned model that loses to it in some category is
not yet fit to say a clause is missing there.
"""

from __future__ import annotations

from .document import units_of
from .keywords import COMPILED
from .model import Finding, Passage


def keyword_findings(paragraphs: list[str], *, k: int = 5) -> dict[str, Finding]:
    """Findings by keyword: the first ``k`` matching sentences, present when there is one."""
    units = units_of(paragraphs)
    out = {}
    for name, rx in COMPILED.items():
        hits = [u for u in units if rx.search(u.text)][:k]
        passages = [Passage(u.paragraph, u.start, u.end, u.text, 1.0) for u in hits]
        out[name] = Finding(name, bool(hits), 1.0 if hits else 0.0, passages)
    return out
