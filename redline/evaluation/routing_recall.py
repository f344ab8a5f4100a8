"""Context recall of the review's routing, measured on CUAD's dev contracts.

The pipeline sends each rule only the paragraphs ``select_clauses`` picks, so
a clause the routing misses is a clause no model ever reads. This measures,
for every rule of a playbook whose category the clause engine covers, the
share of the gold spans of its CUAD categories that lie in the paragraphs the
rule is given, and the characters it is given, with the engine's routing and
with the keyword routing alone (the review before the engine), both with whole
paragraphs, and with the engine's routing as a model is given it: a batch reads
a paragraph once for every rule routed to it, so a long paragraph is the union
of those rules' excerpts (:mod:`.excerpts`, :mod:`.batches`), whole when one of
them reads it whole, and a gold span counts when it overlaps a sentence shown.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from pathlib import Path

from redline.analysis.batches import union_excerpt
from redline.analysis.document import Document, build_document
from redline.analysis.excerpts import Excerpt, excerpt_of
from redline.analysis.playbook.io import default_playbook
from redline.analysis.playbook.model import Playbook, Rule
from redline.analysis.selection import rule_matchers, select_clauses
from redline.clauses import PLAYBOOK_TO_CUAD

from .cuad_dev import contract_texts, dev_ids, gold_spans, read_dev_contract


@dataclass
class Tally:
    """Gold spans found / total and characters sent, summed over contracts."""

    found: int = 0
    total: int = 0
    chars: int = 0

    @property
    def recall(self) -> float:
        return 100.0 * self.found / self.total if self.total else 100.0


def measure(data: str | Path, *, playbook: Playbook | None = None,
            ids: list[str] | None = None) -> dict[str, dict[str, Tally]]:
    """``{rule key: {"engine": Tally, "keywords": Tally, "batches": Tally}}`` over the dev contracts
    (or ``ids``)."""
    data = Path(data)
    playbook = playbook or default_playbook()
    rules = [r for r in playbook.rules if r.category.value in PLAYBOOK_TO_CUAD]
    gold = gold_spans(data)
    dev = [cid for cid in dev_ids(data) if ids is None or cid in ids]
    out = {r.key: {"engine": Tally(), "keywords": Tally(), "batches": Tally()} for r in rules}
    texts = contract_texts(data, set(dev))
    for cid in dev:
        contract = read_dev_contract(data, cid)
        clauses, ranges = contract.clauses, contract.ranges
        offsets = [_offsets(c.text, texts[cid], a, b) for c, (a, b) in zip(clauses, ranges, strict=True)]
        doc = build_document(clauses)
        plain = replace(doc, found=replace(doc.found, routes={}))
        shown = _shown(doc, playbook)
        for rule in rules:
            spans = [s for cat in PLAYBOOK_TO_CUAD[rule.category.value] for s in gold.get((cid, cat), [])]
            for name, view in (("engine", doc), ("keywords", plain)):
                _tally(out[rule.key][name], view, rule, spans, ranges)
            _tally(out[rule.key]["batches"], doc, rule, spans, ranges, offsets, shown)
    return out


def _shown(doc: Document, playbook: Playbook) -> dict[int, Excerpt | None]:
    """What a model's batch shows of each routed paragraph: the union of the excerpts of every enabled rule
    routed to it (None: whole)."""
    reading: dict[int, list[Excerpt | None]] = {}
    for rule in playbook.enabled_rules:
        matchers = rule_matchers(doc, rule)
        for i in select_clauses(doc, rule):
            reading.setdefault(i, []).append(excerpt_of(doc, rule, i, matchers))
    return {i: union_excerpt(excerpts, doc.clauses[i].text) for i, excerpts in reading.items()}


def _tally(tally: Tally, doc: Document, rule: Rule, spans: list[list[tuple[int, int]]],
           ranges: list[tuple[int, int]], offsets: list[list[int]] | None = None,
           shown: dict[int, Excerpt | None] | None = None) -> None:
    """Add one contract and rule; with ``offsets`` (each paragraph character's offset in the contract's
    text) and ``shown`` (:func:`_shown`) a long paragraph counts as what a batch shows of it."""
    selected = select_clauses(doc, rule)
    chosen: list[tuple[int, int]] = []
    for i in selected:
        excerpt = shown.get(i) if offsets is not None and shown is not None else None
        if excerpt is None:
            chosen.append(ranges[i])
            tally.chars += len(doc.clauses[i].text)
            continue
        chosen.extend((offsets[i][a], offsets[i][b - 1] + 1) for a, b in excerpt.spans)
        tally.chars += len(excerpt.text)
    chosen.sort()
    starts = [a for a, _ in chosen]
    for copies in spans:
        tally.total += 1
        tally.found += any(_overlaps(chosen, starts, a, b) for a, b in copies)


def _overlaps(chosen: list[tuple[int, int]], starts: list[int], a: int, b: int) -> bool:
    i = max(0, bisect.bisect_right(starts, a) - 1)
    while i < len(chosen) and chosen[i][0] < b:
        if chosen[i][1] > a:
            return True
        i += 1
    return False


def _offsets(paragraph: str, contract: str, start: int, end: int) -> list[int]:
    """The contract offset of each character of ``paragraph``, the ``.docx`` text of ``contract[start:end]``
    (runs of white space were collapsed and page furniture left out, so the other characters are matched in
    order; a white space takes the offset of the next character)."""
    out = []
    j = start
    for ch in paragraph:
        if ch.isspace():
            out.append(j)
            continue
        while j < end and contract[j] != ch:
            j += 1
        out.append(min(j, end - 1))
        j = min(j + 1, end)
    return out
