"""Reachability of the parts the product depends on, each reported on its own."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import connection

logger = logging.getLogger(__name__)

TIMEOUT_S = 1.5


@dataclass(frozen=True)
class Component:
    status: str  # ok | down
    detail: str = ""


@dataclass(frozen=True)
class Health:
    database: Component
    cache: Component
    worker: Component

    @property
    def ok(self) -> bool:
        return all(c.status == "ok" for c in (self.database, self.cache, self.worker))


def health_check() -> Health:
    return Health(database=_database(), cache=_cache(), worker=_worker())


def _database() -> Component:
    try:
        with connection.cursor() as cur:
            cur.execute("SELECT 1")
            cur.fetchone()
    except Exception as exc:
        logger.warning("health: database down: %s", exc)
        return Component("down", f"{connection.vendor} unreachable")
    return Component("ok", connection.vendor)


def _cache() -> Component:
    if settings.REDIS_URL:
        try:
            from redis import Redis

            Redis.from_url(settings.REDIS_URL, socket_connect_timeout=TIMEOUT_S, socket_timeout=TIMEOUT_S).ping()
        except Exception as exc:
            logger.warning("health: redis down: %s", exc)
            return Component("down", "redis unreachable")
        return Component("ok", "redis")
    cache.set("redline:health", "1", 5)
    return Component("ok" if cache.get("redline:health") == "1" else "down", "local memory")


def _worker() -> Component:
    if settings.CELERY_BROKER_URL:
        from kombu import Connection

        from ..celery import app

        try:
            with Connection(settings.CELERY_BROKER_URL, connect_timeout=TIMEOUT_S) as conn:
                conn.ensure_connection(max_retries=1, timeout=TIMEOUT_S)
                replies = app.control.ping(timeout=TIMEOUT_S, connection=conn)
        except Exception as exc:
            logger.warning("health: broker or worker unreachable: %s", exc)
            return Component("down", "broker unreachable")
        if not replies:
            return Component("down", "no celery worker answered")
        return Component("ok", f"celery: {len(replies)} worker(s)")
    from ..worker import in_process_worker

    alive = in_process_worker().is_alive()
    return Component("ok" if alive else "down", "in-process worker thread")
