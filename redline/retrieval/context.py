"""What one clause depends on, for the review pipeline: parent heading, definitions, referenced sections.

The review model judges one clause at a time; without "Cause" as defined and
Section 8.2 as written it is guessing. This gathers exactly those, in order of
how directly the clause relies on them, within a size budget, and spends the
budget on text that says something:

- a term defined twice, once by a pointer ("has the meaning set forth in
  Section 7.1") and once where it is given its meaning, comes as the latter
  alone (:meth:`~.graph.ContractGraph.primary_sites`), not as the pointer
  plus the whole of Section 7.1;
- a referenced section too long for what is left of the budget comes as its
  beginning (heading, lead-in, first sentences, cut at a sentence end) rather
  than not at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .definitions import is_pointer

if TYPE_CHECKING:
    from .graph import ContractGraph

_UBIQUITOUS = 0.5  # a term used in more than half the sections ("Agreement") is context of last resort
_MAX_PARENT_CHARS = 600
_WHOLE_SECTION_CHARS = 3000
_MIN_PART_CHARS = 300
_SENTENCE_END_RE = re.compile(r"[.;:](?=\s|$)")  # a section's beginning shorter than this says too little to be worth its room


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

    For the clause itself, then for the rest of its section: definitions of
    the terms it uses (not those it defines itself), the most specific first
    (a term few sections use says more than one used everywhere), with the
    sections a definition itself points to ("has the meaning set forth in
    Section 4(a)"); the sections it cites, with their own text; then the
    definitions of terms used throughout the contract ("Agreement", a party's
    name, "including"), when there is room. Bounded by ``max_items`` and
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
    for blocks in ({block}, own - {block}):  # the clause itself, then the rest of its section
        candidates.extend(_definitions(graph, section.id, section.label, blocks, common=False))
        candidates.extend(_references(graph, section.label, blocks))
        candidates.extend(_definitions(graph, section.id, section.label, blocks, common=True))
    if len(parents) > 1:
        candidates.append(_parent(graph, section.label, parents[-1]))
    out: list[ContextItem] = []
    used = 0
    seen: set[str] = set()
    for item in candidates:
        if item.node in seen or len(out) >= max_items:
            continue
        fitted = item if used + len(item.text) <= max_chars else _beginning(graph, item, max_chars - used)
        if fitted is None:
            continue
        seen.add(fitted.node)
        out.append(fitted)
        used += len(fitted.text)
    return out


def _beginning(graph: ContractGraph, item: ContextItem, room: int) -> ContextItem | None:
    """A referenced section cut to ``room``: its first paragraphs, the last one up to a sentence end."""
    if item.kind != "reference" or room < _MIN_PART_CHARS:
        return None
    lines: list[str] = []
    anchors: list[str] = []
    left = room
    for anchor in item.anchors:
        block = graph.block_for(anchor)
        line = block.text if block is not None else ""
        if len(line) > left:
            cut = max((m.end() for m in _SENTENCE_END_RE.finditer(line[:left])), default=0)
            if cut:
                lines.append(line[:cut])
                anchors.append(anchor)
            break
        lines.append(line)
        anchors.append(anchor)
        left -= len(line) + 1
    text = "\n".join(lines)
    if len(text) < _MIN_PART_CHARS:
        return None
    return ContextItem(item.kind, item.node, item.label, tuple(anchors), text, item.path)


def _parent(graph: ContractGraph, label: str, parent: Any) -> ContextItem:
    blocks = graph.body_blocks(parent.id)
    text = "\n".join(b.text for b in blocks)
    if len(text) > _MAX_PARENT_CHARS and blocks:
        blocks = blocks[:1]
        text = blocks[0].text
    return ContextItem("parent", parent.id, parent.label, tuple(b.anchor for b in blocks), text,
                       (label, "PARENT_OF", parent.label))


def _definitions(graph: ContractGraph, sid: str, label: str, blocks: set[int], *, common: bool) -> list[ContextItem]:
    """The definitions of the terms used in ``blocks``: the specific ones, or (``common``) those used
    throughout the contract, which come after the sections the clause cites."""
    used: dict[str, int] = {}
    for u in graph.usages_in(blocks):
        if u.definition not in used and (graph.term_spread(u.definition) > _UBIQUITOUS) == common:
            used[u.definition] = u.start
    out: list[ContextItem] = []
    for did in sorted(used, key=lambda d: (graph.term_spread(d), used[d])):  # specific first, then by first use
        d = graph.definition_by_id(did)
        if any(site.block in blocks for site in d.sites):
            continue  # the clause defines it itself
        sites = graph.primary_sites(did)
        meant = [site for site in sites if not is_pointer(graph.text[site.start:site.end])]
        shown = meant or sites  # what the term means; where it only points elsewhere, the pointer and its target
        text = "\n".join(graph.text[site.start:site.end] for site in shown)
        anchors = tuple(dict.fromkeys(graph.blocks[site.block].anchor for site in shown))
        path = (label, "USES_TERM", f'"{d.term}"')
        out.append(ContextItem("definition", did, f'Definition of "{d.term}"', anchors, text, path))
        for r in graph.references_in({site.block for site in shown}):
            if r.target and r.target != sid and any(site.start <= r.start < site.end for site in shown):
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

