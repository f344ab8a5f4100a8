from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from redline import selectors

from ..schemas.common import ErrorOut
from ..schemas.jobs import JobEventOut, JobOut

router = Router(tags=["jobs"])


@router.get("/{job_id}", response={200: JobOut, 404: ErrorOut})
def get_job(request: HttpRequest, job_id: int) -> object:
    return selectors.job_get(workspace=request.auth.workspace, job_id=job_id)


@router.get("/{job_id}/events", response={200: list[JobEventOut], 404: ErrorOut})
def list_job_events(request: HttpRequest, job_id: int, after: int = 0) -> object:
    job = selectors.job_get(workspace=request.auth.workspace, job_id=job_id)
    return list(selectors.job_events_after(job=job, after_seq=after)[:500])
