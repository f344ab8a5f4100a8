"""One Redis client (and connection pool) per process and URL.

Under ASGI each request runs on a thread of its own, and Django keeps cache
objects per thread: anything that builds a client per call or per cache object
opens a new TCP connection per request. Sharing one thread-safe client keeps
connections pooled; redis-py resets the pool in a forked child (Celery prefork).
"""

from __future__ import annotations

from functools import lru_cache

from redis import Redis

CONNECT_TIMEOUT_S = 1.0
SOCKET_TIMEOUT_S = 2.0


@lru_cache(maxsize=8)
def redis_for(url: str) -> Redis:
    """The process's client for ``url``, with short timeouts (a hung Redis must not hold a job)."""
    return Redis.from_url(url, socket_connect_timeout=CONNECT_TIMEOUT_S, socket_timeout=SOCKET_TIMEOUT_S)
