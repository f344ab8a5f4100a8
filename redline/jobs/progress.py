"""Progress events for jobs: stored in the database, announced on Redis when configured.

The database is the record (a client resumes a stream from ``Last-Event-ID``); Redis
pub/sub only wakes listeners sooner. Engines receive a plain callback built here,
so they never import Django or Celery.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from ..models import Job, JobEvent, JobStatus
from .redis_client import redis_for

logger = logging.getLogger(__name__)

ProgressCallback = Callable[[str, dict[str, Any]], None]


def channel_name(job_id: int) -> str:
    return f"redline:job:{job_id}"


def event_emit(*, job: Job, kind: str, data: dict[str, Any] | None = None) -> JobEvent:
    """Append an event with the next sequence number (retrying a lost race on the unique key)."""
    for _ in range(5):
        seq = (JobEvent.objects.filter(job=job).aggregate(m=Max("seq"))["m"] or 0) + 1
        try:
            with transaction.atomic():
                event = JobEvent.objects.create(job=job, seq=seq, kind=kind, data=data or {})
            break
        except IntegrityError:
            continue
    else:  # pragma: no cover - five lost races in a row means something else is wrong
        raise RuntimeError(f"could not append event to job {job.pk}")
    transaction.on_commit(lambda: _publish(job.pk, event))  # never announce what may still roll back
    return event


TERMINAL_KINDS = frozenset({"done", "error", "cancelled"})
_FINISHED = (JobStatus.SUCCEEDED, JobStatus.FAILED)


def terminal_kind(status: str) -> str:
    """The terminal event of a job that ended with ``status``."""
    return "done" if status == JobStatus.SUCCEEDED else "error"


def terminal_data(status: str, error_code: str = "") -> dict[str, Any]:
    return {"status": status, "error_code": error_code} if error_code else {"status": status}


def terminal_repair(job_id: int) -> JobEvent | None:
    """The terminal event of a finished job that lacks one (written by code before the outcome and the event
    shared a transaction, or lost some other way), appended now under the job's lock; None when the job is not
    finished or already has its end. Streams and the worker's pulse call it, so no stream waits forever."""
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id, status__in=_FINISHED).first()
        if job is None:
            return None
        last = job.events.order_by("-seq").first()
        if last is not None and last.kind in TERMINAL_KINDS:
            return None
        logger.warning("job %s: finished without its terminal event; appending it", job_id)
        return event_emit(job=job, kind=terminal_kind(job.status), data=terminal_data(job.status, job.error_code))


def terminal_repair_recent(*, hours: int = 24) -> list[int]:
    """Repair every job finished in the last ``hours`` whose last event is not a terminal one."""
    since = timezone.now() - timedelta(hours=hours)
    candidates = list(Job.objects.filter(status__in=_FINISHED, finished_at__gte=since).annotate(
        last_seq=Max("events__seq")).values_list("pk", "last_seq"))
    ended = set(JobEvent.objects.filter(
        job_id__in=[pk for pk, _ in candidates], kind__in=TERMINAL_KINDS).values_list("job_id", "seq"))
    return [pk for pk, last in candidates if (pk, last) not in ended and terminal_repair(pk) is not None]


class AttemptSuperseded(Exception):
    """Raised by a job's callback once its attempt lost the job (another attempt took it over):
    the engine stops there, and nothing of this attempt is recorded after it."""


def callback_for(job: Job, *, held: Callable[[], bool] = lambda: True) -> ProgressCallback:
    """A ``(kind, data)`` callback for engines and services that must not know about jobs;
    it stops the work (:class:`AttemptSuperseded`) once ``held()`` says the attempt lost the job."""

    def emit(kind: str, data: dict[str, Any]) -> None:
        if not held():
            raise AttemptSuperseded(f"job {job.pk}: attempt {job.attempts} was superseded")
        event_emit(job=job, kind=kind, data=data)

    return emit


def _publish(job_id: int, event: JobEvent) -> None:
    if not settings.REDIS_URL:
        return
    try:
        # The whole event: a listener that is caught up sends it on without reading the database.
        message = json.dumps({"seq": event.seq, "kind": event.kind, "data": event.data}, separators=(",", ":"))
        redis_for(settings.REDIS_URL).publish(channel_name(job_id), message)
    except Exception:  # Redis down must not fail the job: the event is already stored.
        logger.warning("progress publish failed for job %s", job_id, exc_info=True)
