"""What every hygiene test checks of a finding, whatever the check: its quote is where it says it is."""

from __future__ import annotations

from collections.abc import Callable

from redline.retrieval.graph import ContractGraph
from redline.retrieval.hygiene import Finding


def grounded(check: Callable[[ContractGraph], list[Finding]], text: str) -> list[Finding]:
    """``check`` run on the plain-text contract ``text``; each finding's quote must stand at its ``start``."""
    graph = ContractGraph.from_text(text)
    findings = check(graph)
    for f in findings:
        block = graph.blocks[f.block].text
        assert block[f.start: f.start + len(f.quote)] == f.quote, f
    return findings
