"""Compare two versions of a contract into a redline: accept every revision and you have ``new``, reject every
one and you have ``old``.

The redline is written on ``new``, so the result keeps everything of the version the lawyer now holds (its
formatting, styles, comments, anchors, headers). Each difference is written by the same proven writer as a
review's suggestions (:mod:`.writer`), as the edit that would turn ``new`` back into ``old`` (a paragraph
rewritten word by word, a paragraph of ``old`` inserted, one of ``new`` deleted), and then every revision is
turned round (:func:`invert`): an insertion becomes a deletion and back, so the redline reads from ``old`` to
``new``. Paragraphs are paired by :mod:`.align`; within a pair the diff is :mod:`.diff`'s, word by word with
words and figures kept as one phrase ("~~ninety (90)~~ thirty (30) days"); a paragraph that only moved is
recorded as a Word move (:mod:`.moves`, from eight words up).

Headers, footers, footnotes and endnotes are paired story by story and written the same way, word by word
(:mod:`.stories`); the body's pictures are compared by their bytes, a changed one deleted and inserted, its
old media copied into the result (:mod:`.pictures`).

Versions that already hold tracked changes are compared as they read with every change accepted (the
result says so in ``views``), and the result is proven before it is returned: its accept view read back must
be ``new``'s text and its reject view ``old``'s, paragraph by paragraph, in the body and in every header,
footer and note, and its accept view must show ``new``'s pictures; otherwise :class:`CompareError` says where
they differ. What the redline does not show (a header or note only ``old`` has, text in text boxes, pictures
its reject view does not show as ``old`` had them) is named in
``uncompared`` (:mod:`.uncompared`), never dropped in silence.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from lxml import etree

from .align import align, normalise
from .anchors import anchor_map
from .errors import DocxError
from .formatting_changes import record_formatting
from .ids import story_roots
from .moves import next_revision_id, record_moves
from .ops import Op, OpResult
from .outside_tables import move_out_of_tables
from .oxml import qn
from .package import DEFAULT_LIMITS, Limits, Package
from .paragraphs import Paragraph, read_document, read_paragraphs
from .pictures import redline_pictures, views_match
from .removed_rows import restore_rows
from .restyle import defined, restyle
from .revision_kinds import DEL, INS
from .revisions import Tracker, accept
from .stories import KINDS, Written, prove_stories, redline_stories
from .uncompared import MARKS, formatting, uncompared
from .writer import Redliner

DEFAULT_COMPARE_AUTHOR = "Redline Compare"
# paragraphs put back, the old ones of one table row, and where they went ("before"/"after" their neighbour)
Rows = tuple[list[etree._Element], list[Paragraph], str]
_TEXT_TAGS = {qn("w:t"): qn("w:delText"), qn("w:instrText"): qn("w:delInstrText")}
_DELETED_TEXT_TAGS = {v: k for k, v in _TEXT_TAGS.items()}
_BOOKMARK_START, _BOOKMARK_NAME = qn("w:bookmarkStart"), qn("w:name")
_R_PR = qn("w:rPr")
_ORDER = (*KINDS, "pictures")


class CompareError(DocxError):
    """The comparison could not be written so that both views come out right (nothing is returned)."""


@dataclass(frozen=True, slots=True)
class Change:
    """One paragraph: ``changed`` (reworded), ``inserted`` (only in ``new``), ``deleted`` (only in ``old``) or
    ``same``; ``anchor`` is the paragraph's anchor in the result (for a deleted paragraph, where it is)."""

    kind: str
    anchor: str | None
    before: str
    after: str

    def to_dict(self) -> dict[str, str | None]:
        return {"kind": self.kind, "anchor": self.anchor, "before": self.before, "after": self.after}


@dataclass(frozen=True, slots=True)
class Comparison:
    """The redline (``docx``), every paragraph in document order (``sequence``: the unchanged ones as kind
    ``same``, for a reader that folds them), what was compared (``views``), what else it redlines
    (``elsewhere``: headers, footers, footnotes, endnotes, pictures) and what else differs but is only named
    (``uncompared``)."""

    docx: bytes
    sequence: list[Change] = field(default_factory=list)
    views: str = "accepted"
    had_revisions: bool = False
    uncompared: list[str] = field(default_factory=list)  # what else differs, not in the redline (.uncompared)
    moves: int = 0  # paragraphs recorded as moved (.moves): each is also one deleted and one inserted change
    formatted: int = 0  # paragraphs whose bold/italic/underline changed, recorded (.formatting_changes)
    elsewhere: list[str] = field(default_factory=list)  # what else changed and is redlined (headers, …, pictures)

    @property
    def changes(self) -> list[Change]:
        """The differences, in document order."""
        return [c for c in self.sequence if c.kind != "same"]

    @property
    def counts(self) -> dict[str, int]:
        out = {"changed": 0, "inserted": 0, "deleted": 0}
        for c in self.changes:
            out[c.kind] += 1
        return out


def compare(old: bytes, new: bytes, *, author: str = DEFAULT_COMPARE_AUTHOR, date: str | None = None,
            limits: Limits = DEFAULT_LIMITS) -> Comparison:
    """The redline from ``old`` to ``new`` (untrusted .docx bytes; :class:`DocxError` for input refused)."""
    old_pkg, old_had = _accepted(old, limits)
    new_pkg, had_revisions = _accepted(new, limits)
    base = new_pkg.save() if had_revisions else new
    new_read = read_document(base, anchor=True, limits=limits)
    before = [p for p in read_paragraphs(old_pkg) if not p.is_empty]
    after = [p for p in new_read.paragraphs if not p.is_empty]
    pairs = align([p.text for p in before], [p.text for p in after],
                  [p.anchor for p in before], [p.anchor for p in after])
    plan = _Plan(before, after)
    for i, j in pairs:
        plan.add(i, j)
    pkg = Package.open(new_read.docx or base, limits)
    writer = Redliner(pkg, author=author or DEFAULT_COMPARE_AUTHOR, date=date, seed=hashlib.sha256(old + new).digest())
    ops = plan.ops()
    results = writer.apply_all(ops)
    refused = [r for r in results if r.status != "applied"]
    if refused:
        raise CompareError("compare_refused", _refusal(refused[0]))
    known = defined(pkg)
    restored, rows, located = _put_back(pkg, results, plan, known)
    stories = redline_stories(old_pkg, pkg, Tracker(writer.author, writer.date, writer.revision_ids), known)
    roots = story_roots(pkg)
    for root in roots:
        invert(root)
    next_id = move_out_of_tables(restored, next_revision_id(roots), author=writer.author, date=writer.date)
    next_id = restore_rows(rows, next_id, author=writer.author, date=writer.date,
                           same_table=_same_table(plan))
    by_anchor = anchor_map(pkg.xml(pkg.main_part))
    formatted, unrecorded, next_id = _formatting(by_anchor, plan.same, next_id, author=writer.author,
                                                 date=writer.date)
    located.update((before[i].element, by_anchor[a]) for i, j in plan.pairs
                   if (a := after[j].anchor) is not None and a in by_anchor)
    _, pictured = redline_pictures(old_pkg, pkg, located, known, next_id, author=writer.author, date=writer.date)
    moves = record_moves(pkg.xml(pkg.main_part), roots, author=writer.author, date=writer.date)
    data = pkg.save()
    pictures_shown = _prove(data, before, after, stories.written, (old_pkg, new_pkg), limits)
    named = stories.named | (set() if pictures_shown else {"pictures"})
    redlined = [k for k in _ORDER if k in stories.redlined or (k == "pictures" and pictured)]
    return Comparison(data, plan.changes, "accepted", had_revisions or old_had, uncompared(named, unrecorded),
                      moves, formatted, redlined)


def invert(root: etree._Element) -> int:
    """Turn every insertion under ``root`` into a deletion and every deletion into an insertion (their text
    elements too: ``w:t`` ↔ ``w:delText``); how many were turned. Paragraph marks turn with them."""
    marks = [el for el in root.iter(INS, DEL)]
    for el in marks:
        inserted = el.tag == INS
        el.tag = DEL if inserted else INS
        swap = _TEXT_TAGS if inserted else _DELETED_TEXT_TAGS
        for t in el.iter(*swap):
            t.tag = swap[t.tag]
    for el in marks:  # a replacement reads deleted first, as Word writes it: "~~ninety (90)~~ thirty (30)"
        after = el.getnext()
        if el.tag == INS and after is not None and after.tag == DEL and el.getparent().tag != _R_PR:
            el.addprevious(after)
    return len(marks)


class _Plan:
    """The writer's ops that turn ``new`` (the base) back into ``old``, and the changes they stand for."""

    def __init__(self, old: list[Paragraph], new: list[Paragraph]) -> None:
        self.old, self.new = old, new
        self.rewrites: list[Op] = []
        self.inserts: list[Op] = []
        self.deletes: list[Op] = []
        self.changes: list[Change] = []
        self.same: list[tuple[Paragraph, Paragraph]] = []  # paragraphs that read the same, old and new
        self.pairs: list[tuple[int, int]] = []  # every paragraph of old paired with one of new
        self._last: int | None = None  # the last paragraph of ``new`` seen, where old paragraphs go after
        self._pending: list[int] = []  # old paragraphs waiting for a paragraph of ``new`` to go before
        self._put: list[list[int]] = []  # per insertion, the old paragraphs it puts back
        self.put_back: list[list[int]] = []  # per op of :meth:`ops`, the old paragraphs it puts back

    def add(self, i: int | None, j: int | None) -> None:
        if j is not None:
            if self._pending and self._last is None:  # old paragraphs before the first of ``new``
                self._insert(self._pending, j, "before")
                self._pending = []
            self._last = j
        if i is not None and j is not None:
            old, new = self.old[i].text, self.new[j].text
            if normalise(old) != normalise(new):
                self.rewrites.append(self._op("REWRITE_PARAGRAPH", j, new_text=old))
                self.changes.append(Change("changed", self.new[j].anchor, old, new))
            else:
                self.changes.append(Change("same", self.new[j].anchor, old, new))
                self.same.append((self.old[i], self.new[j]))
            self.pairs.append((i, j))
        elif j is not None:
            self.deletes.append(self._op("DELETE_PARAGRAPH", j))
            self.changes.append(Change("inserted", self.new[j].anchor, "", self.new[j].text))
        elif i is not None:
            if self._last is None:
                self._pending.append(i)
            else:
                self._insert([i], self._last, "after")

    def ops(self) -> list[Op]:
        """Rewrites first, then the old paragraphs put back, then new ones taken out (an old paragraph goes
        after a paragraph of ``new`` before that one's own text is marked). ``put_back`` lists, per op, the
        old paragraphs it puts back, in order."""
        if self._pending:  # ``new`` is empty: nothing to put them next to
            raise CompareError("compare_empty", "The new version has no text to compare against.")
        merged: list[Op] = []
        olds: list[list[int]] = []
        for op, put in zip(self.inserts, self._put, strict=True):
            # consecutive old paragraphs after one paragraph: one insertion, in order
            if merged and merged[-1].anchor == op.anchor and merged[-1].position == op.position == "after":
                merged[-1] = Op(merged[-1].index, "INSERT", op.anchor, text=merged[-1].text + "\n" + op.text,
                                position="after")
                olds[-1] = [*olds[-1], *put]
            else:
                merged.append(op)
                olds.append(list(put))
        self.put_back = [[] for _ in self.rewrites] + olds + [[] for _ in self.deletes]
        return [*self.rewrites, *merged, *self.deletes]

    def _insert(self, olds: list[int], j: int, position: str) -> None:
        # one line per paragraph: a line break inside one (an address, a signature block) reads as a space
        text = "\n".join(" ".join(self.old[i].text.splitlines()) for i in olds)
        self.inserts.append(Op(0, "INSERT", self.new[j].anchor or "", text=text, position=position))
        self._put.append(olds)
        self.changes.extend(Change("deleted", self.new[j].anchor, self.old[i].text, "") for i in olds)

    def _op(self, kind: str, j: int, new_text: str = "") -> Op:
        return Op(0, kind, self.new[j].anchor or "", new_text=new_text)


def _put_back(pkg: Package, results: list[OpResult], plan: _Plan, known: tuple[set[str], set[str]]
              ) -> tuple[list[etree._Element], list[Rows], dict[etree._Element, etree._Element]]:
    """Old paragraphs put back read as they did: their own style and list (:mod:`.restyle`). Returns those that
    were not in a table (:mod:`.outside_tables` takes them out of one they were written into), per old table
    row those that were (:mod:`.removed_rows` puts a whole removed row back as a row), and each old paragraph's
    element with the one put back for it (where its pictures go back, :mod:`.pictures`)."""
    styles, nums = known
    by_anchor = anchor_map(pkg.xml(pkg.main_part))
    outside: list[etree._Element] = []
    rows: list[Rows] = []
    located: dict[etree._Element, etree._Element] = {}
    for result, olds in zip(results, plan.put_back, strict=True):
        last_row = None
        for anchor, i in zip(result.new_anchors, olds, strict=False):
            if (p := by_anchor.get(anchor)) is None:
                continue
            old = plan.old[i]
            restyle(p, old.element, styles, nums)
            located[old.element] = p
            if old.table is None:
                outside.append(p)
                last_row = None
                continue
            row = (old.table.table, old.table.row, old.table.parent)
            if row != last_row:
                rows.append(([], [], result.op.position))
                last_row = row
            rows[-1][0].append(p)
            rows[-1][1].append(old)
    return outside, rows, located


def _same_table(plan: _Plan) -> Callable[[etree._Element, int], bool]:
    """Whether a table of the result holds a paragraph paired with one of the old version's table ``n``."""
    table_of = {plan.new[j].anchor: plan.old[i].table.table for i, j in plan.pairs
                if plan.old[i].table is not None and plan.new[j].anchor}

    def same(tbl: etree._Element, n: int) -> bool:
        return any(table_of.get(b.get(_BOOKMARK_NAME)) == n for b in tbl.iter(_BOOKMARK_START))

    return same


def _plain(p: etree._Element) -> bool:
    """No bold, italic or underline anywhere in the paragraph (most are plain: nothing to read character by
    character)."""
    return next(p.iter(*MARKS), None) is None


def _formatting(by_anchor: dict[str, etree._Element], same: list[tuple[Paragraph, Paragraph]], next_id: int, *,
                author: str, date: str) -> tuple[int, list[tuple[Paragraph, Paragraph]], int]:
    """Bold, italic and underline changed on unchanged text, recorded (:mod:`.formatting_changes`): how many
    paragraphs, the pairs it could not record wholly (named as not in the redline), and the next revision id."""
    unrecorded = []
    recorded = 0
    for old, new in same:
        if (_plain(old.element) and _plain(new.element)) or formatting(old.element) == formatting(new.element):
            continue
        p = by_anchor.get(new.anchor or "")
        if p is None:
            unrecorded.append((old, new))
            continue
        next_id, complete = record_formatting(p, old.element, next_id, author=author, date=date)
        recorded += 1
        if not complete:
            unrecorded.append((old, new))
    return recorded, unrecorded, next_id


def _accepted(data: bytes, limits: Limits) -> tuple[Package, bool]:
    """A version with every tracked change accepted (what is compared), and whether it had any. The old
    version's body, stories and pictures are read from this package itself; the new one is written out again
    to be anchored."""
    pkg = Package.open(data, limits)
    return pkg, bool(sum(accept(root) for root in story_roots(pkg)))


def _prove(data: bytes, old: list[Paragraph], new: list[Paragraph], stories: list[Written],
           versions: tuple[Package, Package], limits: Limits) -> bool:
    """The result's accept view must read as ``new`` and its reject view as ``old``, paragraph by paragraph, in
    the body and in every header, footer and note, and its accept view must show the new version's pictures.
    Returns whether its reject view shows the old version's pictures (if not, they are named)."""
    final = Package.open(data, limits)
    read = read_paragraphs(final)
    for view, want, got in (("accept", [p.text for p in new], [p.text for p in read]),
                            ("reject", [p.text for p in old], [p.original_text for p in read])):
        w = [n for t in want if (n := normalise(t))]
        g = [n for t in got if (n := normalise(t))]
        if w != g:
            at = next((k for k, (a, b) in enumerate(zip(w, g, strict=False)) if a != b), min(len(w), len(g)))
            raise CompareError("compare_unproven", f"The redline's {view} view differs at paragraph {at + 1}: "
                                                   f"{(g[at] if at < len(g) else '(nothing)')[:80]!r} instead of "
                                                   f"{(w[at] if at < len(w) else '(nothing)')[:80]!r}.")
    problem = prove_stories(final, stories)
    if problem is not None:
        raise CompareError("compare_unproven", f"The redline's {problem}.")
    accepted, rejected = views_match(*versions, final)
    if not accepted:
        raise CompareError("compare_unproven", "The redline's accept view does not show the new version's pictures.")
    return rejected


def _refusal(result: OpResult) -> str:
    return (f"A change could not be written as a tracked change ({result.reason}: {result.message}); "
            "no redline was made.")
