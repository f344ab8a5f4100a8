"""Finding our comments in a returned document, whichever editor saved it.

Word keeps every comment's durable id (``commentsIds.xml``), so the id we
recorded finds the comment directly. LibreOffice drops that part, renumbers
comment ids and discards paragraph ids, but keeps each comment's author, text
and the paragraph it is anchored to, and writes ``w15:done`` for resolved
comments (design.md §8). So a comment is matched by durable id first, then by
author + text + anchor paragraph, and, only for an entry whose anchor is gone,
by author + text anywhere. Each comment is claimed by at most one entry, in
entry order, so the matching is deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from redline.ooxml.oxml import qn
from redline.ooxml.package import Package
from redline.ooxml.text import paragraph_text

from .document import DocumentView
from .text import normalise

_ID = qn("w:id")
_AUTHOR = qn("w:author")
_PARA_ID = qn("w14:paraId")
_DONE_VALUES = ("1", "true", "on")
_COMMENTS_IDS_REL = "commentsIds"


@dataclass(frozen=True, slots=True)
class FoundComment:
    """A comment of the returned document: ``text`` is normalised, ``paragraph``
    the body paragraph its range starts in (None when it has no range)."""

    id: str
    author: str
    text: str
    paragraph: int | None
    resolved: bool
    durable_id: str | None


def read_comments(pkg: Package, view: DocumentView) -> list[FoundComment]:
    """Every comment of the main document, in ``comments.xml`` order."""
    main = pkg.main_part
    name = pkg.related_part(main, "comments")
    if not name or not pkg.has(name):
        return []
    done = {k: v in _DONE_VALUES for k, v in _attribute_pairs(pkg, "commentsExtended", "w15:paraId", "w15:done")}
    durable = dict(_attribute_pairs(pkg, _COMMENTS_IDS_REL, "w16cid:paraId", "w16cid:durableId"))
    where: dict[str, int | None] = {}
    for el in view.root.iter(qn("w:commentRangeStart"), qn("w:commentReference")):
        cid = el.get(_ID, "")
        if cid not in where:
            where[cid] = view.paragraph_of(el)
    out = []
    for comment in pkg.xml(name).iterchildren(qn("w:comment")):
        paragraphs = list(comment.iter(qn("w:p")))
        last = paragraphs[-1].get(_PARA_ID) if paragraphs else None
        cid = comment.get(_ID, "")
        out.append(FoundComment(
            id=cid,
            author=comment.get(_AUTHOR, ""),
            text=normalise(" ".join(paragraph_text(p) for p in paragraphs)),
            paragraph=where.get(cid),
            resolved=bool(last and done.get(last)),
            durable_id=durable.get(last) if last else None,
        ))
    return out


def _attribute_pairs(pkg: Package, rel: str, key: str, value: str) -> Iterable[tuple[str, str]]:
    """(key, value) attribute pairs of the children of a comment side part."""
    name = pkg.related_part(pkg.main_part, rel)
    if not name or not pkg.has(name):
        return []
    k, v = qn(key), qn(value)
    return [(el.get(k, ""), el.get(v, "")) for el in pkg.xml(name) if el.get(k)]


@dataclass(frozen=True, slots=True)
class CommentQuery:
    """What an entry knows about its comment: the recorded durable id, the text,
    the paragraph it should be in (None when the entry's anchor is lost)."""

    entry_id: str
    durable_id: str
    text: str
    paragraph: int | None


def match_comments(queries: Iterable[CommentQuery], comments: Iterable[FoundComment], *, author: str,
                   reserved: Iterable[str] = ()) -> Mapping[str, FoundComment]:
    """Entry id → its comment, for the entries whose comment is still there.

    Three passes, each claiming comments so no comment serves two entries:
    durable id; author + text in the expected paragraph; author + text
    anywhere for entries that have no expected paragraph. Comments with a
    ``reserved`` durable id (the explanations attached to our text changes) are
    never matched by text.
    """
    pending = list(queries)
    comments = list(comments)
    by_durable = {c.durable_id: c for c in comments if c.durable_id}
    ours: dict[str, list[FoundComment]] = {}
    for c in comments:
        if c.author == author:
            ours.setdefault(c.text, []).append(c)
    claimed = {by_durable[d].id for d in reserved if d in by_durable}
    found: dict[str, FoundComment] = {}

    def claim(q: CommentQuery, c: FoundComment | None) -> None:
        if c is not None and c.id not in claimed:
            claimed.add(c.id)
            found[q.entry_id] = c

    for q in pending:
        if q.durable_id:
            claim(q, by_durable.get(q.durable_id))
    for q in pending:
        if q.entry_id not in found and q.paragraph is not None:
            claim(q, next((c for c in ours.get(normalise(q.text), ())
                           if c.paragraph == q.paragraph and c.id not in claimed), None))
    for q in pending:
        if q.entry_id not in found and q.paragraph is None:
            claim(q, next((c for c in ours.get(normalise(q.text), ()) if c.id not in claimed), None))
    return found
