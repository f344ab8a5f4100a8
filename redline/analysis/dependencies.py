"""What a clause depends on elsewhere in the contract, for the prompt, the cache and warnings.

A clause cannot be judged alone: "Cause" is defined in Section 1, "subject to
Section 8.2" imports another clause, and a lettered item completes its
parent's lead-in. The contract graph (:mod:`redline.retrieval`) knows all of
that; this module is the narrow seam the review pipeline sees it through:

- :func:`related_items` turns a clause's dependencies into bounded prompt
  context (and, through the pipeline, into its cache key, so editing a
  definition re-asks exactly the clauses that use it);
- :func:`clause_graph` builds the graph from :class:`Clause` values, for
  callers that have the add-in's paragraphs rather than a .docx.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from redline.retrieval.context import clause_context
from redline.retrieval.graph import ContractGraph

from .clauses import Clause
from .providers.base import Related

# Per clause: a few definitions and cited sections (~1,000 tokens), so a batch
# of paragraphs with their context still fits a provider's request budget.
MAX_ITEMS = 8
MAX_CHARS = 4000


def related_items(graph: ContractGraph, anchor: str, heading_path: str) -> tuple[Related, ...]:
    """The clause's dependencies as provider context, bounded by :data:`MAX_ITEMS` and :data:`MAX_CHARS`.

    A parent whose text is only its heading is left out: the heading path
    (``heading_path``) already shows it.
    """
    out = []
    for item in clause_context(graph, anchor, max_items=MAX_ITEMS, max_chars=MAX_CHARS):
        if item.kind == "parent" and " ".join(item.text.split()) in " ".join(heading_path.split()):
            continue
        out.append(Related(item.kind, item.node, item.label, item.text))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class _Paragraph:
    """A :class:`Clause` in the shape :meth:`ContractGraph.from_paragraphs` reads."""

    index: int
    anchor: str
    text: str
    style_name: str | None
    heading_level: int | None
    list_label: str | None
    table: object | None

    @property
    def is_empty(self) -> bool:
        return not self.text.strip()


def clause_graph(clauses: Sequence[Clause]) -> ContractGraph:
    """The contract graph of clauses (e.g. the add-in's paragraphs), anchored like them."""
    return ContractGraph.from_paragraphs(
        _Paragraph(i, c.anchor, c.text, c.style, c.heading_level, c.list_label, True if c.in_table else None)
        for i, c in enumerate(clauses)
    )
