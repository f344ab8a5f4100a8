"""The outcome benchmark's workload is real: a long contract, ~200 entries, all decided.

Its timing is reported by ``redline bench`` (speed is measured by benchmarks, not by tests)."""

from __future__ import annotations

import pytest

from tests.learning.benchmark import bench_outcomes

pytestmark = pytest.mark.slow


def test_benchmark_workload_detects_every_entry_on_a_long_contract():
    seconds, entries, paragraphs = bench_outcomes(pages=30, count=120, repeat=1, clock="cpu")
    assert entries >= 110 and paragraphs > 900 and seconds > 0
