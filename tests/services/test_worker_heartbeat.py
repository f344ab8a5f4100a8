"""A worker that shuts down cleanly is reported down at once, not after its heartbeat ages.

In a module of its own: a module-scoped worker elsewhere (``celery_worker``) beats on the same broker every
pulse, and would be counted alive whatever this worker did (the health check counts a broker's heartbeats).
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.servers import CeleryWorker

from .conftest import wait_for, worker_env_for


@pytest.mark.usefixtures("require_postgres")
def test_a_worker_that_stops_is_reported_down_at_once(use_celery, redis_server, settings):
    worker = CeleryWorker(worker_env_for(redis_server), name="stopping").start()
    try:
        # Positive control: while it runs, its heartbeat makes the worker part "ok".
        assert wait_for(lambda: Client().get("/api/health").status_code == 200, 3 * settings.REDLINE_WORKER_PULSE_S)
    finally:
        worker.stop()  # a clean shutdown removes its heartbeat: no waiting for it to age
    assert worker.proc.returncode == 0, worker.log.read_text(errors="replace")[-2000:]  # shut down, not killed
    body = Client().get("/api/health").json()
    assert body["worker"] == {"status": "down", "detail": "no celery worker heartbeat"}, (
        worker.log.read_text(errors="replace")[-2000:])
    assert body["database"]["status"] == body["cache"]["status"] == "ok"  # each part on its own
