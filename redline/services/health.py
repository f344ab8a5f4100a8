"""Reachability of the parts the product depends on, each reported on its own.

Fast by design (a load balancer's check): a database query, and Redis and broker
pings on pooled connections, and worker liveness read from the heartbeats the
workers write themselves (``redline.jobs.pulse``) rather than a ping broadcast to
every worker and waited out on the request path.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from ..jobs.redis_client import redis_for
from ..jobs.registry import duty_register
from ..models import WorkerHeartbeat

logger = logging.getLogger(__name__)

TIMEOUT_S = 0.5
MISSED_PULSES = 3  # a worker is alive while its heartbeat is younger than this many pulses


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

    @property
    def down(self) -> list[str]:
        """The parts that are down, by name."""
        return [name for name in ("database", "cache", "worker") if getattr(self, name).status != "ok"]


DEADLINE_S = 0.9  # a load balancer's check times out in a second or so: every answer comes within this
_checks = ThreadPoolExecutor(max_workers=6, thread_name_prefix="redline-health")


def health_check() -> Health:
    """Each part checked at once on threads of its own; a part that has not answered by :data:`DEADLINE_S`
    (a database that is down makes a connection wait for its pool's timeout) is reported down as such."""
    futures = {name: _checks.submit(_closing, check) for name, check in
               (("database", _database), ("cache", _cache), ("worker", _worker))}
    done, _ = wait(futures.values(), timeout=DEADLINE_S)
    parts = {}
    for name, future in futures.items():
        if future in done:
            parts[name] = future.result()
        else:
            logger.warning("health: %s did not answer within %.1f s", name, DEADLINE_S)
            parts[name] = Component("down", f"no answer within {DEADLINE_S:g} s")
    return Health(**parts)


def _closing(check: Callable[[], Component]) -> Component:
    """Run a check on a pool thread, closing the database connection it may have opened there."""
    try:
        return check()
    except Exception as exc:  # a check reports its own failures; anything else is a failure too
        logger.warning("health: check failed: %s", exc)
        return Component("down", type(exc).__name__)
    finally:
        connection.close()


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
            redis_for(settings.REDIS_URL).ping()
        except Exception as exc:
            logger.warning("health: redis down: %s", exc)
            return Component("down", "redis unreachable")
        return Component("ok", "redis")
    cache.set("redline:health", "1", 5)
    return Component("ok" if cache.get("redline:health") == "1" else "down", "local memory")


def _broker_ping(url: str) -> None:
    """Raise unless the broker answers: a Redis broker on the process's pooled connection (no
    connection set up per check), any other through kombu."""
    if url.startswith(("redis://", "rediss://")):
        redis_for(url).ping()
        return
    from kombu import Connection

    with Connection(url, connect_timeout=TIMEOUT_S) as conn:
        conn.ensure_connection(max_retries=1, timeout=TIMEOUT_S)


def _worker() -> Component:
    if settings.CELERY_BROKER_URL:
        try:
            _broker_ping(settings.CELERY_BROKER_URL)
        except Exception as exc:
            logger.warning("health: broker unreachable: %s", exc)
            return Component("down", "broker unreachable")
        try:
            alive = heartbeats_alive(broker_url=settings.CELERY_BROKER_URL)
        except Exception as exc:
            logger.warning("health: worker heartbeats unreadable: %s", exc)
            return Component("down", "worker heartbeats unreadable")
        if not alive:
            return Component("down", "no celery worker heartbeat")
        return Component("ok", f"celery: {alive} worker(s)")
    from ..jobs.worker import in_process_worker

    alive = in_process_worker().is_alive()
    return Component("ok" if alive else "down", "in-process worker thread")


def broker_fingerprint(url: str) -> str:
    """Which broker a heartbeat belongs to, without storing its URL (it may hold a password)."""
    return hashlib.sha256(url.encode()).hexdigest()[:16]


def heartbeat_record(*, hostname: str, broker_url: str) -> None:
    """The worker ``hostname`` is alive now, consuming from ``broker_url``."""
    WorkerHeartbeat.objects.update_or_create(
        hostname=hostname, defaults={"broker": broker_fingerprint(broker_url), "seen_at": timezone.now()})


def heartbeat_forget(*, hostname: str) -> None:
    """A worker shutting down cleanly is gone at once, not after its heartbeat ages."""
    WorkerHeartbeat.objects.filter(hostname=hostname).delete()


def heartbeats_alive(*, broker_url: str) -> int:
    """How many workers of this broker beat recently."""
    since = timezone.now() - timedelta(seconds=MISSED_PULSES * settings.REDLINE_WORKER_PULSE_S)
    return WorkerHeartbeat.objects.filter(broker=broker_fingerprint(broker_url), seen_at__gte=since).count()


duty_register("heartbeat", heartbeat_record)
duty_register("heartbeat_forget", heartbeat_forget)
