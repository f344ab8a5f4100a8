"""From ranked passages to what is returned: named first, then their links, then the rest; a budget, growth.

1. **Reserved slots**: a third of the results is kept for passages found
   through the graph, so lexical near-misses cannot crowd out what a clause
   depends on.
2. **Count and budget**: at most ``k`` passages and ``max_chars`` characters.
3. **Order by hop**: the sections and terms the question names come first;
   then where they are linked (the clauses that use a named term, cite a
   named section, or the sections a named one cites), in reading order; then
   everything else by score. What the question names and what it is directly
   connected to is worth more than a passage that shares words with the
   question.
4. **Growth** (when asked): a small passage ranks well, but a reader needs the
   unit it belongs to — the clause with its sub-clauses, the section with its
   heading. Each pick climbs its ladder as far as the budget allows before the
   next passage in the ranking is considered (the best match complete comes
   before a tenth fragment); a pick that grows over another absorbs it. When
   the next unit does not fit, the pick takes the part of it that matters: the
   unit's beginning (its heading and first clauses) when the pick is near it,
   else the sentences around the pick — not the beginning of a long article
   the pick is deep inside. The named nodes share the budget by need: a short
   named section is taken whole and what it leaves goes to the longer ones
   (one named node alone takes at most half, leaving room for its links).
   After the named nodes and their links, what is left of the budget first
   continues the units they were cut short of. With no budget, picks grow to
   their top-level section.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from .passages import Hit, Passage, Span

MAX_LINKED = 12  # links of the named nodes taken ahead of the rest


@dataclass(frozen=True, slots=True)
class Ranked:
    """A scored passage: ``from_graph`` when the graph brought it in, ``named`` when it is
    (the first passage of) a section or term the question names, ``linked`` when it is where
    a named node is linked (a named term's use, a citation of or by a named section)."""

    score: float
    passage: int
    why: tuple[str, ...]
    from_graph: bool = False
    named: bool = False
    linked: bool = False


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
        """``pos`` moved back to the end of a sentence or paragraph."""
        ...

    def snap_start(self, pos: int) -> int:
        """``pos`` moved on to the start of a sentence or paragraph."""
        ...


@dataclass(slots=True)
class _Pick:
    """A chosen passage, how far up its ladder it has grown, and the unit it was cut short of."""

    score: float
    passage: Passage
    why: tuple[str, ...]
    start: int
    end: int
    step: int = 0  # next ladder step to try
    node: str = ""
    label: str = ""
    unit_end: int | None = None  # the end of the unit the pick holds only part of

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


def _whole(passage: Passage) -> int:
    """The most a named passage can grow to: the largest unit on its ladder (its top-level section)."""
    return max([passage.end - passage.start, *(e - s for s, e, _ in passage.ladder)])


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
        # a piece of a section (a long one is indexed in pieces) starts cut short of that section
        whole = [e for s, e, node in p.ladder if node in p.nodes]
        pick = _Pick(row.score, p, row.why, p.start, p.end, unit_end=whole[0] if whole else None)
        self.picks.append(pick)
        return pick

    def share(self, named: list[_Pick]) -> None:
        """Grow the named picks by need: the smallest first, each to its whole unit or its fair part of what is
        left, so a short one taken whole leaves the rest to the longer ones."""
        if self.max_chars is None:
            for pick in named:
                self.grow(pick, None)
            return
        left = self.max_chars if len(named) >= 2 else self.max_chars // 2
        for i, pick in enumerate(sorted(named, key=lambda p: _whole(p.passage))):
            self.grow(pick, max(pick.size, min(left // (len(named) - i), _whole(pick.passage))))
            left -= pick.size

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
        unit = ladder[pick.step]
        start, end, node = unit
        room = None if self.max_chars is None else self.max_chars - self.used() + pick.size
        limits = [x for x in (room, cap) if x is not None]
        limit = min(limits) if limits else None
        whole = limit is None or self._merged_size(pick, start, end) <= limit
        if limit is not None and not whole:
            start, end = self._part(pick, unit, limit)
            if (start >= pick.start and end <= pick.end) or self._merged_size(pick, start, end) > limit:
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
        pick.unit_end = None if whole else unit[1]
        return whole

    def _part(self, pick: _Pick, unit: Span, limit: int) -> tuple[int, int]:
        """The part of a unit too long to take whole that matters for ``pick``: the unit's beginning
        (heading, lead-in, first clauses) up to and including the pick when it is near it, else the
        sentences around the pick."""
        start, end, _ = unit
        if pick.end - start <= limit:
            return start, max(pick.end, self.reader.snap(start + limit))
        start = min(pick.start, max(start, self.reader.snap_start(pick.start - (limit - pick.size) // 2)))
        return start, max(pick.end, min(end, self.reader.snap(start + limit)))

    def resume(self) -> None:
        """Spend what is left of the budget continuing the units picks were cut short of, best pick first."""
        if self.max_chars is None:
            return
        for pick in list(self.picks):
            left = self.max_chars - self.used()
            if left <= 0:
                return
            if pick not in self.picks or pick.unit_end is None or pick.end >= pick.unit_end:
                continue
            end = min(pick.unit_end, self.reader.snap(pick.end + left))
            while end > pick.end and self._merged_size(pick, pick.start, end) > left + pick.size:
                end = self.reader.snap(end - 1)
            if end <= pick.end:
                continue
            absorbed = [q for q in self.picks if q is not pick and q.start < end and pick.start < q.end]
            for q in absorbed:
                self.picks.remove(q)
            pick.start = min([pick.start, *(q.start for q in absorbed)])
            pick.end = max([end, *(q.end for q in absorbed)])

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
    named = [p for p in (run.add(r) for r in [r for r in order if r.named][:k]) if p is not None]
    if grow:
        run.share(named)
    linked = sorted((r for r in order if r.linked and not r.named), key=lambda r: passages[r.passage].start)
    for row in linked[:MAX_LINKED]:
        pick = run.add(row)
        if grow and pick is not None:
            run.grow(pick, None)
    if grow:
        run.resume()
    for row in order:
        if len(run.picks) >= k:
            break
        pick = run.add(row)
        if grow and pick is not None:
            run.grow(pick, None)
    if grow:
        run.resume()
    return [_hit(p, reader) for p in run.picks]


def _hit(pick: _Pick, reader: SpanReader) -> Hit:
    passage, why = pick.passage, pick.why
    if (pick.start, pick.end) != (passage.start, passage.end):
        passage = replace(passage, kind="section", node=pick.node, start=pick.start, end=pick.end, heading=pick.label,
                          anchors=reader.span_anchors(pick.start, pick.end), ladder=())
        why = (*why, "WITHIN", pick.label)
    return Hit(passage, reader.span_text(pick.start, pick.end), pick.score, why)
