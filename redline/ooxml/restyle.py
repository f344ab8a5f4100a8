"""A paragraph the comparison puts back reads as it did in the old version: its style and its list.

The writer gives a paragraph it inserts the properties of the paragraph it goes next to (right for a new
clause of a review). A paragraph of the old version put back into the new one had its own: a heading that was
a heading, a note that was not in the numbered list around it. So the old paragraph's properties replace the
neighbour's, keeping the writer's record that the paragraph was inserted, and dropping a style or a list the
new version does not define (the new version's styles and lists are the ones the file carries).
"""

from __future__ import annotations

import copy

from lxml import etree

from .oxml import qn
from .package import Package
from .paragraph_copies import plain_properties

_PPR, _RPR, _STYLE, _NUM_PR, _NUM_ID = qn("w:pPr"), qn("w:rPr"), qn("w:pStyle"), qn("w:numPr"), qn("w:numId")
_VAL, _STYLE_ID, _NUM = qn("w:val"), qn("w:styleId"), qn("w:num")
_MARKS = (qn("w:ins"), qn("w:del"), qn("w:moveFrom"), qn("w:moveTo"))
_STYLES_REL, _NUMBERING_REL = "/styles", "/numbering"


def defined(pkg: Package) -> tuple[set[str], set[str]]:
    """The style ids and list (``w:num``) ids the package defines."""
    styles: set[str] = set()
    nums: set[str] = set()
    for target, rel_type in pkg.rels(pkg.main_part).values():
        if not pkg.has(target):
            continue
        if rel_type.endswith(_STYLES_REL):
            styles = {s.get(_STYLE_ID) for s in pkg.xml(target) if s.get(_STYLE_ID)}
        elif rel_type.endswith(_NUMBERING_REL):
            nums = {n.get(qn("w:numId")) for n in pkg.xml(target).iter(_NUM) if n.get(qn("w:numId"))}
    return styles, nums


def restyle(p: etree._Element, old: etree._Element, styles: set[str], nums: set[str]) -> None:
    """Give ``p`` (inserted by the writer) the properties of ``old`` (the paragraph it puts back)."""
    ppr = p.find(_PPR)
    mark_rpr = ppr.find(_RPR) if ppr is not None else None
    marks = [copy.deepcopy(m) for m in (mark_rpr if mark_rpr is not None else ()) if m.tag in _MARKS]
    new = plain_properties(old)
    if new is None:
        new = etree.Element(_PPR)
    style = new.find(_STYLE)
    if style is not None and style.get(_VAL) not in styles:
        new.remove(style)
    num = new.find(_NUM_PR)
    if num is not None and (num.find(_NUM_ID) is None or num.find(_NUM_ID).get(_VAL) not in nums):
        new.remove(num)
    if marks:
        rpr = new.find(_RPR)
        if rpr is None:
            rpr = etree.SubElement(new, _RPR)
        for mark in reversed(marks):
            rpr.insert(0, mark)
    if ppr is not None:
        p.remove(ppr)
    if len(new):
        p.insert(0, new)
