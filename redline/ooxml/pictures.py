"""Pictures of the body compared by what they show: a changed picture is the old one deleted and the new one
inserted, an added one inserted, a removed one deleted, as Word records them.

A picture is a run holding a drawing, a VML picture or an embedded object that refers to a part of the package; it is known by the
bytes of those parts (its name and size do not matter). The body's pictures of the two versions, in document
order, are matched as sequences (:class:`difflib.SequenceMatcher`): an old picture matched with a different new
one at the same place (a replacement: in the paragraph its own became, or in a paragraph of its own after the
same text) goes back, deleted, right before the new one, which is marked inserted;
a picture only the new version has is marked inserted (and its paragraph mark too, when the paragraph holds
nothing else, so rejecting leaves no empty line); a picture only the old version had goes back, deleted, into
the paragraph of the result its own paragraph became (paired or put back), at its start when it stood before
the text; one that stood in a paragraph of its own comes back as a paragraph of its own, mark deleted, after
the paragraph the one before it became. The old picture's run and media come from the old package
(:mod:`.media_copy`).

This runs after the comparison is turned round, so what it writes is the final revision. The result is then
judged (:func:`views_match`): its accept view must show the new version's pictures and its reject view the old
one's, the body's in order and the other stories' (headers, footers, notes, where pictures are not redlined)
as a whole; where the reject view does not, pictures are named as not in the redline.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher

from lxml import etree

from .media_copy import MediaCopier
from .oxml import NSMAP, qn
from .package import Package
from .paragraph_copies import give_mark, plain_properties, take_mark
from .restyle import restyle
from .revision_kinds import DEL, INS, MOVE_FROM, MOVE_TO
from .revisions import next_paragraph, paragraph_mark_revisions, track_paragraph_mark
from .run_xml import iter_runs
from .text import paragraph_text

_P, _R, _T, _PPR, _TR_PR = qn("w:p"), qn("w:r"), qn("w:t"), qn("w:pPr"), qn("w:trPr")
_SHAPES = (qn("w:drawing"), qn("w:pict"), qn("w:object"))
_TXBX, _TR = qn("w:txbxContent"), qn("w:tr")
_ID, _AUTHOR, _DATE = qn("w:id"), qn("w:author"), qn("w:date")
_R_NS = "{" + NSMAP["r"] + "}"
_HIDDEN = {"accept": (DEL, MOVE_FROM), "reject": (INS, MOVE_TO)}  # what a view does not show
_STORY_RELS = ("/header", "/footer", "/footnotes", "/endnotes")


@dataclass(frozen=True, slots=True)
class Picture:
    """A run that shows a picture, and what it shows (hashes of the parts it refers to)."""

    run: etree._Element
    key: str


def pictures(pkg: Package, part: str, view: str | None = None) -> list[Picture]:
    """The pictures (and embedded objects) of one story in document order, not those inside text boxes; with
    ``view`` (``accept`` or ``reject``), only those that view shows."""
    rels = pkg.rels(part)
    hashes: dict[str, str] = {}
    out: list[Picture] = []
    seen: set[etree._Element] = set()
    for shape in pkg.xml(part).iter(*_SHAPES):
        run = next(shape.iterancestors(_R), None)
        if run is None or run in seen or any(a.tag == _TXBX for a in run.iterancestors()):
            continue
        seen.add(run)
        refs = [v for el in run.iter() if isinstance(el.tag, str) for k, v in el.attrib.items() if k.startswith(_R_NS)]
        if refs and (view is None or _shown(run, view)):
            out.append(Picture(run, "+".join(_hash(pkg, rels.get(rid), hashes) for rid in refs)))
    return out


def views_match(old: Package, new: Package, result: Package) -> tuple[bool, bool]:
    """Whether the result's accept view shows the new version's pictures, and its reject view the old one's."""
    return _seen(result, "accept") == _seen(new, None), _seen(result, "reject") == _seen(old, None)


def redline_pictures(old: Package, new: Package, located: dict[etree._Element, etree._Element],
                     defined: tuple[set[str], set[str]], next_id: int, *, author: str, date: str) -> tuple[int, int]:
    """Write the body's picture changes into ``new`` (the result, turned round); ``located`` maps old body
    paragraphs to the result's paragraphs they became. The next free revision id, and how many pictures were
    marked inserted or deleted."""
    before = pictures(old, old.main_part)
    after = pictures(new, new.main_part, "accept")
    if not before and not after:
        return next_id, 0
    root = new.xml(new.main_part)
    located = {o: p for o, p in located.items() if p.getroottree().getroot() is root}  # not rebuilt as a row
    writer = _Writer(old, new, located, defined, next_id, author, date)
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, [p.key for p in before], [p.key for p in after],
                                               autojunk=False).get_opcodes():
        if tag == "equal":  # the same picture, but inside an insertion (its paragraph is new, or moved here)
            for k in range(i1, i2):
                if not _shown(after[j1 + k - i1].run, "reject"):
                    writer.deleted(before[k].run, None)
            continue
        partners: dict[int, etree._Element] = {}  # old picture → the new one it was replaced by, in order
        for k in range(j1, j2):
            i = next((i for i in range(max(partners, default=i1 - 1) + 1, i2)
                      if writer.same_place(before[i].run, after[k].run)), None)
            if i is not None:
                partners[i] = after[k].run
        for k in range(j1, j2):
            writer.inserted(after[k].run)
        for i in range(i1, i2):
            writer.deleted(before[i].run, partners.get(i))
    writer.close()
    return writer.next_id, writer.count


class _Writer:
    """Marks new pictures inserted and puts old ones back deleted, keeping revision ids in order."""

    def __init__(self, old: Package, new: Package, located: dict[etree._Element, etree._Element],
                 defined: tuple[set[str], set[str]], next_id: int, author: str, date: str) -> None:
        self.copier = MediaCopier(old, new)
        self.located, self.defined = located, defined
        self.next_id, self.author, self.date = next_id, author, date
        self.count = 0
        self.order = [p for p in old.xml(old.main_part).iter(_P) if not any(a.tag == _TXBX for a in p.iterancestors())]
        self.position = {p: k for k, p in enumerate(self.order)}
        self.after: dict[etree._Element, etree._Element] = {}  # a paragraph → the last one put after it
        self.touched: list[etree._Element] = []  # paragraphs given an inserted picture

    def revision(self, tag: str) -> etree._Element:
        el = etree.Element(tag, {_ID: str(self.next_id), _AUTHOR: self.author, _DATE: self.date})
        self.next_id += 1
        return el

    def same_place(self, old_run: etree._Element, new_run: etree._Element) -> bool:
        """Whether a new picture stands where an old one stood: in the paragraph the old one's became, or both
        in a paragraph of their own after the same paragraph of text."""
        old_p, new_p = next(old_run.iterancestors(_P)), next(new_run.iterancestors(_P))
        if self.located.get(old_p) is new_p:
            return True
        if paragraph_text(old_p).strip() or paragraph_text(new_p).strip():
            return False
        before = next((x for x in new_p.itersiblings(_P, preceding=True)
                       if paragraph_text(x).strip() or paragraph_text(x, "reject").strip()), None)
        return self._located_before(old_p) is before

    def _located_before(self, old_p: etree._Element) -> etree._Element | None:
        """The paragraph of the result that the nearest old paragraph before ``old_p`` became."""
        at = self.position[old_p]
        return next((self.located[p] for p in reversed(self.order[:at]) if p in self.located), None)

    def inserted(self, run: etree._Element) -> None:
        p = next(run.iterancestors(_P))
        self.count += 1
        if any(a.tag in (INS, MOVE_TO) for a in _up_to(run, p)):
            return  # its paragraph is new, already inserted
        ins = self.revision(INS)
        run.addprevious(ins)
        ins.append(run)
        self.touched.append(p)

    def deleted(self, old_run: etree._Element, partner: etree._Element | None) -> None:
        run = self.copier.run(old_run)
        if run is None:
            return
        wrapper = self.revision(DEL)
        wrapper.append(run)
        old_p = next(old_run.iterancestors(_P))
        here = self.located.get(old_p)
        if partner is not None:
            _outermost(partner).addprevious(wrapper)
        elif here is not None:
            if _leads(old_p, old_run):
                here.insert(1 if len(here) and here[0].tag == _PPR else 0, wrapper)
            else:
                here.append(wrapper)
        elif paragraph_text(old_p).strip() or not self._own_paragraph(old_p, wrapper):
            return  # nowhere to put it: the reject view will lack it, and pictures are named
        self.count += 1

    def close(self) -> None:
        """A paragraph that now holds nothing but inserted pictures has its mark inserted too."""
        for p in dict.fromkeys(self.touched):
            runs = list(iter_runs(p))
            if (runs and all(r.getparent().tag == INS for r in runs) and not paragraph_text(p, "reject")
                    and next_paragraph(p) is not None and not paragraph_mark_revisions(p)
                    and p.find(f"{_PPR}/{qn('w:sectPr')}") is None):
                track_paragraph_mark(p, self.revision(INS))

    def _own_paragraph(self, old_p: etree._Element, wrapper: etree._Element) -> bool:
        """An old picture that had a paragraph of its own: a paragraph, its mark deleted, after the paragraph
        the one before it became (before the one after it became, when none came before); whether it found a
        place."""
        prev = self._located_before(old_p)
        q = etree.Element(_P)
        q.append(wrapper)
        if prev is None:
            at = self.position[old_p]
            following = next((self.located[p] for p in self.order[at + 1:] if p in self.located), None)
            if following is None:
                return False
            track_paragraph_mark(q, self.revision(DEL))
            restyle(q, old_p, *self.defined)
            following.addprevious(q)
            return True
        host = self.after.get(prev, prev)
        if next_paragraph(host) is not None:
            track_paragraph_mark(q, self.revision(DEL))
            restyle(q, old_p, *self.defined)
        elif not paragraph_mark_revisions(host):
            _hand_mark(host, q, self.revision(DEL))  # nothing follows to join it to: Word's way at the end
        else:
            return False
        host.addnext(q)
        self.after[prev] = q
        return True


def _hand_mark(host: etree._Element, q: etree._Element, mark: etree._Element) -> None:
    """``q`` goes after ``host``, the last paragraph of its container: ``host``'s mark becomes the deleted one
    and ``q`` takes ``host``'s properties and original mark (its section break), so accepting joins them."""
    ppr = plain_properties(host)
    if ppr is not None:
        q.insert(0, ppr)
    give_mark(q, take_mark(host))
    track_paragraph_mark(host, mark)


def _shown(run: etree._Element, view: str) -> bool:
    """Whether a view shows the run: no revision around it that the view takes away, nor its row's."""
    for a in run.iterancestors():
        if a.tag in _HIDDEN[view]:
            return False
        if a.tag == _TR and (trpr := a.find(_TR_PR)) is not None and trpr.find(_HIDDEN[view][0]) is not None:
            return False
    return True


def _hash(pkg: Package, target: tuple[str, str] | None, cache: dict[str, str]) -> str:
    if target is None:
        return "missing"
    name = target[0]
    if not pkg.has(name):
        return "url:" + name  # external (a linked picture) or missing: known by where it points
    if name not in cache:
        cache[name] = hashlib.sha256(pkg.blob(name)).hexdigest()
    return cache[name]


def _seen(pkg: Package, view: str | None) -> tuple[list[str], list[str]]:
    """The body's pictures in order, and those of the headers, footers and notes as a sorted whole."""
    stories = sorted(t for t, typ in pkg.rels(pkg.main_part).values() if typ.endswith(_STORY_RELS) and pkg.has(t))
    return ([p.key for p in pictures(pkg, pkg.main_part, view)],
            sorted(p.key for part in stories for p in pictures(pkg, part, view)))


def _up_to(el: etree._Element, stop: etree._Element) -> Iterable[etree._Element]:
    for a in el.iterancestors():
        if a is stop:
            return
        yield a


def _outermost(run: etree._Element) -> etree._Element:
    """The run, or the insertion around it: where a deleted picture goes right before it."""
    while run.getparent() is not None and run.getparent().tag in (INS, MOVE_TO):
        run = run.getparent()
    return run


def _leads(p: etree._Element, run: etree._Element) -> bool:
    """Whether ``run`` comes before any text of ``p``."""
    for el in p.iter(_T, _R):
        if el is run:
            return True
        if el.tag == _T and (el.text or "").strip():
            return False
    return True
