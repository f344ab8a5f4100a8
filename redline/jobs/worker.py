"""The embedded executor: one daemon thread draining a queue of job ids.

Used when no broker is configured, so a single process runs the whole product.
On start it picks up jobs a previous process left queued or running (nothing is
lost across a restart): a job is run only by the message that claims it
(``redline.jobs.leases``), and between jobs, every pulse, the thread resumes the jobs
whose lease lapsed and ends stalled runs, as a Celery worker's pulse does.
"""

from __future__ import annotations

import logging
import queue
import threading
import time

from django.conf import settings
from django.db import OperationalError, close_old_connections

from .registry import duties_run

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
RETRY_DELAY_S = 1.0


class InProcessWorker:
    """A single background thread executing :func:`redline.jobs.tasks.job_run`."""

    def __init__(self) -> None:
        self._queue: queue.Queue[tuple[int, int | None]] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name="redline-worker", daemon=True)
        self._idle = threading.Event()
        self._idle.set()

    def start(self) -> None:
        from ..models import Job, JobStatus

        duties_run("worker_start")  # what stalled long ago ends as an error; the rest resumes below
        self._thread.start()
        for job_id in Job.objects.filter(status__in=[JobStatus.QUEUED, JobStatus.RUNNING]).values_list("pk", flat=True):
            self.submit(job_id)

    def submit(self, job_id: int, holder: int | None = None) -> None:
        self._idle.clear()
        self._queue.put((job_id, holder))

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    def wait_idle(self, timeout: float = 30) -> bool:
        """Block until the queue is drained (used by tests and the CLI)."""
        return self._idle.wait(timeout)

    def _loop(self) -> None:
        from .tasks import AttemptFailed, job_retry_or_fail, job_run

        pulses = 0
        while True:
            try:
                job_id, holder = self._queue.get(timeout=settings.REDLINE_WORKER_PULSE_S)
            except queue.Empty:
                self._reap(pulses)
                pulses += 1
                continue
            try:
                job_run(job_id, worker="in-process", holder=holder)
            except OperationalError as exc:  # the database was busy or away: retry, as the Celery task does
                logger.warning("in-process job %s hit a database error; retrying", job_id, exc_info=True)
                close_old_connections()
                if not job_retry_or_fail(job_id, max_attempts=MAX_ATTEMPTS):
                    time.sleep(RETRY_DELAY_S)
                    self._queue.put((job_id, exc.attempt if isinstance(exc, AttemptFailed) else holder))
            except Exception:
                logger.exception("in-process job %s crashed", job_id)
            finally:
                close_old_connections()
                if self._queue.empty():
                    self._idle.set()

    @staticmethod
    def _reap(number: int) -> None:
        """One pulse (when idle); whatever goes wrong (the database away), the thread lives on to run jobs."""
        try:
            duties_run("pulse", beat=number, interval_s=settings.REDLINE_WORKER_PULSE_S)
            close_old_connections()
        except Exception:
            logger.warning("in-process worker: reaping lapsed jobs failed", exc_info=True)


_worker: InProcessWorker | None = None
_lock = threading.Lock()


def in_process_worker() -> InProcessWorker:
    """The process-wide worker, started on first use."""
    global _worker
    with _lock:
        if _worker is None:
            _worker = InProcessWorker()
            _worker.start()
        return _worker
