"""Tracked edits inside one paragraph: split runs, delete spans, insert text.

Offsets are positions in the paragraph's accepted-view text as
:func:`redline.ooxml.text.text_segments` reads it, so the diff, the edit and
the round-trip proof agree on one reading of the paragraph.

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

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml import etree

from .diff import Hunk, apply_hunks
from .oxml import NSMAP, XML_SPACE, qn
from .revisions import REVISION_ID_TAGS, RPR_CHANGE, RevisionIds, Tracker
from .text import paragraph_text, text_segments

_R = qn("w:r")
_T = qn("w:t")
_DEL_TEXT = qn("w:delText")
_INSTR = qn("w:instrText")
_DEL_INSTR = qn("w:delInstrText")
_RPR = qn("w:rPr")
_RSTYLE = qn("w:rStyle")
_FLD_CHAR = qn("w:fldChar")
_FLD_TYPE = qn("w:fldCharType")
_FLD_SIMPLE = qn("w:fldSimple")
_INSTR_ATTR = qn("w:instr")
_SDT = qn("w:sdt")
_SDT_CONTENT = qn("w:sdtContent")
_COMMENT_REF = qn("w:commentReference")
_ID = qn("w:id")

_INS, _DEL, _MOVE_FROM, _MOVE_TO = qn("w:ins"), qn("w:del"), qn("w:moveFrom"), qn("w:moveTo")
_WRAPPERS = frozenset((_INS, _DEL, _MOVE_FROM, _MOVE_TO))
# Revisions whose content the accepted view does not show (a field there is never edited).
_HIDDEN = frozenset((_DEL, _MOVE_FROM))
# Containers a run may sit in whose extent an insertion at their edge must not grow.
_CONTAINERS = frozenset(
    qn(t) for t in ("w:hyperlink", "w:smartTag", "w:customXml", "w:fldSimple", "w:dir", "w:bdo", "w:sdtContent")
)
_RUN_PARENTS = _CONTAINERS | _WRAPPERS | {_SDT}
# Track-change markers that may sit in a copied run property (never copied onto new text).
_NOT_COPIED = frozenset((RPR_CHANGE, _INS, _DEL, _MOVE_FROM, _MOVE_TO))
_BREAKS = re.compile(r"(\t|\n)")


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


@dataclass(slots=True)
class _Field:
    """A field's shown result ``[start, end)`` and the runs that make it up."""

    runs: list[etree._Element] = field(default_factory=list)
    simple: etree._Element | None = None
    first: etree._Element | None = None  # the begin fldChar; None if in an earlier paragraph
    last: etree._Element | None = None  # the end fldChar; None if in a later paragraph
    complete: bool = True
    start: int = 0
    end: int = 0

    @property
    def deletable(self) -> bool:
        """Whole, and its runs side by side: directly in the paragraph or a container,
        or inside one insertion or move of another author (deleted there, as text is)."""
        if not self.complete:
            return False
        if self.simple is not None:
            return self.simple.getparent() is not None and self.simple.getparent().tag not in _HIDDEN
        parent = self.runs[0].getparent()
        return parent.tag not in _HIDDEN and all(r.getparent() is parent for r in self.runs)


def preserve_space(t: etree._Element) -> None:
    """Set ``xml:space="preserve"`` when the text would lose whitespace without it."""
    text = t.text or ""
    if text != text.strip() or "  " in text or "\t" in text or "\n" in text:
        t.set(XML_SPACE, "preserve")


def text_runs(text: str, rpr: etree._Element | None) -> etree._Element:
    """One ``w:r`` showing ``text`` (tabs as ``w:tab``, newlines as ``w:br``)."""
    run = etree.Element(_R)
    if rpr is not None and len(rpr):
        run.append(rpr)
    for part in _BREAKS.split(text.replace("\r\n", "\n").replace("\r", "\n")):
        if part == "\t":
            etree.SubElement(run, qn("w:tab"))
        elif part == "\n":
            etree.SubElement(run, qn("w:br"))
        elif part:
            t = etree.SubElement(run, _T)
            t.text = part
            preserve_space(t)
    return run


def formatting_of(run: etree._Element | None, *, drop_style: bool = False) -> etree._Element | None:
    """A copy of a run's ``w:rPr`` fit for new text: no revision records in it."""
    if run is None:
        return None
    rpr = run.find(_RPR)
    if rpr is None:
        return None
    out = copy.deepcopy(rpr)
    for child in list(out):
        if child.tag in _NOT_COPIED or (drop_style and child.tag == _RSTYLE):
            out.remove(child)
    return out if len(out) else None


def iter_runs(parent: etree._Element) -> Iterator[etree._Element]:
    """The runs of a paragraph in document order, through containers and revisions
    (not into drawings or text boxes, whose paragraphs are not this one's)."""
    for child in parent:
        if child.tag == _R:
            yield child
        elif child.tag in _RUN_PARENTS:
            yield from iter_runs(child)


class ParagraphEditor:
    """Writes tracked changes into one ``w:p`` (usually a working copy)."""

    def __init__(self, p: etree._Element, tracker: Tracker) -> None:
        self.p = p
        self.tracker = tracker
        self._pieces: list[_Piece] = []
        self._fields: list[_Field] = []
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
                self._explode(f)
        runs = [
            r for r in iter_runs(self.p)
            if not _inside(r, (_DEL, _MOVE_FROM), self.p) and r.find(_COMMENT_REF) is None
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
        return _outside_wrappers(first, ids, before=True), _outside_wrappers(last, ids, before=False)

    def outside(self, el: etree._Element, *, before: bool) -> etree._Element:
        """``el`` or the revision wrapper around it, split if needed, where markup
        (a comment range) may go right before/after it."""
        return _outside_wrappers(el, self.tracker.ids, before=before)

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
        self._fields = self._find_fields()
        if not self._fields:
            return
        order = {el: i for i, el in enumerate(self.p.iter())}
        for f in self._fields:
            if f.simple is not None:
                shown = [pc for pc in pieces if _is_inside(pc.owner, f.simple)]
            else:
                lo = order[f.first] if f.first is not None else -1
                hi = order[f.last] if f.last is not None else len(order)
                shown = [pc for pc in pieces if lo < order[pc.owner] < hi]
            if shown:
                f.start, f.end = shown[0].start, shown[-1].end

    def _find_fields(self) -> list[_Field]:
        fields: list[_Field] = []
        depth = 0
        current: _Field | None = None
        for run in iter_runs(self.p):
            for ch in run.iterchildren(_FLD_CHAR):
                kind = ch.get(_FLD_TYPE)
                if kind == "begin":
                    if depth == 0:
                        current = _Field(first=ch)
                        fields.append(current)
                    depth += 1
                elif kind == "end":
                    if depth == 0:  # the field began in an earlier paragraph
                        current = _Field(runs=list(_runs_until(self.p, run)), complete=False, last=ch)
                        fields.append(current)
                    else:
                        depth -= 1
                        if depth == 0 and current is not None:
                            current.last = ch
            if current is not None:
                if not current.runs or current.runs[-1] is not run:
                    current.runs.append(run)
                if depth == 0:
                    current = None
        if current is not None:
            current.complete = False  # ends in a later paragraph
        for fs in self.p.iter(_FLD_SIMPLE):
            if not _inside(fs, (_R,), self.p):  # not one in a text box of this paragraph
                fields.append(_Field(runs=list(iter_runs(fs)), simple=fs))
        return fields

    def _field_of(self, run: etree._Element) -> _Field | None:
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
                hit = [h for h in hunks if _touches(h, f)]
                if not hit:
                    continue
                if not f.deletable:
                    raise EditRefused("unsupported_content", "The edit touches a field that cannot be replaced whole: "
                                      + _why_not_deletable(f), _field_element(f))
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
                    self._explode(f)
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
            _outside_wrappers(made[-1], self.tracker.ids, before=False).addnext(ins)
            made.append(ins)
        return made

    def _insert_at(self, pos: int, text: str) -> etree._Element:
        self._cut(pos)
        before = next((pc.run for pc in reversed(self._pieces) if pc.end == pos), None)
        after = next((pc.run for pc in self._pieces if pc.start == pos), None)
        ins = self._new_ins(text, None)
        if before is None and after is None:
            _append_content(self.p, ins)
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
                                  _field_element(f))
            el = f.runs[-1] if after_ref else f.runs[0]
            if f.simple is not None:
                el = f.simple
        while True:
            parent = el.getparent()
            if parent is None or parent is self.p:
                return el, left_container
            if parent.tag in _WRAPPERS:
                el = _outside_wrappers(el, self.tracker.ids, before=not after_ref)
            elif parent.tag in _CONTAINERS and (other is None or not _is_inside(other, parent)):
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
                self._split_run(pc.run, pc.owner, offset - pc.start)
                self._scan()
                return
            if pc.start == offset:
                if i and self._pieces[i - 1].run is pc.run:
                    self._split_run(pc.run, pc.owner, None)
                    self._scan()
                return

    def _split_run(self, run: etree._Element, child: etree._Element, text_at: int | None) -> etree._Element:
        right = etree.Element(run.tag, attrib=dict(run.attrib))
        rpr = run.find(_RPR)
        if rpr is not None:
            right.append(self._renumbered(rpr))
        if text_at is not None:
            tail = etree.SubElement(right, child.tag)
            tail.text = child.text[text_at:]
            child.text = child.text[:text_at]
            preserve_space(child)
            preserve_space(tail)
            movers = list(child.itersiblings())
        else:
            movers = [child, *child.itersiblings()]
        for m in movers:
            right.append(m)
        run.addnext(right)
        return right

    def _renumbered(self, el: etree._Element) -> etree._Element:
        """A copy whose revision records get fresh ids (a split keeps ids unique)."""
        out = copy.deepcopy(el)
        for rev in out.iter(*REVISION_ID_TAGS):
            rev.set(_ID, self.tracker.ids.next())
        return out

    def _isolate_field(self, f: _Field) -> None:
        """Split the field's first and last runs so they hold only the field."""
        first, last = f.runs[0], f.runs[-1]
        begin = next(c for c in first.iterchildren(_FLD_CHAR) if c.get(_FLD_TYPE) == "begin")
        if any(c.tag != _RPR for c in begin.itersiblings(preceding=True)):
            right = self._split_run(first, begin, None)
            f.runs[0] = right
            if last is first:
                last = right
        end = [c for c in last.iterchildren(_FLD_CHAR) if c.get(_FLD_TYPE) == "end"][-1]
        if end.getnext() is not None:
            self._split_run(last, end.getnext(), None)
        f.runs[-1] = last

    def _explode(self, f: _Field) -> None:
        """Rewrite a ``w:fldSimple`` as the equivalent begin/instr/separate/result/end runs."""
        fs = f.simple
        rpr = formatting_of(f.runs[0]) if f.runs else None

        def char_run(kind: str) -> etree._Element:
            run = etree.Element(_R)
            if rpr is not None:
                run.append(copy.deepcopy(rpr))
            fc = etree.SubElement(run, _FLD_CHAR)
            fc.set(_FLD_TYPE, kind)
            return run

        begin = char_run("begin")
        for attr in ("fldLock", "dirty"):
            if fs.get(qn(f"w:{attr}")) is not None:
                begin[-1].set(qn(f"w:{attr}"), fs.get(qn(f"w:{attr}")))
        instr = etree.Element(_R)
        if rpr is not None:
            instr.append(copy.deepcopy(rpr))
        it = etree.SubElement(instr, _INSTR)
        it.text = " " + (fs.get(_INSTR_ATTR) or "").strip() + " "
        it.set(XML_SPACE, "preserve")
        made = [begin, instr, char_run("separate"), *fs, char_run("end")]
        for el in made:
            fs.addprevious(el)
        fs.getparent().remove(fs)
        f.runs = [r for r in made if r.tag == _R]
        f.first, f.last = begin[-1], made[-1][-1]
        f.simple = None

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


def _field_element(f: _Field) -> etree._Element:
    if f.simple is not None:
        return f.simple
    return f.first if f.first is not None else (f.last if f.last is not None else f.runs[0])


def _why_not_deletable(f: _Field) -> str:
    if not f.complete:
        return "it starts or ends in another paragraph."
    return "its runs sit in different containers or revisions."


def _touches(h: Hunk, f: _Field) -> bool:
    if h.end > h.start:
        return h.start < f.end and h.end > f.start
    return f.start < h.start < f.end


def _inside(el: etree._Element, tags: tuple[str, ...], stop: etree._Element) -> bool:
    for anc in el.iterancestors():
        if anc is stop:
            return False
        if anc.tag in tags:
            return True
    return False


def _is_inside(el: etree._Element, container: etree._Element) -> bool:
    return any(anc is container for anc in el.iterancestors())


def in_container(run: etree._Element, p: etree._Element) -> bool:
    """True when ``run`` sits in a hyperlink, content control, smart tag or simple
    field of paragraph ``p`` (its formatting may be the container's, not the text's)."""
    return _inside(run, tuple(_CONTAINERS), p)


def _runs_until(p: etree._Element, last: etree._Element) -> Iterator[etree._Element]:
    for run in iter_runs(p):
        yield run
        if run is last:
            return


def _outside_wrappers(el: etree._Element, ids: RevisionIds, *, before: bool) -> etree._Element:
    """Climb out of revision wrappers (``w:ins``/``w:del``…) around ``el``.

    A wrapper with content on the far side of ``el`` is split in two (same
    author, date and kind; the new half gets a fresh id), so the returned
    element is a sibling-level place where new markup may go.
    """
    while True:
        parent = el.getparent()
        if parent is None or parent.tag not in _WRAPPERS:
            return el
        far = el.getprevious() if before else el.getnext()
        if far is not None:
            _split_wrapper(parent, el if before else el.getnext(), ids)
            if before:
                parent = el.getparent()
        el = parent


def _split_wrapper(wrapper: etree._Element, first_moved: etree._Element, ids: RevisionIds) -> None:
    """Move ``first_moved`` and what follows it into a copy of ``wrapper`` after it."""
    twin = etree.Element(wrapper.tag, attrib=dict(wrapper.attrib))
    twin.set(_ID, ids.next())
    for m in [first_moved, *first_moved.itersiblings()]:
        twin.append(m)
    wrapper.addnext(twin)


def _append_content(p: etree._Element, el: etree._Element) -> None:
    """Append run-level content before the paragraph's trailing range ends."""
    tail = len(p)
    while tail and p[tail - 1].tag in (qn("w:bookmarkEnd"), qn("w:commentRangeEnd")):
        tail -= 1
    p.insert(tail, el)
