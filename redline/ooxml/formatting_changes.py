"""Bold, italic and underline that changed on text that reads the same, recorded as Word records it.

For a paragraph whose text is the same in both versions, each run of the new version whose characters all had
one other bold/italic/underline in the old version gets a ``w:rPrChange`` holding the old: accepting keeps the
new look, rejecting brings back the old. A run whose old characters were formatted in more than one way (a
word made bold in the old version, a whole sentence plain in the new) is first split where the old formatting
changes, as Word splits it, so each piece records its own old look.
"""

from __future__ import annotations

import copy

from lxml import etree

from .oxml import qn
from .run_xml import preserve_space
from .uncompared import MARKS, OFF, char_runs

_R, _T, _RPR = qn("w:r"), qn("w:t"), qn("w:rPr")
_RPR_CHANGE, _MOVE_FROM = qn("w:rPrChange"), qn("w:moveFrom")
_ID, _AUTHOR, _DATE, _VAL = qn("w:id"), qn("w:author"), qn("w:date"), qn("w:val")
_COMPARED = (*MARKS, qn("w:bCs"), qn("w:iCs"))  # what a formatting change records, as the old run had it
# CT_RPr's children in schema order (the revision itself, w:rPrChange, comes last)
_ORDER = tuple(qn(f"w:{t}") for t in (
    "rStyle", "rFonts", "b", "bCs", "i", "iCs", "caps", "smallCaps", "strike", "dstrike", "outline", "shadow",
    "emboss", "imprint", "noProof", "snapToGrid", "vanish", "webHidden", "color", "spacing", "w", "kern", "position",
    "sz", "szCs", "highlight", "u", "effect", "bdr", "shd", "fitText", "vertAlign", "rtl", "cs", "em", "lang",
    "eastAsianLayout", "specVanish", "oMath"))


def record_formatting(new: etree._Element, old: etree._Element, next_id: int, *, author: str,
                      date: str) -> tuple[int, bool]:
    """Give ``new``'s runs the ``w:rPrChange`` that takes them back to ``old``'s look; the next free id and
    whether every difference could be recorded."""
    before = [(m, rpr) for m, rpr in char_runs(old) if m != " "]
    at = 0
    for r in list(new.iter(_R)):
        if r.getparent() is not None and r.getparent().tag == _MOVE_FROM:
            continue
        count = sum(1 for t in r.iter(_T) for ch in (t.text or "") if not ch.isspace())
        if not count:
            continue
        span = before[at:at + count]
        at += count
        now = run_marks(r)
        if {m for m, _ in span} in ({now}, set()):
            continue
        for piece, part in _split_where_changed(r, span):
            if part[0][0] != now:
                _add_change(piece, part[0][1], next_id, author, date)
                next_id += 1
    return next_id, at == len(before)


def _split_where_changed(r: etree._Element, span: list[tuple[str, etree._Element | None]]
                         ) -> list[tuple[etree._Element, list[tuple[str, etree._Element | None]]]]:
    """Run ``r`` cut before each of its non-space characters whose old formatting differs from the one before
    it (``span``: the old marks of its non-space characters), each piece with its part of ``span``."""
    cuts = [k for k in range(1, len(span)) if span[k][0] != span[k - 1][0]]
    for k in reversed(cuts):  # from the end, so the earlier cuts still count from the run's start
        _split_before(r, k)
    pieces = [r]
    for _ in cuts:
        pieces.append(pieces[-1].getnext())
    bounds = [0, *cuts, len(span)]
    return [(piece, span[a:b]) for piece, a, b in zip(pieces, bounds[:-1], bounds[1:], strict=True)]


def _split_before(r: etree._Element, k: int) -> None:
    """Move the ``k``-th non-space character of ``r``, the space before it and everything after it into a run
    of its own, with the same properties, right after ``r`` (the space between two looks goes with the later
    words, as it does in the run that follows a word's own)."""
    seen = 0
    for t in r.iter(_T):
        text = t.text or ""
        here = [n for n, ch in enumerate(text) if not ch.isspace()]
        if seen + len(here) < k:
            seen += len(here)
            continue
        offset = here[k - seen - 1] + 1 if k > seen else 0  # just after the last character of the earlier look
        right = etree.Element(r.tag, attrib=dict(r.attrib))
        if (rpr := r.find(_RPR)) is not None:
            right.append(copy.deepcopy(rpr))
        movers = list(t.itersiblings())
        if 0 < offset < len(text):
            tail = etree.SubElement(right, _T)
            tail.text, t.text = text[offset:], text[:offset]
            preserve_space(t)
            preserve_space(tail)
        elif offset == 0:
            movers.insert(0, t)
        for m in movers:
            right.append(m)
        r.addnext(right)
        return


def run_marks(r: etree._Element) -> str:
    """A run's own bold/italic/underline as a code ("bi", "-" for none)."""
    rpr = r.find(_RPR)
    return "".join(sorted(code for tag, code in MARKS.items() if rpr is not None and (el := rpr.find(tag)) is not None
                          and el.get(_VAL, "true").lower() not in OFF)) or "-"


def _add_change(r: etree._Element, old: etree._Element | None, next_id: int, author: str, date: str) -> None:
    """Record on run ``r`` that its bold, italic and underline were those of the old run properties ``old``
    (copied as they were: an underline's kind and colour, the complex-script twins)."""
    rpr = r.find(_RPR)
    if rpr is None:
        rpr = etree.Element(_RPR)
        r.insert(0, rpr)
    previous = copy.deepcopy(rpr)
    for child in list(previous):
        if child.tag in _COMPARED or child.tag == _RPR_CHANGE:
            previous.remove(child)
    for el in (c for c in (old if old is not None else ()) if c.tag in _COMPARED):
        rank = _ORDER.index(el.tag)
        previous.insert(sum(1 for c in previous if c.tag in _ORDER and _ORDER.index(c.tag) < rank),
                        copy.deepcopy(el))
    change = etree.SubElement(rpr, _RPR_CHANGE, {_ID: str(next_id), _AUTHOR: author, _DATE: date})
    change.append(previous)
