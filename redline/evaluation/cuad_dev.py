"""CUAD's dev contracts as the review reads them, for the measures that grade the review against CUAD's gold.

Each dev contract is read from its ``.docx`` through the OOXML engine, as an
upload is, and each analysis clause is placed on CUAD's text by the data set's
paragraph map, so a gold span (character offsets into that text) can be found
in the clauses the review works with. Used by :mod:`.routing_recall` (what a
rule is given) and :mod:`.placement_audit` (where a missing clause goes).
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path

from redline.analysis.clauses import Clause, clauses_from_paragraphs

Spans = list[list[tuple[int, int]]]  # each gold span with its verbatim copies


@dataclass(frozen=True, slots=True)
class DevContract:
    """A dev contract's clauses and, for each, its ``[start, end)`` in CUAD's text."""

    id: str
    clauses: list[Clause]
    ranges: list[tuple[int, int]]

    def holding(self, spans: Spans) -> list[int]:
        """Indices of the clauses a gold span (its first copy) overlaps, in order."""
        return sorted({i for copies in spans for a, b in copies[:1]
                       for i, (start, end) in enumerate(self.ranges) if start < b and end > a})


def dev_ids(data: Path) -> list[str]:
    """The dev split's contract ids."""
    return json.loads((data / "splits.json").read_text())["dev"]


def read_dev_contract(data: Path, cid: str) -> DevContract:
    """Read ``dev-docx/<cid>.docx`` (anchored, as an upload is) and place its clauses on CUAD's text."""
    from redline.ooxml.paragraphs import read_document

    result = read_document((data / "dev-docx" / f"{cid}.docx").read_bytes(), anchor=True)
    paragraph_map = json.loads((data / "dev-docx" / f"{cid}.map.json").read_text())
    clauses = clauses_from_paragraphs(result.paragraphs)
    index_of = {p.anchor: p.index for p in result.paragraphs if p.anchor}
    ranges = [tuple(paragraph_map[index_of[c.anchor]][:2]) for c in clauses]
    return DevContract(cid, clauses, ranges)


def contract_texts(data: Path, ids: set[str]) -> dict[str, str]:
    """The CUAD texts of the contracts ``ids`` (what the gold offsets index)."""
    with gzip.open(data / "contracts.jsonl.gz", "rt", encoding="utf-8") as fh:
        return {row["id"]: row["text"] for row in map(json.loads, fh) if row["id"] in ids}


def gold_spans(data: Path) -> dict[tuple[str, str], Spans]:
    """Gold spans by (contract, category); each span with its verbatim copies."""
    out: dict[tuple[str, str], Spans] = {}
    with gzip.open(data / "gold.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            out[(row["id"], row["category"])] = [
                [(s["start"], s["end"]), *(tuple(a) for a in s.get("alt", []))] for s in row["spans"]]
    return out
