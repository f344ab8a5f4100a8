"""Issue #31 (1): a run never finishes without its terminal event, and a stream never waits forever.

On PostgreSQL with a real uvicorn: the job's outcome and its terminal event are written in one transaction
(a connection-class failure of the event insert leaves the job to its retry, not finished and silent); a
stream whose job finished without an end (written by older code, or lost) ends with one; the worker's pulse
appends the missing end."""

from __future__ import annotations

import time

import httpx
import pytest
from django.db import OperationalError
from django.utils import timezone

from redline.jobs import progress, tasks
from redline.jobs.leases import job_claim
from redline.jobs.progress import event_emit
from redline.models import Job, JobEvent, JobStatus
from redline.services.reaper import reap_on_pulse
from tests.app.test_sse import iter_frames
from tests.support.asgi_server import asgi_server

pytestmark = pytest.mark.usefixtures("require_postgres")


def _finished_without_end(alice) -> Job:
    """A job as a worker killed between the outcome and the event left it (by older code): finished, with
    its progress but no terminal event."""
    job = Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={})
    event_emit(job=job, kind="started", data={"attempt": 1})
    event_emit(job=job, kind="progress", data={"stage": "reading"})
    Job.objects.filter(pk=job.pk).update(status=JobStatus.SUCCEEDED, finished_at=timezone.now(), attempts=1)
    return job


def test_a_failed_terminal_insert_leaves_the_job_to_its_retry_not_finished_without_an_end(alice, monkeypatch):
    job = Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={})
    claimed = job_claim(job.pk, worker="test")
    real_emit = progress.event_emit

    def failing(*, job, kind, data=None):
        if kind in ("done", "error"):
            raise OperationalError("server closed the connection unexpectedly")
        return real_emit(job=job, kind=kind, data=data)

    monkeypatch.setattr(tasks, "event_emit", failing)
    with pytest.raises(OperationalError):
        tasks._finish(claimed, JobStatus.SUCCEEDED, result={"ok": True})
    job.refresh_from_db()
    assert job.status == JobStatus.RUNNING and job.finished_at is None  # rolled back with the event
    monkeypatch.setattr(tasks, "event_emit", real_emit)
    tasks._finish(claimed, JobStatus.SUCCEEDED, result={"ok": True})  # the retry, holding the same attempt
    job.refresh_from_db()
    assert job.status == JobStatus.SUCCEEDED
    assert list(job.events.order_by("seq").values_list("kind", flat=True)) == ["done"]


def test_a_stream_of_a_job_that_finished_without_its_end_ends_with_one(alice):
    job = _finished_without_end(alice)
    headers = {"Authorization": f"Bearer {alice.key}"}
    with asgi_server() as server:
        t0 = time.monotonic()
        kinds = []
        with httpx.stream("GET", f"{server}/api/jobs/{job.pk}/events", headers=headers, timeout=20) as resp:
            assert resp.status_code == 200
            for frame in iter_frames(resp):  # heartbeats come every 15 s: the deadline below is checked
                if "event" in frame:
                    kinds.append(frame["event"])
                assert time.monotonic() - t0 < 40, f"the stream still waits after 40 s, having sent {kinds}"
        elapsed = time.monotonic() - t0
    print(f"stream of a finished job without its end: ended after {elapsed:.1f} s with {kinds}")
    assert kinds == ["started", "progress", "done"]
    assert elapsed < 15  # a hang guard: it ends at its first quiet check
    assert JobEvent.objects.filter(job=job, kind="done").count() == 1  # appended once, for every later reader


def test_the_pulse_appends_a_missing_end_once(alice):
    job = _finished_without_end(alice)
    running = Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={},
                                 status=JobStatus.RUNNING, lease_until=timezone.now() + timezone.timedelta(minutes=5))
    event_emit(job=running, kind="started", data={"attempt": 1})
    reap_on_pulse(0, 5.0)
    reap_on_pulse(0, 5.0)
    assert list(job.events.order_by("seq").values_list("kind", flat=True)) == ["started", "progress", "done"]
    assert list(running.events.values_list("kind", flat=True)) == ["started"]  # a running job is left alone
