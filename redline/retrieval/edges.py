"""The typed edges of the contract graph and how they are derived from what was found.

Split from :mod:`redline.retrieval.graph` so the edge vocabulary (``PARENT_OF``,
``DEFINES``, ``USES_TERM``, ``REFERENCES``) can be read by the modules that walk
the graph (search, ranking) without importing the graph builder, and so the
graph module keeps to building and looking up.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from .blocks import Block
from .definitions import Definition, Usage
from .references import Reference
from .sections import Section

PARENT_OF = "PARENT_OF"
DEFINES = "DEFINES"
USES_TERM = "USES_TERM"
REFERENCES = "REFERENCES"


@dataclass(frozen=True, slots=True)
class Edge:
    """A typed edge; ``anchors`` are the paragraphs where the relation is written, ``count`` how often."""

    kind: str
    source: str
    target: str
    anchors: tuple[str, ...] = ()
    count: int = 1
    text: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"kind": self.kind, "source": self.source, "target": self.target, "anchors": list(self.anchors),
                "count": self.count, "text": self.text}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Edge:
        """Inverse of :meth:`to_dict`."""
        return cls(data["kind"], data["source"], data["target"], tuple(data["anchors"]), data["count"], data["text"])


def make_edges(blocks: list[Block], sections: list[Section], owner: list[str | None], definitions: list[Definition],
               usages: list[Usage], references: list[Reference]) -> list[Edge]:
    """The edges between sections and terms; ``owner`` gives each block's innermost section id."""
    edges: list[Edge] = []
    for s in sections:
        edges.extend(Edge(PARENT_OF, s.id, child) for child in s.children)
    for d in definitions:
        grouped: dict[str, list[str]] = defaultdict(list)
        for site in d.sites:
            grouped[owner[site.block] or ""].append(blocks[site.block].anchor)
        edges.extend(Edge(DEFINES, sid, d.id, tuple(anchors), len(anchors)) for sid, anchors in grouped.items() if sid)
    uses: dict[tuple[str, str], list[str]] = defaultdict(list)
    for u in usages:
        sid = owner[u.block]
        if sid:
            uses[(sid, u.definition)].append(blocks[u.block].anchor)
    edges.extend(Edge(USES_TERM, sid, did, tuple(dict.fromkeys(a)), len(a)) for (sid, did), a in uses.items())
    refs: dict[tuple[str, str], list[Reference]] = defaultdict(list)
    for r in references:
        if r.target and r.target != r.source:
            refs[(r.source, r.target)].append(r)
    for (sid, tid), rs in refs.items():
        anchors = tuple(dict.fromkeys(blocks[r.block].anchor for r in rs))
        edges.append(Edge(REFERENCES, sid, tid, anchors, len(rs), rs[0].text))
    return edges
