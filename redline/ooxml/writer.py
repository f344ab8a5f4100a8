"""Write suggestions into a .docx as tracked changes and comments, each one proven.

:class:`Redliner` applies ops to an opened :class:`~redline.ooxml.package.Package`
one at a time. Every op works on a *copy* of its paragraph(s); before the copy
replaces the original, the engine's own accept/reject (:mod:`.revisions`) and
text reader (:mod:`.text`) prove it: accepting the op's revisions gives the
intended text, rejecting them gives back the original, in both views. An op
that fails the proof is not written (``roundtrip_failed``), so a bad edit can
cost one suggestion but never the file.

What each op writes:

* ``COMMENT``: a comment on the quoted span (``Quote``/``Occurrence``) or on the
  whole paragraph; no revision.
* ``REWRITE_PARAGRAPH``: the token-level diff (:mod:`.diff`) of the paragraph's
  accepted text against ``NewText``, written by :mod:`.runs`.
* ``REPLACE_TEXT``: the diff of ``Quote`` against ``Replacement``, confined to the
  quoted span.
* ``INSERT``: new paragraph(s) before or after the anchor, one per line of
  ``Text``, styled and numbered like the anchor paragraph, with the paragraph
  mark inserted (rejecting removes them whole) and an anchor each. After the
  last paragraph of a cell or the document (nothing to join on reject) Word's
  own pattern is used instead: the anchor paragraph's mark is the inserted one.
* ``DELETE_PARAGRAPH``: every run deleted and the paragraph mark deleted, so
  accepting removes the paragraph; the mark is kept when the next block is not
  a paragraph (a table, the end of a cell) or the paragraph ends a section.

A ``Comment`` on any op becomes a comment on the changed span. Existing
revisions by others are layered on as Word records them (:mod:`.runs`): text
they inserted or moved here is deleted inside their ``w:ins``/``w:moveTo``; a
paragraph mark they inserted, deleted or moved keeps their revision. The one
case refused as ``pending_revisions`` is an ``INSERT`` after the last paragraph
of a cell or the document when that paragraph's mark is deleted or moved.
What a new paragraph copies from its anchor is :mod:`.paragraph_copies`.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from lxml import etree

from .anchors import Anchorer, anchor_map
from .comments import Comments
from .diff import Hunk, diff_text
from .docprops import ensure_doc_id
from .ids import PARA_ID_LIMIT, HexIds, story_roots, used_para_ids
from .ops import DEFAULT_AUTHOR, ENTRY_TYPES, KnownEntry, Op, OpResult
from .oxml import qn
from .package import DEFAULT_LIMITS, Limits, Package
from .paragraph_copies import dominant_formatting, give_mark, plain_properties, take_mark
from .quotes import QuoteError, find_quote
from .revisions import (
    DEL,
    INS,
    MOVE_FROM,
    MOVE_TO,
    REVISION_ID_TAGS,
    RevisionIds,
    Tracker,
    accept,
    iso_now,
    next_paragraph,
    paragraph_mark_revisions,
    reject,
    track_paragraph_mark,
)
from .run_xml import text_runs
from .runs import EditRefused, ParagraphEditor
from .text import has_revisions, paragraph_text

_P = qn("w:p")
_PPR = qn("w:pPr")
_SECT_PR = qn("w:sectPr")
_PARA_ID = qn("w14:paraId")
_TEXT_ID = qn("w14:textId")
_BOOKMARK_START = qn("w:bookmarkStart")
_ID = qn("w:id")
_NAME = qn("w:name")


@dataclass(slots=True)
class _Written:
    """What an op handler hands back for the known entry."""

    original_text: str = ""
    new_text: str = ""
    comment_id: str | None = None
    new_anchors: tuple[str, ...] = ()


class Redliner:
    """Applies ops to one package. Build once per document, then :meth:`apply` each op.

    Id spaces are scanned once at construction: revision ids over every story
    part, ``w14:paraId`` over the same, comment and durable ids over the comment
    parts. ``seed`` makes names of new anchors deterministic (pass a hash of the
    input file).
    """

    def __init__(self, pkg: Package, *, author: str = DEFAULT_AUTHOR, date: str | None = None,
                 seed: bytes = b"") -> None:
        self.pkg = pkg
        self.author = author or DEFAULT_AUTHOR
        self.date = date or iso_now()
        self.document = pkg.xml(pkg.main_part)
        roots = story_roots(pkg)
        self.revision_ids = RevisionIds(roots)
        self.para_ids = HexIds(used_para_ids(roots), PARA_ID_LIMIT)
        self.comments = Comments(pkg, self.para_ids)
        self._anchors = anchor_map(self.document)
        self._seed = seed
        self._anchorer: Anchorer | None = None

    def apply_all(self, ops: Iterable[Op]) -> list[OpResult]:
        """Apply ops in order; one result per op."""
        return [self.apply(op) for op in ops]

    def apply(self, op: Op) -> OpResult:
        """Apply one op, or explain why not. The document changes only on success."""
        if op.problem:
            return OpResult(op, "skipped", "invalid_op", op.problem)
        p = self._anchors.get(op.anchor)
        if p is None or p.getparent() is None:
            return OpResult(op, "skipped", "anchor_not_found", f"No paragraph holds anchor {op.anchor}.")
        tracker = Tracker(self.author, self.date, self.revision_ids)
        handlers: dict[str, Callable[[Op, etree._Element, Tracker], _Written]] = {
            "COMMENT": self._comment,
            "REWRITE_PARAGRAPH": self._rewrite,
            "REPLACE_TEXT": self._replace,
            "INSERT": self._insert,
            "DELETE_PARAGRAPH": self._delete,
        }
        try:
            written = handlers[op.type](op, p, tracker)
        except (EditRefused, QuoteError) as exc:
            return OpResult(op, "skipped", exc.reason, str(exc))
        durable = ""
        if written.comment_id is not None:
            durable = self.comments.add(written.comment_id, op.comment, author=self.author, date=self.date,
                                        seed=op.entry_id)
        entry = KnownEntry(
            id=op.entry_id, index=op.index, operation_type=ENTRY_TYPES[op.type], bookmark_id=op.anchor,
            durable_id=durable, comment_text=op.comment, original_text=written.original_text,
            new_text=written.new_text, position=op.position if op.type == "INSERT" else "",
        )
        return OpResult(op, "applied", entry=entry, revisions=len(tracker.made), new_anchors=written.new_anchors)

    # -- ops ------------------------------------------------------------------------
    def _comment(self, op: Op, p: etree._Element, tracker: Tracker) -> _Written:
        cand = copy.deepcopy(p)
        text = paragraph_text(cand)
        cid = self.comments.next_id()
        if op.quote:
            start, end = find_quote(text, op.quote, op.occurrence)
            before, after = ParagraphEditor(cand, tracker).span(start, end)
            self.comments.mark(before, after, cid)
            quoted = text[start:end]
        else:
            self.comments.mark_paragraphs(cand, cand, cid)
            quoted = text
        self._prove([p], [cand], tracker, accepted=[paragraph_text(p)])
        self._swap(p, cand)
        return _Written(original_text=quoted, comment_id=cid)

    def _rewrite(self, op: Op, p: etree._Element, tracker: Tracker) -> _Written:
        old = paragraph_text(p)
        return self._edit(op, p, tracker, diff_text(old, op.new_text), op.new_text)

    def _replace(self, op: Op, p: etree._Element, tracker: Tracker) -> _Written:
        old = paragraph_text(p)
        start, end = find_quote(old, op.quote, op.occurrence)
        hunks = [Hunk(h.start + start, h.end + start, h.text) for h in diff_text(old[start:end], op.replacement)]
        return self._edit(op, p, tracker, hunks, old[:start] + op.replacement + old[end:])

    def _edit(self, op: Op, p: etree._Element, tracker: Tracker, hunks: list[Hunk], intended: str) -> _Written:
        old = paragraph_text(p)
        if not hunks:
            raise EditRefused("no_change", "The new text equals the current text.")
        cand = copy.deepcopy(p)
        editor = ParagraphEditor(cand, tracker)
        made = editor.replace(hunks)
        cid = None
        if op.comment:
            cid = self.comments.next_id()
            self.comments.mark(editor.outside(made[0], before=True), editor.outside(made[-1], before=False), cid)
        self._prove([p], [cand], tracker, accepted=[intended])
        self._swap(p, cand)
        return _Written(original_text=old, new_text=intended, comment_id=cid)

    def _delete(self, op: Op, p: etree._Element, tracker: Tracker) -> _Written:
        old = paragraph_text(p)
        if not old.strip():
            raise EditRefused("no_change", "The paragraph shows no text to delete.")
        cand = copy.deepcopy(p)
        ParagraphEditor(cand, tracker).delete_all()
        nxt = next_paragraph(p)
        # A mark someone else already deleted or moved keeps their revision: accepting
        # it removes the paragraph, so ours need not (and Word would not) track it again.
        mark_taken = any(el.tag in (DEL, MOVE_FROM, MOVE_TO) for el in paragraph_mark_revisions(p))
        joins = nxt is not None and cand.find(f"{_PPR}/{_SECT_PR}") is None and not mark_taken
        if joins:
            track_paragraph_mark(cand, tracker.element("w:del"))
        cid = None
        if op.comment:
            cid = self.comments.next_id()
            self.comments.mark_paragraphs(cand, cand, cid)
        originals = [p] + ([nxt] if nxt is not None else [])
        candidates = [cand] + ([nxt] if nxt is not None else [])
        accepted = ([] if joins else [""]) + ([paragraph_text(nxt)] if nxt is not None else [])
        self._prove(originals, candidates, tracker, accepted=accepted)
        self._swap(p, cand)
        return _Written(original_text=old, comment_id=cid)

    def _insert(self, op: Op, p: etree._Element, tracker: Tracker) -> _Written:
        lines = [line for line in op.text.split("\n") if line.strip()]
        nxt = next_paragraph(p)
        word_pattern = op.position == "after" and nxt is None
        host = p
        handed: list[etree._Element] = []
        if word_pattern:
            # Nothing follows to join on reject: the anchor's own mark becomes the
            # inserted one and the last new paragraph carries the original mark,
            # as Word does when Enter is pressed at the end of the paragraph: with
            # another author's insertion of that mark, and with the section break
            # the mark ends.
            theirs = paragraph_mark_revisions(p)
            if any(el.tag != INS for el in theirs):
                raise EditRefused("pending_revisions", "The last paragraph's mark is deleted or moved; a new "
                                  "paragraph after it would have to take over that revision.", theirs[0])
            host = copy.deepcopy(p)
            handed = take_mark(host)
            track_paragraph_mark(host, tracker.element("w:ins"))
        news = [self._new_paragraph(p, line, tracker, op, i) for i, line in enumerate(lines)]
        for np in news[:-1] if word_pattern else news:
            track_paragraph_mark(np, tracker.element("w:ins"))
        if word_pattern:
            give_mark(news[-1], handed)
        cid = None
        if op.comment:
            cid = self.comments.next_id()
            self.comments.mark_paragraphs(news[0], news[-1], cid)
        own = paragraph_text(p)
        if op.position == "before":
            originals, candidates, accepted = [p], [*news, p], [*lines, own]
        else:
            tail = [nxt] if nxt is not None else []
            originals, candidates = [p, *tail], [host, *news, *tail]
            accepted = [own, *lines, *(paragraph_text(t) for t in tail)]
        self._prove(originals, candidates, tracker, accepted=accepted)
        if host is not p:
            self._swap(p, host)
        for np in news if op.position == "before" else reversed(news):
            (host.addprevious if op.position == "before" else host.addnext)(np)
        anchors = tuple(self._anchorer_for().add(np) for np in news)
        for name, np in zip(anchors, news, strict=True):
            self._anchors[name] = np
        return _Written(new_text=op.text, comment_id=cid, new_anchors=anchors)

    # -- helpers --------------------------------------------------------------------
    def _new_paragraph(self, like: etree._Element, line: str, tracker: Tracker, op: Op, i: int) -> etree._Element:
        """A paragraph styled and numbered like ``like``, its text one tracked insertion."""
        np = etree.Element(_P)
        if like.get(_PARA_ID) is not None:
            np.set(_PARA_ID, self.para_ids.next(f"paragraph\0{op.entry_id}\0{i}"))
            np.set(_TEXT_ID, "77777777")
        ppr = plain_properties(like)
        if ppr is not None:
            np.append(ppr)
        ins = tracker.element("w:ins")
        ins.append(text_runs(line, dominant_formatting(like)))
        np.append(ins)
        return np

    def _anchorer_for(self) -> Anchorer:
        if self._anchorer is None:
            self._anchorer = Anchorer(self.document, b"redline-writer\0" + self._seed)
        return self._anchorer

    def _swap(self, old: etree._Element, new: etree._Element) -> None:
        old.getparent().replace(old, new)
        for start in new.iter(_BOOKMARK_START):
            name = start.get(_NAME)
            if self._anchors.get(name) is old:
                self._anchors[name] = new

    def _prove(self, originals: list[etree._Element], candidates: list[etree._Element], tracker: Tracker,
               *, accepted: list[str]) -> None:
        """Accepting the op's revisions on copies of ``candidates`` must leave none
        of them and read as ``accepted`` (in both views when nobody else has
        pending changes there); rejecting them must leave none and read exactly as
        ``originals`` in both views."""
        body = etree.Element(qn("w:body"))
        for el in candidates:
            body.append(copy.deepcopy(el))
        taken = copy.deepcopy(body)
        accept(taken, ids=tracker.made)
        views = ("accept", "reject") if not any(has_revisions(x) for x in originals) else ("accept",)
        if _left(taken, tracker.made) or any(
            [paragraph_text(x, view) for x in taken.iterchildren(_P)] != accepted for view in views
        ):
            raise EditRefused("roundtrip_failed", "Accepting the change does not give the intended text.")
        reject(body, ids=tracker.made)
        if _left(body, tracker.made) or any(
            [paragraph_text(x, view) for x in body.iterchildren(_P)] != [paragraph_text(x, view) for x in originals]
            for view in ("accept", "reject")
        ):
            raise EditRefused("roundtrip_failed", "Rejecting the change does not give back the original text.")


def _left(root: etree._Element, ids: set[str]) -> bool:
    """True when a revision with one of ``ids`` is still under ``root``."""
    return any(el.get(_ID) in ids for el in root.iter(*REVISION_ID_TAGS))


@dataclass(frozen=True, slots=True)
class RedlineOutput:
    """A redlined file, its ``RedlineDocID`` and one result per op."""

    docx: bytes
    document_id: str
    results: list[OpResult]

    def comment_ids_map(self) -> dict[str, object]:
        """The seed's ``comment_ids_map.json``: the document id and the applied ops' known entries."""
        return {
            "document_id": self.document_id,
            "operations": [r.entry.to_json() for r in self.results if r.entry is not None],
        }


def redline_document(data: bytes, ops: Iterable[Op], *, author: str = DEFAULT_AUTHOR, date: str | None = None,
                     limits: Limits = DEFAULT_LIMITS) -> RedlineOutput:
    """Open untrusted .docx bytes, apply ``ops``, make sure the file has a
    ``RedlineDocID``, and return the new file. Raises :class:`DocxError` for
    input it refuses."""
    pkg = Package.open(data, limits)
    seed = hashlib.sha256(data).digest()
    results = apply_ops(pkg, ops, author=author, date=date, seed=seed)
    document_id = ensure_doc_id(pkg, seed=seed)
    return RedlineOutput(pkg.save(), document_id, results)


def apply_ops(pkg: Package, ops: Iterable[Op], *, author: str = DEFAULT_AUTHOR, date: str | None = None,
              seed: bytes = b"") -> list[OpResult]:
    """Apply ``ops`` to ``pkg`` in place; one result per op (see :class:`Redliner`)."""
    return Redliner(pkg, author=author, date=date, seed=seed).apply_all(ops)
