"""Reading spans of a contract's text: their paragraphs, their anchors, and where a span may be cut.

Selection (:mod:`.selection`) widens and trims character spans; what it hands
back must still read as the document does. So a span's text leaves out page
furniture between paragraphs, and a span cut to a budget ends (or starts) at a
sentence or paragraph boundary, never mid-word: when a paragraph is long, the
cut falls at its last full sentence rather than at the end of the paragraph
before, so the room the budget allows is filled with whole sentences.
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING

from .layout import Role

if TYPE_CHECKING:
    from .blocks import Block
    from .graph import ContractGraph

_SENTENCE_END_RE = re.compile(r"[.;:](?=\s)")


class DocumentSpans:
    """Spans of one contract graph's text, read as paragraphs (see the module docstring)."""

    def __init__(self, graph: ContractGraph) -> None:
        self.graph = graph
        self._block_ends = [b.end for b in graph.blocks]

    def span_text(self, start: int, end: int) -> str:
        """The text of the paragraphs in a span, without page furniture between them."""
        return "\n".join(self.graph.text[max(b.start, start):min(b.end, end)] for b in self._body_in(start, end))

    def span_anchors(self, start: int, end: int) -> tuple[str, ...]:
        """The anchors of the paragraphs in a span (page furniture left out)."""
        return tuple(b.anchor for b in self._body_in(start, end))

    def snap(self, pos: int) -> int:
        """Where to end a span that may reach ``pos``: the last sentence or paragraph end at or before it."""
        i = bisect.bisect_right(self._block_ends, pos)
        end = self._block_ends[i - 1] if i else 0
        if i < len(self.graph.blocks):
            b = self.graph.blocks[i]
            cuts = [b.start + m.end() for m in _SENTENCE_END_RE.finditer(b.text[:max(0, pos - b.start)])]
            if cuts and cuts[-1] > end:
                end = cuts[-1]
        return end

    def snap_start(self, pos: int) -> int:
        """Where to start a span that may begin at ``pos``: the first sentence or paragraph start at or after it."""
        i = bisect.bisect_right(self._block_ends, pos)
        if i >= len(self.graph.blocks):
            return pos
        b = self.graph.blocks[i]
        if pos <= b.start:
            return b.start
        m = _SENTENCE_END_RE.search(b.text, pos - b.start - 1)
        if m is None:
            return b.end
        rest = b.text[m.end():]
        return b.start + m.end() + (len(rest) - len(rest.lstrip()))

    def _body_in(self, start: int, end: int) -> list[Block]:
        g = self.graph
        out = []
        for b in g.blocks[bisect.bisect_right(self._block_ends, start):]:
            if b.start >= end:
                break
            if g.roles[b.index] is not Role.FURNITURE:
                out.append(b)
        return out
