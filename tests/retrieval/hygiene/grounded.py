"""What every hygiene test checks of a finding, whatever the check: its quote and anchor are where it says."""

from __future__ import annotations

from collections.abc import Callable

from redline.retrieval.graph import ContractGraph
from redline.retrieval.hygiene import Finding


def grounded(check: Callable[[ContractGraph], list[Finding]], contract: ContractGraph | str) -> list[Finding]:
    """``check`` run on ``contract`` (a graph, or a plain-text contract); each finding's quote must stand at its
    ``start`` in its block, and its anchor be that block's."""
    graph = ContractGraph.from_text(contract) if isinstance(contract, str) else contract
    findings = check(graph)
    for f in findings:
        block = graph.blocks[f.block]
        assert block.text[f.start: f.start + len(f.quote)] == f.quote and f.anchor == block.anchor, f
    return findings
