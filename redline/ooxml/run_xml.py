"""Run-level XML: building text runs, copying formatting, walking runs, stepping out of revisions.

Split from :mod:`redline.ooxml.runs` (which edits one paragraph through
:class:`~redline.ooxml.runs.ParagraphEditor`): these helpers read or build
single runs and their wrappers without any edit state, and the writer uses
them directly for whole new paragraphs.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator

from lxml import etree

from .oxml import XML_SPACE, qn
from .revisions import REVISION_ID_TAGS, RPR_CHANGE, RevisionIds

_R = qn("w:r")
_T = qn("w:t")
_RPR = qn("w:rPr")
_RSTYLE = qn("w:rStyle")
_SDT = qn("w:sdt")
_ID = qn("w:id")

INS, DEL, MOVE_FROM, MOVE_TO = qn("w:ins"), qn("w:del"), qn("w:moveFrom"), qn("w:moveTo")
WRAPPERS = frozenset((INS, DEL, MOVE_FROM, MOVE_TO))
# Containers a run may sit in whose extent an insertion at their edge must not grow.
CONTAINERS = frozenset(
    qn(t) for t in ("w:hyperlink", "w:smartTag", "w:customXml", "w:fldSimple", "w:dir", "w:bdo", "w:sdtContent")
)
_RUN_PARENTS = CONTAINERS | WRAPPERS | {_SDT}
# Track-change markers that may sit in a copied run property (never copied onto new text).
_NOT_COPIED = frozenset((RPR_CHANGE, INS, DEL, MOVE_FROM, MOVE_TO))
_BREAKS = re.compile(r"(\t|\n)")


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


def in_container(run: etree._Element, p: etree._Element) -> bool:
    """True when ``run`` sits in a hyperlink, content control, smart tag or simple
    field of paragraph ``p`` (its formatting may be the container's, not the text's)."""
    return inside(run, tuple(CONTAINERS), p)


def inside(el: etree._Element, tags: tuple[str, ...], stop: etree._Element) -> bool:
    """Whether an ancestor of ``el`` below ``stop`` has one of ``tags``."""
    for anc in el.iterancestors():
        if anc is stop:
            return False
        if anc.tag in tags:
            return True
    return False


def is_inside(el: etree._Element, container: etree._Element) -> bool:
    """Whether ``el`` is a descendant of ``container``."""
    return any(anc is container for anc in el.iterancestors())


def runs_until(p: etree._Element, last: etree._Element) -> Iterator[etree._Element]:
    """The runs of ``p`` up to and including ``last``."""
    for run in iter_runs(p):
        yield run
        if run is last:
            return


def outside_wrappers(el: etree._Element, ids: RevisionIds, *, before: bool) -> etree._Element:
    """Climb out of revision wrappers (``w:ins``/``w:del``…) around ``el``.

    A wrapper with content on the far side of ``el`` is split in two (same
    author, date and kind; the new half gets a fresh id), so the returned
    element is a sibling-level place where new markup may go.
    """
    while True:
        parent = el.getparent()
        if parent is None or parent.tag not in WRAPPERS:
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


def append_content(p: etree._Element, el: etree._Element) -> None:
    """Append run-level content before the paragraph's trailing range ends."""
    tail = len(p)
    while tail and p[tail - 1].tag in (qn("w:bookmarkEnd"), qn("w:commentRangeEnd")):
        tail -= 1
    p.insert(tail, el)


def split_run(run: etree._Element, child: etree._Element, text_at: int | None, ids: RevisionIds) -> etree._Element:
    """Split ``run`` before ``child`` (or inside its text at ``text_at``); the right half is returned."""
    right = etree.Element(run.tag, attrib=dict(run.attrib))
    rpr = run.find(_RPR)
    if rpr is not None:
        right.append(_renumbered(rpr, ids))
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


def _renumbered(el: etree._Element, ids: RevisionIds) -> etree._Element:
    """A copy whose revision records get fresh ids (a split keeps ids unique)."""
    out = copy.deepcopy(el)
    for rev in out.iter(*REVISION_ID_TAGS):
        rev.set(_ID, ids.next())
    return out
