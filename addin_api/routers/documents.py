from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import FileResponse, HttpRequest
from ninja import File, Form, Router, Status
from ninja.files import UploadedFile
from pydantic import ValidationError as PydanticValidationError

from redline import selectors
from redline.errors import ApplicationError
from redline.models import Document
from redline.services.documents import document_version_create, document_version_from_paragraphs
from redline.services.files import docx_scan
from redline.services.learning import document_feedback_json
from redline.services.retrieval import contract_ask

from ..schemas.ask import AskIn, AskOut
from ..schemas.common import ErrorOut, Id
from ..schemas.documents import DocumentOut, DocumentUploadOut
from ..schemas.documents_in import ParagraphsIn

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


def _inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """A pydantic JSON schema with its ``$defs`` inlined: inside the OpenAPI document a
    ``#/$defs/...`` reference would resolve against the document root, where nothing is."""
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if set(node) == {"$ref"} and node["$ref"].startswith("#/$defs/"):
                return walk(defs[node["$ref"].removeprefix("#/$defs/")])
            return {k: walk(v) for k, v in node.items()}
        return [walk(v) for v in node] if isinstance(node, list) else node

    return walk(schema)


UPLOAD_OPENAPI = {
    "requestBody": {
        "content": {
            "multipart/form-data": {
                "schema": {"type": "object", "required": ["file"],
                           "properties": {"file": {"type": "string", "format": "binary"}, "title": {"type": "string"},
                                          "document_id": {"type": "integer", "minimum": 1}}}
            },
            "application/json": {"schema": _inlined(ParagraphsIn.model_json_schema())},
        }
    }
}


@router.post("", response={201: DocumentUploadOut, 200: DocumentUploadOut, 404: ErrorOut, 409: ErrorOut,
                           413: ErrorOut, 422: ErrorOut, 503: ErrorOut},
             openapi_extra=UPLOAD_OPENAPI)
def upload_document(request: HttpRequest, file: File[UploadedFile] = None, title: Form[str] = "",
                    document_id: Form[Id | None] = None) -> Status:
    """Upload a .docx (multipart), or the add-in's paragraphs as JSON ``{title, doc_id, document_id, paragraphs}``.

    The file is stored unchanged; the same content again returns the existing version (200).
    It becomes a version of the document ``document_id`` names; else of the one its
    ``RedlineDocID`` names; else, if it lost that id, of the one whose anchors it carries;
    else of a new document. ``linked_by`` says which (``document_id``, ``doc_id``,
    ``anchors``, ``new``, or ``same_file`` for bytes uploaded before).
    """
    membership = request.auth
    if request.content_type == "application/json":
        body = _paragraphs_body(request)
        version, job, created, linked_by = document_version_from_paragraphs(
            workspace=membership.workspace, paragraphs=[p.dict() for p in body.paragraphs], doc_id=body.doc_id,
            title=body.title, uploaded_by=membership.user, document_id=body.document_id,
        )
        anchors = [p.anchor for p in body.paragraphs]  # the version is built from them, in this order
    else:
        if file is None:
            raise ApplicationError("validation_error", "Send a .docx as multipart field `file`, or JSON paragraphs.",
                                   status=422)
        if file.size is not None and file.size > settings.REDLINE_MAX_UPLOAD_BYTES:
            raise ApplicationError("too_large", "The file is larger than the upload limit.", status=413,
                                   detail={"limit": settings.REDLINE_MAX_UPLOAD_BYTES})
        data = file.read()
        scan = docx_scan(data)
        version, job, created, linked_by = document_version_create(
            workspace=membership.workspace, data=data, filename=file.name or "document.docx",
            uploaded_by=membership.user, title=title, scan=scan, document_id=document_id,
        )
        anchors = list(scan.anchors)  # what results will be keyed to
    body_out = {"document": _document_out(version.document), "version": version, "job_id": job.pk,
                "created": created, "linked_by": linked_by, "anchors": anchors}
    return Status(201 if created else 200, body_out)


def _paragraphs_body(request: HttpRequest) -> ParagraphsIn:
    try:
        return ParagraphsIn.model_validate_json(request.body)
    except PydanticValidationError as exc:
        errors = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
        raise ApplicationError("validation_error", "The request is not valid.", status=422,
                               detail={"errors": errors}) from None


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


@router.get("/{document_id}/feedback.json", response={200: dict[str, Any], 404: ErrorOut})
def feedback_export(request: HttpRequest, document_id: int) -> dict:
    """The seed's ``feedback.json``: every suggestion written into this document and every rejection."""
    document = selectors.document_get(workspace=request.auth.workspace, document_id=document_id)
    return document_feedback_json(document=document)


@router.post("/{document_id}/ask", response={200: AskOut, 404: ErrorOut, 422: ErrorOut})
def ask_contract(request: HttpRequest, document_id: int, body: AskIn) -> dict:
    """Ask the contract: an extractive answer with citations (anchors + verbatim quotes)."""
    version = selectors.document_version_of(workspace=request.auth.workspace, document_id=document_id,
                                            version_id=body.version_id)
    return contract_ask(version=version, question=body.question)
