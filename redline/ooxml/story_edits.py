"""One header, footer or note of the new version written as the edits that turn it back into the old one.

The body's paragraphs go through the writer's ops, which find a paragraph by its anchor; a header or a note has
no anchors (and should not get any), so its paragraphs are edited here directly with the same pieces the
writer is made of: paragraphs paired by :func:`.align.align`, a pair rewritten word by word (:func:`.diff.diff_text`
written by :class:`~.runs.ParagraphEditor`), a paragraph only the new story has deleted (its mark too, when a
paragraph follows to join it to), and one only the old story had put back as an inserted paragraph, before the
new paragraph that follows it, or after the last one as Word does it (that paragraph's mark becomes the
inserted one). Like the body, this runs before :func:`.compare.invert` turns every revision round.

The edit is made on a copy of the story and proven on it: accepting its revisions must read as the old story
and rejecting them as the new one, paragraph by paragraph. Only then does the copy replace the story; a story
that cannot be written so is left untouched (:func:`write_story` says False and the caller names it).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from lxml import etree

from .align import align, normalise
from .diff import diff_text
from .oxml import qn
from .paragraph_copies import dominant_formatting, give_mark, plain_properties, take_mark
from .restyle import restyle
from .revisions import Tracker, accept, next_paragraph, paragraph_mark_revisions, reject, track_paragraph_mark
from .run_xml import text_runs
from .runs import EditRefused, ParagraphEditor
from .text import paragraph_text

_P, _TXBX, _PPR, _SECT_PR = qn("w:p"), qn("w:txbxContent"), qn("w:pPr"), qn("w:sectPr")


def story_paragraphs(container: etree._Element) -> list[etree._Element]:
    """The story's paragraphs in document order (table cells and content controls included), not those of its
    text boxes: a paragraph's text leaves its text boxes out, so their paragraphs are not its."""
    return [p for p in container.iter(_P) if not any(a.tag == _TXBX for a in p.iterancestors())]


def story_texts(container: etree._Element) -> list[str]:
    """The story's non-empty paragraphs as compared (whitespace runs as one space)."""
    return [t for p in story_paragraphs(container) if (t := normalise(paragraph_text(p)))]


def box_texts(container: etree._Element) -> list[str]:
    """The text of the story's text boxes, which this comparison does not redline (only names)."""
    return [t for p in container.iter(_P) if any(a.tag == _TXBX for a in p.iterancestors())
            if (t := normalise(paragraph_text(p)))]


def write_story(new: etree._Element, old: etree._Element | None, tracker: Tracker,
                defined: tuple[set[str], set[str]]) -> bool:
    """Write ``new`` (a story of the result, read accepted) as the edits back to ``old`` (None: it had none),
    proven on a copy first; whether it was written (False: ``new`` is left as it was)."""
    work = copy.deepcopy(new)
    olds = story_paragraphs(old) if old is not None else []
    try:
        _edit(story_paragraphs(work), olds, tracker, defined)
    except EditRefused:
        return False
    if _view(work, accept) != (story_texts(old) if old is not None else []) or _view(work, reject) != story_texts(new):
        return False
    new[:] = list(work)
    return True


def _view(container: etree._Element, resolve: Callable[..., int]) -> list[str]:
    """The story's texts with every revision in it accepted (or rejected), paragraphs joined as they would be."""
    done = copy.deepcopy(container)
    resolve(done)
    return story_texts(done)


def _edit(news_all: list[etree._Element], olds_all: list[etree._Element], tracker: Tracker,
          defined: tuple[set[str], set[str]]) -> None:
    """Pair the paragraphs and write every difference; deletions first, so an old paragraph put back before a
    deleted one does not change whether that one's mark joins it to the next."""
    news = [p for p in news_all if normalise(paragraph_text(p))]
    olds = [p for p in olds_all if normalise(paragraph_text(p))]
    pairs = align([paragraph_text(p) for p in olds], [paragraph_text(p) for p in news])
    rewrites: list[tuple[etree._Element, str]] = []
    deletes: list[etree._Element] = []
    before: list[tuple[list[etree._Element], etree._Element]] = []  # old paragraphs put back before a new one
    pending: list[etree._Element] = []
    for i, j in pairs:
        if j is None:
            pending.append(olds[i])  # type: ignore[index]
            continue
        if pending:
            before.append((pending, news[j]))
            pending = []
        if i is None:
            deletes.append(news[j])
        elif normalise(paragraph_text(olds[i])) != normalise(paragraph_text(news[j])):
            rewrites.append((news[j], paragraph_text(olds[i])))
    for p, text in rewrites:
        ParagraphEditor(p, tracker).replace(diff_text(paragraph_text(p), text))
    for p in deletes:
        ParagraphEditor(p, tracker).delete_all()
        if next_paragraph(p) is not None and p.find(f"{_PPR}/{_SECT_PR}") is None:
            track_paragraph_mark(p, tracker.element("w:del"))
    for olds_here, p in before:
        for old in olds_here:
            p.addprevious(_put_back(old, tracker, defined=defined))
    if pending:
        _after_last(news[-1] if news else (news_all[-1] if news_all else None), pending, tracker)


def _put_back(old: etree._Element, tracker: Tracker, *, ppr: etree._Element | None = None,
              defined: tuple[set[str], set[str]] | None = None, mark: bool = True) -> etree._Element:
    """A new paragraph reading as ``old``, its text (and, with ``mark``, its mark) inserted; with ``defined``
    styled as ``old`` was (the styles and lists this file defines), else given ``ppr``."""
    p = etree.Element(_P)
    if ppr is not None:
        p.append(ppr)
    if mark:
        track_paragraph_mark(p, tracker.element("w:ins"))
    if defined is not None:
        restyle(p, old, *defined)
    ins = tracker.element("w:ins")
    ins.append(text_runs(paragraph_text(old), dominant_formatting(old)))
    p.append(ins)
    return p


def _after_last(host: etree._Element | None, olds: list[etree._Element], tracker: Tracker) -> None:
    """Old paragraphs put back after the story's last one, as Word writes paragraphs typed at its end: the last
    paragraph's own mark becomes the inserted one, the last paragraph put back carries the original mark, and
    all of them are styled as that paragraph (rejecting joins it to them and keeps their properties)."""
    if host is None or paragraph_mark_revisions(host):
        raise EditRefused("pending_revisions", "Nothing to put the old paragraphs after.")
    news = [_put_back(old, tracker, ppr=plain_properties(host), mark=k < len(olds) - 1)
            for k, old in enumerate(olds)]
    give_mark(news[-1], take_mark(host))
    track_paragraph_mark(host, tracker.element("w:ins"))
    for p in reversed(news):
        host.addnext(p)
