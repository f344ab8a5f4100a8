"""The terms contracts commonly define, counted on CUAD's train split (``redline hygiene-terms``).

A capitalised "Effective Date" used once and defined nowhere is the undefined term a lawyer most expects a
proofreader to catch, and one use is too little evidence for a phrase nobody defines ("the Citation Finder" is a
screen's name). What tells them apart is what contracts do: "effective date" is defined in 167 of CUAD's 381
training contracts. The vocabulary is counted here, on train only (dev is where the check is measured), and
shipped with the product as ``redline/retrieval/hygiene/common_terms.json``; the product never reads CUAD.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from redline.retrieval.graph import ContractGraph

from .cuad_dev import contract_texts

MIN_CONTRACTS = 4  # defined in at least this many training contracts
SHIPPED = Path(__file__).resolve().parents[1] / "retrieval" / "hygiene" / "common_terms.json"


def common_terms(data: Path, min_contracts: int = MIN_CONTRACTS) -> dict[str, Any]:
    """The multi-word terms defined (capitalised) in at least ``min_contracts`` train contracts, with counts.
    One-word terms are left out: "Territory" or "Products" capitalised mid-sentence is already read as a term,
    and a capitalised "Board" or "Act" is as often a name."""
    train = set(json.loads((data / "splits.json").read_text())["train"])
    counts: Counter[str] = Counter()
    for text in contract_texts(data, train).values():
        counts.update({d.key for d in ContractGraph.from_text(text).definitions if d.term[:1].isupper()})
    terms = {k: n for k, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if n >= min_contracts and " " in k}
    return {"source": "CUAD v1 train split (CC BY 4.0), redline hygiene-terms", "contracts": len(train),
            "min_contracts": min_contracts, "terms": terms}
