"""A reviewed document as outcome detection reads it: paragraphs, anchors, our marks.

Outcome detection asks the same few questions of a returned file for every
known entry — which paragraph holds this anchor, does it still carry our
tracked changes, what does it read like without them, where else does this
text appear — so the file is read once into a :class:`DocumentView` that
answers them from indexes. The paragraph model is the read side's own
(:func:`redline.ooxml.paragraphs.read_paragraphs`), so "the text of a
paragraph" means exactly what it means everywhere else in Redline.

*Our* marks are tracked insertions, deletions and moves written under our
author name. Moves count because LibreOffice relabels a pending insertion or
deletion as a move when the same text is deleted in one place and inserted in
another; it keeps the author (design.md §8).
"""

from __future__ import annotations

import copy
from difflib import SequenceMatcher

from lxml import etree

from redline.ooxml.anchors import anchor_map
from redline.ooxml.oxml import qn
from redline.ooxml.package import Package
from redline.ooxml.paragraphs import Paragraph, read_paragraphs
from redline.ooxml.revisions import DEL, INS, MOVE_FROM, MOVE_TO, reject
from redline.ooxml.text import paragraph_text

from .text import normalise, tokens

_P = qn("w:p")
_AUTHOR = qn("w:author")
# Below this similarity a paragraph is a different paragraph, not an edited one.
SIMILAR = 0.8
# A fuzzy match must beat every other candidate by this much to be trusted.
MARGIN = 0.05


class DocumentView:
    """The body of one opened package, indexed for outcome detection.

    ``texts[i]`` is paragraph ``i`` read with every tracked change accepted
    (what the lawyer's document says once their own pending edits are taken),
    normalised. Indexes that only some entries need (exact text lookup) are
    built on first use.
    """

    def __init__(self, pkg: Package, *, author: str) -> None:
        self.author = author
        self.root = pkg.xml(pkg.main_part)
        self.paragraphs: list[Paragraph] = read_paragraphs(pkg)
        self.texts = [normalise(p.text) for p in self.paragraphs]
        index = {p.element: p.index for p in self.paragraphs}
        self._index = index
        self.anchors = {name: index[p] for name, p in anchor_map(self.root).items() if p in index}
        self._ours = self._paragraphs_with_our_marks()
        self._without_ours: dict[int, str] = {}
        self._exact: dict[str, list[int]] | None = None
        # Paragraphs an insertion of ours accounts for: text searches skip them.
        self.claimed: set[int] = set()
        # Lines inserted at each (anchor, position) by all the entries judged together.
        self.insert_span: dict[tuple[str, str], int] = {}
        self._token_cache: dict[int, list[str]] = {}

    def _paragraphs_with_our_marks(self) -> set[int]:
        found: set[int] = set()
        for el in self.root.iter(INS, DEL, MOVE_FROM, MOVE_TO):
            if el.get(_AUTHOR) != self.author:
                continue
            p = self.paragraph_of(el)
            if p is not None:
                found.add(p)
        return found

    def paragraph_of(self, el: etree._Element) -> int | None:
        """Index of the body paragraph holding ``el``; for a marker placed between
        paragraphs (some editors do), the paragraph after it."""
        for p in el.iterancestors(_P):
            return self._index.get(p)
        for following in el.itersiblings():
            if following.tag == _P:
                return self._index.get(following)
        return None

    # -- our marks --------------------------------------------------------------
    def has_ours(self, i: int) -> bool:
        """True when paragraph ``i`` still carries tracked changes by our author."""
        return i in self._ours

    def without_ours(self, i: int) -> str:
        """Paragraph ``i`` read as if our pending changes were rejected (everyone
        else's accepted), normalised: what it says once our marks stop counting."""
        if i not in self._ours:
            return self.texts[i]
        if i not in self._without_ours:
            p = copy.deepcopy(self.paragraphs[i].element)
            reject(p, authors=[self.author])
            self._without_ours[i] = normalise(paragraph_text(p))
        return self._without_ours[i]

    # -- finding text ------------------------------------------------------------
    def find_exact(self, text: str) -> int | None:
        """The first unclaimed paragraph reading exactly ``text`` (normalised), or None."""
        if self._exact is None:
            self._exact = {}
            for i, t in enumerate(self.texts):
                self._exact.setdefault(t, []).append(i)
        return next((i for i in self._exact.get(text, ()) if i not in self.claimed), None)

    def find_exact_without_ours(self, text: str) -> int | None:
        """The first paragraph that carries our marks and reads exactly ``text``
        once they are rejected (a pending deletion reads as nothing otherwise)."""
        return next((i for i in sorted(self._ours) if self.without_ours(i) == text), None)

    def find_containing(self, fragment: str) -> int | None:
        """The first paragraph whose text contains ``fragment``, or None."""
        if not fragment:
            return None
        return next((i for i, t in enumerate(self.texts) if fragment in t), None)

    def find_similar(self, text: str, candidates: range | None = None, *, cutoff: float = SIMILAR
                     ) -> tuple[int, float] | None:
        """The unclaimed paragraph most like ``text`` (:func:`~redline.learning.text.similarity`
        at least ``cutoff``) among ``candidates`` (default: all), with its ratio.

        None when another paragraph comes within ``MARGIN`` of the best: contracts
        repeat their sentence patterns, and naming the wrong sibling clause as
        "the same clause, edited" is worse than admitting it is not found. Cheap
        upper bounds discard most paragraphs before difflib's full comparison.
        """
        if not text:
            return None
        target = tokens(text)
        matcher = SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(target)
        best: tuple[int, float] | None = None
        runner_up = 0.0
        size = len(target)
        for i in candidates if candidates is not None else range(len(self.texts)):
            if i in self.claimed:
                continue
            other = self._tokens(i)
            floor = (best[1] if best else cutoff) - MARGIN
            if not other or 2 * min(size, len(other)) < floor * (size + len(other)):
                continue
            matcher.set_seq1(other)
            if matcher.real_quick_ratio() < floor or matcher.quick_ratio() < floor:
                continue
            ratio = matcher.ratio()
            if best is None or ratio > best[1]:
                runner_up = max(runner_up, best[1] if best else 0.0)
                best = (i, ratio)
            else:
                runner_up = max(runner_up, ratio)
        if best is None or best[1] < cutoff or runner_up >= best[1] - MARGIN:
            return None
        return best

    def _tokens(self, i: int) -> list[str]:
        if i not in self._token_cache:
            self._token_cache[i] = tokens(self.texts[i])
        return self._token_cache[i]
