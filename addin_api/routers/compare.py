"""Compare two versions of a document: the changes as data, and the redline as a file."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from ninja import Query, Router

from redline import selectors
from redline.services.compare import versions_compare
from redline.services.untracked import changes_since_sent

from ..schemas.common import ErrorOut, Id
from ..schemas.compare import CompareIn, CompareOut
from ..schemas.since_sent import SinceSentOut

router = Router(tags=["compare"])

DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@router.post("/{document_id}/compare", response={200: CompareOut, 404: ErrorOut, 422: ErrorOut})
def compare_versions(request: HttpRequest, document_id: int, body: CompareIn) -> dict:
    """The differences between two versions, paragraph by paragraph, and where to download them as a redline
    (accept every change: the later version; reject every one: the earlier)."""
    old, new, result = versions_compare(workspace=request.auth.workspace, document_id=document_id,
                                        from_version_id=body.from_version_id, to_version_id=body.to_version_id,
                                        author=body.author)
    query = urlencode({"from_version_id": old.pk, "to_version_id": new.pk, "author": body.author})
    return {"document_id": document_id, "from_version_id": old.pk, "to_version_id": new.pk, "views": result.views,
            "had_revisions": result.had_revisions, "counts": result.counts, "moved": result.moves,
            "formatting_changed": result.formatted,
            "also_redlined": result.elsewhere, "uncompared": result.uncompared,
            "changes": [c.to_dict() for c in result.changes],
            "download_url": f"/api/documents/{document_id}/compare.docx?{query}"}


@router.get("/{document_id}/compare.docx", response={200: None, 404: ErrorOut, 422: ErrorOut})
def compare_download(request: HttpRequest, document_id: int, params: Query[CompareIn]) -> HttpResponse:
    """The redline of two versions as a .docx of tracked changes."""
    old, new, result = versions_compare(workspace=request.auth.workspace, document_id=document_id,
                                        from_version_id=params.from_version_id, to_version_id=params.to_version_id,
                                        author=params.author)
    response = HttpResponse(result.docx, content_type=DOCX_MIME)
    name = new.filename.rsplit(".", 1)[0] or "document"
    response["Content-Disposition"] = f'attachment; filename="{name}-compared-v{old.pk}-v{new.pk}.docx"'
    return response


@router.get("/{document_id}/since-sent", response={200: SinceSentOut, 404: ErrorOut, 422: ErrorOut})
def since_sent(request: HttpRequest, document_id: int, version_id: Id | None = None) -> dict:
    """Since the redline was sent: the paragraphs the other side changed with tracking on, and those changed
    without tracking (``version_id``: default the latest version)."""
    version = selectors.document_version_of(workspace=request.auth.workspace, document_id=document_id,
                                            version_id=version_id)
    return changes_since_sent(version=version)
