from __future__ import annotations

import hashlib
import json
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from ninja import Router, Status
from pydantic import TypeAdapter

from redline import selectors
from redline.errors import NotFound
from redline.jobs.streams import TICKET_MAX_AGE_S, ticket_issue
from redline.models import AnalysisRun, RunStatus, Suggestion
from redline.services.learning import run_round_report, suggestion_outcomes
from redline.services.run_cost import run_cost
from redline.services.run_summary import run_summary
from redline.services.runs import document_sides, run_export, run_redline, run_request

from ..auth import ApiKeyAuth
from ..schemas.common import ErrorOut
from ..schemas.jobs import TicketOut
from ..schemas.runs import ExportIn, PartiesOut, RunIn, RunOut, SuggestionOut
from ..sse import SSE_OPENAPI, TicketAuth, releasing_connection, stream_response

router = Router(tags=["runs"])
document_runs = Router(tags=["runs"])

DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def _run_out(run: AnalysisRun) -> dict:
    return {
        "id": run.pk, "document_id": run.document_version.document_id, "version_id": run.document_version_id,
        "playbook_id": run.playbook_version.playbook_id, "playbook_version": run.playbook_version.number,
        "preferences_version": run.preferences_version, "provider": run.provider, "model": run.model,
        "acting_for": run.acting_for,
        "status": run.status, "progress": selectors.run_last_progress(run=run), "stats": run.stats,
        "error_message": run.error_message, "job_id": run.job_id, "created_at": run.created_at,
        "started_at": run.started_at, "finished_at": run.finished_at,
        "summary": summary.to_dict() if (summary := run_summary(run=run)) else None,
        "cost": cost.to_dict() if (cost := run_cost(run=run)) else None,
    }


def _suggestion_out(s: Suggestion, outcome: dict | None) -> dict:
    return {**s.data, "pk": s.pk, "op": s.op, "patch": s.patch or None, "patch_status": s.patch_status,
            **(outcome or {})}


@document_runs.post("/{document_id}/runs", response={201: RunOut, 200: RunOut, 404: ErrorOut, 422: ErrorOut})
def create_run(request: HttpRequest, document_id: int, body: RunIn) -> Status:
    """Review a document version with a playbook. Idempotent: the same request returns the same run (200)."""
    workspace = request.auth.workspace
    version = selectors.document_version_of(workspace=workspace, document_id=document_id, version_id=body.version_id)
    run, created = run_request(
        version=version,
        playbook_version=selectors.playbook_version_for(workspace=workspace, playbook_id=body.playbook_id),
        provider=body.provider or settings.REDLINE_PROVIDER,
        created_by=request.auth.user,
        acting_for=body.acting_for,
    )
    return Status(201 if created else 200, _run_out(run))


@document_runs.get("/{document_id}/parties", response={200: PartiesOut, 404: ErrorOut, 422: ErrorOut, 503: ErrorOut})
def document_parties(request: HttpRequest, document_id: int, version_id: int | None = None) -> dict:
    """The parties a review may act for (read from the contract's preamble) and the side the last run took."""
    version = selectors.document_version_of(workspace=request.auth.workspace, document_id=document_id,
                                            version_id=version_id)
    return document_sides(version=version)


@router.get("/{run_id}", response={200: RunOut, 404: ErrorOut})
def get_run(request: HttpRequest, run_id: int) -> dict:
    return _run_out(selectors.run_get(workspace=request.auth.workspace, run_id=run_id))


# A finished run's suggestions never change, and clients poll them: the serialized list is cached,
# keyed by the schema's shape (a deploy that changes it never serves an old body) and by the
# outcomes read so far (a returned document changes the body).
_SUGGESTIONS = TypeAdapter(list[SuggestionOut])
_SUGGESTIONS_KEY = "redline:run-suggestions:{}:" + hashlib.sha256(
    json.dumps(_SUGGESTIONS.json_schema(), sort_keys=True).encode()).hexdigest()[:12]
SUGGESTIONS_CACHE_S = 3600


@router.get("/{run_id}/suggestions", response={200: list[SuggestionOut], 404: ErrorOut})
def list_suggestions(request: HttpRequest, run_id: int) -> HttpResponse:
    """Suggestions keyed to anchors, in document order, each with its proven OOXML patch."""
    run = selectors.run_state_get(workspace=request.auth.workspace, run_id=run_id)
    finished = run.status == RunStatus.DONE
    outcomes = suggestion_outcomes(run=run)
    key = _SUGGESTIONS_KEY.format(run.pk) + ":" + hashlib.sha256(
        repr(sorted(outcomes.items())).encode()).hexdigest()[:16]
    body = cache.get(key) if finished else None
    if body is None:
        rows = [_suggestion_out(s, outcomes.get(s.pk)) for s in run.suggestions.order_by("position")]
        body = _SUGGESTIONS.dump_json(_SUGGESTIONS.validate_python(rows))
        if finished:
            cache.set(key, body, SUGGESTIONS_CACHE_S)
    return HttpResponse(body, content_type="application/json")


def _docx_response(run: AnalysisRun, data: bytes) -> HttpResponse:
    name = run.document_version.filename.rsplit(".", 1)[0] or "document"
    response = HttpResponse(data, content_type=DOCX_MIME)
    response["Content-Disposition"] = f'attachment; filename="{name}-redline.docx"'
    return response


@router.get("/{run_id}/redline.docx", response={200: None, 400: ErrorOut, 404: ErrorOut, 422: ErrorOut})
def download_redline(request: HttpRequest, run_id: int, suggestions: str = "") -> HttpResponse:
    """Preview: the document with the chosen suggestions (comma-separated ids; default all) as tracked changes.

    A read: nothing is recorded, so a preview never makes a suggestion count as sent.
    Use ``POST /api/runs/{id}/export`` for the file that goes to the lawyer.
    """
    run = selectors.run_get(workspace=request.auth.workspace, run_id=run_id)
    data, _ = run_redline(run=run, suggestion_ids=[s for s in suggestions.split(",") if s] or None)
    return _docx_response(run, data)


@router.post("/{run_id}/export", response={200: None, 400: ErrorOut, 404: ErrorOut, 422: ErrorOut})
def export_redline(request: HttpRequest, run_id: int, body: ExportIn) -> HttpResponse:
    """The redlined .docx that goes to the lawyer: what it writes is recorded as known entries,
    whose outcomes are read when the file comes back. Idempotent (one entry per written suggestion)."""
    run = selectors.run_get(workspace=request.auth.workspace, run_id=run_id)
    data, _ = run_export(run=run, suggestion_ids=list(dict.fromkeys(body.suggestions)) or None)
    return _docx_response(run, data)


@router.get("/{run_id}/rounds", response={200: dict[str, Any], 404: ErrorOut})
def round_report(request: HttpRequest, run_id: int) -> dict:
    """Per rule against the previous round: newly failing, resolved, still open, regressed (by anchor)."""
    return run_round_report(run=selectors.run_get(workspace=request.auth.workspace, run_id=run_id))


@router.post("/{run_id}/ticket", response={200: TicketOut, 404: ErrorOut})
def issue_run_ticket(request: HttpRequest, run_id: int) -> dict:
    """A five-minute ticket for ``GET /api/runs/{id}/events?ticket=`` (EventSource cannot send headers)."""
    run = selectors.run_get(workspace=request.auth.workspace, run_id=run_id)
    return {"ticket": ticket_issue(membership_id=request.auth.pk, job_id=run.job_id or 0, key_id=request.api_key_id),
            "expires_in": TICKET_MAX_AGE_S}


@releasing_connection
def _run_job_for_stream(request: HttpRequest, run_id: int) -> int:
    run = selectors.run_get(workspace=request.auth.workspace, run_id=run_id)
    ticket_job = getattr(request, "ticket_job_id", None)
    if run.job_id is None or (ticket_job is not None and ticket_job != run.job_id):
        raise NotFound("Run", run_id)
    return run.job_id


@router.get("/{run_id}/events", auth=[ApiKeyAuth(), TicketAuth()], response={404: ErrorOut},
            openapi_extra=SSE_OPENAPI)
async def stream_run_events(request: HttpRequest, run_id: int) -> StreamingHttpResponse:
    """Progress as server-sent events: started, progress, suggestion, done | error."""
    job_id = await sync_to_async(_run_job_for_stream)(request, run_id)
    return stream_response(request, job_id)
