"""Timing the offline review end to end, for the speed targets in the issue.

``benchmark_offline`` reads a .docx (anchoring it, as ingest does), builds the
clauses and reviews them with the default playbook and the offline provider,
several times, and reports medians; then it re-runs the review over a warm
result cache, which must make zero provider calls. Writing the redlined .docx
is the writer's part of the pipeline and is timed by the caller.

    python -m redline.analysis.benchmark contract.docx [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from redline.ooxml.paragraphs import read_document

from .cache import MemoryCache
from .clauses import clauses_from_paragraphs
from .pipeline import review
from .playbook.io import default_playbook
from .playbook.model import Playbook
from .providers.offline import OfflineProvider


def benchmark_offline(docx: bytes, *, repeats: int = 3, playbook: Playbook | None = None) -> dict[str, Any]:
    """Median seconds for read + review of ``docx``, and for an unchanged re-run."""
    playbook = playbook or default_playbook()
    read_s, review_s, total_s = [], [], []
    for _ in range(max(1, repeats)):
        t0 = time.perf_counter()
        clauses = clauses_from_paragraphs(read_document(docx).paragraphs)
        t1 = time.perf_counter()
        result = review(clauses, playbook, OfflineProvider(), cache=MemoryCache())
        t2 = time.perf_counter()
        read_s.append(t1 - t0)
        review_s.append(t2 - t1)
        total_s.append(t2 - t0)
    cache = MemoryCache()
    review(clauses, playbook, OfflineProvider(), cache=cache)
    t = time.perf_counter()
    rerun = review(clauses, playbook, OfflineProvider(), cache=cache)
    rerun_s = time.perf_counter() - t
    return {
        "paragraphs": len(clauses),
        "suggestions": len(result.suggestions),
        "repeats": repeats,
        "read_s": round(statistics.median(read_s), 3),
        "review_s": round(statistics.median(review_s), 3),
        "total_s": round(statistics.median(total_s), 3),
        "rerun_s": round(rerun_s, 3),
        "rerun_provider_calls": rerun.stats.usage.calls,
        "stats": result.stats.to_dict(),
    }


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: print the benchmark of one file as JSON."""
    parser = argparse.ArgumentParser(description="Time the offline review of a .docx")
    parser.add_argument("docx", type=Path)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    print(json.dumps(benchmark_offline(args.docx.read_bytes(), repeats=args.repeats), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
