"""Creating and dispatching background jobs.

A job is queued only after the transaction that created it commits, so a worker
never looks for a row that is not there yet. With ``CELERY_BROKER_URL`` set the
job goes to Celery; otherwise to the in-process worker thread. The same
``tasks.job_run`` executes it in both cases.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction

from ..models import Job, Workspace

logger = logging.getLogger(__name__)


def job_create(*, workspace: Workspace, kind: str, params: dict[str, Any]) -> Job:
    """Create a job row and queue it after commit."""
    job = Job.objects.create(workspace=workspace, kind=kind, params=params)
    transaction.on_commit(lambda: job_dispatch(job_id=job.pk))
    return job


def job_dispatch(*, job_id: int) -> None:
    """Hand a job id to the configured executor.

    A broker outage must not fail the request that created the job: the row is
    committed and stays ``queued``; workers re-queue such jobs when they start.
    """
    if settings.CELERY_BROKER_URL:
        from .tasks import run_job_task

        try:
            run_job_task.delay(job_id)
        except Exception:
            logger.warning("broker unreachable; job %s stays queued until a worker starts", job_id, exc_info=True)
    else:
        from .worker import in_process_worker

        in_process_worker().submit(job_id)
