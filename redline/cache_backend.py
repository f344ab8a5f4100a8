"""Django's Redis cache, for which Redis being down is a cache miss, not an error.

Everything the product caches (parsed documents, retrieval graphs, analysis
results, rate-limit counters) can be recomputed or skipped, so an outage of
Redis must not turn API requests into 500s: reads miss, writes are dropped,
and a warning is logged. Short socket timeouts keep a hung Redis from holding
requests (``OPTIONS`` in settings).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache
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


class TolerantRedisCache(RedisCache):
    """A :class:`RedisCache` whose operations degrade to misses while Redis is unreachable."""

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
