"""Diffs a template can style: unified diffs as lines (added, removed, hunk, context), and word diffs.

The ``+``/``-`` markers stay in the text, so a change is readable without colour.
"""

from __future__ import annotations

import difflib
import re
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


@dataclass(frozen=True, slots=True)
class WordChange:
    """A run of words that are the same (``same``), removed (``del``) or added (``ins``)."""

    kind: str
    text: str


def word_diff(old: str, new: str) -> list[WordChange]:
    """What a proposed change does, word by word: only the words that change are struck or inserted.

    A replacement of two words in a long paragraph then reads as those two words,
    not as the whole paragraph struck through and written out again.
    """
    a, b = re.findall(r"\S+\s*", old), re.findall(r"\S+\s*", new)
    out: list[WordChange] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(WordChange("same", "".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(WordChange("del", "".join(a[i1:i2])))
        if j2 > j1:
            out.append(WordChange("ins", "".join(b[j1:j2])))
    return out
