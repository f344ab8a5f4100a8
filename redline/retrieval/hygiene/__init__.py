"""Drafting hygiene: what a careful associate catches without legal judgement (issue #27).

Blanks and drafting notes left in the text, defined terms used but never
defined (or defined and never used), cross-references that lead nowhere,
numbering that skips or repeats, brackets and quotes left open, and figures
whose words and digits disagree. Each check reads the
:class:`~redline.retrieval.graph.ContractGraph` (its blocks, definitions,
usages and references) and returns :class:`Finding` s anchored at the place,
each saying what it found and where the other half is. Deterministic, offline,
no Django: the review turns findings into suggestions with source ``hygiene``
(:mod:`redline.analysis.drafting`).
"""

from __future__ import annotations

from ..graph import ContractGraph
from . import blanks, figures, numbering, punctuation, terms, xrefs
from .finding import KINDS, Finding

_TERMS = frozenset({"undefined_term", "unused_definition", "conflicting_definition", "term_case", "party_names"})
# Each check and the kinds it reports. "two_values" (one right with two periods) needs the review's quantity
# reader, a layer above this one: :mod:`redline.analysis.two_values` reports it, and the review adds it.
CHECKS = ((blanks.check, {"blank", "drafting_note", "redaction"}), (punctuation.check, {"unpaired", "repeated_word"}),
          (figures.check, {"words_digits"}), (terms.check, _TERMS),
          (xrefs.check, {"missing_reference", "empty_attachment"}),
          (numbering.check, {"numbering_gap", "numbering_duplicate"}))
# What the review shows by default: the kinds whose findings on the dev contracts were real defects at least 90%
# of the time (docs/review-quality.md, "Drafting hygiene"). The defined-term checks are not there yet; they run
# when asked for (``kinds=``), as ``redline hygiene-eval --kinds`` does.
DEFAULT_KINDS = frozenset(KINDS) - _TERMS


def check(graph: ContractGraph, kinds: frozenset[str] | set[str] = DEFAULT_KINDS) -> list[Finding]:
    """The hygiene findings of ``kinds`` in the contract, in document order (one per kind, place and quote)."""
    seen: set[tuple[str, int, str, int | None]] = set()
    out: list[Finding] = []
    for run, reports in CHECKS:
        if not reports & kinds:
            continue
        for finding in run(graph):
            key = (finding.kind, finding.block, finding.quote, finding.start)
            if finding.kind in kinds and key not in seen:
                seen.add(key)
                out.append(finding)
    return sorted(out, key=lambda f: f.order)


__all__ = ["DEFAULT_KINDS", "KINDS", "Finding", "check"]
