"""Accepting or rejecting tracked changes in a whole .docx, not just its body.

Revisions live in every story of a document: the body, headers, footers,
footnotes, endnotes and the comments themselves. A "clean" file with a
revision left in a footer is not clean, so these functions resolve every story
part (:func:`~redline.ooxml.ids.story_roots`). Anchors name body paragraphs,
so a selection by anchor touches only the main document.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .docprops import ensure_doc_id
from .ids import story_roots
from .package import DEFAULT_LIMITS, Limits, Package
from .revisions import accept, reject

Action = Literal["accept", "reject"]


@dataclass(frozen=True)
class Resolved:
    """The new file and how many revisions were resolved in it."""

    docx: bytes
    count: int


def resolve_package(
    pkg: Package,
    action: Action,
    *,
    authors: Iterable[str] | None = None,
    ids: Iterable[str] | None = None,
    anchors: Iterable[str] | None = None,
) -> int:
    """Accept or reject the selected revisions in every story part of ``pkg``, in place.

    Filters combine (a revision must match each one given); none means all.
    Returns how many revisions were resolved.
    """
    resolve = accept if action == "accept" else reject
    author_list = list(authors) if authors is not None else None
    id_list = list(ids) if ids is not None else None
    anchor_list = list(anchors) if anchors is not None else None
    return sum(resolve(root, authors=author_list, ids=id_list, anchors=anchor_list) for root in story_roots(pkg))


def resolve_docx(
    data: bytes,
    action: Action,
    *,
    authors: Iterable[str] | None = None,
    ids: Iterable[str] | None = None,
    anchors: Iterable[str] | None = None,
    doc_id: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Resolved:
    """Open untrusted .docx bytes, resolve the selected revisions and save.

    ``doc_id`` is written as the ``RedlineDocID`` when the file has none, so the
    result stays a version of the same document. Raises
    :class:`~redline.ooxml.errors.DocxError` for input it refuses.
    """
    pkg = Package.open(data, limits)
    count = resolve_package(pkg, action, authors=authors, ids=ids, anchors=anchors)
    if doc_id is not None:
        ensure_doc_id(pkg, seed=data, value=doc_id)
    return Resolved(pkg.save(), count)
