"""Issue 6's speed target: outcome detection on a 100-page contract with 200 known entries in ≤ 0.3 s."""

from __future__ import annotations

import pytest

from tests.learning.benchmark import bench_outcomes

pytestmark = pytest.mark.slow


def test_detection_on_a_long_contract_meets_the_target():
    seconds, entries, paragraphs = bench_outcomes(pages=100, count=200, repeat=5, clock="cpu")
    assert entries >= 190 and paragraphs > 3000
    assert seconds <= 0.3, f"{seconds * 1000:.0f} ms for {entries} entries"
