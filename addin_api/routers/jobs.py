from __future__ import annotations

from asgiref.sync import sync_to_async
from django.http import HttpRequest, StreamingHttpResponse
from ninja import Router

from redline import selectors
from redline.jobs.streams import TICKET_MAX_AGE_S, ticket_issue

from ..auth import ApiKeyAuth
from ..schemas.common import ErrorOut
from ..schemas.jobs import JobEventOut, JobOut, TicketOut
from ..sse import SSE_OPENAPI, TicketAuth, job_for_stream, stream_response

router = Router(tags=["jobs"])


@router.get("/{job_id}", response={200: JobOut, 404: ErrorOut})
def get_job(request: HttpRequest, job_id: int) -> object:
    return selectors.job_get(workspace=request.auth.workspace, job_id=job_id)


@router.get("/{job_id}/events.json", response={200: list[JobEventOut], 404: ErrorOut})
def list_job_events(request: HttpRequest, job_id: int, after: int = 0) -> object:
    """Stored progress events after sequence ``after`` (for polling clients)."""
    job = selectors.job_get(workspace=request.auth.workspace, job_id=job_id)
    return list(selectors.job_events_after(job=job, after_seq=after)[:500])


@router.post("/{job_id}/ticket", response={200: TicketOut, 404: ErrorOut})
def issue_stream_ticket(request: HttpRequest, job_id: int) -> dict:
    """A five-minute ticket for ``GET …/events?ticket=`` (EventSource cannot send headers)."""
    job = selectors.job_get(workspace=request.auth.workspace, job_id=job_id)
    ticket = ticket_issue(membership_id=request.auth.pk, job_id=job.pk, key_id=request.api_key_id)
    return {"ticket": ticket, "expires_in": TICKET_MAX_AGE_S}


@router.get("/{job_id}/events", auth=[ApiKeyAuth(), TicketAuth()], response={404: ErrorOut},
            openapi_extra=SSE_OPENAPI)
async def stream_job_events(request: HttpRequest, job_id: int) -> StreamingHttpResponse:
    """Progress as server-sent events (resume with ``Last-Event-ID``)."""
    job = await sync_to_async(job_for_stream)(request, job_id)
    return stream_response(request, job.pk)
