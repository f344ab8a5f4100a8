"""Tracked changes of a stored version: read them page by page, accept or reject them.

Both work on the version as the rest of the API sees it: anchored by
:func:`~redline.services.documents.docx_read` (deterministic anchors from the
stored bytes), so a record's ``para_id`` is the anchor that runs, suggestions
and the add-in use, and a selection by anchor means the same paragraphs.

The extraction of a version is computed once and cached by the file's SHA-256
(the bytes decide it entirely), so paging through a contract with 2,000
revisions reads the file once. Accepting or rejecting never changes a stored
file: the result is a new version of the same document.
"""

from __future__ import annotations

from typing import Any, Literal

from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache

from ..errors import ApplicationError
from ..models import DocumentVersion
from ..ooxml.errors import DocxError
from ..ooxml.extract import RevisionExtraction, check_page, extract_all
from ..ooxml.resolve import resolve_docx
from .documents import document_version_create, document_version_read, docx_read

CACHE_PREFIX = "redline:revisions:v1:"  # bump the version when the record format changes
CACHE_TTL_S = 7 * 24 * 3600

Action = Literal["accept", "reject"]


def revisions_page(*, version: DocumentVersion, offset: int, limit: int) -> dict[str, Any]:
    """One page of the version's revision records (``{"total", "offset", "limit", "has_more", "paragraphs"}``).

    Raises :class:`ApplicationError` 422 ``INVALID_LIMIT``/``INVALID_OFFSET``
    before any work is done.
    """
    try:
        check_page(offset, limit)
    except DocxError as exc:
        raise ApplicationError(exc.code, exc.message, status=422) from None
    return RevisionExtraction(_records(version)).page(offset, limit)


def _records(version: DocumentVersion) -> list[dict[str, Any]]:
    key = CACHE_PREFIX + version.sha256
    records = cache.get(key)
    if records is None:
        try:
            records = extract_all(_anchored(version)).paragraphs
        except DocxError as exc:
            raise ApplicationError(exc.code, exc.message, status=422) from None
        cache.set(key, records, CACHE_TTL_S)
    return records


def revisions_apply(
    *,
    version: DocumentVersion,
    action: Action,
    authors: list[str] | None,
    revision_ids: list[str] | None,
    anchors: list[str] | None,
    uploaded_by: AbstractBaseUser | None,
) -> DocumentVersion:
    """Accept or reject the selected revisions (all when no filter is given;
    filters combine) in every story of the version; returns the new version.

    Raises :class:`ApplicationError` 422 ``no_matching_revisions`` when nothing
    matches, rather than storing a copy that changes nothing.
    """
    document = version.document
    try:
        result = resolve_docx(_anchored(version), action, authors=authors, ids=revision_ids, anchors=anchors,
                              doc_id=document.doc_id)
    except DocxError as exc:
        raise ApplicationError(exc.code, exc.message, status=422) from None
    if result.count == 0:
        raise ApplicationError("no_matching_revisions", "No pending tracked change matches the selection.",
                               status=422, detail={"authors": authors, "revision_ids": revision_ids, "anchors": anchors})
    stem = version.filename.rsplit(".", 1)[0] or "document"
    return document_version_create(
        workspace=document.workspace, data=result.docx, filename=f"{stem} ({action}ed).docx",
        uploaded_by=uploaded_by, title=document.title, document_id=document.pk,
    ).version


def _anchored(version: DocumentVersion) -> bytes:
    """The version's bytes with the anchors the API reports for it."""
    data = document_version_read(version=version)
    return docx_read(data).docx or data
