"""Documents and their versions: storing uploads unchanged, and ingesting them."""

from __future__ import annotations

import hashlib
import secrets
from enum import StrEnum
from typing import Any, NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction

from .. import selectors
from ..analysis.clauses import clauses_from_json
from ..errors import ApplicationError
from ..jobs.dispatch import job_create
from ..jobs.progress import ProgressCallback
from ..jobs.registry import handler_register
from ..models import Document, DocumentVersion, Job, Workspace
from ..ooxml.errors import DocxError
from ..ooxml.paragraphs import Scan
from ..ooxml.synthetic import PlainParagraph, docx_from_paragraphs
from .files import document_version_read, docx_read, docx_scan
from .learning import outcomes_detect


class Linked(StrEnum):
    """How an upload found its document (the upload response says so)."""

    DOCUMENT_ID = "document_id"  # the caller named the document
    DOC_ID = "doc_id"  # the file's RedlineDocID
    ANCHORS = "anchors"  # the file lost its RedlineDocID but carries that document's anchors
    NEW = "new"  # none of these: a new document
    SAME_FILE = "same_file"  # these exact bytes were uploaded before: that version


class Upload(NamedTuple):
    version: DocumentVersion
    job: Job
    created: bool
    linked_by: Linked


def document_version_create(
    *,
    workspace: Workspace,
    data: bytes,
    filename: str,
    uploaded_by: AbstractBaseUser | None,
    title: str = "",
    payload: list[dict[str, Any]] | None = None,
    scan: Scan | None = None,
    document_id: int | None = None,
) -> Upload:
    """Store an uploaded .docx byte for byte and queue its ingestion.

    The file is validated first (a refused file is never stored). It becomes a
    version of: the document ``document_id`` names (of this workspace, else 404);
    else the one its ``RedlineDocID`` names; else, when it lost that id, the one
    whose anchors it carries; else a new document (another workspace's history never
    leaks). Uploading the same bytes twice to a workspace returns the existing
    version (``created`` False), unless that version belongs to another document than
    ``document_id`` (409 ``already_uploaded``).
    ``scan`` is ``docx_scan(data)`` when the caller has it already (a .docx is read once per request).
    """
    scan = scan or docx_scan(data)
    sha256 = hashlib.sha256(data).hexdigest()
    with transaction.atomic():
        named = selectors.document_get(workspace=workspace, document_id=document_id) if document_id else None
        existing = DocumentVersion.objects.filter(document__workspace=workspace, sha256=sha256).first()
        if existing is not None:
            if named is not None and existing.document_id != named.pk:
                raise ApplicationError("already_uploaded", "This exact file is already a version of another document.",
                                       status=409, detail={"document_id": existing.document_id,
                                                           "version_id": existing.pk})
            return Upload(existing, _latest_ingest_job(existing), False, Linked.SAME_FILE)
        document, linked_by = _document_for(workspace, scan, named, title or filename.rsplit(".", 1)[0])
        version = DocumentVersion(
            document=document, filename=filename[:255], sha256=sha256, size=len(data), uploaded_by=uploaded_by,
            source="paragraphs" if payload is not None else "docx", payload=payload,
        )
        version.file.save(f"{sha256}.docx", ContentFile(data), save=False)
        try:
            with transaction.atomic():
                version.save()
        except IntegrityError:  # a concurrent upload of the same bytes won the race
            version = document.versions.get(sha256=sha256)
            return Upload(version, _latest_ingest_job(version), False, Linked.SAME_FILE)
        job = job_create(workspace=workspace, kind="document.ingest", params={"version_id": version.pk})
    return Upload(version, job, True, linked_by)


def _document_for(workspace: Workspace, scan: Scan, named: Document | None, title: str) -> tuple[Document, Linked]:
    """The document a new upload is a version of, and why."""
    if named is not None:
        return named, Linked.DOCUMENT_ID
    # The file's RedlineDocID, or the one the engine derives from these bytes and writes on export.
    document = selectors.document_by_doc_id(workspace=workspace, doc_id=scan.doc_id)
    if document is not None:
        return document, Linked.DOC_ID
    if not scan.doc_id_found:
        held = selectors.document_by_anchors(workspace=workspace, anchors=scan.carried)
        if held is not None:
            return held[0], Linked.ANCHORS
    return Document.objects.create(workspace=workspace, doc_id=scan.doc_id, title=(title or "Untitled")[:300]), \
        Linked.NEW


def _latest_ingest_job(version: DocumentVersion) -> Job:
    job = (
        Job.objects.filter(workspace=version.document.workspace, kind="document.ingest", params__version_id=version.pk)
        .order_by("-created_at")
        .first()
    )
    if job is None:
        job = job_create(workspace=version.document.workspace, kind="document.ingest", params={"version_id": version.pk})
    return job


def document_version_ingest(job: Job, progress: ProgressCallback) -> dict[str, Any]:
    """Job service: read the stored file with the OOXML engine and record what it holds."""
    version = selectors.document_version_get(workspace=job.workspace, version_id=job.params["version_id"])
    progress("stage", {"stage": "reading"})
    result = docx_read(document_version_read(version=version))
    count = sum(1 for p in result.paragraphs if not p.is_empty)
    version.paragraph_count = count
    version.save(update_fields=["paragraph_count"])
    progress("stage", {"stage": "read", "paragraphs": count})
    outcomes = outcomes_detect(version=version)
    return {"paragraphs": count, "sha256": version.sha256, "outcomes": outcomes}


def document_version_from_paragraphs(
    *,
    workspace: Workspace,
    paragraphs: list[dict[str, Any]],
    doc_id: str | None,
    title: str,
    uploaded_by: AbstractBaseUser | None,
    document_id: int | None = None,
) -> Upload:
    """A version from the add-in's live-document paragraphs ``[{anchor, text, style, …}]``.

    The paragraphs become a small anchored .docx (same engines downstream); the
    ``RedlineDocID`` the add-in read from the document links it to earlier runs.
    """
    try:
        clauses_from_json(paragraphs)  # the engine's own validation, with the index of a bad item
        items = [PlainParagraph(p["anchor"], p["text"], _style_id(p)) for p in paragraphs]
        data = docx_from_paragraphs(items, doc_id=doc_id or secrets.token_hex(8).upper())
    except ValueError as exc:
        raise ApplicationError("invalid_paragraphs", str(exc), status=422) from None
    except DocxError as exc:
        raise ApplicationError(exc.code, exc.message, status=422) from None
    return document_version_create(workspace=workspace, data=data, filename=f"{title or 'document'}.docx",
                                   uploaded_by=uploaded_by, title=title, payload=paragraphs, document_id=document_id)


def _style_id(paragraph: dict[str, Any]) -> str | None:
    """Office.js reports built-in styles as "Heading 1"; their style ids drop the spaces."""
    style = paragraph.get("style_id") or paragraph.get("style") or ""
    return style.replace(" ", "") or None


handler_register("document.ingest", document_version_ingest)
