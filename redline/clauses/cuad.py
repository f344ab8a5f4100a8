"""Reading the CUAD v1 data set of ``shared/datasets/cuad`` (CC BY 4.0, The Atticus Project).

Only the standard library and this package: the trainer and the evaluation
read the same files the scorer does. Training contracts exist only as plain
text, so they are cut into paragraphs the way the data set's .docx files were
rendered (blocks between blank lines, hard-wrapped lines joined), and every
unit keeps its offsets into the original text so gold spans can label it.
"""

from __future__ import annotations

import bisect
import gzip
import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .document import Unit, units_of

_BLOCK = re.compile(r"\S(?:.*\S)?(?:\n[ \t\f\v]*\S.*)*", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Contract:
    """One contract: its id, text, paragraph offsets and gold spans by category."""

    id: str
    text: str
    blocks: list[tuple[int, int]]
    gold: dict[str, list[tuple[int, int]]]


class Dataset:
    """The data set folder: categories, splits, texts and gold, read lazily."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        for name in ("categories.json", "splits.json", "contracts.jsonl.gz", "gold.jsonl.gz"):
            if not (self.root / name).is_file():
                raise FileNotFoundError(f"{self.root / name} is missing: not a CUAD data set folder")
        self.categories: list[str] = [c["name"] for c in self.category_info()]
        self.splits: dict[str, list[str]] = json.loads((self.root / "splits.json").read_text())

    def category_info(self) -> list[dict]:
        """``categories.json`` as written (name, description, question, counts)."""
        return json.loads((self.root / "categories.json").read_text())

    def version(self) -> str:
        """A short fingerprint of the files that define the data (for the model's metadata)."""
        h = hashlib.sha256()
        for name in ("splits.json", "gold.jsonl.gz", "contracts.jsonl.gz"):
            h.update((self.root / name).read_bytes())
        return h.hexdigest()[:16]

    def contracts(self, split: str, ids: list[str] | None = None) -> Iterator[Contract]:
        """The contracts of a split (or only ``ids`` of it), in the split's order."""
        wanted = list(self.splits[split]) if ids is None else [i for i in self.splits[split] if i in set(ids)]
        keep = set(wanted)
        gold: dict[str, dict[str, list[tuple[int, int]]]] = defaultdict(lambda: defaultdict(list))
        with gzip.open(self.root / "gold.jsonl.gz", "rt", encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                if row["id"] in keep:
                    for span in row["spans"]:
                        gold[row["id"]][row["category"]].append((span["start"], span["end"]))
                        gold[row["id"]][row["category"]].extend(tuple(a) for a in span.get("alt", []))
        texts: dict[str, str] = {}
        with gzip.open(self.root / "contracts.jsonl.gz", "rt", encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                if row["id"] in keep:
                    texts[row["id"]] = row["text"]
        for cid in wanted:
            text = texts[cid]
            yield Contract(cid, text, text_blocks(text), dict(gold[cid]))


def text_blocks(text: str) -> list[tuple[int, int]]:
    """Paragraphs of a plain-text contract: runs of non-blank lines, as ``(start, end)`` offsets."""
    return [(m.start(), m.end()) for m in _BLOCK.finditer(text)]


def contract_units(contract: Contract) -> tuple[list[Unit], list[tuple[int, int]]]:
    """The contract's units and each unit's ``(start, end)`` in the contract text."""
    texts = [contract.text[a:b] for a, b in contract.blocks]
    units = units_of(texts)
    spans = [(contract.blocks[u.paragraph][0] + u.start, contract.blocks[u.paragraph][0] + u.end) for u in units]
    return units, spans


def unit_labels(spans: list[tuple[int, int]], gold: dict[str, list[tuple[int, int]]],
                categories: list[str]) -> list[list[int]]:
    """For each unit, the indices of the categories whose gold spans it overlaps."""
    out: list[list[int]] = [[] for _ in spans]
    starts = [s for s, _ in spans]
    for c, name in enumerate(categories):
        for a, b in gold.get(name, []):
            i = max(0, bisect.bisect_right(starts, a) - 1)
            while i < len(spans) and spans[i][0] < b:
                if spans[i][1] > a and c not in out[i]:
                    out[i].append(c)
                i += 1
    return out
