"""Text comparison for the learning loop: one normalisation, one similarity, one span diff.

A reviewed file comes back through Word, LibreOffice or the add-in, each of
which may retype quote marks or whitespace; the lawyer has not changed a clause
because an editor turned ``'`` into ``’``. Every comparison in
:mod:`redline.learning` therefore goes through :func:`normalise`, so "equal"
means the same thing when deciding outcomes, suppressing repeats and grouping
rejections.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

_QUOTES = str.maketrans({
    "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'",
    "“": '"', "”": '"', "„": '"', "‟": '"', "″": '"',
    "\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u2011": "-",
})
_SPACE = re.compile(r"\s+")
_TOKEN = re.compile(r"\w+|[^\w\s]")
# How many characters of unchanged text on each side identify a span edit.
_CONTEXT = 20


def normalise(text: str) -> str:
    """Text as compared: curly quotes straightened, non-breaking spaces and
    hyphens made plain, runs of whitespace collapsed, ends stripped. Case is kept
    (a replacement may be exactly a change of case)."""
    return _SPACE.sub(" ", text.translate(_QUOTES)).strip()


def tokens(text: str) -> list[str]:
    """Words and punctuation marks: the units similarity is measured in."""
    return _TOKEN.findall(text)


def similarity(a: str, b: str) -> float:
    """How alike two normalised texts are, from 0 to 1: difflib's ratio over
    their :func:`tokens`. Words, not characters, because a clause is "the same
    clause, edited" when most of its words survive, and comparing a few dozen
    words is far cheaper than comparing hundreds of characters."""
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    return SequenceMatcher(None, tokens(a), tokens(b), autojunk=False).ratio()


def excerpt(text: str, limit: int = 120) -> str:
    """``text`` normalised and cut at a word boundary to about ``limit`` characters."""
    flat = normalise(text)
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0]
    return cut + "…"


@dataclass(frozen=True, slots=True)
class SpanEdit:
    """What changed between two versions of a paragraph, with the text around it.

    ``removed`` became ``added`` between ``left`` and ``right`` (up to 20
    unchanged characters on each side), so the edit can be recognised in a
    paragraph that other edits changed elsewhere. One side of context is
    enough when the changed text is not empty, because a neighbouring edit
    (another suggestion in the same sentence) may have changed the other side.
    """

    left: str
    right: str
    removed: str
    added: str

    def shows_old(self, text: str) -> bool:
        """True when ``text`` still reads as before the edit."""
        return _shows(text, self.left, self.removed, self.right)

    def shows_new(self, text: str) -> bool:
        """True when ``text`` reads as after the edit."""
        return _shows(text, self.left, self.added, self.right)


def _shows(text: str, left: str, middle: str, right: str) -> bool:
    if left + middle + right in text:
        return True
    if not middle:
        return False
    return (bool(left) and left + middle in text) or (bool(right) and middle + right in text)


def _word_char(a: str, b: str, i: int, j: int | None = None) -> bool:
    """True when ``a[i]`` or ``b[j]`` (``j`` defaults to ``i``) is a letter or digit."""
    j = i if j is None else j
    return (0 <= i < len(a) and a[i].isalnum()) or (0 <= j < len(b) and b[j].isalnum())


def span_edit(before: str, after: str) -> SpanEdit:
    """The :class:`SpanEdit` turning normalised ``before`` into normalised
    ``after``: the common prefix and suffix removed, the change widened to whole
    words."""
    a, b = normalise(before), normalise(after)
    limit = min(len(a), len(b))
    start = 0
    while start < limit and a[start] == b[start]:
        start += 1
    end = 0
    while end < limit - start and a[len(a) - 1 - end] == b[len(b) - 1 - end]:
        end += 1
    # Whole words: "30 days" → "90 days" changed "30", not "3".
    while start and a[start - 1].isalnum() and _word_char(a, b, start):
        start -= 1
    while end and a[len(a) - end].isalnum() and _word_char(a, b, len(a) - end - 1, len(b) - end - 1):
        end -= 1
    return SpanEdit(left=a[max(0, start - _CONTEXT):start], right=a[len(a) - end:len(a) - end + _CONTEXT],
                    removed=a[start:len(a) - end], added=b[start:len(b) - end])
