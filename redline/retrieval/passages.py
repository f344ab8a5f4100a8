"""Retrievable passages, and the larger units each one can grow into.

Ranking works best on small passages (a clause, a definition): a match is
not diluted by the rest of an article. An answer reads best in whole units: a
clause with its sub-clauses, a section with its heading. So every passage is
indexed small and carries its *ladder*: the spans of the enclosing units,
innermost first (the paragraph a definition sits in, its section, the
section's parent … up to the top-level section). Selection climbs the ladder
while the character budget allows (:mod:`.selection`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .definitions import is_pointer
from .layout import Role

if TYPE_CHECKING:
    from .blocks import Block
    from .graph import ContractGraph

MAX_PASSAGE_CHARS = 1200
MIN_PIECE_CHARS = 200
UNIT_CHARS = 1500
CONTENTS = "contents"  # the node of the table of contents (not a section of the outline)
CONTENTS_HEADING = "Table of contents"

Span = tuple[int, int, str]  # start, end, node


@dataclass(frozen=True, slots=True)
class Passage:
    """A retrievable span: part of a section's own text, a definition, or the table of contents.

    ``nodes`` are every node whose text the passage holds (a section with its
    subsections); ``ladder`` the spans it can grow into, innermost first.
    """

    id: int
    kind: str  # "section" | "definition" | "contents"
    node: str
    nodes: tuple[str, ...]
    start: int
    end: int
    anchors: tuple[str, ...]
    heading: str
    ladder: tuple[Span, ...] = ()


@dataclass(frozen=True, slots=True)
class Hit:
    """A ranked passage with its text (verbatim from the document) and why it was returned."""

    passage: Passage
    text: str
    score: float
    why: tuple[str, ...]

    @property
    def start(self) -> int:
        """Start offset in the document text."""
        return self.passage.start

    @property
    def end(self) -> int:
        """End offset in the document text."""
        return self.passage.end

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"kind": self.passage.kind, "node": self.passage.node, "heading": self.passage.heading,
                "anchors": list(self.passage.anchors), "start": self.start, "end": self.end,
                "text": self.text, "score": round(self.score, 4), "why": list(self.why)}


def heading_of(graph: ContractGraph, sid: str) -> str:
    """"Article II SUPPLY > Section 2.2 Quality": the path a reader needs to place a passage."""
    return " > ".join(a.label for a in reversed(graph.ancestors(sid, include_self=True)))


def section_span(graph: ContractGraph, sid: str, *, own: bool = False) -> Span | None:
    """The span of a section (whole subtree, or ``own`` text only), furniture at its edges left out."""
    blocks = graph.body_blocks(sid, own=own)
    return (blocks[0].start, blocks[-1].end, sid) if blocks else None


def build_passages(graph: ContractGraph, unit_chars: int) -> list[Passage]:
    """Each section whole (with its subsections) when it fits ``unit_chars``, else its own text in
    pieces and its subsections on their own; every definition; the table of contents."""
    out: list[Passage] = []
    ladders: dict[str, tuple[Span, ...]] = {}

    def ladder(sid: str) -> tuple[Span, ...]:
        """The whole spans of ``sid`` and of each of its ancestors, innermost first."""
        if sid not in ladders:
            own = section_span(graph, sid)
            parent = graph.section(sid).parent
            ladders[sid] = ((own,) if own else ()) + (ladder(parent) if parent else ())
        return ladders[sid]

    def add(kind: str, nodes: tuple[str, ...], start: int, end: int, anchors: tuple[str, ...], heading: str,
            steps: tuple[Span, ...]) -> None:
        steps = tuple(s for s in steps if s[0] <= start and end <= s[1] and (s[0], s[1]) != (start, end))
        out.append(Passage(len(out), kind, nodes[0], nodes, start, end, anchors, heading, _monotonic(steps)))

    def unit(sid: str) -> None:
        s = graph.section(sid)
        heading = heading_of(graph, sid)
        whole = graph.body_blocks(sid, own=False)
        if whole and whole[-1].end - whole[0].start <= unit_chars:
            add("section", _subtree(graph, sid), whole[0].start, whole[-1].end, tuple(b.anchor for b in whole), heading, ladder(sid))
            return
        own = section_span(graph, sid, own=True)
        for start, end, anchors in chunks(graph.body_blocks(sid)):
            add("section", (sid,), start, end, anchors, heading, ((own,) if own else ()) + ladder(sid))
        for child in s.children:
            unit(child)

    for s in graph.sections:
        if s.parent is None:
            unit(s.id)
    for d in graph.definitions:
        for site in graph.primary_sites(d.id):  # what the term means before where it only points elsewhere
            block = graph.blocks[site.block]
            end = min(site.end, site.start + 2 * MAX_PASSAGE_CHARS)
            owner = graph.owner[site.block]
            steps = ((block.start, block.end, owner), *ladder(owner)) if owner else ()
            if is_pointer(graph.text[site.start:site.end]):
                steps = steps[:1]  # "has the meaning set forth in …": its sentence, not the glossary around it
            add("definition", (d.id,), site.start, end, (block.anchor,), f'Definition of "{d.term}"', steps)
    contents = [b for b in graph.blocks if graph.roles[b.index] is Role.CONTENTS]
    whole = ((contents[0].start, contents[-1].end, CONTENTS),) if contents else ()
    for start, end, anchors in chunks(contents):
        add("contents", (CONTENTS,), start, end, anchors, CONTENTS_HEADING, whole)
    return out


def _subtree(graph: ContractGraph, sid: str) -> tuple[str, ...]:
    """The section and all its descendants, in document order."""
    out = [sid]
    for child in graph.section(sid).children:
        out.extend(_subtree(graph, child))
    return tuple(out)


def _monotonic(steps: tuple[Span, ...]) -> tuple[Span, ...]:
    """Each step strictly larger than the one before (a section whose only child fills it adds nothing)."""
    out: list[Span] = []
    for step in steps:
        if not out or (step[1] - step[0]) > (out[-1][1] - out[-1][0]):
            out.append(step)
    return tuple(out)


def chunks(blocks: list[Block]) -> list[tuple[int, int, tuple[str, ...]]]:
    """Consecutive blocks grouped up to the passage size; a longer block is cut at sentence ends."""
    out: list[tuple[int, int, tuple[str, ...]]] = []
    group: list[Block] = []

    def flush() -> None:
        if group:
            out.append((group[0].start, group[-1].end, tuple(b.anchor for b in group)))
            group.clear()

    for b in blocks:
        if b.end - b.start > MAX_PASSAGE_CHARS:
            flush()
            out.extend((s, e, (b.anchor,)) for s, e in _sentence_pieces(b))
            continue
        if group and b.end - group[0].start > MAX_PASSAGE_CHARS:
            flush()
        group.append(b)
    flush()
    return out


def _sentence_pieces(block: Block) -> list[tuple[int, int]]:
    """A long paragraph cut at sentence ends into pieces of at most :data:`MAX_PASSAGE_CHARS` where
    sentences allow, none shorter than :data:`MIN_PIECE_CHARS`: a heading sentence or a page number
    run into the paragraph ("… 34") is no passage of its own."""
    cuts = [m.end() for m in re.finditer(r"[.;:](?=\s+\S)", block.text)]
    pieces: list[tuple[int, int]] = []
    start = 0
    last = 0
    for cut in [*cuts, len(block.text)]:
        if cut - start > MAX_PASSAGE_CHARS and last - start >= MIN_PIECE_CHARS:
            pieces.append((start, last))
            start = last
            while start < len(block.text) and block.text[start].isspace():
                start += 1
        last = cut
    if pieces and len(block.text) - start < MIN_PIECE_CHARS:
        start = pieces.pop()[0]
    pieces.append((start, len(block.text)))
    return [(block.start + s, block.start + e) for s, e in pieces if e > s]
