"""Runs never stay ``running``: work that stopped making progress is ended as an error.

A worker killed without a trace, a database restart that outlived a task's
retries, or a lost broker message can leave a job ``running`` with nobody
working on it. Its last sign of life is its newest progress event (or its
start); when that is older than ``REDLINE_STALE_RUN_MINUTES`` the job is marked
failed, its run ``error`` with a message saying what to do, and an ``error``
event ends any stream still watching it. Called when a worker starts, and by
``manage.py reap_stale_runs`` (cron) on deployments that want it periodically.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from ..models import AnalysisRun, Job, JobStatus, RunStatus
from ..progress import event_emit

logger = logging.getLogger(__name__)

STALE_CODE = "stale"
STALE_MESSAGE = "The review stopped making progress (its worker or database went away); run it again."


def stale_after() -> timedelta:
    return timedelta(minutes=settings.REDLINE_STALE_RUN_MINUTES)


def runs_reap_stale(*, older_than: timedelta | None = None, now: datetime | None = None) -> list[int]:
    """End every running job, and run, with no progress for ``older_than``; returns the job ids ended."""
    cutoff = (now or timezone.now()) - (older_than if older_than is not None else stale_after())
    candidates = (Job.objects.filter(Q(status=JobStatus.RUNNING) | Q(run__status=RunStatus.RUNNING))
                  .annotate(last_event=Max("events__created_at")).distinct())
    reaped = []
    for job in candidates:
        activity = max(t for t in (job.last_event, job.started_at, job.created_at) if t is not None)
        if activity < cutoff and _reap(job.pk, cutoff):
            reaped.append(job.pk)
    if reaped:
        logger.warning("reaped %d stale job(s): %s", len(reaped), reaped)
    return reaped


def _reap(job_id: int, cutoff: datetime) -> bool:
    """End one job and its run, re-checked under lock (it may have moved on meanwhile)."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job_id)
        last = job.events.aggregate(m=Max("created_at"))["m"]
        if last is not None and last >= cutoff:
            return False
        now = timezone.now()
        run = AnalysisRun.objects.select_for_update().filter(job=job).first()
        if run is not None and run.status in (RunStatus.QUEUED, RunStatus.RUNNING):
            run.status, run.error_message, run.finished_at = RunStatus.ERROR, STALE_MESSAGE, now
            run.save(update_fields=["status", "error_message", "finished_at"])
        if job.status not in (JobStatus.SUCCEEDED, JobStatus.FAILED):
            job.status, job.error_code, job.error_message, job.finished_at = (
                JobStatus.FAILED, STALE_CODE, STALE_MESSAGE, now)
            job.save(update_fields=["status", "error_code", "error_message", "finished_at"])
            event_emit(job=job, kind="error", data={"status": JobStatus.FAILED, "error_code": STALE_CODE})
    return True
