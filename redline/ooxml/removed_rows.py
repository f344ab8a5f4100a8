"""A table row the new version no longer has comes back as a deleted row, not as text in a neighbouring cell.

The writer can only put paragraphs next to paragraphs, so the cells of a removed row are first written into a
cell of the row before it (both views already read right). After the comparison is turned round, when those
paragraphs are exactly the text of one old row, the old row itself is put back after the row they were
written into: its cells' text deleted and the row marked deleted (``w:trPr/w:del``), so rejecting restores
the row and accepting removes it. The copy carries no bookmarks or comment marks of the old file, and a row
holding pictures, objects or notes (parts of the old package the new one does not have) is left as text.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence

from lxml import etree

from .outside_tables import _set_mark
from .oxml import qn
from .paragraphs import Paragraph
from .revision_kinds import DEL

_P, _R, _TR, _TC, _TR_PR, _TBL_PR_EX = qn("w:p"), qn("w:r"), qn("w:tr"), qn("w:tc"), qn("w:trPr"), qn("w:tblPrEx")
_TBL = qn("w:tbl")
_T, _DEL_TEXT, _INSTR, _DEL_INSTR = qn("w:t"), qn("w:delText"), qn("w:instrText"), qn("w:delInstrText")
_CANT_SPLIT, _VAL = qn("w:cantSplit"), qn("w:val")
_ID, _AUTHOR, _DATE = qn("w:id"), qn("w:author"), qn("w:date")
_DROP = tuple(qn(f"w:{t}") for t in ("bookmarkStart", "bookmarkEnd", "commentRangeStart", "commentRangeEnd",
                                     "commentReference", "permStart", "permEnd", "proofErr"))
_FOREIGN = tuple(qn(f"w:{t}") for t in ("drawing", "pict", "object", "footnoteReference", "endnoteReference"))
_REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def restore_rows(groups: Sequence[tuple[list[etree._Element], list[Paragraph], str]], next_id: int, *,
                 author: str, date: str, same_table: Callable[[etree._Element, int], bool]) -> int:
    """For each group (the paragraphs the writer put back, the old paragraphs they are, and whether they went
    ``before`` or ``after`` their neighbour), put the old row back as a deleted row when the group is one
    whole old row of a top-level table and the row it goes next to is in that same table (``same_table(tbl,
    old table number)``: some paragraph of it is one of the old table's); the next free revision id. Rows put
    back after one row keep their order."""
    placed: dict[int, etree._Element] = {}  # host row → the last row put back after it
    for written, olds, position in groups:
        row = _whole_row(olds)
        if row is None or not written or any(p.getparent() is not written[0].getparent() for p in written):
            continue
        parent = written[0].getparent()
        if parent.tag == _TC:
            host, first = next(written[0].iterancestors(_TR)), position == "before"
            if not _top_level(host) or not same_table(host.getparent(), olds[0].table.table):
                continue
            holder = written[0].getprevious()
            for p in written:
                parent.remove(p)
            if not first and holder is not None and holder.tag == _P and holder.getnext() is None:
                _set_mark(holder, None)  # the writer had given the cell's own mark to what it put back
        elif written[-1].getnext() is not None and written[-1].getnext().tag == _TBL:
            host, first = next(written[-1].getnext().iterchildren(_TR), None), True  # rows before the table's first
            if host is None or not same_table(host.getparent(), olds[0].table.table):
                continue
            for p in written:
                parent.remove(p)
        else:
            continue
        anchor = placed.get(id(host), host)
        new, next_id = _deleted_copy(row, next_id, author, date)
        if first:
            host.addprevious(new)
        else:
            anchor.addnext(new)
            placed[id(host)] = new
    return next_id


def _whole_row(olds: list[Paragraph]) -> etree._Element | None:
    """The old ``w:tr`` when ``olds`` are all of its text paragraphs and it is a plain row of a top-level table
    (no nested table, nothing from other parts of the old package)."""
    if not olds or olds[0].table is None or olds[0].table.parent is not None:
        return None
    tr = next(olds[0].element.iterancestors(_TR), None)
    if tr is None or any(next(p.element.iterancestors(_TR), None) is not tr for p in olds):
        return None
    texts = [p for p in tr.iter(_P) if "".join(t.text or "" for t in p.iter(_T)).strip()
             and next(p.iterancestors(_TR)) is tr]
    if {id(p) for p in texts} != {id(p.element) for p in olds}:
        return None
    if any(True for _ in tr.iter(*_FOREIGN, _TBL)) or any(k.startswith(f"{{{_REL_NS}}}") for el in tr.iter()
                                                        for k in el.attrib):
        return None
    return tr


def _top_level(tr: etree._Element) -> bool:
    tbl = tr.getparent()
    return tbl is not None and tbl.tag == _TBL and next(tbl.iterancestors(_TBL), None) is None


def _deleted_copy(row: etree._Element, next_id: int, author: str, date: str) -> tuple[etree._Element, int]:
    new = copy.deepcopy(row)
    for el in list(new.iter(*_DROP)):
        el.getparent().remove(el)
    for r in list(new.iter(_R)):
        for t in r.iter(_T, _INSTR):
            t.tag = _DEL_TEXT if t.tag == _T else _DEL_INSTR
        wrapper = etree.Element(DEL, {_ID: str(next_id), _AUTHOR: author, _DATE: date})
        next_id += 1
        r.addprevious(wrapper)
        wrapper.append(r)
    trpr = new.find(_TR_PR)
    if trpr is None:
        trpr = etree.Element(_TR_PR)
        etree.SubElement(trpr, _CANT_SPLIT, {_VAL: "off"})  # the schema wants one row property first
        new.insert(1 if len(new) and new[0].tag == _TBL_PR_EX else 0, trpr)
    trpr.append(etree.Element(DEL, {_ID: str(next_id), _AUTHOR: author, _DATE: date}))
    return new, next_id + 1
