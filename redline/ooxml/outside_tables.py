"""A paragraph put back next to a table goes back outside it.

The writer puts a paragraph before or after a paragraph of the document, so an old paragraph that stood just
before a table (or just after one) is written into the table's first (or last) cell: both views read in the
right order, but Word shows the removed sentence inside the cell. After the comparison is written and turned
round, such a paragraph (removed: its text deleted) is moved out, before or after the table, and the
paragraph marks are set as Word would have them: the cell's own last paragraph keeps its mark untracked, a
paragraph moved after the table has its mark deleted (accepting removes it whole) unless nothing follows the
table to join it to, and one moved before a table keeps its mark (a paragraph cannot join a table).
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

from .oxml import qn
from .revision_kinds import DEL

_P, _TC, _TBL, _BODY = qn("w:p"), qn("w:tc"), qn("w:tbl"), qn("w:body")
_PPR, _RPR = qn("w:pPr"), qn("w:rPr")
_ID, _AUTHOR, _DATE = qn("w:id"), qn("w:author"), qn("w:date")


def move_out_of_tables(paragraphs: Iterable[etree._Element], next_id: int, *, author: str, date: str) -> int:
    """Move each of ``paragraphs`` (put back, not from a table) that sits at the very start or end of a
    top-level table out of it; the next free revision id. Several put back together leave one by one, the
    outermost first, so they keep their order."""
    waiting = list(paragraphs)
    moved_out: list[etree._Element] = []
    moved = True
    while moved:
        moved = False
        for p in reversed(waiting):
            if p.getparent() is not None and p.getparent().tag == _TC and (tbl := _top_table(p)) is not None:
                next_id, out = _move_out(p, tbl, next_id, author, date)
                if out:
                    waiting.remove(p)
                    moved_out.append(p)
                    moved = True
    for p in moved_out:  # one of several before a table: its mark joins it to the next one put back, as removed
        after = p.getnext()
        if after is not None and after.tag == _P and after in moved_out and not _marked(p):
            next_id = _set_mark(p, etree.Element(DEL, {_ID: str(next_id), _AUTHOR: author, _DATE: date}), next_id)
    return next_id


def _marked(p: etree._Element) -> bool:
    rpr = p.find(f"{_PPR}/{_RPR}")
    return rpr is not None and rpr.find(DEL) is not None


def _move_out(p: etree._Element, tbl: etree._Element, next_id: int, author: str, date: str) -> tuple[int, bool]:
    cells = list(tbl.iter(_P))
    if p is cells[0]:
        _set_mark(p, None)
        tbl.addprevious(p)
        return next_id, True
    if p is cells[-1] and len(cells) > 1:
        holder = cells[-2]
        if holder.getparent() is p.getparent():  # the writer gave the cell's mark to the one put back
            _set_mark(holder, None)
        follows = tbl.getnext()
        tbl.addnext(p)
        if follows is not None and follows.tag == _P:
            return _set_mark(p, etree.Element(DEL, {_ID: str(next_id), _AUTHOR: author, _DATE: date}), next_id), True
        _set_mark(p, None)
        return next_id, True
    return next_id, False


def _top_table(p: etree._Element) -> etree._Element | None:
    tables = [a for a in p.iterancestors(_TBL)]
    return tables[-1] if tables and tables[-1].getparent() is not None and tables[-1].getparent().tag == _BODY \
        else None


def _set_mark(p: etree._Element, mark: etree._Element | None, next_id: int = 0) -> int:
    """Replace the tracked state of ``p``'s paragraph mark by ``mark`` (None: untracked)."""
    ppr = p.find(_PPR)
    rpr = ppr.find(_RPR) if ppr is not None else None
    if rpr is not None:
        for old in [c for c in rpr if c.tag in (qn("w:ins"), DEL, qn("w:moveFrom"), qn("w:moveTo"))]:
            rpr.remove(old)
    if mark is None:
        if rpr is not None and not len(rpr):
            ppr.remove(rpr)
        if ppr is not None and not len(ppr) and not ppr.attrib:
            p.remove(ppr)
        return next_id
    if ppr is None:
        ppr = etree.Element(_PPR)
        p.insert(0, ppr)
    if rpr is None:
        rpr = etree.SubElement(ppr, _RPR)
    rpr.insert(0, mark)
    return next_id + 1
