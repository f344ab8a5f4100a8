"""Tracked changes: accept and reject them, and make new ones with unique ids.

The engine proves every edit it writes by accepting and rejecting it here, so
this module is the engine's one reading of ECMA-376 §17.13.5 (revisions):

* run-level ``w:ins``/``w:moveTo``: accepting keeps the content, rejecting drops it;
  ``w:del``/``w:moveFrom`` the reverse (kept ``w:delText`` becomes ``w:t`` again,
  ``w:delInstrText`` becomes ``w:instrText``);
* a tracked paragraph mark (``w:pPr/w:rPr/w:ins|w:del|w:moveFrom|w:moveTo``):
  when the mark goes away (an accepted deletion, a rejected insertion) the
  paragraph merges with the next one, whose properties survive;
* ``w:rPrChange``/``w:pPrChange`` and the table property changes: accepting
  drops the record, rejecting restores the recorded properties;
* table rows inserted or deleted (``w:trPr/w:ins|w:del``);
* move range markers disappear either way.

Range markers (bookmarks, comment ranges) inside removed content are kept: they
move to where the content was, so anchors are never lost.

Revisions are selected by author and/or id; with neither, all are resolved.
Each handler is keyed by (tag, where it sits), so more revision kinds are added
by adding a handler.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from lxml import etree

from .oxml import qn

_ID = qn("w:id")
_AUTHOR = qn("w:author")
_DATE = qn("w:date")
_P = qn("w:p")
_P_PR = qn("w:pPr")
_R_PR = qn("w:rPr")
_TR_PR = qn("w:trPr")
_SECT_PR = qn("w:sectPr")

INS, DEL, MOVE_FROM, MOVE_TO = qn("w:ins"), qn("w:del"), qn("w:moveFrom"), qn("w:moveTo")
RPR_CHANGE, PPR_CHANGE = qn("w:rPrChange"), qn("w:pPrChange")
_PROP_CHANGES = {
    RPR_CHANGE: qn("w:rPr"),
    PPR_CHANGE: qn("w:pPr"),
    qn("w:tblPrChange"): qn("w:tblPr"),
    qn("w:tblPrExChange"): qn("w:tblPrEx"),
    qn("w:trPrChange"): qn("w:trPr"),
    qn("w:tcPrChange"): qn("w:tcPr"),
}
_MOVE_RANGES = frozenset(
    qn(t) for t in ("w:moveFromRangeStart", "w:moveFromRangeEnd", "w:moveToRangeStart", "w:moveToRangeEnd")
)
_RANGE_ENDS = frozenset(qn(t) for t in ("w:moveFromRangeEnd", "w:moveToRangeEnd"))

# Every element whose w:id lives in the revision id space (ECMA-376 §17.13).
REVISION_ID_TAGS: tuple[str, ...] = tuple(
    qn(f"w:{t}")
    for t in (
        "ins", "del", "moveFrom", "moveTo", "moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart",
        "moveToRangeEnd", "rPrChange", "pPrChange", "sectPrChange", "tblPrChange", "tblPrExChange",
        "trPrChange", "tcPrChange", "tblGridChange", "numberingChange", "cellIns", "cellDel", "cellMerge",
        "customXmlInsRangeStart", "customXmlInsRangeEnd", "customXmlDelRangeStart", "customXmlDelRangeEnd",
        "customXmlMoveFromRangeStart", "customXmlMoveFromRangeEnd", "customXmlMoveToRangeStart",
        "customXmlMoveToRangeEnd",
    )
)
_RESOLVED_TAGS = (INS, DEL, MOVE_FROM, MOVE_TO, *_PROP_CHANGES, *_MOVE_RANGES)

# Markers that must survive when the content around them is removed.
_KEEP_MARKERS = tuple(
    qn(f"w:{t}") for t in ("bookmarkStart", "bookmarkEnd", "commentRangeStart", "commentRangeEnd")
)
# Paragraph-level markup that may sit between two paragraphs without being content.
_BETWEEN_PARAGRAPHS = frozenset((*_KEEP_MARKERS, *_MOVE_RANGES, qn("w:proofErr"), qn("w:permStart"), qn("w:permEnd")))
# Property containers: a w:ins/w:del inside one records a property revision, not content.
_PROPERTY_PARENTS = frozenset(
    qn(f"w:{t}") for t in ("rPr", "pPr", "numPr", "tcPr", "tblPr", "trPr", "sectPr", "tblPrEx")
)
_RENAME_ON_RESTORE = {qn("w:delText"): qn("w:t"), qn("w:delInstrText"): qn("w:instrText")}
# Properties of a paragraph that a w:pPrChange does not record (ECMA-376 §17.13.5.29).
_PPR_UNRECORDED = (qn("w:rPr"), _SECT_PR, PPR_CHANGE)
# Tracked-mark children at the head of a paragraph mark's w:rPr (CT_ParaRPr).
_MARK_TAGS = (INS, DEL, MOVE_FROM, MOVE_TO)


def iso_now() -> str:
    """The current UTC time as Word writes revision dates (``2025-01-31T09:30:00Z``)."""
    return datetime.now(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


class RevisionIds:
    """Allocates revision ids unique across every part given at construction.

    Word reads ``w:id`` of insertions, deletions, moves and property changes as
    one id space per document; a duplicate makes it merge or drop revisions. We
    scan once and count upwards from the largest id seen (comment and bookmark
    ids are separate spaces and are not touched).
    """

    def __init__(self, roots: Iterable[etree._Element]) -> None:
        top = -1
        for root in roots:
            for el in root.iter(*REVISION_ID_TAGS):
                value = el.get(_ID, "")
                if value.isdigit():
                    top = max(top, int(value))
        self._next = top + 1

    def next(self) -> str:
        """A fresh id, never handed out before and absent from the scanned parts."""
        value = self._next
        self._next += 1
        return str(value)


@dataclass
class Tracker:
    """Makes revision elements for one author and date, remembering their ids.

    The ids made through a tracker are the selection the writer's round-trip
    proof accepts and rejects.
    """

    author: str
    date: str
    ids: RevisionIds
    made: set[str] = field(default_factory=set)

    def element(self, tag: str) -> etree._Element:
        """A new ``w:ins``/``w:del``/``w:rPrChange``… with id, author and date."""
        rid = self.ids.next()
        self.made.add(rid)
        el = etree.Element(qn(tag))
        el.set(_ID, rid)
        el.set(_AUTHOR, self.author)
        el.set(_DATE, self.date)
        return el


Selector = Callable[[etree._Element], bool]


def selector(*, authors: Iterable[str] | None = None, ids: Iterable[str] | None = None) -> Selector:
    """A predicate on revision elements: by author and/or id (all when neither)."""
    author_set = set(authors) if authors is not None else None
    id_set = set(ids) if ids is not None else None

    def match(el: etree._Element) -> bool:
        if author_set is not None and el.get(_AUTHOR) not in author_set:
            return False
        return id_set is None or el.get(_ID) in id_set

    return match


def accept(root: etree._Element, *, authors: Iterable[str] | None = None, ids: Iterable[str] | None = None) -> int:
    """Accept the selected revisions under ``root`` in place; returns how many."""
    return _resolve(root, selector(authors=authors, ids=ids), accepting=True)


def reject(root: etree._Element, *, authors: Iterable[str] | None = None, ids: Iterable[str] | None = None) -> int:
    """Reject the selected revisions under ``root`` in place; returns how many."""
    return _resolve(root, selector(authors=authors, ids=ids), accepting=False)


def _resolve(root: etree._Element, match: Selector, *, accepting: bool) -> int:
    chosen = [el for el in root.iter(*_RESOLVED_TAGS) if el.tag not in _RANGE_ENDS and match(el)]
    range_ids = {el.get(_ID) for el in chosen if el.tag in _MOVE_RANGES}
    ends = [el for el in root.iter(*_RANGE_ENDS) if el.get(_ID) in range_ids]
    merges: list[etree._Element] = []
    count = 0
    for el in chosen:
        parent = el.getparent()
        if parent is None:
            continue
        handler = _handler(el, parent)
        if handler is None:
            continue  # a kind of revision this engine does not resolve yet: left as it is
        count += 1
        merge = handler(el, parent, accepting)
        if merge is not None:
            merges.append(merge)
    for el in ends:
        if el.getparent() is not None:
            el.getparent().remove(el)
    for p in reversed(merges):
        _merge_with_next(p)
    return count


Handler = Callable[[etree._Element, etree._Element, bool], "etree._Element | None"]


def _handler(el: etree._Element, parent: etree._Element) -> Handler | None:
    """How to resolve ``el`` given where it sits (None: not supported here)."""
    tag = el.tag
    if tag in _MOVE_RANGES:
        return _resolve_marker
    if tag in _PROP_CHANGES:
        return _resolve_property_change
    if parent.tag == _R_PR:
        grand = parent.getparent()
        return _resolve_paragraph_mark if grand is not None and grand.tag == _P_PR else None
    if parent.tag == _TR_PR:
        return _resolve_row if tag in (INS, DEL) else None
    if parent.tag in _PROPERTY_PARENTS:
        return None
    return _resolve_content


def _resolve_marker(el: etree._Element, parent: etree._Element, accepting: bool) -> None:
    parent.remove(el)


def _resolve_property_change(el: etree._Element, parent: etree._Element, accepting: bool) -> None:
    if not accepting:
        _restore_properties(parent, el)
    parent.remove(el)


def _resolve_paragraph_mark(el: etree._Element, parent: etree._Element, accepting: bool) -> etree._Element | None:
    """The mark goes when an insertion is rejected or a deletion accepted; its
    paragraph then joins the next one (returned for merging last)."""
    parent.remove(el)
    if (el.tag in (INS, MOVE_TO)) != accepting:
        return parent.getparent().getparent()
    return None


def _resolve_row(el: etree._Element, parent: etree._Element, accepting: bool) -> None:
    parent.remove(el)
    if (el.tag == INS) != accepting:
        _drop(parent.getparent())


def _resolve_content(el: etree._Element, parent: etree._Element, accepting: bool) -> None:
    if (el.tag in (INS, MOVE_TO)) == accepting:
        if not accepting:
            for old in el.iter(*_RENAME_ON_RESTORE):
                old.tag = _RENAME_ON_RESTORE[old.tag]
        _unwrap(el)
    else:
        _drop(el)


def _unwrap(el: etree._Element) -> None:
    """Replace an element by its children."""
    for child in list(el):
        el.addprevious(child)
    el.getparent().remove(el)


def _drop(el: etree._Element) -> None:
    """Remove an element but keep the range markers inside it, in its place."""
    parent = el.getparent()
    if parent is None:
        return
    for marker in list(el.iter(*_KEEP_MARKERS)):
        el.addprevious(marker)
    parent.remove(el)


def _restore_properties(props: etree._Element, change: etree._Element) -> None:
    """Put the properties recorded in a ``w:*PrChange`` back into ``props``."""
    recorded = change.find(_PROP_CHANGES[change.tag])
    if props.tag == _P_PR:
        kept = [c for c in props if c.tag in _PPR_UNRECORDED]
    elif props.tag == _R_PR:
        kept = [c for c in props if c.tag in _MARK_TAGS or c is change]
    else:
        kept = [change]
    for child in list(props):
        if all(child is not k for k in kept):
            props.remove(child)
    head = [c for c in kept if c.tag in _MARK_TAGS]
    insert_at = len(head)
    for child in list(recorded) if recorded is not None else []:
        props.insert(insert_at, child)
        insert_at += 1


def _merge_with_next(p: etree._Element) -> None:
    """Join paragraph ``p`` to the paragraph after it (its mark is gone).

    The next paragraph keeps its own properties; ``p``'s content moves to its
    front. A paragraph with no following paragraph in its container keeps its
    mark (there is nothing to join), as Word does for the last paragraph of a
    cell or of the document.
    """
    nxt = next_paragraph(p)
    if nxt is None:
        return
    ppr = nxt.find(_P_PR)
    at = 1 if ppr is not None and nxt.index(ppr) == 0 else 0
    for child in list(p):
        if child.tag == _P_PR:
            continue
        nxt.insert(at, child)
        at += 1
    p.getparent().remove(p)


def next_paragraph(p: etree._Element) -> etree._Element | None:
    """The paragraph right after ``p`` in its container, or None when the next
    block is a table, a content control or the end of the container (range
    markers between the two are skipped)."""
    nxt = p.getnext()
    while nxt is not None and nxt.tag in _BETWEEN_PARAGRAPHS:
        nxt = nxt.getnext()
    return nxt if nxt is not None and nxt.tag == _P else None


def track_paragraph_mark(p: etree._Element, revision: etree._Element) -> None:
    """Mark ``p``'s paragraph mark inserted or deleted (``w:pPr/w:rPr/w:ins|w:del``).

    Creates ``w:pPr`` and its ``w:rPr`` where missing, in schema order (the mark's
    ``w:rPr`` comes before ``w:sectPr`` and ``w:pPrChange``; the tracked-mark
    elements come first inside it, ``w:ins`` before ``w:del``).
    """
    ppr = p.find(_P_PR)
    if ppr is None:
        ppr = etree.Element(_P_PR)
        p.insert(0, ppr)
    rpr = ppr.find(_R_PR)
    if rpr is None:
        rpr = etree.Element(_R_PR)
        later = next((c for c in ppr if c.tag in (_SECT_PR, PPR_CHANGE)), None)
        if later is not None:
            later.addprevious(rpr)
        else:
            ppr.append(rpr)
    order = _MARK_TAGS.index(revision.tag)
    at = 0
    while at < len(rpr) and rpr[at].tag in _MARK_TAGS and _MARK_TAGS.index(rpr[at].tag) < order:
        at += 1
    rpr.insert(at, revision)


def paragraph_mark_revisions(p: etree._Element) -> list[etree._Element]:
    """The tracked-mark elements of ``p`` (inserted, deleted or moved mark)."""
    rpr = p.find(f"{_P_PR}/{_R_PR}")
    return [] if rpr is None else [c for c in rpr if c.tag in _MARK_TAGS]
