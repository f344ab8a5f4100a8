"""A Celery worker's pulse: a daemon thread in the worker's main process.

Every ``REDLINE_WORKER_PULSE_S`` it writes the worker's heartbeat (the health
check reads it: no broadcast ping on the request path) and resumes the jobs
whose lease lapsed (a worker killed mid-job); about once a minute it also ends
runs that stopped making progress (``REDLINE_STALE_RUN_MINUTES``: a worker alive
but stuck). So recovery needs no cron job and no second worker start. Started
when the worker is ready, stopped (heartbeat removed) when it shuts down. The
duties themselves are the services', registered with :mod:`redline.jobs.registry`.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

from django.conf import settings
from django.db import connection

from .registry import duties_run

logger = logging.getLogger(__name__)

REQUEUE_S = 60.0  # how often, and after how long in the queue, a queued job is sent again


class Pulse:
    """The periodic duties of one worker process, on a thread of their own."""

    def __init__(self, hostname: str, interval: float) -> None:
        self.hostname = hostname
        self.interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="redline-pulse", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(self.interval + 5)
        try:
            duties_run("heartbeat_forget", hostname=self.hostname)
        except Exception:
            logger.warning("pulse: could not remove the heartbeat of %s", self.hostname, exc_info=True)
        finally:
            connection.close()

    def beat(self, number: int) -> None:
        """Pulse ``number``: heartbeat, then resume or end jobs nobody holds any more (and stalled runs)."""
        try:
            duties_run("heartbeat", hostname=self.hostname, broker_url=settings.CELERY_BROKER_URL)
            duties_run("pulse", beat=number, interval_s=self.interval)
            if number % max(1, round(REQUEUE_S / self.interval)) == 0:  # dispatches lost while all was away
                from .tasks import requeue_queued_jobs  # (models: loaded once the worker has set Django up)

                requeue_queued_jobs(older_than=timedelta(seconds=REQUEUE_S))
        except Exception:  # the database away: the next pulse tries again
            logger.warning("pulse of %s failed", self.hostname, exc_info=True)
            connection.close()

    def _loop(self) -> None:
        number = 0
        while True:
            self.beat(number)
            number += 1
            if self._stop.wait(self.interval):
                break
        connection.close()


_pulse: Pulse | None = None


def pulse_start(sender: object = None, **_: object) -> None:
    """A ready worker starts its pulse."""
    global _pulse
    hostname = getattr(sender, "hostname", "") or "celery"
    _pulse = Pulse(hostname, settings.REDLINE_WORKER_PULSE_S)
    _pulse.start()


def pulse_stop(**_: object) -> None:
    """A worker shutting down stops its pulse and removes its heartbeat."""
    if _pulse is not None:
        _pulse.stop()
