"""Runs never stay ``running``: work whose worker died is resumed, work that stopped
making progress is ended as an error.

A job whose lease lapsed (nobody renewed it: its worker was killed) is queued
again and dispatched, or ended as an error once it used its attempts:
:func:`jobs_reap_lapsed`, called every pulse by each worker (``redline.jobs.pulse``,
the in-process worker's loop), so a killed worker's run resumes within a lease
and a pulse (about 35 s by default).

A worker killed without a trace, a database restart that outlived a task's
retries, or a lost broker message can leave a job ``running`` with nobody
working on it. Its last sign of life is its newest progress event (or its
start); when that is older than ``REDLINE_STALE_RUN_MINUTES`` the job is marked
failed, its run ``error`` with a message saying what to do, and an ``error``
event ends any stream still watching it. Both run from every worker's pulse
(:func:`reap_on_pulse`); ``manage.py reap_stale_runs`` runs the second by hand.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from ..jobs.dispatch import job_dispatch
from ..jobs.progress import event_emit, terminal_repair_recent
from ..jobs.registry import duty_register
from ..models import AnalysisRun, Job, JobStatus, RunStatus

logger = logging.getLogger(__name__)

STALE_CODE = "stale"
STALE_MESSAGE = "The review stopped making progress (its worker or database went away); run it again."


STALE_REAP_S = 60.0  # how often a worker looks for stalled runs (a heavier query than lapsed leases)


def reap_on_pulse(beat: int, interval_s: float) -> None:
    """A worker's pulse number ``beat`` (0 first): lapsed leases every pulse; stalled runs, and finished jobs
    missing their terminal event, on the first and then about once a minute."""
    jobs_reap_lapsed()
    if beat % max(1, round(STALE_REAP_S / interval_s)) == 0:
        runs_reap_stale()
        terminal_repair_recent()  # a finished job without its end (older code, or a lost write): append it


def jobs_reap_lapsed(*, now: datetime | None = None) -> list[int]:
    """Queue again (and dispatch) each running job whose lease lapsed; end those that used their
    attempts. Returns the ids queued again. Safe to run on every worker at once: each job is moved
    under its row lock, by one of them."""
    now = now or timezone.now()
    lapsed = Job.objects.filter(Q(lease_until__lt=now) | Q(lease_until__isnull=True), status=JobStatus.RUNNING)
    requeued = []
    for job_id in lapsed.values_list("pk", flat=True):
        with transaction.atomic():
            job = Job.objects.select_for_update().get(pk=job_id)
            if job.status != JobStatus.RUNNING or (job.lease_until is not None and job.lease_until >= now):
                continue  # moved on meanwhile
            if job.attempts >= settings.REDLINE_JOB_MAX_ATTEMPTS:
                _end(job, now)
                continue
            job.status, job.lease_until = JobStatus.QUEUED, None
            job.save(update_fields=["status", "lease_until"])
            AnalysisRun.objects.filter(job=job, status=RunStatus.RUNNING).update(status=RunStatus.QUEUED)
            transaction.on_commit(lambda pk=job.pk: job_dispatch(job_id=pk))
        requeued.append(job_id)
    if requeued:
        logger.warning("resuming %d job(s) whose worker went away: %s", len(requeued), requeued)
    return requeued


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
        if job.status not in (JobStatus.SUCCEEDED, JobStatus.FAILED):
            _end(job, now)
        else:  # a run its finished job left behind
            _end_run(job, now)
    return True


def _end(job: Job, now: datetime) -> None:
    """Fail a locked job, and its run, and send the terminal event (the attempt holding it, if alive,
    then finds the job taken and records nothing)."""
    _end_run(job, now)
    job.status, job.error_code, job.error_message, job.finished_at, job.lease_until = (
        JobStatus.FAILED, STALE_CODE, STALE_MESSAGE, now, None)
    job.save(update_fields=["status", "error_code", "error_message", "finished_at", "lease_until"])
    event_emit(job=job, kind="error", data={"status": JobStatus.FAILED, "error_code": STALE_CODE})


def _end_run(job: Job, now: datetime) -> None:
    AnalysisRun.objects.filter(job=job, status__in=(RunStatus.QUEUED, RunStatus.RUNNING)).update(
        status=RunStatus.ERROR, error_message=STALE_MESSAGE, finished_at=now)


duty_register("worker_start", runs_reap_stale)  # what stalled long ago ends; the rest resumes
duty_register("pulse", reap_on_pulse)
