"""What one clause depends on, for the review pipeline: parent heading, definitions, referenced sections.

The review model judges one clause at a time; without "Cause" as defined and
Section 8.2 as written it is guessing. This gathers exactly those, in order of
how directly the clause relies on them, within a size budget.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .graph import ContractGraph

_UBIQUITOUS = 0.5  # a term used in more than half the sections ("Agreement") is context of last resort
_MAX_PARENT_CHARS = 600
_WHOLE_SECTION_CHARS = 3000


@dataclass(frozen=True, slots=True)
class ContextItem:
    """Something a clause depends on: a definition, a referenced section or its parent heading.

    ``path`` says why it is there, e.g. ``("Section 9.1", "REFERENCES", "Section 8.2")``.
    """

    kind: str  # "parent" | "definition" | "reference"
    node: str
    label: str
    anchors: tuple[str, ...]
    text: str
    path: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"kind": self.kind, "node": self.node, "label": self.label, "anchors": list(self.anchors),
                "text": self.text, "path": list(self.path)}


def clause_context(graph: ContractGraph, anchor: str, *, max_items: int = 12, max_chars: int = 8000) -> list[ContextItem]:
    """Everything the clause at ``anchor`` depends on: parent headings, definitions, referenced sections.

    Definitions come for the terms the clause uses (not those it defines
    itself) in order of first use, with the sections a definition itself
    points to ("has the meaning set forth in Section 4(a)"); referenced
    sections come with their own text. Bounded by ``max_items`` and
    ``max_chars`` so it can go straight into a prompt.
    """
    section = graph.section_of(anchor)
    found = graph.block_for(anchor)
    if section is None or found is None:
        return []
    block = found.index
    own = set(graph.block_range(section.id))
    candidates: list[ContextItem] = []
    parents = graph.ancestors(section.id)
    if parents:
        candidates.append(_parent(graph, section.label, parents[0]))
    for blocks in ({block}, own - {block}):
        candidates.extend(_definitions(graph, section.id, section.label, blocks))
        candidates.extend(_references(graph, section.label, blocks))
    if len(parents) > 1:
        candidates.append(_parent(graph, section.label, parents[-1]))
    out: list[ContextItem] = []
    used = 0
    seen: set[str] = set()
    for item in candidates:
        if item.node in seen or len(out) >= max_items or used + len(item.text) > max_chars:
            continue
        seen.add(item.node)
        out.append(item)
        used += len(item.text)
    return out


def _parent(graph: ContractGraph, label: str, parent: Any) -> ContextItem:
    blocks = graph.body_blocks(parent.id)
    text = "\n".join(b.text for b in blocks)
    if len(text) > _MAX_PARENT_CHARS and blocks:
        blocks = blocks[:1]
        text = blocks[0].text
    return ContextItem("parent", parent.id, parent.label, tuple(b.anchor for b in blocks), text,
                       (label, "PARENT_OF", parent.label))


def _definitions(graph: ContractGraph, sid: str, label: str, blocks: set[int]) -> list[ContextItem]:
    used: dict[str, int] = {}
    for u in graph.usages_in(blocks):
        if u.definition not in used:
            used[u.definition] = u.start
    out: list[ContextItem] = []
    for did in sorted(used, key=lambda d: (graph.term_spread(d) > _UBIQUITOUS, used[d])):
        d = graph.definition_by_id(did)
        if any(site.block in blocks for site in d.sites):
            continue  # the clause defines it itself
        text, anchors = graph.definition_text(did)
        path = (label, "USES_TERM", f'"{d.term}"')
        out.append(ContextItem("definition", did, f'Definition of "{d.term}"', anchors, text, path))
        for r in graph.references_in({site.block for site in d.sites}):
            if r.target and r.target != sid and r.start < max(s.end for s in d.sites):
                target = graph.section(r.target)
                anchors, text = _section_payload(graph, target.id)
                out.append(ContextItem("reference", target.id, target.label, anchors, text,
                                       (*path, "REFERENCES", target.label)))
    return out


def _references(graph: ContractGraph, label: str, blocks: set[int]) -> list[ContextItem]:
    out = []
    for r in graph.references_in(blocks):
        if r.target and r.status in ("resolved", "partial"):
            target = graph.section(r.target)
            anchors, text = _section_payload(graph, target.id)
            out.append(ContextItem("reference", target.id, target.label, anchors, text,
                                   (label, "REFERENCES", target.label)))
    return out


def _section_payload(graph: ContractGraph, sid: str) -> tuple[tuple[str, ...], str]:
    """A referenced section with its subsections when short ("2.2" with its (a)–(c)), else its own text."""
    whole = graph.section_text(sid, own=False)
    if len(whole) <= _WHOLE_SECTION_CHARS:
        return graph.anchors(sid, own=False), whole
    return graph.anchors(sid), graph.section_text(sid)

