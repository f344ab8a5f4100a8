from __future__ import annotations

from django.conf import settings
from django.http import FileResponse, HttpRequest
from ninja import File, Form, Router, Status
from ninja.files import UploadedFile

from redline import selectors
from redline.errors import ApplicationError
from redline.models import Document
from redline.services.documents import document_version_create

from ..schemas.common import ErrorOut
from ..schemas.documents import DocumentOut, DocumentUploadOut

router = Router(tags=["documents"])

DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def _document_out(document: Document) -> dict:
    return {
        "id": document.pk,
        "doc_id": document.doc_id,
        "title": document.title,
        "created_at": document.created_at,
        "versions": list(document.versions.all()),
    }


@router.post("", response={201: DocumentUploadOut, 200: DocumentUploadOut, 413: ErrorOut, 422: ErrorOut})
def upload_document(
    request: HttpRequest, file: File[UploadedFile], title: Form[str] = ""
) -> Status:
    """Upload a .docx. Stored unchanged; re-uploading the same bytes returns the existing version (200)."""
    if file.size is not None and file.size > settings.REDLINE_MAX_UPLOAD_BYTES:
        raise ApplicationError("too_large", "The file is larger than the upload limit.", status=413,
                               detail={"limit": settings.REDLINE_MAX_UPLOAD_BYTES})
    version, job, created = document_version_create(
        workspace=request.auth.workspace,
        data=file.read(),
        filename=file.name or "document.docx",
        uploaded_by=request.auth.user,
        title=title,
    )
    body = {"document": _document_out(version.document), "version": version, "job_id": job.pk, "created": created}
    return Status(201 if created else 200, body)


@router.get("", response=list[DocumentOut])
def list_documents(request: HttpRequest) -> list[dict]:
    return [_document_out(d) for d in selectors.document_list(workspace=request.auth.workspace)[:200]]


@router.get("/{document_id}", response={200: DocumentOut, 404: ErrorOut})
def get_document(request: HttpRequest, document_id: int) -> dict:
    return _document_out(selectors.document_get(workspace=request.auth.workspace, document_id=document_id))


@router.get("/versions/{version_id}/file", response={200: None, 404: ErrorOut})
def download_version(request: HttpRequest, version_id: int) -> FileResponse:
    """The stored original, byte for byte."""
    version = selectors.document_version_get(workspace=request.auth.workspace, version_id=version_id)
    return FileResponse(version.file.open("rb"), as_attachment=True, filename=version.filename, content_type=DOCX_MIME)
