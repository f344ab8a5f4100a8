"""From ranked passages to what is returned: reserved slots, a count limit, a budget, growth.

1. **Reserved slots**: a third of the results is kept for passages found
   through the graph, so lexical near-misses cannot crowd out what a clause
   depends on.
2. **Count and budget**: at most ``k`` passages and ``max_chars`` characters.
3. **Growth** (when asked): a small passage ranks well, but a reader needs the
   unit it belongs to — the clause with its sub-clauses, the section with its
   heading. Each pick climbs its ladder as far as the budget allows before the
   next passage in the ranking is considered (the best match complete comes
   before a tenth fragment); a pick that grows over another absorbs it. When
   the next unit does not fit, the pick may still take the unit's beginning
   (its heading and first clauses), which is what a reader looks at first.
   The sections the question names come first and share the budget (one
   alone takes half), so naming two sections does not give the whole budget
   to the first. With no budget, picks grow to their top-level section.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from .passages import Hit, Passage


@dataclass(frozen=True, slots=True)
class Ranked:
    """A scored passage: ``from_graph`` when the graph brought it in, ``named`` when it is
    (the first passage of) a section or term the question names."""

    score: float
    passage: int
    why: tuple[str, ...]
    from_graph: bool = False
    named: bool = False


class SpanReader(Protocol):
    """What selection needs to know about the document (:class:`~.search.SearchIndex` provides it)."""

    def label(self, node: str) -> str:
        """How a section (or the contents) is named: "Section 4.2 Payment"."""
        ...

    def span_text(self, start: int, end: int) -> str:
        """The text of a span, without page furniture."""
        ...

    def span_anchors(self, start: int, end: int) -> tuple[str, ...]:
        """The anchors of the paragraphs in a span."""
        ...

    def snap(self, pos: int) -> int:
        """``pos`` moved back to the end of a paragraph."""
        ...


@dataclass(slots=True)
class _Pick:
    """A chosen passage and how far up its ladder it has grown."""

    score: float
    passage: Passage
    why: tuple[str, ...]
    start: int
    end: int
    step: int = 0  # next ladder step to try
    node: str = ""
    label: str = ""

    @property
    def size(self) -> int:
        return self.end - self.start


def reserve_slots(ranked: list[Ranked], k: int) -> list[Ranked]:
    """The ranking with graph-found passages moved up until they hold a third of the first ``k``."""
    reserve = k // 3
    head = ranked[:k]
    graph_in_head = sum(1 for r in head if r.from_graph)
    if graph_in_head >= reserve:
        return ranked
    extra = [r for r in ranked[k:] if r.from_graph][: reserve - graph_in_head]
    keep = k - len(extra)
    chosen = {id(r) for r in head[:keep] + extra}
    return sorted(head[:keep] + extra, key=lambda r: -r.score) + [r for r in ranked if id(r) not in chosen]


class _Selection:
    """One run of :func:`select`: the picks so far and how to measure and name spans."""

    def __init__(self, passages: list[Passage], k: int, max_chars: int | None, reader: SpanReader) -> None:
        self.passages, self.k, self.max_chars, self.reader = passages, k, max_chars, reader
        self.picks: list[_Pick] = []

    def used(self) -> int:
        return sum(p.size for p in self.picks)

    def add(self, row: Ranked) -> _Pick | None:
        """Pick a ranked passage unless the count is reached, it is already covered or it does not fit."""
        p = self.passages[row.passage]
        if len(self.picks) >= self.k or any(q.start <= p.start and p.end <= q.end for q in self.picks):
            return None
        if self.max_chars is not None and self.used() + (p.end - p.start) > self.max_chars:
            return None
        pick = _Pick(row.score, p, row.why, p.start, p.end)
        self.picks.append(pick)
        return pick

    def grow(self, pick: _Pick, cap: int | None) -> None:
        """Climb ``pick``'s ladder while the budget and ``cap`` (its own size limit) allow."""
        while pick in self.picks and self._step(pick, cap):
            pass

    def _step(self, pick: _Pick, cap: int | None) -> bool:
        ladder = pick.passage.ladder
        while pick.step < len(ladder) and ladder[pick.step][1] - ladder[pick.step][0] <= pick.size:
            pick.step += 1
        if pick.step >= len(ladder):
            return False
        start, end, node = ladder[pick.step]
        room = None if self.max_chars is None else self.max_chars - self.used() + pick.size
        limits = [x for x in (room, cap) if x is not None]
        limit = min(limits) if limits else None
        whole = limit is None or self._merged_size(pick, start, end) <= limit
        if limit is not None and not whole:
            # the unit's beginning up to and including the pick: its heading, lead-in and first clauses
            end = self.reader.snap(start + limit) if pick.end - start <= limit else pick.end
            if end <= pick.end or self._merged_size(pick, start, end) > limit:
                return False
        absorbed = [q for q in self.picks if q is not pick and q.start < end and start < q.end]
        at = min(self.picks.index(x) for x in [pick, *absorbed])  # the merged pick ranks as its best part
        for x in [pick, *absorbed]:
            self.picks.remove(x)
        self.picks.insert(at, pick)
        best = max([pick, *absorbed], key=lambda x: x.score)  # the merged pick says why its best part is there
        pick.score, pick.why = best.score, best.why
        pick.start = min([start, *(q.start for q in absorbed)])
        pick.end = max([end, *(q.end for q in absorbed)])
        pick.node, pick.label = node, self.reader.label(node)
        pick.step = pick.step + 1 if whole else len(ladder)
        return whole

    def _merged_size(self, pick: _Pick, start: int, end: int) -> int:
        """Characters ``pick`` would hold grown to [start, end), net of the picks it would absorb."""
        absorbed = [q for q in self.picks if q is not pick and q.start < end and start < q.end]
        lo = min([start, *(q.start for q in absorbed)])
        hi = max([end, *(q.end for q in absorbed)])
        return (hi - lo) - sum(q.size for q in absorbed)


def select(ranked: list[Ranked], passages: list[Passage], k: int, max_chars: int | None, *, grow: bool,
           reader: SpanReader) -> list[Hit]:
    """The returned hits, best first (see the module docstring)."""
    run = _Selection(passages, k, max_chars, reader)
    order = reserve_slots(ranked, k)
    named = [r for r in order if r.named][:k]
    first = [p for p in (run.add(r) for r in named) if p is not None]
    if grow:
        # named sections share the budget; one alone takes half, leaving room for what it relates to
        share = None if max_chars is None else max_chars // max(2, len(first))
        for pick in first:
            run.grow(pick, share)
    for row in order:
        if len(run.picks) >= k:
            break
        pick = run.add(row)
        if grow and pick is not None:
            run.grow(pick, None)
    hits = []
    for p in run.picks:
        passage, why = p.passage, p.why
        if (p.start, p.end) != (passage.start, passage.end):
            passage = replace(passage, kind="section", node=p.node, start=p.start, end=p.end, heading=p.label,
                              anchors=reader.span_anchors(p.start, p.end), ladder=())
            why = (*why, "WITHIN", p.label)
        hits.append(Hit(passage, reader.span_text(p.start, p.end), p.score, why))
    return hits
