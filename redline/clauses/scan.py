"""Which of many texts a pattern matches, found without searching every text.

Calling ``rx.search`` on each of a contract's 4,000 sentences pays a Python
call and the regex engine's set-up 4,000 times per pattern, and a review runs a
few hundred patterns, most of which match a handful of sentences. Nearly every
pattern needs one of a few literals (:func:`.prefilter.needles`), and finding a
literal in the whole lower-cased document is one ``str.find`` in C per
occurrence. Only the texts holding a literal are searched with the pattern, so
the answer is exactly the per-text one; a pattern without literals is searched
text by text, as before.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from .prefilter import matcher


class Corpus:
    """Texts searched together; :meth:`matching` is memoised per pattern."""

    __slots__ = ("_cache", "_lowered", "_starts", "texts")

    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = tuple(texts)
        lowered = [text.lower() for text in self.texts]  # .lower() can change a length: offsets are the lowered ones
        self._lowered = "\n".join(lowered)
        starts, pos = [], 0
        for text in lowered:
            starts.append(pos)
            pos += len(text) + 1
        self._starts = starts
        self._cache: dict[re.Pattern[str], frozenset[int]] = {}

    def matching(self, rx: re.Pattern[str]) -> frozenset[int]:
        """Indices of the texts ``rx.search`` matches."""
        found = self._cache.get(rx)
        if found is None:
            texts = self.texts
            candidates = self.containing(needles) if (needles := matcher(rx).needles) else range(len(texts))
            found = self._cache[rx] = frozenset(i for i in candidates if rx.search(texts[i]))
        return found

    def containing(self, needles: Sequence[str]) -> list[int]:
        """Indices of the texts whose lower-cased form contains one of ``needles``, in order."""
        hits: set[int] = set()
        lowered, starts, last = self._lowered, self._starts, len(self.texts) - 1
        for needle in needles:
            pos = lowered.find(needle)
            while pos >= 0:
                i = bisect_right(starts, pos) - 1
                hits.add(i)
                if i >= last:
                    break
                pos = lowered.find(needle, starts[i + 1])
        return sorted(hits)
