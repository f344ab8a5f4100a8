"""Task layer: load a job by id, call the handler its kind registered, record the outcome.

Thin on purpose (pretix/Sentry style): the service does the work and reports
progress through a callback; this module owns status, attempts and errors. The
handlers come from :mod:`redline.jobs.registry` (the services register them), so
this module imports no service.
Exactly once: a message runs its job only when it can claim it (``redline.jobs.leases``),
so a message sent twice, or redelivered under ``acks_late`` while the job runs or
after it finished, is dropped; a job whose worker was killed is resumed by the
reaper once its lease lapses (``redline.jobs.pulse``).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery import Task, shared_task
from django.db import OperationalError, transaction
from django.utils import timezone

from ..errors import ApplicationError
from ..models import AnalysisRun, Job, JobStatus, RunStatus
from .leases import LeaseKeeper, job_claim, job_held
from .progress import AttemptSuperseded, callback_for, event_emit, terminal_data, terminal_kind
from .registry import handler_for

logger = logging.getLogger(__name__)

def job_run(job_id: int, *, worker: str = "", holder: int | None = None) -> None:
    """Run one attempt of a job, if it is this message's to run (see :mod:`redline.jobs.leases`).

    ``holder`` is the attempt a retry continues (its claim survives the database error that
    interrupted it); a message for a job that is finished, or held by a live attempt, is dropped.
    """
    job = job_claim(job_id, worker=worker, holder=holder)
    if job is None:
        logger.info("job %s: not claimable (finished, or held by a live attempt); message dropped", job_id)
        return
    handler = handler_for(job.kind)
    with LeaseKeeper(job) as lease:  # renewed while the work runs; the outcome is recorded after
        try:
            event_emit(job=job, kind="started", data={"attempt": job.attempts})
            if handler is None:
                raise ApplicationError("unknown_job", f"No handler for job kind {job.kind!r}.")
            outcome: dict[str, Any] = {"status": JobStatus.SUCCEEDED,
                                       "result": handler(job, callback_for(job, held=lambda: lease.held))}
        except ApplicationError as exc:
            outcome = {"status": JobStatus.FAILED, "error_code": exc.code, "error_message": exc.message}
        except OperationalError as exc:
            raise AttemptFailed(job.attempts) from exc  # database trouble: the executor retries this attempt
        except AttemptSuperseded:
            logger.warning("job %s: attempt %s stopped, the job was taken over", job.pk, job.attempts)
            return
        except Exception:
            logger.exception("job %s (%s) failed", job.pk, job.kind)
            outcome = {"status": JobStatus.FAILED, "error_code": "internal_error",
                       "error_message": "The job failed unexpectedly."}
    _finish(job, **outcome)


class AttemptFailed(OperationalError):
    """The database failed an attempt; ``attempt`` is passed back to :func:`job_run` by the retry."""

    def __init__(self, attempt: int) -> None:
        super().__init__(f"attempt {attempt} hit a database error")
        self.attempt = attempt


def job_retry_or_fail(job_id: int, *, max_attempts: int) -> bool:
    """After a transient failure: False when the job may be retried, True when it was marked failed."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None or job.attempts < max_attempts:
        return False
    _finish(job, JobStatus.FAILED, error_code="database_unavailable",
            error_message="The database was unavailable; the job gave up after several attempts.")
    return True


def _finish(job: Job, status: str, *, result: dict | None = None, error_code: str = "", error_message: str = "") -> None:
    """Record the outcome and the one terminal event together, if this attempt still holds the job
    (when another attempt took it over, or the reaper ended it, that one ends it). In one transaction: a
    worker that dies, or a database that fails, between the two would leave a finished job whose streams
    wait for an end that never comes."""
    finished_at = timezone.now()
    with transaction.atomic():
        ended = job_held(job).update(status=status, result=result, error_code=error_code,
                                     error_message=error_message, finished_at=finished_at, lease_until=None)
        if not ended:
            logger.warning("job %s: attempt %s no longer holds it; its outcome is not recorded", job.pk, job.attempts)
            return
        if status == JobStatus.FAILED:  # its run, if it has one the job's handler did not end itself
            AnalysisRun.objects.filter(job=job).exclude(status__in=(RunStatus.DONE, RunStatus.ERROR)).update(
                status=RunStatus.ERROR, error_message=error_message, finished_at=finished_at)
        event_emit(job=job, kind=terminal_kind(status), data=terminal_data(status, error_code))


class _JobTask(Task):
    def on_failure(self, exc: BaseException, task_id: str, args: tuple, kwargs: dict, einfo: object) -> None:
        """Retries exhausted (the database stayed away): end the job, and its run, now if the database is back;
        otherwise the stale-run reaper ends them."""
        try:
            job_retry_or_fail(args[0], max_attempts=0)
        except OperationalError:
            logger.warning("job %s: could not be marked failed; the stale-run reaper will end it", args[0])


@shared_task(bind=True, name="redline.run_job", base=_JobTask, acks_late=True, max_retries=5)
def run_job_task(self: Task, job_id: int, holder: int | None = None) -> None:
    """Celery entry point; the worker's hostname is recorded on the job. A database error is
    retried with backoff, the retry carrying the attempt it continues."""
    try:
        job_run(job_id, worker=self.request.hostname or "celery", holder=holder)
    except OperationalError as exc:
        holder = exc.attempt if isinstance(exc, AttemptFailed) else holder
        raise self.retry(args=(job_id,), kwargs={"holder": holder}, exc=exc,
                          countdown=min(2 ** self.request.retries, 30)) from exc


def requeue_queued_jobs(*, older_than: timedelta | None = None) -> int:
    """Queue jobs whose dispatch was lost (broker down at commit time); called by the worker on
    every broker (re)connection (``redline.celery``) and, for jobs queued longer than ``older_than``, about
    once a minute by its pulse (a reconnection while the database was away could not do it). Re-sending a
    queued job whose message is still in the broker is safe: whichever message comes second finds the job
    claimed and is dropped. Returns how many were sent."""
    queued = Job.objects.filter(status=JobStatus.QUEUED)
    if older_than is not None:
        queued = queued.filter(created_at__lt=timezone.now() - older_than)
    sent = 0
    for job_id in queued.values_list("pk", flat=True):
        run_job_task.delay(job_id)
        sent += 1
    return sent
