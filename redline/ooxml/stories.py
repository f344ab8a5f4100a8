"""Headers, footers, footnotes and endnotes redlined as the body is, story by story.

A header or footer of the new version is paired with the one the old version shows at the same place: the
same section (the old version's last, for a section it did not have) and the same type (default, first page,
even pages), following Word's rule that a section without a reference of a type shows the previous section's.
Footnotes and endnotes are paired in the order the body first refers to them: equal or alike texts by
:func:`.align.align`, and between two such pairs the others in order (a note rewritten beyond recognition is
still the note at that place). Each pair is then written by :func:`.story_edits.write_story`, proven on a copy.

A story only the new version has (a header added, a new footnote) is written as wholly inserted, a new note's
reference in the body too, so rejecting every change leaves nothing of it. A story only the old version had (a
header or a note taken out) is named, not redlined: putting it back would mean adding a part and a reference
to a section or to the text that the new version does not have. So is a story whose edit could not be proven,
and the text of text boxes. What the result must read as is kept (:class:`Written`) for the final proof.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from lxml import etree

from .align import Pair, align
from .oxml import qn
from .package import Package
from .revision_kinds import DEL, INS
from .revisions import Tracker, accept, reject
from .story_edits import box_texts, story_texts, write_story

KINDS = ("headers", "footers", "footnotes", "endnotes")
_REFS = {qn("w:headerReference"): "headers", qn("w:footerReference"): "footers"}
_NOTES = {"footnotes": (qn("w:footnote"), qn("w:footnoteReference")),
          "endnotes": (qn("w:endnote"), qn("w:endnoteReference"))}
_SECT_PR, _SECT_PR_CHANGE, _R = qn("w:sectPr"), qn("w:sectPrChange"), qn("w:r")
_TYPE, _ID, _RID, _RPR = qn("w:type"), qn("w:id"), qn("r:id"), qn("w:rPr")
_REVISED = (INS, DEL, qn("w:moveFrom"), qn("w:moveTo"))
# per (kind, section, type) the part shown; per part where it is first referred to; the last section's number
_Sections = tuple[dict[tuple[str, int, str], str], dict[str, tuple[str, int, str]], int]


@dataclass(frozen=True, slots=True)
class Story:
    """One header or footer part, or one note of a notes part (``note`` its ``w:id``)."""

    kind: str
    part: str
    container: etree._Element
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Written:
    """A story of the result and what its accept view (``new``) and reject view (``old``) must read as."""

    kind: str
    part: str
    note: str | None
    new: list[str]
    old: list[str]


@dataclass(slots=True)
class StoryOutcome:
    """The stories of the result (for the proof), the kinds whose text changed and is in the redline, and the
    kinds that differ in ways it does not show."""

    written: list[Written]
    redlined: set[str]
    named: set[str]


def redline_stories(old: Package, new: Package, tracker: Tracker, defined: tuple[set[str], set[str]]) -> StoryOutcome:
    """Write every header, footer and note of ``new`` (the result, before it is turned round) as the edits back
    to its partner in ``old``."""
    out = StoryOutcome([], set(), set())
    sections = _sections(old), _sections(new)
    for kind in KINDS:
        pairs, left = _notes_paired(old, new, kind) if kind in _NOTES else _sections_paired(old, new, kind, *sections)
        if any(story_texts(s.container) or box_texts(s.container) for s in left):
            out.named.add(kind)
        for before, after in pairs:
            was = before.container if before is not None else None
            new_texts = story_texts(after.container)
            old_texts = story_texts(was) if was is not None else []
            if box_texts(after.container) != (box_texts(was) if was is not None else []):
                out.named.add(kind)
            written = new_texts != old_texts and write_story(after.container, was, tracker, defined)
            if written:
                out.redlined.add(kind)
                if was is None and after.note is not None:
                    _reference_inserted(new, kind, after.note, tracker)
            elif new_texts != old_texts:
                out.named.add(kind)
            out.written.append(Written(kind, after.part, after.note, new_texts, old_texts if written else new_texts))
    return out


def prove_stories(pkg: Package, written: list[Written]) -> str | None:
    """Where the result's stories do not read as they must (accepted: the new version's, rejected: the old
    one's), or None."""
    for w in written:
        container = _find(pkg, w)
        if container is None:
            return f"{w.kind} part {w.part} is missing"
        for view, resolve, want in (("accept", accept, w.new), ("reject", reject, w.old)):
            done = copy.deepcopy(container)
            resolve(done)
            if story_texts(done) != want:
                return f"{view} view of the {w.kind} ({w.part}{' note ' + w.note if w.note else ''}) differs"
    return None


def _sections_paired(old: Package, new: Package, kind: str, old_sections: _Sections, new_sections: _Sections
                     ) -> tuple[list[tuple[Story | None, Story]], list[Story]]:
    """Each header (or footer) part of ``new`` that a section refers to, with the part ``old`` shows at the
    place it is first referred to, or else the first part of that type ``old`` shows that no other took (by
    order); and the parts ``old`` shows that no part of ``new`` took (but for those that read as one that was
    taken: a removed section's copy of the header before it)."""
    old_shown, _, old_last = old_sections
    _, new_first, _ = new_sections
    ours = {part: (n, typ) for part, (k, n, typ) in new_first.items() if k == kind}
    chosen = {part: old_shown.get((kind, min(n, old_last), typ)) for part, (n, typ) in ours.items()}
    taken = {was for was in chosen.values() if was is not None}
    by_order = [(typ, part) for (k, _, typ), part in sorted(old_shown.items(), key=lambda item: item[0][1])
                if k == kind]
    for part, (_, typ) in ours.items():
        if chosen[part] is None:
            chosen[part] = next((was for t, was in by_order if t == typ and was not in taken), None)
            taken |= {chosen[part]} - {None}
    pairs = [(Story(kind, was, old.xml(was)) if was is not None else None, Story(kind, part, new.xml(part)))
             for part, was in chosen.items()]
    shown = {_texts(old.xml(part)) for part in taken}  # a copy of one compared is no loss
    left = {part for typ, part in by_order} - taken
    return pairs, [Story(kind, part, old.xml(part)) for part in sorted(left) if _texts(old.xml(part)) not in shown]


def _texts(container: etree._Element) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(story_texts(container)), tuple(box_texts(container))


def _sections(pkg: Package) -> _Sections:
    """Which part each section shows per kind and type (the section before's when it has no reference of its
    own), where each part is first referred to, and the last section's number."""
    rels = pkg.rels(pkg.main_part)
    shown: dict[tuple[str, int, str], str] = {}
    first: dict[str, tuple[str, int, str]] = {}
    current: dict[tuple[str, str], str] = {}
    n = -1
    sections = (s for s in pkg.xml(pkg.main_part).iter(_SECT_PR) if s.getparent().tag != _SECT_PR_CHANGE)
    for n, sect in enumerate(sections):
        for ref in sect:
            kind = _REFS.get(ref.tag)
            target = rels.get(ref.get(_RID, ""))
            if kind is not None and target is not None and pkg.has(target[0]):
                current[(kind, ref.get(_TYPE, "default"))] = target[0]
                first.setdefault(target[0], (kind, n, ref.get(_TYPE, "default")))
        for (kind, typ), part in current.items():
            shown[(kind, n, typ)] = part
    return shown, first, n


def _notes_paired(old: Package, new: Package, kind: str) -> tuple[list[tuple[Story | None, Story]], list[Story]]:
    """The notes of ``new`` the body refers to, each with its partner in ``old`` (see the module's docstring);
    and the notes of ``old`` left with none."""
    before, after = _notes(old, kind), _notes(new, kind)
    pairs = _in_order(align(["\n".join(story_texts(s.container)) for s in before],
                            ["\n".join(story_texts(s.container)) for s in after]))
    out = [(before[i] if i is not None else None, after[j]) for i, j in pairs if j is not None]
    return out, [before[i] for i, j in pairs if j is None and i is not None]


def _notes(pkg: Package, kind: str) -> list[Story]:
    """The notes of one kind, in the order the body first refers to them (notes it never refers to are not
    shown, so not compared)."""
    part = next((target for target, typ in pkg.rels(pkg.main_part).values()
                 if typ.endswith("/" + kind) and pkg.has(target)), None)
    if part is None:
        return []
    note_tag, ref_tag = _NOTES[kind]
    by_id = {n.get(_ID): n for n in pkg.xml(part).iterchildren(note_tag) if n.get(_TYPE, "normal") == "normal"}
    order = dict.fromkeys(r.get(_ID) for r in pkg.xml(pkg.main_part).iter(ref_tag))
    return [Story(kind, part, by_id[i], i) for i in order if i in by_id]


def _in_order(pairs: list[Pair]) -> list[Pair]:
    """Between two paired notes, the unpaired ones of both sides paired in order."""
    out: list[Pair] = []
    olds: list[int] = []
    news: list[int] = []
    for i, j in [*pairs, (None, None)]:
        if i is None or j is None:
            if i is not None:
                olds.append(i)
            if j is not None:
                news.append(j)
            if i is not None or j is not None:
                continue
        out.extend(zip(olds, news, strict=False))
        out.extend((k, None) for k in olds[len(news):])
        out.extend((None, k) for k in news[len(olds):])
        olds, news = [], []
        if i is not None:
            out.append((i, j))
    return out


def _find(pkg: Package, w: Written) -> etree._Element | None:
    """The story ``w`` stands for in ``pkg``."""
    if not pkg.has(w.part):
        return None
    root = pkg.xml(w.part)
    if w.note is None:
        return root
    return next((n for n in root.iterchildren(_NOTES[w.kind][0]) if n.get(_ID) == w.note), None)


def _reference_inserted(pkg: Package, kind: str, note: str, tracker: Tracker) -> None:
    """A note only the new version has: its reference in the body is part of the insertion (written, like
    everything here, as a deletion the comparison then turns round). A reference run that also shows text, or
    already sits in a revision, is left as it is."""
    for ref in list(pkg.xml(pkg.main_part).iter(_NOTES[kind][1])):
        run = ref.getparent()
        if ref.get(_ID) != note or run is None or run.tag != _R or any(c.tag not in (_RPR, ref.tag) for c in run):
            continue
        if any(a.tag in _REVISED for a in run.iterancestors()):
            continue
        wrapper = tracker.element("w:del")
        run.addprevious(wrapper)
        wrapper.append(run)
