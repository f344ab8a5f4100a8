"""The Celery app (scale-out mode). ``celery -A redline worker`` finds it here."""

from __future__ import annotations

import logging
import os

from celery import Celery, bootsteps
from celery.signals import worker_ready, worker_shutdown

from .jobs.pulse import pulse_start, pulse_stop

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "redline.settings")
# A worker waits for a database connection longer than a request does (2 s, then 503): a job rides out a
# database restart inside its retries instead of giving up while the database is still coming back.
os.environ.setdefault("REDLINE_DB_POOL_TIMEOUT", "10")

logger = logging.getLogger(__name__)

app = Celery("redline")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["redline.jobs"])


class RequeueOnConnect(bootsteps.StartStopStep):
    """The consumer starts again after every broker reconnection; each time, jobs whose dispatch
    was lost while the broker was away are sent again, so a Redis outage loses no job."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, parent: object) -> None:
        from django.db import DatabaseError, connection

        from .jobs.tasks import requeue_queued_jobs

        try:
            requeue_queued_jobs()
        except DatabaseError:  # the database away too: raising here would stop the worker for good
            logger.warning("could not queue again the jobs whose dispatch was lost (database unavailable); "
                           "the worker's pulse does it once the database is back", exc_info=True)
            connection.close()


app.steps["consumer"].add(RequeueOnConnect)

worker_ready.connect(pulse_start)  # heartbeat and lapsed-lease reaper (redline.jobs.pulse)
worker_shutdown.connect(pulse_stop)
