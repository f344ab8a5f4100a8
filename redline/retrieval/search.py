"""Hybrid retrieval over the contract graph: BM25 + embeddings, then the graph.

1. **Metadata injection**: sections the question names ("Section 8.2",
   "Article IV", "Exhibit B", a heading's title) and defined terms it names
   become anchors directly; a lawyer who names a section wants that section.
2. **Hybrid ranking**: BM25 and embedding similarity over passages (a section
   whole when it fits the unit size, else in pieces, and every definition on
   its own), each normalised over the contract and combined with weights.
3. **Graph expansion**: from the anchors, up to three hops along
   ``REFERENCES`` (both ways), ``USES_TERM`` (to the definitions a clause
   relies on, and from a named term to the clauses that use it),
   ``PARENT_OF`` (a clause's heading, a named section's subsections), with a
   weight per edge and a decay per hop.
4. **Reserved slots**: a share of the results is kept for graph-found
   passages so lexical near-misses cannot crowd out what a clause depends on.
5. **Budgets**: a count limit and a character budget.

Every hit carries ``why``: the path that brought it in.
"""

from __future__ import annotations

import bisect
import heapq
import re
from dataclasses import dataclass
from typing import Any

from .bm25 import BM25
from .embeddings import Embedder, HashingEmbedder, cosine
from .graph import PARENT_OF, REFERENCES, USES_TERM, ContractGraph
from .layout import Role
from .references import extract

MAX_PASSAGE_CHARS = 1200
UNIT_CHARS = 1500
LEXICAL_WEIGHT = 0.6
_RETRIEVAL_SEEDS = 8
_DECAY = 0.7
_FAN_OUT = 8
_UBIQUITOUS = 0.4
# Per-edge weights: how much of a node's relevance flows to its neighbour.
WEIGHTS = {
    "references": 0.75,  # a clause → the section it cites
    "referenced_by": 0.55,  # a section → the clauses that cite it
    "uses_term": 0.7,  # a clause → the definitions it relies on
    "used_by": 0.6,  # a named term → the clauses that use it
    "parent": 0.35,  # a clause → its heading / lead-in
    "child": 0.6,  # a named section → its subsections
}


@dataclass(frozen=True, slots=True)
class Passage:
    """A retrievable span: part of a section's own text, a definition, or the table of contents."""

    id: int
    kind: str  # "section" | "definition" | "contents"
    node: str
    nodes: tuple[str, ...]  # every node whose text the passage holds (a section with its subsections)
    start: int
    end: int
    anchors: tuple[str, ...]
    heading: str


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
        self.passages = _passages(graph, unit_chars)
        texts = [f"{p.heading}\n{self.passage_text(p)}" for p in self.passages]
        self.bm25 = BM25(texts)
        self.vectors = self.embedder.embed(texts)
        self.by_node: dict[str, list[int]] = {}
        for p in self.passages:
            for node in p.nodes:
                self.by_node.setdefault(node, []).append(p.id)
        self._spread = _term_spread(graph)
        self._cited_by_definition = _cited_by_definitions(graph)
        self._order = {s.id: n for n, s in enumerate(graph.sections)}

    def passage_text(self, p: Passage) -> str:
        """The passage's text: its paragraphs, without page furniture between them."""
        g = self.graph
        if p.kind == "definition":
            return g.text[p.start:p.end]
        parts = []
        for b in g.blocks[bisect.bisect_right(self._block_ends, p.start):]:
            if b.start >= p.end:
                break
            if g.roles[b.index] is not Role.FURNITURE:
                parts.append(g.text[max(b.start, p.start):min(b.end, p.end)])
        return "\n".join(parts)

    # -- the query ------------------------------------------------------------------------
    def search(self, query: str, *, k: int = 15, max_chars: int | None = None, max_hops: int = 3) -> list[Hit]:
        """The ``k`` best passages for ``query`` (fewer when ``max_chars`` runs out), best first."""
        fused = self._fused(query)
        scores: dict[str, float] = {}
        paths: dict[str, tuple[str, ...]] = {}
        for node, score, why in self._seeds(query, fused):
            if score > scores.get(node, 0.0):
                scores[node], paths[node] = score, why
        graph_scores, graph_paths = self._expand(scores, paths, max_hops)
        ranked = self._rank(fused, scores, paths, graph_scores, graph_paths)
        return self._select(ranked, k, max_chars)

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
            title = " ".join((s.title or "").lower().split())
            if len(title) >= 6 and re.search(rf"(?<![\w]){re.escape(title)}(?![\w])", lowered) and s.id not in out:
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
        if node == "contents":
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
            spread = self._spread.get(e.target, 0.0)
            if spread <= _UBIQUITOUS:
                term = g.definition_by_id(e.target).term
                out.append((e.target, WEIGHTS["uses_term"] * (1 - spread), (label, "USES_TERM", f'"{term}"')))
        section = g.section(node)
        if section.parent:
            out.append((section.parent, WEIGHTS["parent"], (label, "CHILD_OF", g.section(section.parent).label)))
        for e in g.edges_from(node, PARENT_OF):
            out.append((e.target, WEIGHTS["child"], (label, "PARENT_OF", g.section(e.target).label)))
        return out

    def _rank(self, fused: dict[int, float], seeds: dict[str, float], seed_paths: dict[str, tuple[str, ...]],
              graph_scores: dict[str, float], graph_paths: dict[str, tuple[str, ...]]) -> list[tuple[float, int, tuple[str, ...], bool]]:
        """Passages scored by the better of their own match and their node's graph score."""
        ranked: list[tuple[float, int, tuple[str, ...], bool]] = []
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
            ranked.append((score, p.id, why, from_graph))
        ranked.sort(key=lambda r: -r[0])
        return ranked

    def _select(self, ranked: list[tuple[float, int, tuple[str, ...], bool]], k: int,
                max_chars: int | None) -> list[Hit]:
        """Top ``k`` with reserved slots for graph-found passages, within the character budget."""
        reserve = k // 3
        head = ranked[:k]
        graph_in_head = sum(1 for r in head if r[3])
        if graph_in_head < reserve:
            extra = [r for r in ranked[k:] if r[3]][: reserve - graph_in_head]
            keep = k - len(extra)
            ranked = sorted(head[:keep] + extra, key=lambda r: -r[0]) + [r for r in ranked if r not in head and r not in extra]
        hits: list[Hit] = []
        used = 0
        spans: list[tuple[int, int]] = []
        for score, pid, why, _ in ranked:
            if len(hits) >= k:
                break
            p = self.passages[pid]
            if any(s <= p.start and p.end <= e for s, e in spans):
                continue
            text = self.passage_text(p)
            if max_chars is not None:
                length = p.end - p.start
                if used + length > max_chars:
                    continue
                used += length
            spans.append((p.start, p.end))
            hits.append(Hit(p, text, score, why))
        return hits


def _passages(graph: ContractGraph, unit_chars: int) -> list[Passage]:
    """Retrievable units: each section whole (with its subsections) when it fits ``unit_chars``,
    else its own text in pieces and its subsections on their own; every definition; the contents."""
    out: list[Passage] = []

    def add(kind: str, nodes: tuple[str, ...], start: int, end: int, anchors: tuple[str, ...], heading: str) -> None:
        out.append(Passage(len(out), kind, nodes[0], nodes, start, end, anchors, heading))

    def unit(sid: str) -> None:
        s = graph.section(sid)
        heading = " > ".join(a.label for a in reversed(graph.ancestors(sid, include_self=True)))
        whole = graph.body_blocks(sid, own=False)
        if whole and whole[-1].end - whole[0].start <= unit_chars:
            nodes = tuple(x.id for x in graph.sections[int(sid[1:]) - 1:] if graph.blocks[x.first].start <= whole[-1].end
                          and (x.id == sid or sid in {a.id for a in graph.ancestors(x.id)}))
            add("section", nodes, whole[0].start, whole[-1].end, tuple(b.anchor for b in whole), heading)
            return
        for start, end, anchors in _chunks(graph.body_blocks(sid)):
            add("section", (sid,), start, end, anchors, heading)
        for child in s.children:
            unit(child)

    for s in graph.sections:
        if s.parent is None:
            unit(s.id)
    for d in graph.definitions:
        for site in d.sites:
            end = min(site.end, site.start + 2 * MAX_PASSAGE_CHARS)
            add("definition", (d.id,), site.start, end, (graph.blocks[site.block].anchor,), f'Definition of "{d.term}"')
    contents = [b for b in graph.blocks if graph.roles[b.index] is Role.CONTENTS]
    for start, end, anchors in _chunks(contents):
        add("contents", ("contents",), start, end, anchors, "Table of contents")
    return out


def _chunks(blocks: list[Any]) -> list[tuple[int, int, tuple[str, ...]]]:
    """Consecutive blocks grouped up to the passage size; a longer block is cut at sentence ends."""
    out: list[tuple[int, int, tuple[str, ...]]] = []
    group: list[Any] = []

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


def _sentence_pieces(block: Any) -> list[tuple[int, int]]:
    cuts = [m.end() for m in re.finditer(r"[.;:](?=\s+\S)", block.text)]
    pieces: list[tuple[int, int]] = []
    start = 0
    last = 0
    for cut in [*cuts, len(block.text)]:
        if cut - start > MAX_PASSAGE_CHARS and last > start:
            pieces.append((start, last))
            start = last
            while start < len(block.text) and block.text[start].isspace():
                start += 1
        last = cut
    pieces.append((start, len(block.text)))
    return [(block.start + s, block.start + e) for s, e in pieces if e > s]


def _cited_by_definitions(graph: ContractGraph) -> dict[str, list[str]]:
    """Sections a definition's own text cites ("has the meaning given in Section 3.3")."""
    out: dict[str, list[str]] = {}
    for d in graph.definitions:
        for site in d.sites:
            for r in graph.references:
                if r.target and site.start <= r.start < site.end and r.target not in out.get(d.id, []):
                    out.setdefault(d.id, []).append(r.target)
    return out


def _term_spread(graph: ContractGraph) -> dict[str, float]:
    sections = max(1, len(graph.sections))
    users: dict[str, set[str]] = {}
    for e in graph.edges:
        if e.kind == USES_TERM:
            users.setdefault(e.target, set()).add(e.source)
    return {did: len(s) / sections for did, s in users.items()}
