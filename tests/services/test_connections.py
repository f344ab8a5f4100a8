"""Connections are pooled per process, not opened per request.

Under ASGI every request runs on a thread of its own, and Django keeps database
connections and cache objects per thread: without pooling each request would open
a new PostgreSQL connection and a new Redis connection. These tests make requests
on fresh threads, as the server does, and count the connections the servers saw.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from django.core.cache import caches
from django.db import connection, connections
from redis import Redis as RedisClient

from redline.jobs.progress import event_emit
from redline.models import Job, JobStatus
from tests.servers import Redis

REQUESTS = 30


@pytest.fixture
def own_redis() -> Iterator[Redis]:
    """A Redis of this test's own (nobody else's connections in its counters)."""
    server = Redis().start()
    yield server
    server.stop()


def connections_received(client: RedisClient) -> int:
    """Connections the server has accepted so far (``client``'s own is made once and reused)."""
    return int(client.info("stats")["total_connections_received"])


def on_fresh_threads(work: Callable[[], object]) -> list[object]:
    """``work`` on REQUESTS threads one after another, each closing its connections like a request does."""
    results: list[object] = []

    def request() -> None:
        try:
            results.append(work())
        finally:
            connections.close_all()

    for _ in range(REQUESTS):
        thread = threading.Thread(target=request)
        thread.start()
        thread.join()
    return results


def test_cache_objects_of_every_thread_share_one_redis_pool(settings, own_redis):
    settings.CACHES = {"default": {"BACKEND": "redline.server.cache_backend.TolerantRedisCache", "LOCATION": own_redis.url,
                                   "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 2.0}}}

    def work() -> object:
        cache = caches["default"]
        cache.set("k", 1, 60)
        return (id(cache), cache.get("k"))

    with RedisClient.from_url(own_redis.url) as counter:
        before = connections_received(counter)
        results = on_fresh_threads(work)
        opened = connections_received(counter) - before
    assert all(value == 1 for _, value in results)
    assert len({cache_id for cache_id, _ in results}) > 1  # Django did make a cache object per thread...
    assert opened <= 1  # ...but they share a pool: not one connection each


@pytest.mark.django_db(transaction=True)  # events are announced once committed (redline.jobs.progress)
def test_progress_events_are_published_on_a_pooled_connection(settings, own_redis, alice):
    settings.REDIS_URL = own_redis.url
    job = Job.objects.create(workspace=alice.workspace, kind="t", params={}, status=JobStatus.RUNNING)
    with RedisClient.from_url(own_redis.url) as listener, listener.pubsub() as pubsub:
        pubsub.subscribe(f"redline:job:{job.pk}")
        before = connections_received(listener)
        for i in range(REQUESTS):
            event_emit(job=job, kind="progress", data={"i": i})
        messages = []
        deadline = time.monotonic() + 5
        while len(messages) < REQUESTS and time.monotonic() < deadline:
            # (None also stands for the subscription's own confirmation, which is skipped)
            if (message := pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5)) is not None:
                messages.append(message)
        opened = connections_received(listener) - before
    assert len(messages) == REQUESTS
    assert opened <= 1  # one publisher's connection for all the events


def test_postgres_connections_are_pooled_across_request_threads(require_postgres):
    assert connection.settings_dict["OPTIONS"].get("pool"), "PostgreSQL runs with the connection pool"

    def work() -> object:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return cursor.fetchone()[0]

    opened_before = connection.pool.get_stats().get("connections_num", 0)
    backends = on_fresh_threads(work)
    opened = connection.pool.get_stats().get("connections_num", 0) - opened_before
    assert len(backends) == REQUESTS
    # The pool's connections, reused request after request: at most one opened for these 30 requests (the pool
    # may already hold several from earlier tests, which the requests take in turn).
    assert opened <= 1 and len(set(backends)) < REQUESTS, (opened, len(set(backends)))
