"""Context recall of the review's routing, measured on CUAD's dev contracts.

The pipeline sends each rule only the paragraphs ``select_clauses`` picks, so
a clause the routing misses is a clause no model ever reads. This measures,
for every rule of a playbook whose category the clause engine covers, the
share of the gold spans of its CUAD categories that lie in the paragraphs the
rule is given, and the characters it is given, with the engine's routing and
with the keyword routing alone (the review before the engine).
"""

from __future__ import annotations

import bisect
import gzip
import json
from dataclasses import dataclass, replace
from pathlib import Path

from redline.clauses import PLAYBOOK_TO_CUAD

from .clauses import clauses_from_paragraphs
from .document import Document, build_document
from .playbook import Playbook
from .playbook_io import default_playbook
from .selection import select_clauses


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
    """``{rule key: {"engine": Tally, "keywords": Tally}}`` over the dev contracts (or ``ids``)."""
    from redline.ooxml.paragraphs import read_document

    data = Path(data)
    playbook = playbook or default_playbook()
    rules = [r for r in playbook.rules if r.category.value in PLAYBOOK_TO_CUAD]
    gold = _gold(data)
    dev = json.loads((data / "splits.json").read_text())["dev"]
    out = {r.key: {"engine": Tally(), "keywords": Tally()} for r in rules}
    for cid in dev:
        if ids is not None and cid not in ids:
            continue
        result = read_document((data / "dev-docx" / f"{cid}.docx").read_bytes(), anchor=True)
        paragraph_map = json.loads((data / "dev-docx" / f"{cid}.map.json").read_text())
        clauses = clauses_from_paragraphs(result.paragraphs)
        index_of = {p.anchor: p.index for p in result.paragraphs if p.anchor}
        ranges = [tuple(paragraph_map[index_of[c.anchor]][:2]) for c in clauses]
        doc = build_document(clauses)
        plain = replace(doc, found=replace(doc.found, routes={}))
        for rule in rules:
            spans = [s for cat in PLAYBOOK_TO_CUAD[rule.category.value] for s in gold.get((cid, cat), [])]
            for name, view in (("engine", doc), ("keywords", plain)):
                _tally(out[rule.key][name], view, rule, spans, ranges)
    return out


def _tally(tally: Tally, doc: Document, rule: object, spans: list[list[tuple[int, int]]],
           ranges: list[tuple[int, int]]) -> None:
    selected = select_clauses(doc, rule)
    chosen = sorted(ranges[i] for i in selected)
    starts = [a for a, _ in chosen]
    tally.chars += sum(len(doc.clauses[i].text) for i in selected)
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


def _gold(data: Path) -> dict[tuple[str, str], list[list[tuple[int, int]]]]:
    """Gold spans by (contract, category); each span with its verbatim copies."""
    out: dict[tuple[str, str], list[list[tuple[int, int]]]] = {}
    with gzip.open(data / "gold.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            out[(row["id"], row["category"])] = [
                [(s["start"], s["end"]), *(tuple(a) for a in s.get("alt", []))] for s in row["spans"]]
    return out
