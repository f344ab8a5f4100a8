"""The analysis engine's cache interface over Django's cache (Redis when configured)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.cache import caches

PREFIX = "redline:analysis:"
DEFAULT_TTL_S = 30 * 24 * 3600


class DjangoCache:
    """Adapts a Django cache to ``redline.analysis.cache.Cache`` (keys namespaced, TTL in seconds)."""

    def __init__(self, alias: str = "default") -> None:
        self._cache = caches[alias]

    def get(self, key: str) -> Any | None:
        return self._cache.get(PREFIX + key)

    def set(self, key: str, value: Any, ttl: float | None = None) -> None:
        self._cache.set(PREFIX + key, value, int(ttl) if ttl else DEFAULT_TTL_S)

    def get_many(self, keys: Iterable[str]) -> dict[str, Any]:
        found = self._cache.get_many([PREFIX + k for k in keys])
        return {k.removeprefix(PREFIX): v for k, v in found.items()}

    def set_many(self, items: Mapping[str, Any], ttl: float | None = None) -> None:
        self._cache.set_many({PREFIX + k: v for k, v in items.items()}, int(ttl) if ttl else DEFAULT_TTL_S)


def analysis_cache() -> DjangoCache:
    return DjangoCache()
