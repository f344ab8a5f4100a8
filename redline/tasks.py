"""Task layer: load a job by id, call its service, record the outcome.

Thin on purpose (pretix/Sentry style): the service does the work and reports
progress through a callback; this module owns status, attempts and errors.
Idempotent: a finished job is never run again, so Celery redeliveries under
``acks_late`` (a worker killed mid-job) are safe.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from celery import Task, shared_task
from celery.signals import worker_ready
from django.db import OperationalError, transaction
from django.utils import timezone

from .errors import ApplicationError
from .models import AnalysisRun, Job, JobStatus, RunStatus
from .progress import ProgressCallback, callback_for, event_emit
from .services import documents, runs

logger = logging.getLogger(__name__)

JobService = Callable[[Job, ProgressCallback], dict[str, Any]]

HANDLERS: dict[str, JobService] = {
    "document.ingest": documents.document_version_ingest,
    runs.RUN_JOB: runs.run_execute,
}


def job_run(job_id: int, *, worker: str = "") -> None:
    """Run one job to completion, unless it already finished."""
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status in (JobStatus.SUCCEEDED, JobStatus.FAILED):
            return
        job.status = JobStatus.RUNNING
        job.attempts += 1
        job.worker = worker
        job.started_at = timezone.now()
        job.save(update_fields=["status", "attempts", "worker", "started_at"])
    event_emit(job=job, kind="started", data={"attempt": job.attempts})
    handler = HANDLERS.get(job.kind)
    try:
        if handler is None:
            raise ApplicationError("unknown_job", f"No handler for job kind {job.kind!r}.")
        result = handler(job, callback_for(job))
    except ApplicationError as exc:
        _finish(job, JobStatus.FAILED, error_code=exc.code, error_message=exc.message)
        return
    except OperationalError:
        raise  # database trouble: let the executor retry
    except Exception:
        logger.exception("job %s (%s) failed", job.pk, job.kind)
        _finish(job, JobStatus.FAILED, error_code="internal_error", error_message="The job failed unexpectedly.")
        return
    _finish(job, JobStatus.SUCCEEDED, result=result)


def job_retry_or_fail(job_id: int, *, max_attempts: int) -> bool:
    """After a transient failure: False when the job may be retried, True when it was marked failed."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None or job.attempts < max_attempts:
        return False
    _finish(job, JobStatus.FAILED, error_code="database_unavailable",
            error_message="The database was unavailable; the job gave up after several attempts.")
    return True


def _finish(job: Job, status: str, *, result: dict | None = None, error_code: str = "", error_message: str = "") -> None:
    job.status = status
    job.result = result
    job.error_code = error_code
    job.error_message = error_message
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "result", "error_code", "error_message", "finished_at"])
    if status == JobStatus.FAILED:  # its run, if it has one the job's handler did not end itself
        AnalysisRun.objects.filter(job=job).exclude(status__in=(RunStatus.DONE, RunStatus.ERROR)).update(
            status=RunStatus.ERROR, error_message=error_message, finished_at=job.finished_at)
    event_emit(job=job, kind="done" if status == JobStatus.SUCCEEDED else "error",
               data={"status": status, "error_code": error_code} if error_code else {"status": status})


class _JobTask(Task):
    def on_failure(self, exc: BaseException, task_id: str, args: tuple, kwargs: dict, einfo: object) -> None:
        """Retries exhausted (the database stayed away): end the job, and its run, now if the database is back;
        otherwise the stale-run reaper ends them."""
        try:
            job_retry_or_fail(args[0], max_attempts=0)
        except OperationalError:
            logger.warning("job %s: could not be marked failed; the stale-run reaper will end it", args[0])


@shared_task(name="redline.run_job", base=_JobTask, acks_late=True, autoretry_for=(OperationalError,),
             retry_backoff=True, max_retries=5)
def run_job_task(job_id: int) -> None:
    """Celery entry point; the worker's hostname is recorded on the job."""
    from celery import current_task

    job_run(job_id, worker=getattr(current_task.request, "hostname", "") or "celery")


@worker_ready.connect
def reap_stale_on_start(**_: object) -> None:
    """A starting worker first ends the runs a dead predecessor left stalled."""
    from .services.reaper import runs_reap_stale

    runs_reap_stale()


def requeue_queued_jobs() -> None:
    """Queue jobs whose dispatch was lost (broker down at commit time); called by the worker on
    every broker (re)connection (``redline.celery``). Re-sending a queued job is safe: ``job_run``
    skips finished jobs."""
    for job_id in Job.objects.filter(status=JobStatus.QUEUED).values_list("pk", flat=True):
        run_job_task.delay(job_id)
