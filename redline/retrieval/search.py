"""Hybrid retrieval over the contract graph: BM25 + embeddings, then the graph.

1. **Metadata injection**: sections the question names ("Section 8.2",
   "Article IV", "Exhibit B", a heading's title, the table of contents) and
   defined terms it names become anchors directly (:mod:`.naming`); a
   lawyer who names a section wants that section.
2. **Hybrid ranking**: BM25 and embedding similarity over passages (a section
   whole when it fits the unit size, else in pieces, and every definition on
   its own), each normalised over the contract and combined with weights.
3. **Graph expansion**: from the anchors, up to three hops along
   ``REFERENCES`` (both ways), ``USES_TERM`` (to the definitions a clause
   relies on, and from a named term to the clauses that use it),
   ``PARENT_OF`` (a clause's heading, a named section's subsections), with a
   weight per edge and a decay per hop. A section reached along an edge is
   represented by the passage where that edge is written (the clause that
   uses the term, the sentence that cites the section), not by its first
   passage: a long section is relevant for what it says there. A term
   leads to the clauses that use it most and to the first ones in reading
   order (where it starts to operate).
4. **Selection** (:mod:`.selection`): the named passages first, then where
   they are linked (a named term's uses, the clauses citing a named section,
   the sections it cites), then the rest; reserved slots for graph-found
   passages, a count limit, a character budget, and optionally growth of each
   passage into the whole unit it belongs to (:mod:`.passages`).

Every hit carries ``why``: the path that brought it in.
"""

from __future__ import annotations

import heapq
import re

from .bm25 import BM25
from .edges import PARENT_OF, REFERENCES, USES_TERM
from .embeddings import Embedder, HashingEmbedder, cosine
from .graph import ContractGraph
from .naming import named_in
from .passages import CONTENTS, CONTENTS_HEADING, UNIT_CHARS, Hit, Passage, build_passages
from .selection import Ranked, select
from .spans import DocumentSpans

LEXICAL_WEIGHT = 0.6
_RETRIEVAL_SEEDS = 8
_DECAY = 0.7
_FAN_OUT = 8
_UBIQUITOUS = 0.4
_CONTENTS_RE = re.compile(r"\btable of contents\b", re.IGNORECASE)
_LINKS = frozenset(["USED_BY", "REFERENCED_BY", "REFERENCES"])  # the steps that say how named nodes are linked
Neighbour = tuple[str, float, tuple[str, ...], tuple[int, ...]]  # target, weight, path step, where it is written
# Per-edge weights: how much of a node's relevance flows to its neighbour.
WEIGHTS = {
    "references": 0.75,  # a clause → the section it cites
    "referenced_by": 0.55,  # a section → the clauses that cite it
    "uses_term": 0.7,  # a clause → the definitions it relies on
    "used_by": 0.6,  # a named term → the clauses that use it
    "parent": 0.35,  # a clause → its heading / lead-in
    "child": 0.6,  # a named section → its subsections
}


class SearchIndex(DocumentSpans):
    """Passages of one contract graph, indexed lexically and semantically.

    Build once per document version (embedding is the costly part) and query
    many times.
    """

    def __init__(self, graph: ContractGraph, embedder: Embedder | None = None, *,
                 unit_chars: int = UNIT_CHARS) -> None:
        super().__init__(graph)
        self.embedder = embedder or HashingEmbedder()
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
        self._written_at: dict[tuple[str, str], tuple[int, ...]] = {}

    def passage_text(self, p: Passage) -> str:
        """The passage's text: its paragraphs, without page furniture between them."""
        if p.kind == "definition":
            return self.graph.text[p.start:p.end]
        return self.span_text(p.start, p.end)

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
        linked = {t for n in named for t, _, step, _ in self._neighbours(n) if _LINKS & set(step)} - named
        graph_scores, graph_paths, written = self._expand(scores, paths, max_hops)
        ranked = self._rank(fused, scores, named, linked, graph_scores, graph_paths, written)
        return select(ranked, self.passages, k, max_chars, grow=grow, reader=self)

    def label(self, node: str) -> str:
        """How a section (or the table of contents) is named."""
        return CONTENTS_HEADING if node == CONTENTS else self.graph.section(node).label

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
        named = named_in(g, query)
        for sid in named.sections:
            seeds.append((sid, 1.0, (f"named in the question: {g.section(sid).label}",)))
        for did in named.terms:
            term = g.definition_by_id(did).term
            seeds.append((did, 1.0, (f'term named in the question: "{term}"',)))
        if CONTENTS in self.by_node and _CONTENTS_RE.search(query):
            seeds.append((CONTENTS, 1.0, ("named in the question: Table of contents",)))
        best = heapq.nlargest(_RETRIEVAL_SEEDS, fused.items(), key=lambda kv: kv[1])
        for pid, score in best:
            p = self.passages[pid]
            seeds.append((p.node, 0.8 * score, (f"matches the question: {p.heading}",)))
        return seeds

    def _expand(self, scores: dict[str, float], paths: dict[str, tuple[str, ...]], max_hops: int
                ) -> tuple[dict[str, float], dict[str, tuple[str, ...]], dict[str, tuple[int, ...]]]:
        """Spread relevance from the seeds along the graph's edges (best path wins); for each node
        reached, also where the edge of its best path is written in it."""
        best = dict(scores)
        why = dict(paths)
        written: dict[str, tuple[int, ...]] = {}
        frontier = list(scores)
        for hop in range(max_hops):
            decay = _DECAY ** hop
            nxt: list[str] = []
            for node in frontier:
                for target, weight, step, at in self._neighbours(node):
                    score = best[node] * weight * decay
                    if score > best.get(target, 0.0) + 1e-9:
                        best[target] = score
                        why[target] = (*why[node], *step)
                        written[target] = at
                        nxt.append(target)
            frontier = nxt
        return best, why, written

    def _neighbours(self, node: str) -> list[Neighbour]:
        g = self.graph
        out: list[Neighbour] = []
        if node == CONTENTS:
            return out
        if node.startswith("d"):
            for target in self._cited_by_definition.get(node, ()):
                out.append((target, WEIGHTS["references"], ("REFERENCES", g.section(target).label), ()))
            # the clauses that use the term most, and the first ones in reading order (where it starts to
            # operate), weighted by how often they use it
            users = g.edges_to(node, USES_TERM)
            first = sorted(users, key=lambda e: self._order[e.source])[:_FAN_OUT]
            most = sorted(users, key=lambda e: (-e.count, self._order[e.source]))[:_FAN_OUT]
            top = max((e.count for e in users), default=1)
            for e in dict.fromkeys(first + most):
                weight = WEIGHTS["used_by"] * (0.6 + 0.4 * e.count / top)
                out.append((e.source, weight, ("USED_BY", g.section(e.source).label), self._written(e.source, node)))
            return out
        label = g.section(node).label
        for e in g.edges_from(node, REFERENCES):
            out.append((e.target, WEIGHTS["references"], (label, "REFERENCES", g.section(e.target).label), ()))
        for e in g.edges_to(node, REFERENCES)[:_FAN_OUT]:
            out.append((e.source, WEIGHTS["referenced_by"], ("REFERENCED_BY", g.section(e.source).label),
                        self._written(e.source, node)))
        for e in g.edges_from(node, USES_TERM):
            spread = g.term_spread(e.target)
            if spread <= _UBIQUITOUS:
                term = g.definition_by_id(e.target).term
                out.append((e.target, WEIGHTS["uses_term"] * (1 - spread), (label, "USES_TERM", f'"{term}"'), ()))
        section = g.section(node)
        if section.parent:
            out.append((section.parent, WEIGHTS["parent"], (label, "CHILD_OF", g.section(section.parent).label), ()))
        for e in g.edges_from(node, PARENT_OF):
            out.append((e.target, WEIGHTS["child"], (label, "PARENT_OF", g.section(e.target).label), ()))
        return out

    def _written(self, source: str, target: str) -> tuple[int, ...]:
        """Where in section ``source`` the link to ``target`` (a term it uses, a section it cites) is written."""
        key = (source, target)
        if key not in self._written_at:
            g = self.graph
            blocks = g.block_range(source)
            if target.startswith("d"):
                at = tuple(u.start for u in g.usages_in(blocks) if u.definition == target)
            else:
                at = tuple(r.start for r in g.references_in(blocks) if r.target == target)
            self._written_at[key] = at
        return self._written_at[key]

    def _position(self, node: str, p: Passage, at: tuple[int, ...]) -> int:
        """How far down its node a passage is: 0 for the one where the edge that brought the node in is
        written (the clause that uses the term or cites the section), else its order in the node."""
        order = self.by_node[node]
        if at:
            holding = [i for i, pid in enumerate(order)
                       if any(self.passages[pid].start <= x < self.passages[pid].end for x in at)]
            if holding:
                return 0 if order.index(p.id) == holding[0] else 1 + order.index(p.id)
        return order.index(p.id)

    def _rank(self, fused: dict[int, float], seeds: dict[str, float], named: set[str], linked: set[str],
              graph_scores: dict[str, float], graph_paths: dict[str, tuple[str, ...]],
              written: dict[str, tuple[int, ...]]) -> list[Ranked]:
        """Passages scored by the better of their own match and their node's graph score; the first
        passage of each node the question names is marked as such, and so is the passage where a
        node one link away from them (``linked``) is linked."""
        ranked: list[Ranked] = []
        for p in self.passages:
            own = 0.8 * fused.get(p.id, 0.0)
            via_graph, node = 0.0, p.node
            for n in p.nodes:
                score = graph_scores.get(n, 0.0) * (0.85 ** self._position(n, p, written.get(n, ())))
                if score > via_graph:
                    via_graph, node = score, n
            score = max(own, via_graph) + 0.2 * min(own, via_graph)
            if score <= 0:
                continue
            from_graph = via_graph > own and node not in seeds
            why = graph_paths.get(node, ()) if via_graph >= own else (f"matches the question: {p.heading}",)
            first_of_named = any(n in named and self.by_node[n][0] == p.id for n in p.nodes)
            link = via_graph >= own and node in linked and self._position(node, p, written.get(node, ())) == 0
            ranked.append(Ranked(score, p.id, why, from_graph, first_of_named, link))
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

