"""With REDIS_URL set, a waiting stream is woken by pub/sub, not by polling."""

from __future__ import annotations

import time

import httpx
import pytest

from redline.jobs import streams
from redline.jobs.progress import event_emit
from redline.models import Job
from tests.app.test_sse import read_frames
from tests.support.asgi_server import asgi_server

from .conftest import when_subscribed


@pytest.mark.usefixtures("require_postgres")
def test_live_event_arrives_through_redis_pubsub(alice, use_celery, monkeypatch):
    monkeypatch.setattr(streams, "POLL_S", 30.0)  # polling alone would take 30 s
    job = Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={})
    event_emit(job=job, kind="started", data={})
    with asgi_server() as server:
        when_subscribed(use_celery, job.pk, lambda: event_emit(job=job, kind="done", data={}))
        t0 = time.monotonic()
        with httpx.stream("GET", f"{server}/api/jobs/{job.pk}/events",
                          headers={"Authorization": f"Bearer {alice.key}"}, timeout=20) as resp:
            events = [f["event"] for f in read_frames(resp) if "id" in f]
        elapsed = time.monotonic() - t0
    assert events == ["started", "done"]
    print(f"a live event through Redis pub/sub: {elapsed:.2f} s")
    assert elapsed < 10, elapsed  # a guard: polling alone would take 30 s (POLL_S above)


@pytest.mark.usefixtures("require_postgres")
def test_a_caught_up_stream_sends_published_events_without_reading_the_database(alice, use_celery, monkeypatch):
    reads = []
    original = streams._events_after

    async def counted(job_id: int, after: int) -> list:
        reads.append(after)
        return await original(job_id, after)

    monkeypatch.setattr(streams, "_events_after", counted)
    job = Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={})
    event_emit(job=job, kind="started", data={})

    def emit_more() -> None:
        for i in range(30):
            event_emit(job=job, kind="progress", data={"done": i})
            time.sleep(0.02)
        event_emit(job=job, kind="done", data={})

    with asgi_server() as server:
        when_subscribed(use_celery, job.pk, emit_more)
        with httpx.stream("GET", f"{server}/api/jobs/{job.pk}/events",
                          headers={"Authorization": f"Bearer {alice.key}"}, timeout=20) as resp:
            ids = [int(f["id"]) for f in read_frames(resp) if "id" in f]
    assert ids == list(range(1, 33))
    assert len(reads) < 10, f"{len(reads)} database reads for 32 events"
