from __future__ import annotations

from typing import Literal

from ninja import Schema

from .documents import DocumentVersionOut

RevisionType = Literal[
    "INSERTION", "DELETION", "MOVE_FROM", "MOVE_TO", "FORMAT_CHANGE", "PARAGRAPH_PROPERTY_CHANGE", "TABLE_CHANGE"
]


class RevisionOut(Schema):
    type: RevisionType
    id: str  # the revision's w:id: select it with revision_ids
    author: str
    date: str | None  # ISO 8601 as the file records it
    text: str  # inserted text as accepted, deleted text as it was; "¶" for a paragraph mark


class CommentOut(Schema):
    id: str
    author: str
    date: str | None
    text: str
    resolved: bool
    replies: list[CommentOut]


class RevisionParagraphOut(Schema):
    para_id: str  # the paragraph's anchor, or _anon_para_<n> for one without
    before_text: str  # every change rejected
    after_text: str  # every change accepted
    revisions: list[RevisionOut]
    comments: list[CommentOut]


class RevisionsPageOut(Schema):
    version_id: int
    total: int
    offset: int
    limit: int
    has_more: bool
    paragraphs: list[RevisionParagraphOut]


class ResolveIn(Schema):
    """Which revisions to resolve: every filter given must match; none means all."""

    version_id: int | None = None  # default: the document's latest version
    authors: list[str] | None = None
    revision_ids: list[str] | None = None
    anchors: list[str] | None = None


class ResolveOut(Schema):
    source_version_id: int
    version: DocumentVersionOut  # the new version (the source is kept unchanged)
    download_url: str
