"""Tracked edits inside one paragraph: split runs, delete spans, insert text.

Offsets are positions in the paragraph's accepted-view text as
:func:`redline.ooxml.text.text_segments` reads it, so the diff, the edit and
the round-trip proof agree on one reading of the paragraph. Single-run XML
(new runs, copied formatting, splitting runs and revision wrappers) is
:mod:`redline.ooxml.run_xml`; what is known about a field, :mod:`redline.ooxml.fields`.

How edits land on the XML, and why:

* **Deleted text keeps its run.** The runs covering a span are split at its
  edges and wrapped, in place, in ``w:del``; ``w:t`` becomes ``w:delText``.
  Runs inside another author's ``w:ins`` are wrapped inside it (Word's
  "inserted then deleted" nesting). Runs without text (footnote or comment
  references, drawings) inside a deleted span are left alone: a rewrite must
  not silently drop a footnote.
* **Inserted text takes the formatting of what it replaces**, or of the text it
  follows (of the text after it at the start of a paragraph). It never lands
  inside someone else's ``w:ins`` (their insertion is split in two, same author
  and date, so rejecting either change leaves the other intact) and never
  extends a hyperlink, content control or field it merely touches.
* **Fields are atomic.** A field result is shown text but Word regenerates it,
  so an edit touching a field replaces the whole field: all its runs, including
  the instruction, are deleted (``w:instrText`` → ``w:delInstrText``) and the new
  text is inserted as plain text, as Word does when you type over a field. A
  ``w:fldSimple`` is first rewritten as the equivalent complex field. A field
  inside another author's insertion or move is deleted inside it, as text is.
  Edits touching a field that starts or ends in another paragraph, or whose
  runs are spread over several containers or revisions, are refused
  (``unsupported_content``).
* **Others' pending changes are layered on, as Word records them.** Text
  deleted from another author's ``w:ins`` or ``w:moveTo`` becomes our ``w:del``
  inside it (accepting their change keeps our deletion pending; rejecting it
  removes the text, ours with it). Text inserted inside it splits it (same
  author, date and kind), so our insertion stays inside the named
  ``w:moveToRangeStart``/``w:moveToRangeEnd`` range of a move. Moved-away text
  (``w:moveFrom``) is not in the accepted view and so is never edited.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from .diff import Hunk, apply_hunks
from .fields import Field, explode, field_element, find_fields, touches, why_not_deletable
from .oxml import NSMAP, qn
from .revisions import Tracker
from .run_xml import (
    CONTAINERS,
    DEL,
    MOVE_FROM,
    WRAPPERS,
    append_content,
    formatting_of,
    in_container,
    inside,
    is_inside,
    iter_runs,
    outside_wrappers,
    preserve_space,
    split_run,
    text_runs,
)
from .text import paragraph_text, text_segments

_T = qn("w:t")
_DEL_TEXT = qn("w:delText")
_INSTR = qn("w:instrText")
_DEL_INSTR = qn("w:delInstrText")
_RPR = qn("w:rPr")
_FLD_CHAR = qn("w:fldChar")
_FLD_TYPE = qn("w:fldCharType")
_SDT_CONTENT = qn("w:sdtContent")
_COMMENT_REF = qn("w:commentReference")
_ID = qn("w:id")



class EditRefused(Exception):
    """An edit that cannot be written cleanly; ``reason`` is the op's skip reason.

    ``element`` names the XML element that caused it (``w:fldChar``, ``w:sym``…),
    so a refusal on a real document says what to look at.
    """

    def __init__(self, reason: str, message: str, element: etree._Element | str | None = None) -> None:
        self.element = _prefixed(element) if element is not None else None
        super().__init__(f"{message} (element: {self.element})" if self.element else message)
        self.reason = reason


def _prefixed(el: etree._Element | str) -> str:
    """``{…main}fldChar`` → ``w:fldChar`` (the name a reader of the XML knows)."""
    tag = el if isinstance(el, str) else el.tag
    q = etree.QName(tag)
    prefix = next((k for k, v in NSMAP.items() if v == q.namespace), None)
    return f"{prefix}:{q.localname}" if prefix else q.localname


@dataclass(slots=True)
class _Piece:
    start: int
    end: int
    owner: etree._Element
    run: etree._Element


class ParagraphEditor:
    """Writes tracked changes into one ``w:p`` (usually a working copy)."""

    def __init__(self, p: etree._Element, tracker: Tracker) -> None:
        self.p = p
        self.tracker = tracker
        self._pieces: list[_Piece] = []
        self._fields: list[Field] = []
        self.text = ""
        self._scan()

    # -- public edits -----------------------------------------------------------
    def replace(self, hunks: list[Hunk]) -> list[etree._Element]:
        """Write hunks (old accepted-text offsets) as tracked changes.

        Returns the revision elements made, in document order.
        """
        intended = apply_hunks(self.text, hunks)
        made: list[etree._Element] = []
        for hunk in reversed(self._widen_over_fields(hunks)):
            made[:0] = self._apply(hunk)
        if paragraph_text(self.p, "accept") != intended:
            raise EditRefused("roundtrip_failed", "The edited paragraph does not read as intended.")
        # Hunks were written right to left; number the revisions left to right.
        for el, rid in zip(made, sorted((el.get(_ID) for el in made), key=int), strict=True):
            el.set(_ID, rid)
        return made

    def delete_all(self) -> list[etree._Element]:
        """Mark every run of the paragraph deleted (its mark is the caller's)."""
        for f in self._fields:
            if not f.complete:
                raise EditRefused("unsupported_content", "A field runs across the paragraph's edges.",
                                  (f.first if f.first is not None else f.last))
            if f.simple is not None:
                explode(f)
        runs = [
            r for r in iter_runs(self.p)
            if not inside(r, (DEL, MOVE_FROM), self.p) and r.find(_COMMENT_REF) is None
        ]
        return self._delete(runs)

    def span(self, start: int, end: int) -> tuple[etree._Element, etree._Element]:
        """Split runs so ``[start, end)`` is whole runs; return the elements to put a
        comment's range markers before and after (fields are taken whole)."""
        for f in self._fields:
            if f.end > f.start and start < f.end and end > f.start:
                start, end = min(start, f.start), max(end, f.end)
        self._cut(start)
        self._cut(end)
        inside = [pc for pc in self._pieces if start <= pc.start and pc.end <= end]
        first, last = inside[0].run, inside[-1].run
        f_first, f_last = self._field_of(first), self._field_of(last)
        if f_first is not None and f_first.runs:
            first = f_first.runs[0]
        if f_last is not None and f_last.runs:
            last = f_last.runs[-1]
        ids = self.tracker.ids
        return outside_wrappers(first, ids, before=True), outside_wrappers(last, ids, before=False)

    def outside(self, el: etree._Element, *, before: bool) -> etree._Element:
        """``el`` or the revision wrapper around it, split if needed, where markup
        (a comment range) may go right before/after it."""
        return outside_wrappers(el, self.tracker.ids, before=before)

    # -- reading the paragraph ----------------------------------------------------
    def _scan(self) -> None:
        pieces: list[_Piece] = []
        texts: list[str] = []
        pos = 0
        for owner, text in text_segments(self.p, "accept"):
            pieces.append(_Piece(pos, pos + len(text), owner, owner.getparent()))
            texts.append(text)
            pos += len(text)
        self._pieces = pieces
        self.text = "".join(texts)
        self._fields = find_fields(self.p)
        if not self._fields:
            return
        order = {el: i for i, el in enumerate(self.p.iter())}
        for f in self._fields:
            if f.simple is not None:
                shown = [pc for pc in pieces if is_inside(pc.owner, f.simple)]
            else:
                lo = order[f.first] if f.first is not None else -1
                hi = order[f.last] if f.last is not None else len(order)
                shown = [pc for pc in pieces if lo < order[pc.owner] < hi]
            if shown:
                f.start, f.end = shown[0].start, shown[-1].end

    def _field_of(self, run: etree._Element) -> Field | None:
        for f in self._fields:
            if any(r is run for r in f.runs):
                return f
        return None

    # -- hunks --------------------------------------------------------------------
    def _widen_over_fields(self, hunks: list[Hunk]) -> list[Hunk]:
        """Grow hunks that touch a field's result to the whole field, merging hunks
        that then meet."""
        hunks = sorted(hunks, key=lambda h: (h.start, h.end))
        changed = True
        while changed:
            changed = False
            for f in self._fields:
                if f.end <= f.start:
                    continue
                hit = [h for h in hunks if touches(h, f)]
                if not hit:
                    continue
                if not f.deletable:
                    raise EditRefused("unsupported_content", "The edit touches a field that cannot be replaced whole: "
                                      + why_not_deletable(f), field_element(f))
                lo, hi = min(f.start, hit[0].start), max(f.end, hit[-1].end)
                if len(hit) == 1 and (lo, hi) == (hit[0].start, hit[0].end):
                    continue
                shifted = [Hunk(h.start - lo, h.end - lo, h.text) for h in hit]
                merged = Hunk(lo, hi, apply_hunks(self.text[lo:hi], shifted))
                hunks = sorted([h for h in hunks if h not in hit] + [merged], key=lambda h: (h.start, h.end))
                changed = True
        out: list[Hunk] = []
        for h in hunks:  # hunks that now meet become one
            if out and h.start <= out[-1].end:
                prev = out.pop()
                h = Hunk(prev.start, max(prev.end, h.end), prev.text + self.text[prev.end:h.start] + h.text)
            out.append(h)
        return out

    def _apply(self, hunk: Hunk) -> list[etree._Element]:
        if hunk.end > hunk.start:
            return self._replace_span(hunk)
        return [self._insert_at(hunk.start, hunk.text)]

    def _replace_span(self, hunk: Hunk) -> list[etree._Element]:
        self._cut(hunk.start)
        self._cut(hunk.end)
        for f in self._fields:
            if f.end > f.start and hunk.start <= f.start and f.end <= hunk.end:
                if f.simple is not None:
                    explode(f)
                self._isolate_field(f)
        self._scan()
        chosen: set[etree._Element] = set()
        for pc in self._pieces:
            if hunk.start <= pc.start and pc.end <= hunk.end:
                chosen.add(pc.run)
        for f in self._fields:
            if f.end > f.start and hunk.start <= f.start and f.end <= hunk.end:
                chosen.update(f.runs)
        shown = next(pc.run for pc in self._pieces if pc.start >= hunk.start)
        rpr = formatting_of(shown)
        runs = [r for r in iter_runs(self.p) if r in chosen]
        made = self._delete(runs)
        if hunk.text:
            ins = self._new_ins(hunk.text, rpr)
            outside_wrappers(made[-1], self.tracker.ids, before=False).addnext(ins)
            made.append(ins)
        return made

    def _insert_at(self, pos: int, text: str) -> etree._Element:
        self._cut(pos)
        before = next((pc.run for pc in reversed(self._pieces) if pc.end == pos), None)
        after = next((pc.run for pc in self._pieces if pc.start == pos), None)
        ins = self._new_ins(text, None)
        if before is None and after is None:
            append_content(self.p, ins)
        else:
            ref, other = (before, after) if before is not None else (after, before)
            el, left_container = self._climb(ref, other, after_ref=before is not None)
            rpr = formatting_of(ref, drop_style=left_container)
            if left_container and other is not None and not in_container(other, self.p):
                rpr = formatting_of(other)
            if rpr is not None:
                ins[0].insert(0, rpr)
            if before is not None:
                el.addnext(ins)
            else:
                el.addprevious(ins)
        return ins

    def _climb(
        self, ref: etree._Element, other: etree._Element | None, *, after_ref: bool
    ) -> tuple[etree._Element, bool]:
        """The element next to which an insertion beside run ``ref`` goes: out of
        revisions (splitting them), fields and containers ``other`` is not in."""
        el = ref
        left_container = False
        f = self._field_of(ref)
        if f is not None and f.end > f.start:
            if not f.complete:
                raise EditRefused("unsupported_content", "The insertion touches a field that spans paragraphs.",
                                  field_element(f))
            el = f.runs[-1] if after_ref else f.runs[0]
            if f.simple is not None:
                el = f.simple
        while True:
            parent = el.getparent()
            if parent is None or parent is self.p:
                return el, left_container
            if parent.tag in WRAPPERS:
                el = outside_wrappers(el, self.tracker.ids, before=not after_ref)
            elif parent.tag in CONTAINERS and (other is None or not is_inside(other, parent)):
                el = parent.getparent() if parent.tag == _SDT_CONTENT else parent
                left_container = True
            else:
                return el, left_container

    # -- XML surgery --------------------------------------------------------------
    def _cut(self, offset: int) -> None:
        """Make ``offset`` a run boundary, splitting a run (and a ``w:t``) if needed.

        The map is re-read after a split, so offsets stay valid for the next cut.
        """
        for i, pc in enumerate(self._pieces):
            if pc.start < offset < pc.end:
                if pc.owner.tag != _T:
                    raise EditRefused("unsupported_content", "An edit boundary falls inside a symbol.", pc.owner)
                split_run(pc.run, pc.owner, offset - pc.start, self.tracker.ids)
                self._scan()
                return
            if pc.start == offset:
                if i and self._pieces[i - 1].run is pc.run:
                    split_run(pc.run, pc.owner, None, self.tracker.ids)
                    self._scan()
                return

    def _isolate_field(self, f: Field) -> None:
        """Split the field's first and last runs so they hold only the field."""
        first, last = f.runs[0], f.runs[-1]
        begin = next(c for c in first.iterchildren(_FLD_CHAR) if c.get(_FLD_TYPE) == "begin")
        if any(c.tag != _RPR for c in begin.itersiblings(preceding=True)):
            right = split_run(first, begin, None, self.tracker.ids)
            f.runs[0] = right
            if last is first:
                last = right
        end = [c for c in last.iterchildren(_FLD_CHAR) if c.get(_FLD_TYPE) == "end"][-1]
        if end.getnext() is not None:
            split_run(last, end.getnext(), None, self.tracker.ids)
        f.runs[-1] = last

    def _delete(self, runs: list[etree._Element]) -> list[etree._Element]:
        """Wrap runs in ``w:del``, one per stretch of adjacent sibling runs."""
        groups: list[list[etree._Element]] = []
        for r in runs:
            if groups and r.getprevious() is groups[-1][-1]:
                groups[-1].append(r)
            else:
                groups.append([r])
        made = []
        for group in groups:
            d = self.tracker.element("w:del")
            group[0].addprevious(d)
            for r in group:
                d.append(r)
                for t in r.iterchildren(_T, _INSTR):
                    t.tag = _DEL_TEXT if t.tag == _T else _DEL_INSTR
                    preserve_space(t)
            made.append(d)
        return made

    def _new_ins(self, text: str, rpr: etree._Element | None) -> etree._Element:
        ins = self.tracker.element("w:ins")
        ins.append(text_runs(text, rpr))
        return ins
