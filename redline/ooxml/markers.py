"""Keeping range markers alive when the content around them is removed.

Bookmarks (our ``_RL_`` anchors among them) and comment ranges are where a
reader, a reviewer or the add-in finds things again. When accepting or
rejecting a revision removes the content they sit in, they must not disappear
with it: run-level content leaves them where it was, and a removed block (a
table row, a cell, a table) hands them to the nearest paragraph that stays.
A comment's reference run is kept the same way, so no comment loses its mark.
"""

from __future__ import annotations

from lxml import etree

from .oxml import qn

_P = qn("w:p")
_P_PR = qn("w:pPr")
_R = qn("w:r")
_R_PR = qn("w:rPr")
_COMMENT_REFERENCE = qn("w:commentReference")

# Markers that must survive when the content around them is removed.
KEEP_MARKERS = tuple(
    qn(f"w:{t}") for t in ("bookmarkStart", "bookmarkEnd", "commentRangeStart", "commentRangeEnd")
)
# Containers that are a story of their own: a marker never leaves one for another.
_STORIES = frozenset(
    qn(f"w:{t}") for t in ("body", "hdr", "ftr", "footnote", "endnote", "comment", "txbxContent")
)


def drop_content(el: etree._Element) -> None:
    """Remove run-level content but leave its markers and comment references in its place."""
    parent = el.getparent()
    if parent is None:
        return
    for kept in _kept(el):
        el.addprevious(kept)
    parent.remove(el)


def remove_block(el: etree._Element) -> None:
    """Remove a block (row, cell, table, paragraph), moving its markers and comment
    references to the nearest paragraph that stays.

    The nearest is the first paragraph after the block in document order (the
    markers go to its start, in their order) or, when there is none in the
    story, the last paragraph before it (at its end). Either way every start
    stays before its end: a range that began before the block now ends at the
    start of the next paragraph, one that ends after it now starts there.
    """
    parent = el.getparent()
    if parent is None:
        return
    kept = _kept(el)
    if kept:
        target, after = _nearest_paragraph(el)
        if target is not None:
            if after:
                at = 1 if len(target) and target[0].tag == _P_PR else 0
                for item in kept:
                    target.insert(at, item)
                    at += 1
            else:
                for item in kept:
                    target.append(item)
    parent.remove(el)


def _kept(el: etree._Element) -> list[etree._Element]:
    """The markers under ``el`` and a bare run for each comment reference, in document order."""
    out: list[etree._Element] = []
    for item in list(el.iter(*KEEP_MARKERS, _COMMENT_REFERENCE)):
        if item.tag != _COMMENT_REFERENCE:
            out.append(item)
            continue
        run = etree.Element(_R)
        old = item.getparent()
        rpr = old.find(_R_PR) if old is not None and old.tag == _R else None
        if rpr is not None:
            run.append(rpr)  # the reference's character style
        run.append(item)
        out.append(run)
    return out


def _nearest_paragraph(el: etree._Element) -> tuple[etree._Element | None, bool]:
    """(paragraph, True) for the first paragraph after ``el`` in its story, else
    (paragraph, False) for the last one before it, else (None, False)."""
    node: etree._Element | None = el
    while node is not None and node.tag not in _STORIES:
        for sibling in node.itersiblings():
            p = sibling if sibling.tag == _P else next(sibling.iter(_P), None)
            if p is not None:
                return p, True
        node = node.getparent()
    node = el
    while node is not None and node.tag not in _STORIES:
        for sibling in node.itersiblings(preceding=True):
            inside = [sibling] if sibling.tag == _P else list(sibling.iter(_P))
            if inside:
                return inside[-1], False
        node = node.getparent()
    return None, False
