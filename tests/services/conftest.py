"""Real Redis and Celery worker for the PostgreSQL run of the suite.

These tests need ``REDLINE_TEST_BACKEND=postgres`` (scripts/test sets it for the
services run); without it they fail with a clear message instead of skipping.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest
from django.conf import settings as django_settings
from django.db import connection

from redline.celery import app as celery_app
from tests.servers import CeleryWorker, Redis
from tests.support.waiting import wait_for

__all__ = ["wait_for", "when_subscribed", "worker_env_for"]

pytestmark = pytest.mark.services


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/services/" in str(item.fspath):
            item.add_marker(pytest.mark.services)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    server = Redis().start()
    yield server
    server.stop()


@pytest.fixture
def require_postgres(transactional_db) -> None:
    assert connection.vendor == "postgresql", (
        "services tests run against real PostgreSQL: use REDLINE_TEST_BACKEND=postgres (scripts/test does)"
    )


def worker_env_for(redis_server: Redis, **extra: str) -> dict[str, str]:
    """A worker process's environment: production settings on the test database and this Redis."""
    db = connection.settings_dict
    return {
        "DJANGO_SETTINGS_MODULE": "redline.settings",  # the worker runs production settings, configured by env
        "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_BROKER_URL": redis_server.url,
        "REDIS_URL": redis_server.url,
        "REDLINE_DATA_DIR": str(django_settings.DATA_DIR),
        "SECRET_KEY": django_settings.SECRET_KEY,
        **extra,
    }


@pytest.fixture(scope="module")
def celery_worker(redis_server: Redis, django_db_setup, django_db_blocker) -> Iterator[CeleryWorker]:
    worker = CeleryWorker(worker_env_for(redis_server)).start()
    yield worker
    worker.stop()


@pytest.fixture
def use_celery(settings, redis_server: Redis) -> Iterator[str]:
    """Point this process's dispatcher at the broker (as configuration would)."""
    settings.CELERY_BROKER_URL = redis_server.url
    settings.REDIS_URL = redis_server.url
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": redis_server.url}}
    previous = celery_app.conf.broker_url
    celery_app.conf.broker_url = redis_server.url
    yield redis_server.url
    celery_app.conf.broker_url = previous




def when_subscribed(redis_url: str, job_id: int, then: Callable[[], None], timeout: float = 10) -> threading.Thread:
    """On a thread: once a stream of ``job_id`` has subscribed to its Redis channel (it is caught up and
    waiting on pub/sub), call ``then`` (ordering by what the server did, not by a sleep)."""
    from redis import Redis as RedisClient

    from redline.jobs.progress import channel_name

    def watch() -> None:
        with RedisClient.from_url(redis_url) as client:
            assert wait_for(lambda: client.pubsub_numsub(channel_name(job_id))[0][1] >= 1, timeout)
        then()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread
