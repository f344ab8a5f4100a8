"""Tracked changes of a document: read them as data, accept or reject them into a new version."""

from __future__ import annotations

from typing import Annotated

from django.http import HttpRequest
from ninja import Router, Status
from pydantic import WithJsonSchema

from redline import selectors
from redline.errors import ApplicationError
from redline.services.revisions import Action, revisions_apply, revisions_page

from ..schemas.common import ErrorOut
from ..schemas.revisions import ResolveIn, ResolveOut, RevisionsPageOut

router = Router(tags=["revisions"])


# Parsed by _integer (codes INVALID_OFFSET/INVALID_LIMIT); the schema says what is accepted.
Offset = Annotated[str, WithJsonSchema({"type": "integer", "minimum": 0, "default": 0})]
Limit = Annotated[str, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 500, "default": 50})]


def _integer(value: str, code: str, name: str) -> int:
    """Query integers are parsed here so a malformed one gets the same code as an out-of-range one."""
    try:
        return int(value)
    except ValueError:
        raise ApplicationError(code, f"{name} must be an integer, not {value!r}.", status=422) from None


@router.get("/{document_id}/revisions", response={200: RevisionsPageOut, 404: ErrorOut, 422: ErrorOut})
def list_revisions(request: HttpRequest, document_id: int, offset: Offset = "0", limit: Limit = "50",
                   version_id: int | None = None) -> dict:
    """Paragraphs holding tracked changes or comments, in document order, with before/after text.

    ``offset`` is 0-based; ``limit`` 1–500 (``INVALID_OFFSET``/``INVALID_LIMIT`` otherwise).
    """
    version = selectors.document_version_of(workspace=request.auth.workspace, document_id=document_id,
                                            version_id=version_id)
    page = revisions_page(version=version, offset=_integer(offset, "INVALID_OFFSET", "offset"),
                          limit=_integer(limit, "INVALID_LIMIT", "limit"))
    return {"version_id": version.pk, **page}


def _resolve(request: HttpRequest, document_id: int, body: ResolveIn | None, action: Action) -> Status:
    body = body or ResolveIn()
    version = selectors.document_version_of(workspace=request.auth.workspace, document_id=document_id,
                                            version_id=body.version_id)
    new = revisions_apply(version=version, action=action, authors=body.authors, revision_ids=body.revision_ids,
                          anchors=body.anchors, uploaded_by=request.auth.user)
    return Status(201, {"source_version_id": version.pk, "version": new,
                        "download_url": f"/api/documents/versions/{new.pk}/file"})


@router.post("/{document_id}/accept", response={201: ResolveOut, 404: ErrorOut, 422: ErrorOut})
def accept_revisions(request: HttpRequest, document_id: int, body: ResolveIn | None = None) -> Status:
    """Accept tracked changes (all, or by author, revision id and/or anchor) into a new version."""
    return _resolve(request, document_id, body, "accept")


@router.post("/{document_id}/reject", response={201: ResolveOut, 404: ErrorOut, 422: ErrorOut})
def reject_revisions(request: HttpRequest, document_id: int, body: ResolveIn | None = None) -> Status:
    """Reject tracked changes (all, or by author, revision id and/or anchor) into a new version."""
    return _resolve(request, document_id, body, "reject")
