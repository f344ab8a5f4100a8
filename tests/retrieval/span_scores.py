"""The EngramDB set's span metric (its ``score_spans.py``, as its README defines it), for the tests.

A test reads the gold spans; the product never does. ``strict``: a gold id counts when the union of the
returned spans covers at least half of one of its candidate spans. ``compat`` (EngramDB's own metric): a
passage names every parsed section it covers by half or whose first 200 characters it holds, and every
"Section N" in its own first 200 characters. Under a budget, passages are consumed in rank order and the
last one is cut.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

_MENTION = re.compile(r"section\s+(\d+(?:\.\d+)*)")


def _cover(spans: list[tuple[int, int]], start: int, end: int) -> int:
    return sum(max(0, min(end, b) - max(start, a)) for a, b in spans)


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def load(data: Path) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The dataset, the parsed sections and the gold spans of a benchmark folder."""
    def read(name: str) -> Any:
        return json.loads((data / name).read_text(encoding="utf-8"))
    return read("multihop_qa_dataset.json"), read("sections.json")["sections"], read("gold_spans.json")


def score(dataset: dict[str, Any], sections: dict[str, Any], gold: dict[str, Any],
          predictions: dict[str, list[tuple[int, int]]], *, k: int = 15, budget: int = 0) -> dict[str, float]:
    """Mean compat and strict recall in %, overall and per question type."""
    text = {c["id"]: c["text"] for c in dataset["contracts"]}
    rows: list[tuple[str, float, float]] = []
    for q in dataset["questions"]:
        cid, spans, used = q["contract_id"], [], 0
        for start, end in predictions.get(q["id"], [])[:k]:
            if budget and used + (end - start) > budget:
                end = start + max(0, budget - used)
            if end <= start:
                break
            spans.append((start, end))
            used += end - start
        named: set[str] = set()
        for start, end in spans:
            named.update(m.group(1) for m in _MENTION.finditer(text[cid][start:start + 200].lower()))
            for s in sections[cid]:
                length = s["end"] - s["start"]
                if length > 0 and (_cover([(start, end)], s["start"], s["end"]) >= 0.5 * length
                                   or (start <= s["start"] and end >= min(s["end"], s["start"] + 200))):
                    key = s["number"] or s["title"]
                    if key:
                        named.add(key.lower())
        union, ids = _merge(spans), gold[q["id"]]["gold"]
        compat = sum(1 for gid in ids if gid.lower() in named) / len(ids)
        strict = sum(1 for v in ids.values() if any(_cover(union, s["start"], s["end"]) >= 0.5 * (s["end"] - s["start"])
                                                    for s in v["spans"])) / len(ids)
        rows.append((q["question_type"], compat, strict))

    def mean(i: int, kind: str | None = None) -> float:
        picked = [r[i] for r in rows if kind is None or r[0] == kind]
        return round(100 * sum(picked) / len(picked), 1) if picked else 0.0

    out = {"compat": mean(1), "strict": mean(2)}
    for kind in ("cross_reference", "definition_usage", "termination_chain"):
        out[f"strict {kind}"] = mean(2, kind)
    return out
