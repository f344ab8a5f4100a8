"""Tracked changes and comments as data: what changed, by whom, before and after.

Lawyers and our pipeline read a counterparty's redline as records, one per
paragraph of the main document that holds revisions or comments, in document
order (body, tables, content controls, text boxes)::

    {"para_id", "before_text", "after_text", "revisions": [...], "comments": [...]}

``para_id`` is the paragraph's ``_RL_`` anchor, or ``_anon_para_<n>`` with
``n`` its index among the document's paragraphs, so no changed paragraph is
ever dropped and the same file always gives the same ids.

``before_text``/``after_text`` come from copies of the document with every
change rejected/accepted by :mod:`.revisions`, matched to the paragraph by
*identity*, not position (inserted and deleted paragraphs shift positions):
each paragraph carries a processing instruction that moves with its content.
A paragraph whose mark goes in a view has merged with the next one, so its
text there is the merged paragraph's, or "" when it kept no text of its own
(it was wholly inserted or deleted); a paragraph removed with its table row
reads "".

A revision outside any paragraph (a table row, cell or table property
change) belongs to the first paragraph after it, which is the first
paragraph of its row, cell or table; the last section's properties belong to
the last paragraph. Comments belong to the paragraph their range starts in
(or their reference sits in); replies are nested under their parent
(``commentsExtended.xml`` ``paraIdParent``), ``resolved`` is ``w15:done``.

The whole list is computed once (:func:`extract_all`) and pages are sliced
from it (:meth:`RevisionExtraction.page`), so callers cache one object per
document version.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from lxml import etree

from .anchors import anchor_map
from .errors import DocxError
from .oxml import qn
from .package import Package
from .revisions import (
    CELL_DEL,
    CELL_INS,
    CELL_MERGE,
    DEL,
    INS,
    MOVE_FROM,
    MOVE_TO,
    NUMBERING_CHANGE,
    RPR_CHANGE,
    accept,
    reject,
    revision_author,
)
from .text import View, paragraph_text

MAX_LIMIT = 500
DEFAULT_LIMIT = 50

_ID = qn("w:id")
_AUTHOR = qn("w:author")
_DATE = qn("w:date")
_P = qn("w:p")
_P_PR = qn("w:pPr")
_R = qn("w:r")
_R_PR = qn("w:rPr")
_T = qn("w:t")
_DEL_TEXT = qn("w:delText")
_TR = qn("w:tr")
_TR_PR = qn("w:trPr")
_TC = qn("w:tc")
_NUM_PR = qn("w:numPr")
_BODY = qn("w:body")
_COMMENT = qn("w:comment")
_COMMENT_START = qn("w:commentRangeStart")
_COMMENT_REFERENCE = qn("w:commentReference")
_FALLBACK = qn("mc:Fallback")
_PARA_ID = qn("w14:paraId")
_EX_PARA_ID = qn("w15:paraId")
_EX_PARENT = qn("w15:paraIdParent")
_EX_DONE = qn("w15:done")
_DONE_VALUES = ("1", "true", "on")
_STAMP = "redline-paragraph"  # processing-instruction target that marks a paragraph's identity

_CONTENT = {INS: "INSERTION", DEL: "DELETION", MOVE_FROM: "MOVE_FROM", MOVE_TO: "MOVE_TO"}
# The view a revision's own text is read in: what it adds as accepted, what it removes as it was.
_CONTENT_VIEW: dict[str, View] = {INS: "accept", MOVE_TO: "accept", DEL: "reject", MOVE_FROM: "reject"}
_PARAGRAPH_PROPERTY = (qn("w:pPrChange"), qn("w:sectPrChange"), NUMBERING_CHANGE)
_TABLE = (
    *(qn(f"w:{t}") for t in ("tblPrChange", "tblGridChange", "tblPrExChange", "trPrChange", "tcPrChange")),
    CELL_INS, CELL_DEL, CELL_MERGE,
)
_CUSTOM_XML = {
    qn("w:customXmlInsRangeStart"): "INSERTION",
    qn("w:customXmlDelRangeStart"): "DELETION",
    qn("w:customXmlMoveFromRangeStart"): "MOVE_FROM",
    qn("w:customXmlMoveToRangeStart"): "MOVE_TO",
}
_REVISION_TAGS = (*_CONTENT, RPR_CHANGE, *_PARAGRAPH_PROPERTY, *_TABLE, *_CUSTOM_XML)
_PROPERTY_PARENTS = frozenset(
    qn(f"w:{t}") for t in ("rPr", "pPr", "numPr", "tcPr", "tblPr", "trPr", "sectPr", "tblPrEx")
)


@dataclass(frozen=True)
class RevisionExtraction:
    """Every record of one document, computed once; pages are slices of it."""

    paragraphs: list[dict[str, Any]]

    def page(self, offset: int = 0, limit: int = DEFAULT_LIMIT) -> dict[str, Any]:
        """One page: ``{"total", "offset", "limit", "has_more", "paragraphs"}``.

        Raises :class:`DocxError` ``INVALID_LIMIT``/``INVALID_OFFSET`` (see
        :func:`check_page`). An offset past the end gives an empty page.
        """
        check_page(offset, limit)
        total = len(self.paragraphs)
        return {
            "total": total,
            "offset": offset,
            "limit": limit,
            "has_more": offset + limit < total,
            "paragraphs": self.paragraphs[offset:offset + limit],
        }


def check_page(offset: object, limit: object) -> None:
    """Refuse a page the API cannot serve: ``limit`` must be an integer 1–500,
    ``offset`` an integer ≥ 0 (0-based)."""
    if not _is_int(limit) or not 1 <= limit <= MAX_LIMIT:  # type: ignore[operator]
        raise DocxError("INVALID_LIMIT", f"limit must be an integer from 1 to {MAX_LIMIT}, not {limit!r}.")
    if not _is_int(offset) or offset < 0:  # type: ignore[operator]
        raise DocxError("INVALID_OFFSET", f"offset must be an integer of 0 or more, not {offset!r}.")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def extract_revisions(source: bytes | Package, offset: int = 0, limit: int = DEFAULT_LIMIT) -> dict[str, Any]:
    """One page of :func:`extract_all` (the page is checked before any work is done)."""
    check_page(offset, limit)
    return extract_all(source).page(offset, limit)


def extract_all(source: bytes | Package) -> RevisionExtraction:
    """Every paragraph of the main document that holds revisions or comments.

    ``source`` is .docx bytes or an opened package (left unchanged).
    """
    owned = isinstance(source, bytes)
    pkg = source if isinstance(source, Package) else Package.open(source)
    root = pkg.xml(pkg.main_part)
    body = root.find(_BODY)
    if body is None:
        return RevisionExtraction([])
    paragraphs, revisions, comment_owner = _scan(body)
    comments = _comments(pkg, comment_owner)
    wanted = sorted(set(revisions) | set(comments))
    if not wanted:
        return RevisionExtraction([])
    names = _anchor_names(root, paragraphs)
    # Whether each paragraph has text of its own in each view, read before resolving changes the tree.
    has_text = {n: (bool(paragraph_text(paragraphs[n], "reject")), bool(paragraph_text(paragraphs[n], "accept")))
                for n in wanted}
    stamps = _stamp(paragraphs)
    rejected = copy.deepcopy(root)
    accepted = root if owned else copy.deepcopy(root)
    if not owned:
        for stamp in stamps:
            stamp.getparent().remove(stamp)
    reject(rejected)
    accept(accepted)
    before = _holders(rejected)
    after = _holders(accepted)
    out = []
    for n in wanted:
        out.append({
            "para_id": names.get(n, f"_anon_para_{n}"),
            "before_text": _text_in_view(before, n, has_text[n][0], "reject"),
            "after_text": _text_in_view(after, n, has_text[n][1], "accept"),
            "revisions": revisions.get(n, []),
            "comments": comments.get(n, []),
        })
    return RevisionExtraction(out)


# -- the tracked document ------------------------------------------------------------
def _scan(body: etree._Element) -> tuple[list[etree._Element], dict[int, list[dict]], dict[str, int]]:
    """One pass in document order: the paragraphs, each one's revision records,
    and the paragraph each comment id is anchored in."""
    paragraphs: list[etree._Element] = []
    index: dict[etree._Element, int] = {}
    revisions: dict[int, list[dict]] = {}
    comment_owner: dict[str, int] = {}
    waiting: list[dict] = []  # records outside any paragraph, for the next one
    waiting_comments: list[str] = []  # comment ranges that start between paragraphs, likewise
    # A text box is stored twice (mc:Choice for Word 2010+, mc:Fallback as VML): read the first copy only.
    fallback = {el for fb in body.iter(_FALLBACK) for el in fb.iter(_P, *_REVISION_TAGS)}
    for el in body.iter(_P, *_REVISION_TAGS, _COMMENT_START, _COMMENT_REFERENCE):
        if el in fallback:
            continue
        if el.tag == _P:
            n = index[el] = len(paragraphs)
            paragraphs.append(el)
            if waiting:
                revisions.setdefault(n, []).extend(waiting)
                waiting = []
            for cid in waiting_comments:
                comment_owner.setdefault(cid, n)
            waiting_comments = []
            continue
        owner = next(el.iterancestors(_P), None)
        if el.tag in (_COMMENT_START, _COMMENT_REFERENCE):
            if owner is None:
                waiting_comments.append(el.get(_ID, ""))
            else:
                comment_owner.setdefault(el.get(_ID, ""), index[owner])
            continue
        record = _record(el)
        if record is None:
            continue
        if owner is None:
            waiting.append(record)
        else:
            revisions.setdefault(index[owner], []).append(record)
    if waiting and paragraphs:
        revisions.setdefault(len(paragraphs) - 1, []).extend(waiting)
    return paragraphs, revisions, comment_owner


def _record(el: etree._Element) -> dict[str, Any] | None:
    """The record of one revision element, or None when it is not a revision."""
    tag = el.tag
    parent = el.getparent()
    kind, text = _classify(el, tag, parent)
    if kind is None:
        return None
    return {"type": kind, "id": el.get(_ID, ""), "author": revision_author(el) or "", "date": el.get(_DATE) or None,
            "text": text}


def _classify(el: etree._Element, tag: str, parent: etree._Element | None) -> tuple[str | None, str]:
    if tag in _CONTENT:
        if parent is None or parent.tag not in _PROPERTY_PARENTS:
            return _CONTENT[tag], paragraph_text(el, _CONTENT_VIEW[tag])
        if parent.tag == _R_PR and parent.getparent() is not None and parent.getparent().tag == _P_PR:
            return _CONTENT[tag], "¶"  # the paragraph mark
        if parent.tag == _TR_PR and tag in (INS, DEL):
            row = parent.getparent()
            return "TABLE_CHANGE", "\n".join(paragraph_text(p, _CONTENT_VIEW[tag]) for p in row.iter(_P))
        if parent.tag == _NUM_PR and tag == INS:
            return "PARAGRAPH_PROPERTY_CHANGE", ""
        return None, ""
    if tag == RPR_CHANGE:
        run = parent.getparent() if parent is not None else None
        return "FORMAT_CHANGE", _run_text(run) if run is not None and run.tag == _R else ""
    if tag in _PARAGRAPH_PROPERTY:
        return "PARAGRAPH_PROPERTY_CHANGE", ""
    if tag in (CELL_INS, CELL_DEL):
        cell = next(el.iterancestors(_TC), None)
        view: View = "accept" if tag == CELL_INS else "reject"
        return "TABLE_CHANGE", "\n".join(paragraph_text(p, view) for p in cell.iter(_P)) if cell is not None else ""
    if tag in _TABLE:
        return "TABLE_CHANGE", ""
    return _CUSTOM_XML[tag], ""


def _run_text(run: etree._Element) -> str:
    return "".join(t.text or "" for t in run.iter(_T, _DEL_TEXT))


def _anchor_names(root: etree._Element, paragraphs: list[etree._Element]) -> dict[int, str]:
    """Paragraph index → its first ``_RL_`` anchor (in one scan of the bookmarks)."""
    index = {p: n for n, p in enumerate(paragraphs)}
    out: dict[int, str] = {}
    for name, p in anchor_map(root).items():
        n = index.get(p)
        if n is not None:
            out.setdefault(n, name)
    return out


# -- identity across views ------------------------------------------------------------
def _stamp(paragraphs: list[etree._Element]) -> list[etree._Element]:
    """Give every paragraph a processing instruction carrying its index, right
    after its properties: it travels with the paragraph's content when the
    paragraph merges with the next, and nothing reads it as text."""
    stamps = []
    for n, p in enumerate(paragraphs):
        stamp = etree.ProcessingInstruction(_STAMP, str(n))
        p.insert(1 if len(p) and p[0].tag == _P_PR else 0, stamp)
        stamps.append(stamp)
    return stamps


def _stamps(p: etree._Element) -> Iterator[int]:
    for child in p:
        if child.tag is etree.ProcessingInstruction and child.target == _STAMP:
            yield int(child.text)


def _own_stamp(p: etree._Element) -> int | None:
    """The index of the paragraph ``p`` is: after merges a paragraph holds the
    stamps of those merged into it first, its own last."""
    stamps = list(_stamps(p))
    return stamps[-1] if stamps else None


def _holders(root: etree._Element) -> dict[int, etree._Element]:
    """Paragraph index → the paragraph holding its stamp in one resolved copy
    (absent: the paragraph was removed with its row, cell or table)."""
    return {int(stamp.text): stamp.getparent() for stamp in root.iter(etree.ProcessingInstruction)
            if stamp.target == _STAMP}


def _text_in_view(holders: dict[int, etree._Element], n: int, has_text: bool, view: View) -> str:
    p = holders.get(n)
    if p is None:
        return ""  # removed with its row, cell or table
    if not has_text and _own_stamp(p) != n:
        return ""  # merged into the next paragraph with no text of its own: wholly inserted or deleted
    return paragraph_text(p, view)


# -- comments ------------------------------------------------------------------------------
def _comments(pkg: Package, owner: dict[str, int]) -> dict[int, list[dict[str, Any]]]:
    """Top-level comments per paragraph index, with their replies nested."""
    part = pkg.related_part(pkg.main_part, "comments")
    if not owner or not part or not pkg.has(part):
        return {}
    threads = _threads(pkg)
    records: dict[str, dict[str, Any]] = {}
    parent_of: dict[str, str] = {}
    para_to_comment: dict[str, str] = {}
    order: list[str] = []
    for comment in pkg.xml(part).iterchildren(_COMMENT):
        cid = comment.get(_ID, "")
        paras = list(comment.iter(_P))
        last_para_id = paras[-1].get(_PARA_ID, "").upper() if paras else ""
        done, parent_para = threads.get(last_para_id, (False, None))
        records[cid] = {
            "id": cid, "author": comment.get(_AUTHOR, ""), "date": comment.get(_DATE) or None,
            "text": "\n".join(paragraph_text(p) for p in paras), "resolved": done, "replies": [],
        }
        order.append(cid)
        if last_para_id:
            para_to_comment[last_para_id] = cid
        if parent_para:
            parent_of[cid] = parent_para

    def parent_comment(cid: str) -> str | None:
        """The comment ``cid`` replies to, or None (also for a broken, circular thread)."""
        parent = para_to_comment.get(parent_of.get(cid, ""))
        seen, up = {cid}, parent
        while up is not None:
            if up in seen:
                return None
            seen.add(up)
            up = para_to_comment.get(parent_of.get(up, ""))
        return parent

    out: dict[int, list[dict[str, Any]]] = {}
    for cid in order:
        parent = parent_comment(cid)
        if parent is not None:
            records[parent]["replies"].append(records[cid])
        elif cid in owner:
            out.setdefault(owner[cid], []).append(records[cid])
    return out


def _threads(pkg: Package) -> dict[str, tuple[bool, str | None]]:
    """``commentsExtended.xml``: paraId → (resolved, parent's paraId)."""
    part = pkg.related_part(pkg.main_part, "commentsExtended")
    if not part or not pkg.has(part):
        return {}
    out: dict[str, tuple[bool, str | None]] = {}
    for ex in pkg.xml(part).iter(qn("w15:commentEx")):
        parent = ex.get(_EX_PARENT)
        out[ex.get(_EX_PARA_ID, "").upper()] = (ex.get(_EX_DONE, "0") in _DONE_VALUES, parent.upper() if parent else None)
    return out
