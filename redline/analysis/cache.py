"""The cache interface the engine writes through, and an in-memory implementation.

The engine only needs to remember JSON-able values by string key, some for a
limited time (validator verdicts live 24 hours). Callers inject the store: the
in-memory :class:`MemoryCache` for tests, the CLI and a single worker; Django's
cache (Redis, database) in the server, whose ``get``/``set``/``get_many``/
``set_many`` already have this shape.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol


class Cache(Protocol):
    """String keys to JSON-able values; ``ttl`` in seconds, None for no expiry."""

    def get(self, key: str) -> Any | None: ...
    def set(self, key: str, value: Any, ttl: float | None = None) -> None: ...
    def get_many(self, keys: Iterable[str]) -> dict[str, Any]: ...
    def set_many(self, items: Mapping[str, Any], ttl: float | None = None) -> None: ...


class MemoryCache:
    """A thread-safe LRU dictionary with per-entry expiry.

    ``max_entries`` bounds memory (least recently used entries go first);
    ``clock`` is injectable so expiry can be tested without sleeping.
    """

    def __init__(self, max_entries: int = 200_000, clock: Callable[[], float] = time.monotonic) -> None:
        self._data: OrderedDict[str, tuple[float | None, Any]] = OrderedDict()
        self._max = max_entries
        self._clock = clock
        self._lock = threading.Lock()

    def get(self, key: str) -> Any | None:
        """The value, or None when absent or expired."""
        with self._lock:
            return self._get(key)

    def set(self, key: str, value: Any, ttl: float | None = None) -> None:
        """Store ``value`` for ``ttl`` seconds (forever when None)."""
        with self._lock:
            self._set(key, value, ttl)

    def get_many(self, keys: Iterable[str]) -> dict[str, Any]:
        """The present, unexpired entries among ``keys``."""
        with self._lock:
            found = {k: self._get(k) for k in keys}
        return {k: v for k, v in found.items() if v is not None}

    def set_many(self, items: Mapping[str, Any], ttl: float | None = None) -> None:
        """Store several values with the same ``ttl``."""
        with self._lock:
            for key, value in items.items():
                self._set(key, value, ttl)

    def __len__(self) -> int:
        return len(self._data)

    def _get(self, key: str) -> Any | None:
        entry = self._data.get(key)
        if entry is None:
            return None
        expires, value = entry
        if expires is not None and self._clock() >= expires:
            del self._data[key]
            return None
        self._data.move_to_end(key)
        return value

    def _set(self, key: str, value: Any, ttl: float | None) -> None:
        self._data[key] = (None if ttl is None else self._clock() + ttl, value)
        self._data.move_to_end(key)
        while len(self._data) > self._max:
            self._data.popitem(last=False)
