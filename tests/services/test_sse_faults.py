"""SSE under churn, through a real uvicorn with Redis pub/sub: clients that leave free what
they held, and hundreds of reconnects with ``Last-Event-ID`` lose and repeat nothing."""

from __future__ import annotations

import random
import threading
import time

import httpx
import pytest
import redis
from django.db import connection

from redline.jobs import streams
from redline.jobs.progress import channel_name, event_emit
from redline.models import Job
from tests.app.test_sse import read_frames
from tests.support.asgi_server import asgi_server

from .conftest import wait_for

pytestmark = pytest.mark.usefixtures("require_postgres")


def _pubsub_clients(url: str) -> int:
    return sum(1 for c in redis.Redis.from_url(url).client_list() if c.get("sub", "0") != "0")


def _subscribers(url: str, job: Job) -> int:
    return dict(redis.Redis.from_url(url).pubsub_numsub(channel_name(job.pk)))[channel_name(job.pk).encode()]


def _database_connections() -> int:
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return cur.fetchone()[0]


def test_clients_that_disconnect_free_their_streams_and_redis_subscriptions(alice, use_celery):
    job = Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={})
    event_emit(job=job, kind="started", data={})  # and nothing more: the streams stay open
    headers = {"Authorization": f"Bearer {alice.key}"}
    baseline = _pubsub_clients(use_celery)
    connections_before = _database_connections()
    with asgi_server() as server:
        clients = [httpx.Client(timeout=10) for _ in range(20)]
        responses, readers = [], []
        for client in clients:
            resp = client.send(client.build_request("GET", f"{server}/api/jobs/{job.pk}/events", headers=headers),
                               stream=True)
            readers.append(resp.iter_lines())  # kept: a dropped reader closes its connection
            next(readers[-1])  # the stream is being served
            responses.append(resp)
        assert wait_for(lambda: streams.open_streams() == 20, 10), streams.open_streams()
        # The server process follows the job on one subscription, whatever the number of its streams.
        assert wait_for(lambda: _subscribers(use_celery, job) == 1, 10)
        assert _pubsub_clients(use_celery) == baseline + 1
        # Found by the load benchmark: each waiting stream held a database connection of its own,
        # and 200 streams exhausted PostgreSQL. Now they share the event loop's few threads.
        assert _database_connections() <= connections_before + 8
        for resp, client in zip(responses, clients, strict=True):
            resp.close()
            client.close()
        assert wait_for(lambda: streams.open_streams() == 0, 15), f"{streams.open_streams()} streams still open"
        assert wait_for(lambda: _subscribers(use_celery, job) == 0, 15), "the job's subscription leaked"
        assert _pubsub_clients(use_celery) <= baseline + 1  # the process's one connection, kept for the next


def test_500_reconnects_with_last_event_id_have_no_gaps_or_duplicates(alice, use_celery):
    job = Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={})
    total = 1000

    def emit_all() -> None:
        for i in range(total - 1):
            event_emit(job=job, kind="progress", data={"done": i})
            time.sleep(0.002)
        event_emit(job=job, kind="done", data={})

    rng = random.Random(10)
    seen: list[int] = []
    headers = {"Authorization": f"Bearer {alice.key}"}
    with asgi_server() as server, httpx.Client(timeout=20) as client:
        emitter = threading.Thread(target=emit_all)
        emitter.start()
        reconnects = 0
        while reconnects < 500 or (seen and seen[-1] < total):
            take = rng.randint(1, 3)
            with client.stream("GET", f"{server}/api/jobs/{job.pk}/events",
                               headers={**headers, "Last-Event-ID": str(seen[-1] if seen else 0)}) as resp:
                assert resp.status_code == 200
                for frame in read_frames_lazily(resp):
                    seen.append(int(frame["id"]))
                    take -= 1
                    if take == 0 or frame["event"] == "done":
                        break
            reconnects += 1
            assert reconnects < 3000, "the stream did not reach its end"
        emitter.join(30)
    assert reconnects >= 500
    assert seen == list(range(1, total + 1))
    assert wait_for(lambda: streams.open_streams() == 0, 10)


def read_frames_lazily(response: httpx.Response):
    """Event frames as they arrive (``read_frames`` reads the whole stream)."""
    current: dict[str, str] = {}
    for line in response.iter_lines():
        if line == "":
            if "id" in current:
                yield current
            current = {}
        elif not line.startswith(":"):
            field, _, value = line.partition(":")
            current[field] = value.lstrip(" ")


def test_resuming_after_the_end_closes_at_once(alice, use_celery):
    job = Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={})
    for kind in ("started", "done"):
        event_emit(job=job, kind=kind, data={})
    with asgi_server() as server:
        t0 = time.monotonic()
        with httpx.stream("GET", f"{server}/api/jobs/{job.pk}/events", timeout=10,
                          headers={"Authorization": f"Bearer {alice.key}", "Last-Event-ID": "2"}) as resp:
            assert [f for f in read_frames(resp) if "id" in f] == []
        elapsed = time.monotonic() - t0
        print(f"a stream resumed after its end closed in {elapsed:.2f} s")
        # A guard: the server closed it, well before the client's own 10 s read timeout would have.
        assert elapsed < 8, f"the stream stayed open {elapsed:.1f} s"
