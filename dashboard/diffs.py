"""Unified diffs as lines a template can style (added, removed, hunk, context).

The ``+``/``-`` markers stay in the text, so a change is readable without colour.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DiffLine:
    """One line of a unified diff; ``kind`` (add, del, hunk, file, ctx) picks its style."""

    kind: str
    text: str


def diff_lines(diff: str) -> list[DiffLine]:
    """Classify each line of ``difflib.unified_diff`` output."""
    out = []
    for line in diff.splitlines():
        if line.startswith(("+++", "---")):
            kind = "file"
        elif line.startswith("@@"):
            kind = "hunk"
        elif line.startswith("+"):
            kind = "add"
        elif line.startswith("-"):
            kind = "del"
        else:
            kind = "ctx"
        out.append(DiffLine(kind, line))
    return out
