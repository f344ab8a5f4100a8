"""Tracked changes: accept and reject them, and make new ones with unique ids.

The engine proves every edit it writes by accepting and rejecting it here, so
this module is the engine's one reading of ECMA-376 §17.13.5 (revisions):

* run-level ``w:ins``/``w:moveTo``: accepting keeps the content, rejecting drops it;
  ``w:del``/``w:moveFrom`` the reverse (kept ``w:delText`` becomes ``w:t`` again,
  ``w:delInstrText`` becomes ``w:instrText``);
* a tracked paragraph mark (``w:pPr/w:rPr/w:ins|w:del|w:moveFrom|w:moveTo``):
  when the mark goes away (an accepted deletion, a rejected insertion) the
  paragraph merges with the next one, whose properties survive;
* ``w:rPrChange``/``w:pPrChange``/``w:sectPrChange``, the table property changes
  and ``w:tblGridChange``: accepting drops the record, rejecting restores the
  recorded properties (what the record does not cover, such as a paragraph
  mark's revision or a section's header references, stays); a property
  element left empty by a reject is removed, except the ones a table or a
  section break cannot lose;
* table rows inserted or deleted (``w:trPr/w:ins|w:del``), cells inserted or
  deleted (``w:cellIns``/``w:cellDel``) and vertical merges (``w:cellMerge``);
* inserted numbering (``w:numPr/w:ins``) and ``w:numberingChange`` (whose
  record is a label as displayed, not properties, so it is dropped either way);
* custom XML markup inserted or deleted (``w:customXmlInsRangeStart``…): when
  the markup goes, the ``w:customXml`` element is unwrapped, its content stays;
* move range markers disappear either way, and a move is resolved as a whole:
  selecting one side of a named move selects the other.

Range markers (bookmarks, comment ranges) inside removed content are kept
(:mod:`.markers`), so anchors and comments are never lost.

Revisions are selected by author, id and/or the ``_RL_`` anchor of their
paragraph; with none of these, all are resolved. Each handler is keyed by
(tag, where it sits), so more revision kinds are added by adding a handler
(:mod:`redline.ooxml.revision_kinds`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from lxml import etree

from .anchors import anchor_map
from .markers import KEEP_MARKERS
from .oxml import qn
from .revision_kinds import (
    CELL_DEL,
    CELL_INS,
    CELL_MERGE,
    CUSTOM_XML_STARTS,
    DEL,
    INS,
    MOVE_FROM,
    MOVE_STARTS,
    MOVE_TO,
    PROPERTY_CHANGES,
    handler,
)

_ID = qn("w:id")
_AUTHOR = qn("w:author")
_DATE = qn("w:date")
_NAME = qn("w:name")
_P = qn("w:p")
_P_PR = qn("w:pPr")
_R_PR = qn("w:rPr")
_TBL = qn("w:tbl")
_TBL_PR = qn("w:tblPr")
_TR = qn("w:tr")
_TC = qn("w:tc")
_SECT_PR = qn("w:sectPr")

RPR_CHANGE, PPR_CHANGE = qn("w:rPrChange"), qn("w:pPrChange")
TBL_PR_CHANGE, TBL_GRID_CHANGE = qn("w:tblPrChange"), qn("w:tblGridChange")
NUMBERING_CHANGE = qn("w:numberingChange")
_MOVE_RANGES = frozenset(
    qn(t) for t in ("w:moveFromRangeStart", "w:moveFromRangeEnd", "w:moveToRangeStart", "w:moveToRangeEnd")
)
_RANGE_ENDS = frozenset(
    qn(f"w:{t}")
    for t in ("moveFromRangeEnd", "moveToRangeEnd", "customXmlInsRangeEnd", "customXmlDelRangeEnd",
              "customXmlMoveToRangeEnd", "customXmlMoveFromRangeEnd")
)

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
# What a resolution visits (range ends go with their starts).
_RESOLVED_TAGS = (
    INS, DEL, MOVE_FROM, MOVE_TO, *PROPERTY_CHANGES, *MOVE_STARTS, *CUSTOM_XML_STARTS,
    NUMBERING_CHANGE, CELL_INS, CELL_DEL, CELL_MERGE,
)

# Paragraph-level markup that may sit between two paragraphs without being content.
_BETWEEN_PARAGRAPHS = frozenset(
    (*KEEP_MARKERS, *_MOVE_RANGES, *CUSTOM_XML_STARTS, *_RANGE_ENDS, qn("w:proofErr"), qn("w:permStart"),
     qn("w:permEnd"))
)
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


def selector(
    *,
    authors: Iterable[str] | None = None,
    ids: Iterable[str] | None = None,
    paragraphs: Iterable[etree._Element] | None = None,
) -> Selector | None:
    """A predicate on revision elements: by author, id and/or paragraph (every
    filter given must match); None when no filter is given (everything)."""
    if authors is None and ids is None and paragraphs is None:
        return None
    author_set = set(authors) if authors is not None else None
    id_set = set(ids) if ids is not None else None
    para_set = set(paragraphs) if paragraphs is not None else None

    def match(el: etree._Element) -> bool:
        if author_set is not None and revision_author(el) not in author_set:
            return False
        if id_set is not None and el.get(_ID) not in id_set:
            return False
        return para_set is None or _in_paragraphs(el, para_set)

    return match


def revision_author(el: etree._Element) -> str | None:
    """The author of a revision element.

    A ``w:tblGridChange`` has no author attribute (CT_Markup); Word writes it
    with the table's ``w:tblPrChange``, whose author it takes.
    """
    author = el.get(_AUTHOR)
    if author is None and el.tag == TBL_GRID_CHANGE:
        tbl = el.getparent().getparent() if el.getparent() is not None else None
        change = tbl.find(f"{_TBL_PR}/{TBL_PR_CHANGE}") if tbl is not None else None
        author = change.get(_AUTHOR) if change is not None else None
    return author


def _in_paragraphs(el: etree._Element, paragraphs: set[etree._Element]) -> bool:
    """True when ``el`` belongs to one of ``paragraphs``: it sits inside one, or it
    is a row, cell or table revision whose row, cell or table holds one."""
    scope = next(el.iterancestors(_P, _TC, _TR, _TBL), None)
    if scope is None:
        return False
    if scope.tag == _P:
        return scope in paragraphs
    return any(p in paragraphs for p in scope.iter(_P))


def accept(
    root: etree._Element,
    *,
    authors: Iterable[str] | None = None,
    ids: Iterable[str] | None = None,
    anchors: Iterable[str] | None = None,
) -> int:
    """Accept the selected revisions under ``root`` in place; returns how many."""
    return _resolve(root, _select(root, authors, ids, anchors), accepting=True)


def reject(
    root: etree._Element,
    *,
    authors: Iterable[str] | None = None,
    ids: Iterable[str] | None = None,
    anchors: Iterable[str] | None = None,
) -> int:
    """Reject the selected revisions under ``root`` in place; returns how many."""
    return _resolve(root, _select(root, authors, ids, anchors), accepting=False)


def _select(
    root: etree._Element, authors: Iterable[str] | None, ids: Iterable[str] | None, anchors: Iterable[str] | None
) -> Selector | None:
    paragraphs = None
    if anchors is not None:
        by_name = anchor_map(root)
        paragraphs = [by_name[a] for a in anchors if a in by_name]
    return selector(authors=authors, ids=ids, paragraphs=paragraphs)


def _resolve(root: etree._Element, match: Selector | None, *, accepting: bool) -> int:
    candidates = list(root.iter(*_RESOLVED_TAGS))
    chosen = candidates if match is None else _with_move_partners(root, [el for el in candidates if match(el)])
    range_ids = {el.get(_ID) for el in chosen if el.tag in MOVE_STARTS or el.tag in CUSTOM_XML_STARTS}
    ends = [el for el in root.iter(*_RANGE_ENDS) if el.get(_ID) in range_ids] if range_ids else []
    merges: list[etree._Element] = []
    count = 0
    for el in chosen:
        parent = el.getparent()
        if parent is None:
            continue
        resolve = handler(el, parent)
        if resolve is None:
            continue  # not a revision (a w:ins inside a run's properties…): left as it is
        count += 1
        merge = resolve(el, parent, accepting)
        if merge is not None:
            merges.append(merge)
    for el in ends:
        if el.getparent() is not None:
            el.getparent().remove(el)
    for p in reversed(merges):
        _merge_with_next(p)
    return count


def _with_move_partners(root: etree._Element, chosen: list[etree._Element]) -> list[etree._Element]:
    """``chosen`` plus the rest of every named move it touches, in document order.

    Word resolves a move as one change: accepting only the destination would
    leave the text twice. Move content belongs to the move whose named range
    (``w:moveFromRangeStart``/``w:moveToRangeStart``) is open around it.
    """
    if not chosen:
        return chosen
    name_of: dict[etree._Element, str] = {}
    open_ranges: dict[str, dict[str, str]] = {MOVE_FROM: {}, MOVE_TO: {}}
    ends = {qn("w:moveFromRangeEnd"): MOVE_FROM, qn("w:moveToRangeEnd"): MOVE_TO}
    for el in root.iter(MOVE_FROM, MOVE_TO, *MOVE_STARTS, *ends):
        tag = el.tag
        if tag in MOVE_STARTS:
            name = el.get(_NAME) or ""
            open_ranges[MOVE_STARTS[tag]][el.get(_ID, "")] = name
            name_of[el] = name
        elif tag in ends:
            open_ranges[ends[tag]].pop(el.get(_ID, ""), None)
        elif open_ranges[tag]:
            name_of[el] = next(reversed(open_ranges[tag].values()))
    names = {name_of[el] for el in chosen if el in name_of} - {""}  # an unnamed range pairs with nothing
    if not names:
        return chosen
    picked = set(chosen)
    picked.update(el for el, name in name_of.items() if name in names)
    return [el for el in root.iter(*_RESOLVED_TAGS) if el in picked]





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
