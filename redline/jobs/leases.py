"""Claims on jobs: which attempt holds a job, and until when.

A job is claimed from ``queued``; from ``running`` only when its lease lapsed
(its worker died: nobody renewed it) or by the attempt that holds it (a retry
after a database error, which carries its attempt number). Anything else, a
message sent twice or redelivered while the job runs, is dropped. The claim
numbers the attempt (``Job.attempts``); a :class:`LeaseKeeper` renews the lease
while the attempt works, and only the attempt that still holds the job may
record its outcome, so a job runs once at a time and ends once.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from ..models import Job, JobStatus

logger = logging.getLogger(__name__)


def lease_deadline() -> datetime:
    return timezone.now() + timedelta(seconds=settings.REDLINE_JOB_LEASE_S)


def job_claim(job_id: int, *, worker: str, holder: int | None = None) -> Job | None:
    """The job, now held by a new attempt of ``worker``; None when it is not to be run here."""
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None or not _claimable(job, holder):
            return None
        job.status = JobStatus.RUNNING
        job.attempts += 1
        job.worker = worker
        job.started_at = timezone.now()
        job.lease_until = lease_deadline()
        job.save(update_fields=["status", "attempts", "worker", "started_at", "lease_until"])
    return job


def _claimable(job: Job, holder: int | None) -> bool:
    if job.status == JobStatus.QUEUED:
        return True
    if job.status != JobStatus.RUNNING:
        return False
    lapsed = job.lease_until is None or job.lease_until <= timezone.now()
    return lapsed or (holder is not None and holder == job.attempts)


def job_held(job: Job) -> QuerySet[Job]:
    """The job, while attempt ``job.attempts`` still holds it (for updates made only by the holder)."""
    return Job.objects.filter(pk=job.pk, status=JobStatus.RUNNING, attempts=job.attempts)


def job_renew(job: Job) -> bool:
    """Extend the attempt's lease; False when another attempt (or the reaper) took the job."""
    return job_held(job).update(lease_until=lease_deadline()) == 1


class LeaseKeeper:
    """Renews an attempt's lease every third of it, on a thread, while the attempt works.

    ``held`` turns False once a renewal finds the job taken from this attempt; the
    attempt then stops at its next progress event. A renewal that fails because the
    database is away changes nothing: the lease may lapse, which is what it is for.
    """

    def __init__(self, job: Job) -> None:
        self.job = job
        self.held = True
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name=f"redline-lease-{job.pk}", daemon=True)

    def __enter__(self) -> LeaseKeeper:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        try:
            while not self._stop.wait(settings.REDLINE_JOB_LEASE_S / 3):
                try:
                    if not job_renew(self.job):
                        self.held = False
                        logger.warning("job %s: attempt %s lost its claim", self.job.pk, self.job.attempts)
                        return
                except Exception:
                    logger.warning("job %s: lease renewal failed", self.job.pk, exc_info=True)
                    connection.close()
        finally:
            connection.close()
