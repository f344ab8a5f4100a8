"""Django's Redis cache, for which Redis being down is a cache miss, not an error.

Everything the product caches (parsed documents, retrieval graphs, analysis
results, rate-limit counters) can be recomputed or skipped, so an outage of
Redis must not turn API requests into 500s: reads miss, writes are dropped,
and a warning is logged. Short socket timeouts keep a hung Redis from holding
requests (``OPTIONS`` in settings).

Django keeps a cache object per thread, and under ASGI every request has a thread
of its own: with Django's client each request would open a new connection to
Redis. Here the cache objects of a process share one client and its pool, and
that client keeps its redis-py ``Redis`` objects (Django builds a new one, with its
table of response callbacks, for every cache call).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import cached_property
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


def _tolerant(name: str, fallback: Callable[[tuple, dict], Any]) -> Callable:
    method = getattr(RedisCache, name)

    def call(self: RedisCache, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except RedisError as exc:
            logger.warning("cache %s skipped, Redis unavailable: %s", name, exc)
            return fallback(args, kwargs)

    call.__name__ = name
    call.__doc__ = method.__doc__
    return call


def _default(args: tuple, kwargs: dict) -> Any:
    return args[1] if len(args) > 1 else kwargs.get("default")


class _SharedClient(RedisCacheClient):
    """Django's Redis cache client, reusing one thread-safe ``Redis`` per server."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._redis: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._redis.get(index)
        if client is None:
            client = self._redis[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


_clients: dict[str, RedisCacheClient] = {}
_clients_lock = threading.Lock()


class TolerantRedisCache(RedisCache):
    """A :class:`RedisCache` whose operations degrade to misses while Redis is unreachable."""

    @cached_property
    def _cache(self) -> RedisCacheClient:
        """The process's client for these servers and options (its pools are thread-safe)."""
        key = repr((self._servers, sorted(self._options.items())))
        with _clients_lock:
            if key not in _clients:
                _clients[key] = _SharedClient(self._servers, **self._options)
            return _clients[key]

    get = _tolerant("get", _default)
    get_many = _tolerant("get_many", lambda a, k: {})
    has_key = _tolerant("has_key", lambda a, k: False)
    add = _tolerant("add", lambda a, k: False)
    set = _tolerant("set", lambda a, k: None)
    set_many = _tolerant("set_many", lambda a, k: [])
    touch = _tolerant("touch", lambda a, k: False)
    delete = _tolerant("delete", lambda a, k: False)
    delete_many = _tolerant("delete_many", lambda a, k: None)
    incr = _tolerant("incr", lambda a, k: 0)
