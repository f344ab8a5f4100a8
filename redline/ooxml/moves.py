"""Whole paragraphs and rows as Word records them: a paragraph that only moved as a move, a row that is new as an
inserted row.

After a comparison is written (:mod:`.compare`), a paragraph removed whole at one place and a paragraph added
whole at another with the same text (whitespace aside) of at least :data:`MOVE_MIN_WORDS` words become one
move: ``w:moveFrom`` at the old place, ``w:moveTo`` at the new, joined by named ranges, so Word shows "Moved"
and accepting or rejecting one side takes the other with it. Shorter paragraphs ("Not used.", a heading
"Notices") stay a deletion and an insertion: two equal short lines are often not one clause moved, and a move
claims they are. A paragraph is moved only when every run of it belongs to the one revision (and its mark
too, when its mark is tracked).

A table row whose every piece of text is inserted is marked as an inserted row (``w:trPr/w:ins``), so
rejecting takes the row away rather than leaving an empty one behind.
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

from .align import normalise
from .oxml import qn
from .revision_kinds import DEL, INS, MOVE_FROM, MOVE_TO
from .revisions import REVISION_ID_TAGS
from .text import paragraph_text

MOVE_MIN_WORDS = 8
_P, _R, _PPR, _RPR = qn("w:p"), qn("w:r"), qn("w:pPr"), qn("w:rPr")
_TR, _TR_PR, _TBL_PR_EX, _CANT_SPLIT = qn("w:tr"), qn("w:trPr"), qn("w:tblPrEx"), qn("w:cantSplit")
_T, _DEL_TEXT, _INSTR, _DEL_INSTR = qn("w:t"), qn("w:delText"), qn("w:instrText"), qn("w:delInstrText")
_ID, _AUTHOR, _DATE, _NAME = qn("w:id"), qn("w:author"), qn("w:date"), qn("w:name")
_RANGES = {MOVE_FROM: ("w:moveFromRangeStart", "w:moveFromRangeEnd"), MOVE_TO: ("w:moveToRangeStart", "w:moveToRangeEnd")}


def record_moves(root: etree._Element, roots: Iterable[etree._Element], *, author: str, date: str) -> int:
    """Turn whole-paragraph deletions and insertions of equal text in ``root`` (the body) into moves; ``roots``
    are every story of the package (revision ids are unique across them). Returns how many moves."""
    deleted: dict[str, list[etree._Element]] = {}
    inserted: list[tuple[str, etree._Element]] = []
    for p in root.iter(_P):
        if _whole(p, DEL):
            deleted.setdefault(normalise(paragraph_text(p, "reject")), []).append(p)
        elif _whole(p, INS):
            inserted.append((normalise(paragraph_text(p, "accept")), p))
    # rows first: a new row whose paragraph then turns out to be a move is still a new row
    next_id = mark_inserted_rows(root, next_revision_id(roots), author=author, date=date)
    moves = 0
    for text, to in inserted:
        if len(text.split()) < MOVE_MIN_WORDS or not deleted.get(text):
            continue
        frm = deleted[text].pop(0)
        moves += 1
        name = f"_RLmove{moves}"
        next_id = _convert(frm, DEL, MOVE_FROM, name, next_id, author, date)
        next_id = _convert(to, INS, MOVE_TO, name, next_id, author, date)
    return moves


def next_revision_id(roots: Iterable[etree._Element]) -> int:
    """One more than the highest revision id in any story (they are unique across the document)."""
    return 1 + max((int(v) for r in roots for el in r.iter(*REVISION_ID_TAGS) if (v := el.get(_ID, "")).isdigit()),
                   default=0)


def _whole(p: etree._Element, tag: str) -> bool:
    """Whether all ``p``'s text is one kind of revision (``w:ins`` or ``w:del``), and its mark too unless the
    mark is not tracked at all (the last paragraph of a cell or of the document keeps its mark)."""
    rpr = p.find(f"{_PPR}/{_RPR}")
    marks = [el.tag for el in rpr if el.tag in (INS, DEL, MOVE_FROM, MOVE_TO)] if rpr is not None else []
    if marks and marks != [tag]:
        return False
    runs = [r for r in p.iter(_R) if any(True for _ in r.iter(_T, _DEL_TEXT))]
    return bool(runs) and all((rev := r.getparent()) is not None and rev.tag == tag and rev.getparent() is p
                              for r in runs)


def _convert(p: etree._Element, old: str, new: str, name: str, next_id: int, author: str, date: str) -> int:
    """Rename ``p``'s ``old`` revisions to ``new`` and wrap them in a named move range; the next free id."""
    text_tags = {_DEL_TEXT: _T, _DEL_INSTR: _INSTR} if old == DEL else {}
    rpr = p.find(f"{_PPR}/{_RPR}")
    if rpr is not None and (mark := rpr.find(old)) is not None:
        mark.tag = new
    parts = [el for el in p if el.tag == old]
    for el in parts:
        el.tag = new
        for t in el.iter(*text_tags) if text_tags else ():
            t.tag = text_tags[t.tag]
    start_tag, end_tag = _RANGES[new]
    start = etree.Element(qn(start_tag), {_ID: str(next_id), _AUTHOR: author, _DATE: date, _NAME: name})
    end = etree.Element(qn(end_tag), {_ID: str(next_id)})
    parts[0].addprevious(start)
    parts[-1].addnext(end)
    return next_id + 1


def mark_inserted_rows(root: etree._Element, next_id: int, *, author: str, date: str) -> int:
    """Mark every row of ``root`` whose text is all inserted as an inserted row; the next free revision id."""
    for tr in root.iter(_TR):
        runs = [r for r in tr.iter(_R) if any(True for _ in r.iter(_T)) and _own_row(r, tr)]
        if not runs or any(r.getparent().tag != INS for r in runs):
            continue
        trpr = tr.find(_TR_PR)
        if trpr is None:  # the schema wants one row property before the revision: "may split", the default
            trpr = etree.Element(_TR_PR)
            etree.SubElement(trpr, _CANT_SPLIT, {qn("w:val"): "off"})
            tr.insert(1 if len(tr) and tr[0].tag == _TBL_PR_EX else 0, trpr)
        if trpr.find(INS) is None:
            trpr.append(etree.Element(INS, {_ID: str(next_id), _AUTHOR: author, _DATE: date}))
            next_id += 1
    return next_id


def _own_row(r: etree._Element, tr: etree._Element) -> bool:
    """Whether run ``r`` is in row ``tr`` itself, not in a table nested in one of its cells."""
    return next(r.iterancestors(_TR)) is tr
