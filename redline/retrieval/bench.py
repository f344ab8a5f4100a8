"""Run the retriever over the EngramDB CUAD multi-hop benchmark and write ranked span predictions.

The benchmark's contracts are plain text; each is split into blocks and
turned into the same graph a Word document gets, and searched with the same
:class:`SearchIndex` ``ask`` uses. Predictions follow the benchmark's format
(``{"question_id", "passages": [{"start", "end"}]}``, best first) so its own
``score_spans.py`` scores them. Run it once per character budget
(``max_chars``): hits grow into whole sections until the budget they are
given is used, so a prediction made for 32,000 characters is not the one to
truncate at 16,000 (and an unbudgeted one, whose hits are whole top-level
sections, is not the one to truncate at 8,000).

This module reads the questions and contracts only; scoring (which needs the
gold spans) is the benchmark's own script, or the tests' copy of its metric.
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

    def summary(self) -> str:
        """One line for the report: totals, and per contract and per question."""
        per_contract = (self.build_seconds + self.search_seconds) / max(1, self.contracts)
        per_question = 1000 * self.search_seconds / max(1, self.questions)
        return (f"{self.questions} questions over {self.contracts} contracts: graph+index {self.build_seconds:.1f}s, "
                f"search {self.search_seconds:.1f}s ({per_contract:.2f}s per contract, "
                f"{per_question:.0f} ms per question)")


def load_dataset(data_dir: Path) -> dict[str, Any]:
    """The benchmark's dataset file (contracts with their text, and the questions)."""
    return json.loads((data_dir / DATASET).read_text(encoding="utf-8"))


def indexes(dataset: dict[str, Any], embedder: Embedder, *, unit_chars: int = UNIT_CHARS
            ) -> Iterator[tuple[list[dict[str, Any]], SearchIndex, float]]:
    """Each contract that has questions, as (its questions, its index, seconds to build it): one build
    serves every budget a caller asks for."""
    by_contract: dict[str, list[dict[str, Any]]] = {}
    for q in dataset["questions"]:
        by_contract.setdefault(q["contract_id"], []).append(q)
    for contract in dataset["contracts"]:
        questions = by_contract.get(contract["id"], [])
        if questions:
            t0 = time.perf_counter()
            index = SearchIndex(ContractGraph.from_text(contract["text"]), embedder, unit_chars=unit_chars)
            yield questions, index, time.perf_counter() - t0


def prediction(index: SearchIndex, question: dict[str, Any], *, k: int = 15, max_chars: int | None = None,
               grow: bool = True) -> dict[str, Any]:
    """One question's ranked spans in the benchmark's prediction format."""
    hits = index.search(question["question"], k=k, max_chars=max_chars, grow=grow)
    return {"question_id": question["id"], "passages": [{"start": h.start, "end": h.end} for h in hits]}


def predict(dataset: dict[str, Any], embedder: Embedder, *, k: int = 15, max_chars: int | None = None,
            unit_chars: int = UNIT_CHARS, grow: bool = True) -> Iterator[dict[str, Any] | BenchTimings]:
    """Yield one prediction per question, then a :class:`BenchTimings`.

    ``grow`` widens hits to whole sections within ``max_chars`` (see
    :meth:`SearchIndex.search`); without a budget that is their top-level section.
    """
    build = search = 0.0
    contracts = 0
    for questions, index, seconds in indexes(dataset, embedder, unit_chars=unit_chars):
        contracts += 1
        build += seconds
        t0 = time.perf_counter()
        for q in questions:
            yield prediction(index, q, k=k, max_chars=max_chars, grow=grow)
        search += time.perf_counter() - t0
    yield BenchTimings(contracts, len(dataset["questions"]), build, search)
