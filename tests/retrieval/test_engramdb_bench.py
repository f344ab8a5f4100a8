"""The retriever on the EngramDB CUAD multi-hop set: strict recall within 8,000 characters, compat recall at 15.

On a developer machine the whole set is in ``../shared/benchmarks/engramdb`` (183 questions over 35 contracts;
about 15 s: one graph and index per contract, searched with and without the budget, as ``redline
retrieval-bench`` does). A clean clone (CI) has only the bundled slice (``engramdb_slice``: 3 contracts, 18
questions), so the check never skips. The floors are the figures of issue #29 (docs/retrieval.md):
strict@8k was 38.1 on the whole set (28.7 on the slice) before the retriever learnt to rank what the question
names and its links first and to trim what it returns; compat@15 must stay at 97 or above.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from redline.retrieval.bench import indexes, prediction
from redline.retrieval.embeddings import HashingEmbedder

from . import span_scores

FULL = Path(__file__).resolve().parents[3] / "shared" / "benchmarks" / "engramdb"
SLICE = Path(__file__).resolve().parent / "engramdb_slice"
BUDGET = 8000
# the set → (strict within BUDGET characters, compat at k=15) the retriever must keep
FLOORS = {"full": (45.0, 97.0), "slice": (42.0, 100.0)}


@pytest.fixture(scope="module")
def scores() -> tuple[str, dict[str, float], dict[str, float]]:
    which = "full" if (FULL / "gold_spans.json").exists() else "slice"
    dataset, sections, gold = span_scores.load(FULL if which == "full" else SLICE)
    budgeted: dict[str, list[tuple[int, int]]] = {}
    whole: dict[str, list[tuple[int, int]]] = {}
    for questions, index, _seconds in indexes(dataset, HashingEmbedder()):
        for q in questions:
            for out, max_chars in ((budgeted, BUDGET), (whole, None)):
                row = prediction(index, q, k=15, max_chars=max_chars)
                out[q["id"]] = [(p["start"], p["end"]) for p in row["passages"]]
    return (which, span_scores.score(dataset, sections, gold, budgeted, budget=BUDGET),
            span_scores.score(dataset, sections, gold, whole))


def test_strict_recall_within_8000_characters(scores):
    which, budgeted, _ = scores
    assert budgeted["strict"] >= FLOORS[which][0], budgeted


def test_compat_recall_at_15_is_kept(scores):
    which, _, whole = scores
    assert whole["compat"] >= FLOORS[which][1], whole
