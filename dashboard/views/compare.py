"""Compare two versions of a document on the dashboard: the differences read inline, the redline to download."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpResponse
from django.views.decorators.http import require_GET

from redline.errors import ApplicationError, NotFound
from redline.models import DocumentVersion
from redline.ooxml.compare import Change, Comparison
from redline.services.compare import versions_compare

from .. import queries
from ..context import DashboardRequest, member_required
from ..http import render_page

DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
AUTHOR = "Redline Compare"
CONTEXT = 1  # unchanged paragraphs shown on each side of a change; longer stretches fold


@dataclass(frozen=True, slots=True)
class Stretch:
    """Consecutive paragraphs shown together: changes with their context, or a folded run of unchanged ones."""

    folded: bool
    rows: tuple[Change, ...]


def stretches(sequence: list[Change], context: int = CONTEXT) -> list[Stretch]:
    """The paragraphs as a reader wants them: each change with ``context`` unchanged paragraphs around it, and
    every longer run of unchanged paragraphs folded into one line."""
    keep = {k for k, c in enumerate(sequence) if c.kind != "same"}
    shown = {k for i in keep for k in range(i - context, i + context + 1) if 0 <= k < len(sequence)}
    out: list[Stretch] = []
    for k, change in enumerate(sequence):
        folded = k not in shown
        if out and out[-1].folded == folded:
            out[-1] = Stretch(folded, (*out[-1].rows, change))
        else:
            out.append(Stretch(folded, (change,)))
    return out


def _compare(request: DashboardRequest, document_id: int) -> tuple[DocumentVersion, DocumentVersion, Comparison]:
    try:
        from_id, to_id = (int(request.GET[k]) if request.GET.get(k) else None for k in ("from", "to"))
    except ValueError:
        raise Http404("No such version") from None
    try:
        return versions_compare(workspace=request.membership.workspace, document_id=document_id,
                                from_version_id=from_id, to_version_id=to_id, author=AUTHOR)
    except NotFound:
        raise Http404("No such version of this document") from None


@member_required
@require_GET
def compare_view(request: DashboardRequest, document_id: int) -> HttpResponse:
    """The differences between two versions (default: the latest against the one before), inline."""
    document = queries.document_get(workspace=request.membership.workspace, document_id=document_id)
    context = {"document": document, "section": "documents", "versions": list(document.versions.all())}
    try:
        old, new, result = _compare(request, document_id)
    except ApplicationError as exc:
        return render_page(request, "dashboard/compare.html", {**context, "error": exc.message}, status=exc.status)
    context.update({"old": old, "new": new, "result": result, "stretches": stretches(result.sequence)})
    return render_page(request, "dashboard/compare.html", context)


@member_required
@require_GET
def compare_download(request: DashboardRequest, document_id: int) -> HttpResponse:
    """The redline of the two versions (accept every change: the later one; reject every one: the earlier)."""
    queries.document_get(workspace=request.membership.workspace, document_id=document_id)
    try:
        old, new, result = _compare(request, document_id)
    except ApplicationError as exc:
        return HttpResponse(exc.message, status=exc.status, content_type="text/plain; charset=utf-8")
    response = HttpResponse(result.docx, content_type=DOCX_MIME)
    name = new.filename.rsplit(".", 1)[0] or "document"
    response["Content-Disposition"] = f'attachment; filename="{name}-compared-v{old.pk}-v{new.pk}.docx"'
    return response
