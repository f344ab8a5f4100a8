"""Progress over SSE through a real ASGI server: replay, live wake-up, resume, tickets, heartbeats."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from redline.jobs import streams
from redline.jobs.progress import event_emit
from redline.models import Job
from tests.support.asgi_server import asgi_server


def iter_frames(response: httpx.Response) -> Iterator[dict]:
    """SSE frames as dicts of their fields (comments kept under ':'), as they arrive."""
    current = {}
    for line in response.iter_lines():
        if line == "":
            if current:
                yield current
            current = {}
        elif line.startswith(":"):
            yield {":": line[1:].strip()}
        else:
            field, _, value = line.partition(":")
            current[field] = value.lstrip(" ")


def read_frames(response: httpx.Response) -> list[dict]:
    """Parse SSE frames into dicts of their fields (comments kept under ':')."""
    return list(iter_frames(response))


@pytest.fixture
def job(alice, transactional_db) -> Job:
    return Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={})


@pytest.fixture
def server(transactional_db):
    with asgi_server() as url:
        yield url


def test_stream_replays_then_waits_for_live_events_and_closes_after_done(alice, job, server):
    event_emit(job=job, kind="started", data={})
    event_emit(job=job, kind="progress", data={"stage": "reading", "done": 1, "total": 3})
    headers = {"Authorization": f"Bearer {alice.key}"}
    t0 = time.monotonic()
    frames = []
    with httpx.stream("GET", f"{server}/api/jobs/{job.pk}/events", headers=headers, timeout=15) as resp:
        assert resp.status_code == 200
        assert resp.headers["content-type"].startswith("text/event-stream")
        for frame in iter_frames(resp):
            if "id" not in frame:
                continue
            frames.append(frame)
            if frame["id"] == "2":  # replayed: what comes next must come live
                event_emit(job=job, kind="progress", data={"stage": "reading", "done": 3, "total": 3})
                event_emit(job=job, kind="done", data={})
    assert [f["id"] for f in frames] == ["1", "2", "3", "4"]
    assert [f["event"] for f in frames] == ["started", "progress", "progress", "done"]
    assert '"done":3' in frames[2]["data"]
    assert time.monotonic() - t0 < 10  # closed after done, not by the client's timeout


def test_resume_with_last_event_id(alice, job, server):
    for kind in ("started", "progress", "progress", "done"):
        event_emit(job=job, kind=kind, data={})
    headers = {"Authorization": f"Bearer {alice.key}", "Last-Event-ID": "2"}
    with httpx.stream("GET", f"{server}/api/jobs/{job.pk}/events", headers=headers, timeout=10) as resp:
        ids = [f["id"] for f in read_frames(resp) if "id" in f]
    assert ids == ["3", "4"]


def test_ticket_opens_only_its_own_stream(alice, bob, job, server):
    event_emit(job=job, kind="done", data={})
    ticket = httpx.post(f"{server}/api/jobs/{job.pk}/ticket", headers={"Authorization": f"Bearer {alice.key}"}).json()
    assert ticket["expires_in"] == 300
    with httpx.stream("GET", f"{server}/api/jobs/{job.pk}/events", params={"ticket": ticket["ticket"]}) as resp:
        assert resp.status_code == 200
        assert [f["event"] for f in read_frames(resp) if "id" in f] == ["done"]
    other = Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={})
    fresh = httpx.post(f"{server}/api/jobs/{job.pk}/ticket", headers={"Authorization": f"Bearer {alice.key}"}).json()
    assert httpx.get(f"{server}/api/jobs/{other.pk}/events", params={"ticket": fresh["ticket"]}).status_code == 404
    forged = httpx.get(f"{server}/api/jobs/{job.pk}/events", params={"ticket": ticket["ticket"][:-2] + "xx"})
    assert forged.status_code == 401 and forged.json()["code"] == "unauthorized"
    foreign = httpx.get(f"{server}/api/jobs/{job.pk}/events", headers={"Authorization": f"Bearer {bob.key}"})
    assert foreign.status_code == 404


def test_idle_stream_sends_heartbeats(alice, job, server, monkeypatch):
    monkeypatch.setattr(streams, "HEARTBEAT_S", 0.2)
    heartbeats = 0
    with httpx.stream("GET", f"{server}/api/jobs/{job.pk}/events",
                      headers={"Authorization": f"Bearer {alice.key}"}, timeout=20) as resp:
        for line in resp.iter_lines():
            if line == ": heartbeat":
                heartbeats += 1
                if heartbeats == 2:  # the idle stream stayed open and beat; now let it finish
                    event_emit(job=job, kind="done", data={})
            if line.startswith("event: done"):
                break
    assert heartbeats >= 2
