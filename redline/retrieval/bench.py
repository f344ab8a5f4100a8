"""Run the retriever over the EngramDB CUAD multi-hop benchmark and write ranked span predictions.

The benchmark's contracts are plain text; each is split into blocks and
turned into the same graph a Word document gets. Predictions follow the
benchmark's format (``{"question_id", "passages": [{"start", "end"}]}``, best
first) so its own ``score_spans.py`` scores them. Run it once per character
budget (``max_chars``): hits grow into whole sections until the budget they
are given is used, so a prediction made for 32,000 characters is not the one
to truncate at 16,000.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .embeddings import Embedder
from .graph import ContractGraph
from .passages import UNIT_CHARS
from .search import SearchIndex

DATASET = "multihop_qa_dataset.json"


@dataclass(frozen=True, slots=True)
class BenchTimings:
    """Where the time went, for the report."""

    contracts: int
    questions: int
    build_seconds: float
    search_seconds: float


def load_dataset(data_dir: Path) -> dict[str, Any]:
    """The benchmark's dataset file (contracts with their text, and the questions)."""
    return json.loads((data_dir / DATASET).read_text(encoding="utf-8"))


def predict(dataset: dict[str, Any], embedder: Embedder, *, k: int = 15, max_chars: int | None = None,
            unit_chars: int = UNIT_CHARS, grow: bool = True) -> Iterator[dict[str, Any] | BenchTimings]:
    """Yield one prediction per question, then a :class:`BenchTimings`.

    ``grow`` widens hits to whole sections within ``max_chars`` (see
    :meth:`SearchIndex.search`); without a budget that is their top-level section.
    """
    by_contract: dict[str, list[dict[str, Any]]] = {}
    for q in dataset["questions"]:
        by_contract.setdefault(q["contract_id"], []).append(q)
    build = search = 0.0
    for contract in dataset["contracts"]:
        questions = by_contract.get(contract["id"], [])
        if not questions:
            continue
        t0 = time.perf_counter()
        index = SearchIndex(ContractGraph.from_text(contract["text"]), embedder, unit_chars=unit_chars)
        t1 = time.perf_counter()
        for q in questions:
            hits = index.search(q["question"], k=k, max_chars=max_chars, grow=grow)
            yield {"question_id": q["id"], "passages": [{"start": h.start, "end": h.end} for h in hits]}
        search += time.perf_counter() - t1
        build += t1 - t0
    yield BenchTimings(len(by_contract), len(dataset["questions"]), build, search)
