"""Hybrid retrieval over the contract graph: BM25 + embeddings, then the graph.

1. **Metadata injection**: sections the question names ("Section 8.2",
   "Article IV", "Exhibit B", a heading's title, the table of contents) and
   defined terms it names become anchors directly; a lawyer who names a
   section wants that section.
2. **Hybrid ranking**: BM25 and embedding similarity over passages (a section
   whole when it fits the unit size, else in pieces, and every definition on
   its own), each normalised over the contract and combined with weights.
3. **Graph expansion**: from the anchors, up to three hops along
   ``REFERENCES`` (both ways), ``USES_TERM`` (to the definitions a clause
   relies on, and from a named term to the clauses that use it),
   ``PARENT_OF`` (a clause's heading, a named section's subsections), with a
   weight per edge and a decay per hop.
4. **Selection** (:mod:`.selection`): reserved slots for graph-found
   passages, a count limit, a character budget, and optionally growth of each
   passage into the whole unit it belongs to (:mod:`.passages`).

Every hit carries ``why``: the path that brought it in.
"""

from __future__ import annotations

import bisect
import heapq
import re

from .blocks import Block
from .bm25 import BM25
from .edges import PARENT_OF, REFERENCES, USES_TERM
from .embeddings import Embedder, HashingEmbedder, cosine
from .graph import ContractGraph
from .layout import Role
from .passages import CONTENTS, CONTENTS_HEADING, UNIT_CHARS, Hit, Passage, build_passages
from .references import extract
from .selection import Ranked, select

LEXICAL_WEIGHT = 0.6
_RETRIEVAL_SEEDS = 8
_DECAY = 0.7
_FAN_OUT = 8
_UBIQUITOUS = 0.4
_CONTENTS_RE = re.compile(r"\btable of contents\b", re.IGNORECASE)
# Per-edge weights: how much of a node's relevance flows to its neighbour.
WEIGHTS = {
    "references": 0.75,  # a clause → the section it cites
    "referenced_by": 0.55,  # a section → the clauses that cite it
    "uses_term": 0.7,  # a clause → the definitions it relies on
    "used_by": 0.6,  # a named term → the clauses that use it
    "parent": 0.35,  # a clause → its heading / lead-in
    "child": 0.6,  # a named section → its subsections
}


class SearchIndex:
    """Passages of one contract graph, indexed lexically and semantically.

    Build once per document version (embedding is the costly part) and query
    many times.
    """

    def __init__(self, graph: ContractGraph, embedder: Embedder | None = None, *,
                 unit_chars: int = UNIT_CHARS) -> None:
        self.graph = graph
        self.embedder = embedder or HashingEmbedder()
        self._block_ends = [b.end for b in graph.blocks]
        self.passages = build_passages(graph, unit_chars)
        texts = [f"{p.heading}\n{self.passage_text(p)}" for p in self.passages]
        self.bm25 = BM25(texts)
        self.vectors = self.embedder.embed(texts)
        self.by_node: dict[str, list[int]] = {}
        for p in self.passages:
            for node in p.nodes:
                self.by_node.setdefault(node, []).append(p.id)
        self._cited_by_definition = _cited_by_definitions(graph)
        self._order = {s.id: n for n, s in enumerate(graph.sections)}

    def passage_text(self, p: Passage) -> str:
        """The passage's text: its paragraphs, without page furniture between them."""
        if p.kind == "definition":
            return self.graph.text[p.start:p.end]
        return self.span_text(p.start, p.end)

    def span_text(self, start: int, end: int) -> str:
        """The text of the paragraphs in a span, without page furniture between them."""
        return "\n".join(self.graph.text[max(b.start, start):min(b.end, end)] for b in self._body_in(start, end))

    def span_anchors(self, start: int, end: int) -> tuple[str, ...]:
        """The anchors of the paragraphs in a span (page furniture left out)."""
        return tuple(b.anchor for b in self._body_in(start, end))

    def _body_in(self, start: int, end: int) -> list[Block]:
        g = self.graph
        out = []
        for b in g.blocks[bisect.bisect_right(self._block_ends, start):]:
            if b.start >= end:
                break
            if g.roles[b.index] is not Role.FURNITURE:
                out.append(b)
        return out

    # -- the query ------------------------------------------------------------------------
    def search(self, query: str, *, k: int = 15, max_chars: int | None = None, max_hops: int = 3,
               grow: bool = False) -> list[Hit]:
        """The ``k`` best passages for ``query`` (fewer when ``max_chars`` runs out), best first.

        ``grow`` widens each passage to the whole clause, section, … it
        belongs to while ``max_chars`` allows (without a budget: to its
        top-level section), for callers that want whole units of text.
        """
        fused = self._fused(query)
        scores: dict[str, float] = {}
        paths: dict[str, tuple[str, ...]] = {}
        seeds = self._seeds(query, fused)
        for node, score, why in seeds:
            if score > scores.get(node, 0.0):
                scores[node], paths[node] = score, why
        named = {node for node, score, _ in seeds if score >= 1.0}
        graph_scores, graph_paths = self._expand(scores, paths, max_hops)
        ranked = self._rank(fused, scores, named, graph_scores, graph_paths)
        return select(ranked, self.passages, k, max_chars, grow=grow, reader=self)

    def label(self, node: str) -> str:
        """How a section (or the table of contents) is named."""
        return CONTENTS_HEADING if node == CONTENTS else self.graph.section(node).label

    def snap(self, pos: int) -> int:
        """The end of the last paragraph that ends at or before ``pos``."""
        i = bisect.bisect_right(self._block_ends, pos)
        return self._block_ends[i - 1] if i else 0

    def _fused(self, query: str) -> dict[int, float]:
        """BM25 and embedding similarity, each scaled to [0, 1] over this contract, then weighted.

        Similarities are scaled from the median passage up, so a passage only
        scores for being closer to the question than a typical passage is.
        """
        lexical = self.bm25.scores(query)
        qv = self.embedder.embed([query])[0]
        semantic = [cosine(qv, v) for v in self.vectors]
        top_lex = max(lexical, default=0.0)
        floor = sorted(semantic)[len(semantic) // 2] if semantic else 0.0
        span = max(semantic, default=0.0) - floor
        fused: dict[int, float] = {}
        for i, (lex, sem) in enumerate(zip(lexical, semantic, strict=True)):
            score = LEXICAL_WEIGHT * (lex / top_lex if top_lex else 0.0)
            score += (1 - LEXICAL_WEIGHT) * (max(0.0, sem - floor) / span if span > 0 else 0.0)
            if score > 0:
                fused[i] = score
        return fused

    def _seeds(self, query: str, fused: dict[int, float]) -> list[tuple[str, float, tuple[str, ...]]]:
        g = self.graph
        seeds: list[tuple[str, float, tuple[str, ...]]] = []
        for sid in self._named_sections(query):
            seeds.append((sid, 1.0, (f"named in the question: {g.section(sid).label}",)))
        for did in self._named_terms(query):
            term = g.definition_by_id(did).term
            seeds.append((did, 1.0, (f'term named in the question: "{term}"',)))
        if CONTENTS in self.by_node and _CONTENTS_RE.search(query):
            seeds.append((CONTENTS, 1.0, ("named in the question: Table of contents",)))
        best = heapq.nlargest(_RETRIEVAL_SEEDS, fused.items(), key=lambda kv: kv[1])
        for pid, score in best:
            p = self.passages[pid]
            seeds.append((p.node, 0.8 * score, (f"matches the question: {p.heading}",)))
        return seeds

    def _named_sections(self, query: str) -> list[str]:
        """Sections the question names by number ("Section 8.2", "Exhibit B") or by title."""
        g = self.graph
        out: list[str] = []
        for raw in extract(query):
            sid = g.resolve_raw(raw)
            if sid and sid not in out:
                out.append(sid)
        lowered = " ".join(query.lower().split())
        for s in g.sections:
            names = {" ".join((s.title or "").lower().split()), *(k for k in s.keys if not k[:1].isdigit())}
            if s.id not in out and any(len(name) >= 6 and re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", lowered)
                                       for name in names):
                out.append(s.id)
        return out

    def _named_terms(self, query: str) -> list[str]:
        """Defined terms the question names: quoted ones first, then capitalised uses."""
        g = self.graph
        out: list[str] = []
        for quoted in re.findall(r"[\"“]([^\"”]{1,80})[\"”]", query):
            d = g.definition(quoted)
            if d and d.id not in out:
                out.append(d.id)
        for d in g.definitions:
            if d.id in out or len(d.term) < 3 or d.term.lower() == d.term:
                continue
            if re.search(rf"(?<![\w-]){re.escape(d.term)}(?:s|es)?(?![\w-])", query):
                out.append(d.id)
        return out

    def _expand(self, scores: dict[str, float], paths: dict[str, tuple[str, ...]],
                max_hops: int) -> tuple[dict[str, float], dict[str, tuple[str, ...]]]:
        """Spread relevance from the seeds along the graph's edges (best path wins)."""
        best = dict(scores)
        why = dict(paths)
        frontier = list(scores)
        for hop in range(max_hops):
            decay = _DECAY ** hop
            nxt: list[str] = []
            for node in frontier:
                for target, weight, step in self._neighbours(node):
                    score = best[node] * weight * decay
                    if score > best.get(target, 0.0) + 1e-9:
                        best[target] = score
                        why[target] = (*why[node], *step)
                        nxt.append(target)
            frontier = nxt
        return best, why

    def _neighbours(self, node: str) -> list[tuple[str, float, tuple[str, ...]]]:
        g = self.graph
        out: list[tuple[str, float, tuple[str, ...]]] = []
        if node == CONTENTS:
            return out
        if node.startswith("d"):
            for target in self._cited_by_definition.get(node, ()):
                out.append((target, WEIGHTS["references"], ("REFERENCES", g.section(target).label)))
            users = g.edges_to(node, USES_TERM)
            users = sorted(users, key=lambda e: (-e.count, self._order[e.source]))[:_FAN_OUT]
            top = max((e.count for e in users), default=1)
            for e in users:
                weight = WEIGHTS["used_by"] * (0.6 + 0.4 * e.count / top)
                out.append((e.source, weight, ("USED_BY", g.section(e.source).label)))
            return out
        label = g.section(node).label
        for e in g.edges_from(node, REFERENCES):
            out.append((e.target, WEIGHTS["references"], (label, "REFERENCES", g.section(e.target).label)))
        for e in g.edges_to(node, REFERENCES)[:_FAN_OUT]:
            out.append((e.source, WEIGHTS["referenced_by"], ("REFERENCED_BY", g.section(e.source).label)))
        for e in g.edges_from(node, USES_TERM):
            spread = g.term_spread(e.target)
            if spread <= _UBIQUITOUS:
                term = g.definition_by_id(e.target).term
                out.append((e.target, WEIGHTS["uses_term"] * (1 - spread), (label, "USES_TERM", f'"{term}"')))
        section = g.section(node)
        if section.parent:
            out.append((section.parent, WEIGHTS["parent"], (label, "CHILD_OF", g.section(section.parent).label)))
        for e in g.edges_from(node, PARENT_OF):
            out.append((e.target, WEIGHTS["child"], (label, "PARENT_OF", g.section(e.target).label)))
        return out

    def _rank(self, fused: dict[int, float], seeds: dict[str, float], named: set[str],
              graph_scores: dict[str, float], graph_paths: dict[str, tuple[str, ...]]) -> list[Ranked]:
        """Passages scored by the better of their own match and their node's graph score; the first
        passage of each node the question names is marked as such."""
        ranked: list[Ranked] = []
        for p in self.passages:
            own = 0.8 * fused.get(p.id, 0.0)
            via_graph, node = 0.0, p.node
            for n in p.nodes:
                score = graph_scores.get(n, 0.0) * (0.85 ** self.by_node[n].index(p.id))
                if score > via_graph:
                    via_graph, node = score, n
            score = max(own, via_graph) + 0.2 * min(own, via_graph)
            if score <= 0:
                continue
            from_graph = via_graph > own and node not in seeds
            why = graph_paths.get(node, ()) if via_graph >= own else (f"matches the question: {p.heading}",)
            first_of_named = any(n in named and self.by_node[n][0] == p.id for n in p.nodes)
            ranked.append(Ranked(score, p.id, why, from_graph, first_of_named))
        ranked.sort(key=lambda r: -r.score)
        return ranked


def _cited_by_definitions(graph: ContractGraph) -> dict[str, list[str]]:
    """Sections a definition's own text cites ("has the meaning given in Section 3.3")."""
    out: dict[str, list[str]] = {}
    for d in graph.definitions:
        for site in d.sites:
            for r in graph.references:
                if r.target and site.start <= r.start < site.end and r.target not in out.get(d.id, []):
                    out.setdefault(d.id, []).append(r.target)
    return out

