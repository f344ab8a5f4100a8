"""Anchors: hidden ``_RL_`` bookmarks that give every paragraph a stable identity.

An anchor is a ``w:bookmarkStart``/``w:bookmarkEnd`` pair named ``_RL_`` + 12
lowercase hex characters, placed right after ``w:pPr`` and at the paragraph's
end, so it spans the paragraph's content. Names starting with ``_`` are hidden
in Word's UI, survive editing in Word and LibreOffice, and can be made by the
add-in itself (Office.js ``insertBookmark``); ``w14:paraId`` cannot be trusted
to survive, which is why we do not key on it.

Anchoring is idempotent and deterministic: existing anchors are kept; a name
seen twice keeps its first paragraph (document order) and later copies are
renamed; a paragraph with two anchors keeps its first; new names are derived
from a caller-given seed (a hash of the input) and a counter, never from
randomness, so anchoring the same bytes twice gives the same file.
"""

from __future__ import annotations

import hashlib
import re

from lxml import etree

from .oxml import decimal_number, qn

ANCHOR_PREFIX = "_RL_"
ANCHOR_RE = re.compile(r"^_RL_[0-9a-f]{12}$")

_P = qn("w:p")
_P_PR = qn("w:pPr")
_START = qn("w:bookmarkStart")
_END = qn("w:bookmarkEnd")
_ID = qn("w:id")
_NAME = qn("w:name")


def is_anchor_name(name: str | None) -> bool:
    """True for names of our anchors (``_RL_`` + 12 lowercase hex)."""
    return bool(name) and ANCHOR_RE.match(name) is not None  # type: ignore[arg-type]


def anchor_of(p: etree._Element) -> str | None:
    """The first anchor name of paragraph ``p``, or None.

    Paragraphs nested inside ``p`` (text boxes) own their bookmarks, as
    :class:`Anchorer` sees them, so reading and anchoring agree.
    """
    for start in p.iter(_START):
        name = start.get(_NAME)
        if is_anchor_name(name) and next(start.iterancestors(_P), None) is p:
            return name
    return None


def find_anchor(document_root: etree._Element, name: str) -> etree._Element | None:
    """The paragraph that holds anchor ``name``, or None.

    Scans the document; to look up many anchors build :func:`anchor_map` once.
    """
    for start in document_root.iter(_START):
        if start.get(_NAME) == name:
            return _paragraph_at(start)
    return None


def anchor_map(document_root: etree._Element) -> dict[str, etree._Element]:
    """Every anchor name → its paragraph (first occurrence wins), in one scan."""
    out: dict[str, etree._Element] = {}
    for start in document_root.iter(_START):
        name = start.get(_NAME)
        if is_anchor_name(name) and name not in out:
            p = _paragraph_at(start)
            if p is not None:
                out[name] = p  # type: ignore[index]
    return out


def _paragraph_at(start: etree._Element) -> etree._Element | None:
    """The paragraph holding a bookmark start; for a start placed between
    paragraphs (as some editors do), the paragraph that follows it."""
    for ancestor in start.iterancestors(_P):
        return ancestor
    for following in start.itersiblings():
        if following.tag == _P:
            return following
        for p in following.iter(_P):
            return p
    return None


class Anchorer:
    """Claims and adds anchors for one document, keeping names and ids unique.

    Build it once per document (it scans every bookmark once), then visit the
    paragraphs in document order: :meth:`claim` resolves the anchors a paragraph
    already has, :meth:`add` gives it a new one. The write side uses :meth:`add`
    for paragraphs it inserts.
    """

    def __init__(self, document_root: etree._Element, seed: bytes) -> None:
        self._seed = hashlib.sha256(seed).digest()
        self._counter = 0
        self._next_id = 0
        self._reserved: set[str] = set()  # every anchor name present in the input
        self._claimed: set[str] = set()  # names given to a paragraph so far
        self._start_ids: dict[str, int] = {}  # bookmark id -> how many starts use it
        self._ends: dict[str, list[etree._Element]] = {}
        self._starts: dict[etree._Element, list[etree._Element]] = {}
        max_id = -1
        for el in document_root.iter(_START, _END):
            bid = el.get(_ID, "")
            number = decimal_number(bid)
            if number is not None:
                max_id = max(max_id, number)
            if el.tag == _END:
                self._ends.setdefault(bid, []).append(el)
                continue
            self._start_ids[bid] = self._start_ids.get(bid, 0) + 1
            name = el.get(_NAME)
            if is_anchor_name(name):
                self._reserved.add(name)  # type: ignore[arg-type]
                p = next(el.iterancestors(_P), None)
                if p is not None:
                    self._starts.setdefault(p, []).append(el)
        self._next_id = max_id + 1

    @property
    def present(self) -> frozenset[str]:
        """The anchor names the input carried before anchoring (what ties a file to its history)."""
        return frozenset(self._reserved)

    def claim(self, p: etree._Element) -> str | None:
        """Resolve the anchors already in ``p``; return the one it keeps, or None.

        Extra anchors in the paragraph are removed (start and end); an anchor
        whose name an earlier paragraph kept is renamed, and given a fresh id if
        its id was taken too.
        """
        starts = self._starts.pop(p, None)
        if not starts:
            return None
        keep, *extra = starts
        for start in extra:
            self._remove(start, p)
        name = keep.get(_NAME, "")
        if name in self._claimed:
            name = self._fresh_name()
            keep.set(_NAME, name)
        bid = keep.get(_ID, "")
        if self._start_ids.get(bid, 0) > 1 or not bid.isdigit():
            # Another bookmark shares the id: ours moves to a fresh one, with
            # its end in this paragraph (added at the end if it has none).
            self._start_ids[bid] -= 1
            new_id = self._fresh_id()
            end = self._take_end(bid, p, shared=True)
            if end is None:
                end = etree.SubElement(p, _END)
            end.set(_ID, new_id)
            keep.set(_ID, new_id)
        self._claimed.add(name)
        return name

    def add(self, p: etree._Element) -> str:
        """Give ``p`` a new anchor spanning its content and return its name."""
        name = self._fresh_name()
        bid = self._fresh_id()
        # Created inside the paragraph (so no namespace reconciliation), then moved.
        start = etree.SubElement(p, _START, {_ID: bid, _NAME: name})
        first = p[0]
        p.insert(1 if first.tag == _P_PR else 0, start)
        etree.SubElement(p, _END, {_ID: bid})
        self._claimed.add(name)
        return name

    def _remove(self, start: etree._Element, p: etree._Element) -> None:
        bid = start.get(_ID, "")
        shared = self._start_ids.get(bid, 0) > 1
        self._start_ids[bid] -= 1
        end = self._take_end(bid, p, shared=shared)
        if end is not None:
            end.getparent().remove(end)
        start.getparent().remove(start)

    def _take_end(self, bid: str, p: etree._Element, *, shared: bool) -> etree._Element | None:
        """The bookmark end that closes our start with id ``bid`` in ``p``.

        When the id is shared with another bookmark, only an end inside ``p``
        (the last one, where we put it) can be ours; otherwise the one end.
        """
        ends = self._ends.get(bid, [])
        for i in range(len(ends) - 1, -1, -1):
            if not shared or next(ends[i].iterancestors(_P), None) is p:
                return ends.pop(i)
        return None

    def _fresh_name(self) -> str:
        while True:
            self._counter += 1
            digest = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).hexdigest()
            name = ANCHOR_PREFIX + digest[:12]
            if name not in self._reserved and name not in self._claimed:
                return name

    def _fresh_id(self) -> str:
        bid = str(self._next_id)
        self._next_id += 1
        return bid
