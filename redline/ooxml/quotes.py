"""Finding a quoted span in a paragraph's text.

Suggestions quote the text they are about. Models and people retype quotes
with straight instead of curly quotation marks, a plain space for a
non-breaking one, or one space where the document has two; such a quote still
means that span. An exact match is tried first; failing that, both sides are
compared with those differences folded, and the match is mapped back to the
paragraph's own offsets.
"""

from __future__ import annotations

import re

_FOLD = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " ", "\u2011": "-"})
_SPACES = re.compile(r"\s+")


class QuoteError(LookupError):
    """The quote is absent (``quote_not_found``) or matches more than once (``ambiguous_quote``)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def find_quote(text: str, quote: str, occurrence: int | None = None) -> tuple[int, int]:
    """``(start, end)`` of ``quote`` in ``text``; ``occurrence`` (1-based) picks among several."""
    spans = _exact(text, quote) or _folded(text, quote)
    if not spans:
        raise QuoteError("quote_not_found", "The quoted text is not in the paragraph.")
    if occurrence is None:
        if len(spans) > 1:
            raise QuoteError("ambiguous_quote", f"The quoted text occurs {len(spans)} times; give an Occurrence.")
        return spans[0]
    if occurrence > len(spans):
        raise QuoteError("quote_not_found", f"The quoted text occurs {len(spans)} times, not {occurrence}.")
    return spans[occurrence - 1]


def _exact(text: str, quote: str) -> list[tuple[int, int]]:
    spans = []
    at = text.find(quote)
    while at >= 0 and quote:
        spans.append((at, at + len(quote)))
        at = text.find(quote, at + len(quote))
    return spans


def _folded(text: str, quote: str) -> list[tuple[int, int]]:
    """Matches with quotation marks, hyphens and whitespace runs folded."""
    folded, where = [], []
    for m in re.finditer(r"\s+|.", text.translate(_FOLD), re.DOTALL):
        folded.append(" " if m.group().isspace() else m.group())
        where.append((m.start(), m.end()))
    needle = _SPACES.sub(" ", quote.translate(_FOLD)).strip()
    spans = []
    for start, end in _exact("".join(folded), needle):
        spans.append((where[start][0], where[end - 1][1]))
    return spans
