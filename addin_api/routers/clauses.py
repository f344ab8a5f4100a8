"""The clause overview of a document: which kinds of clause it has, how sure, and where."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from redline import selectors
from redline.clauses import CONFIDENT_ABSENCE
from redline.services.clauses import clause_model_info, clause_overview, document_clauses, status_meanings

from ..schemas.clauses import DocumentClausesOut
from ..schemas.common import ErrorOut, Id

router = Router(tags=["clauses"])


@router.get("/{document_id}/clauses", response={200: DocumentClausesOut, 404: ErrorOut, 422: ErrorOut})
def document_clause_overview(request: HttpRequest, document_id: int, version_id: Id | None = None) -> dict:
    """Per clause category: present, absent or not sure, with its probability and cited paragraphs.

    ``version_id`` picks a version of the document (default: its latest).
    """
    version = selectors.document_version_of(workspace=request.auth.workspace, document_id=document_id,
                                            version_id=version_id)
    rows = clause_overview(report=document_clauses(version=version))
    clauses = [{"category": r.category, "label": r.label, "kind": r.kind, "group": r.group, "present": r.present,
                "status": r.status, "status_label": r.status_label, "probability": r.probability,
                "anchors": r.anchors, "quotes": list(r.quotes)} for r in rows]
    return {"document_id": version.document_id, "version_id": version.pk, "model": clause_model_info(),
            "confident_absence": CONFIDENT_ABSENCE, "status_meanings": status_meanings(), "clauses": clauses}
