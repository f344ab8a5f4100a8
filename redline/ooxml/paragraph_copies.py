"""What a new or rebuilt paragraph takes from the paragraph it stands in for or next to.

Split from :mod:`redline.ooxml.writer`: an inserted paragraph is styled and
numbered like its anchor but must not copy its section break or anyone's
revision records, and its text takes the formatting of most of the anchor's
text; a paragraph whose mark is rewritten keeps others' mark revisions and its
section break. These rules are about paragraph properties, not about ops.
"""

from __future__ import annotations

import copy
from collections import Counter

from lxml import etree

from .oxml import qn
from .revisions import (
    DEL,
    INS,
    MOVE_FROM,
    MOVE_TO,
    PPR_CHANGE,
    RPR_CHANGE,
    paragraph_mark_revisions,
    track_paragraph_mark,
)
from .run_xml import formatting_of, in_container
from .text import text_segments

_PPR = qn("w:pPr")
_RPR = qn("w:rPr")
_SECT_PR = qn("w:sectPr")


def plain_properties(p: etree._Element) -> etree._Element | None:
    """A copy of ``p``'s ``w:pPr`` for a new neighbour: same style, numbering and
    layout, but no section break and no record of anyone's revisions."""
    ppr = p.find(_PPR)
    if ppr is None:
        return None
    out = copy.deepcopy(ppr)
    for child in list(out):
        if child.tag in (_SECT_PR, PPR_CHANGE):
            out.remove(child)
    rpr = out.find(_RPR)
    if rpr is not None:
        for child in list(rpr):
            if child.tag in (INS, DEL, MOVE_FROM, MOVE_TO, RPR_CHANGE):
                rpr.remove(child)
        if not len(rpr):
            out.remove(rpr)
    return out


def dominant_formatting(p: etree._Element) -> etree._Element | None:
    """The run formatting of most of ``p``'s text (a bold defined term at the start
    of a clause should not make a whole new clause bold)."""
    sizes: Counter[etree._Element] = Counter()
    for owner, text in text_segments(p):
        sizes[owner.getparent()] += len(text)
    if not sizes:
        return None
    run = sizes.most_common(1)[0][0]
    return formatting_of(run, drop_style=in_container(run, p))


def take_mark(p: etree._Element) -> list[etree._Element]:
    """Remove what belongs to ``p``'s paragraph mark rather than its text: others'
    mark revisions and the section break (``w:pPr/w:sectPr``); return them."""
    taken = paragraph_mark_revisions(p)
    sect = p.find(f"{_PPR}/{_SECT_PR}")
    if sect is not None:
        taken.append(sect)
    for el in taken:
        el.getparent().remove(el)
    return taken


def give_mark(p: etree._Element, taken: list[etree._Element]) -> None:
    """Put what :func:`take_mark` removed on ``p``'s mark, in schema order."""
    for el in taken:
        if el.tag == _SECT_PR:
            ppr = p.find(_PPR)
            if ppr is None:
                ppr = etree.Element(_PPR)
                p.insert(0, ppr)
            ppr.append(el)  # plain_properties left no w:pPrChange to follow it
        else:
            track_paragraph_mark(p, el)
