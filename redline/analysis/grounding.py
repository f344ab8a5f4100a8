"""Grounding: every suggestion must quote text that is really in its paragraph.

Models paraphrase, "fix" typos and straighten quote marks when they quote. A
suggestion whose quote is not in the paragraph cannot be placed in the
document and may be about text that does not exist, so it is dropped and
counted (the run's hallucination rate). Matching forgives exactly two things,
whitespace (runs, non-breaking spaces, line breaks) and the style of quote
marks, and always maps back to the *exact original* substring, because that is
what the writer will search for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_QUOTES = str.maketrans({
    "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'", "`": "'", "´": "'",
    "“": '"', "”": '"', "„": '"', "‟": '"', "″": '"', "«": '"', "»": '"',
})
_SPACE = re.compile(r"\s+")
_WIDEN_STEPS = 8


@dataclass(frozen=True, slots=True)
class Span:
    """An exact quote of ``text[start:end]``; ``occurrence`` is 1-based among
    non-overlapping matches of the quote in the paragraph."""

    start: int
    end: int
    quote: str
    occurrence: int


def normalize(text: str) -> tuple[str, list[int]]:
    """Text with whitespace runs collapsed and quote marks unified, plus, for each
    character of the result, its index in ``text``."""
    out: list[str] = []
    index: list[int] = []
    translated = text.translate(_QUOTES)
    i = 0
    while i < len(translated):
        ch = translated[i]
        if ch.isspace():
            j = i
            while j < len(translated) and translated[j].isspace():
                j += 1
            out.append(" ")
            index.append(i)
            i = j
            continue
        out.append(ch)
        index.append(i)
        i += 1
    return "".join(out), index


def occurrence_of(text: str, quote: str, start: int) -> int:
    """Which non-overlapping occurrence of ``quote`` in ``text`` starts at ``start`` (1-based)."""
    n, pos = 1, text.find(quote)
    while pos != -1 and pos < start:
        n += 1
        pos = text.find(quote, pos + len(quote))
    return n


def locate(quote: str, text: str, hint: tuple[int, int] | None = None) -> Span | None:
    """Find ``quote`` in ``text`` up to whitespace and quote marks; None when absent.

    ``hint`` is a span the caller believes holds the quote (the offline engine
    knows it); it is used when it checks out, so the right one of several
    identical quotes is kept.
    """
    wanted = _SPACE.sub(" ", quote.translate(_QUOTES)).strip()
    if not wanted:
        return None
    if hint is not None:
        s, e = hint
        if 0 <= s < e <= len(text) and _SPACE.sub(" ", text[s:e].translate(_QUOTES)).strip() == wanted:
            exact = text[s:e]
            return Span(s, e, exact, occurrence_of(text, exact, s))
    norm, index = normalize(text)
    at = norm.find(wanted)
    if at == -1:
        return None
    start = index[at]
    end = index[at + len(wanted) - 1] + 1
    exact = text[start:end]
    return Span(start, end, exact, occurrence_of(text, exact, start))


def widen_to_unique(text: str, start: int, end: int) -> tuple[int, int]:
    """Grow ``text[start:end]`` by whole words, left then right, until it occurs once.

    "fifteen (15) days" twice in a paragraph becomes "invoice within fifteen
    (15) days" and ", within fifteen (15) days", so the writer never has to
    count occurrences. Gives up after a few words and returns the widest span.
    """
    for _ in range(_WIDEN_STEPS):
        if text.count(text[start:end]) <= 1:
            break
        left = _previous_word_start(text, start)
        if left < start and text.count(text[left:end]) < text.count(text[start:end]):
            start = left
            continue
        right = _next_word_end(text, end)
        if right > end:
            end = right
        elif left < start:
            start = left
        else:
            break
    return start, end


def _previous_word_start(text: str, start: int) -> int:
    i = start
    while i > 0 and text[i - 1].isspace():
        i -= 1
    while i > 0 and not text[i - 1].isspace():
        i -= 1
    return i


def _next_word_end(text: str, end: int) -> int:
    i = end
    while i < len(text) and text[i].isspace():
        i += 1
    while i < len(text) and not text[i].isspace():
        i += 1
    return i
