"""An adaptive bound on the calls made at once to a rate-limited model server.

Why: a fixed semaphore either wastes the server's capacity (set low) or, once the server pushes back, keeps
sending at full width so that every retry meets another 429. This limiter starts at the configured maximum,
halves the calls allowed at once on a 429 or a 5xx (never below one) and gives one back per window of
successes (additive increase, multiplicative decrease, as TCP does), up to the maximum again.

What the server says is honoured for everyone sharing the limiter: a ``Retry-After`` (or ``retry-after-ms``)
on a refusal, and OpenAI's ``x-ratelimit-remaining-requests`` / ``-tokens`` at 0 with their
``x-ratelimit-reset-*`` on any answer, hold every new call until then — not only the thread that heard it,
whose neighbours would otherwise spend their own attempts on the same refusal.

Pure Python (no Django), so one limiter can be shared by several providers (one per workspace and process,
see redline/services/providers.py). ``clock`` and ``sleep`` are injectable so tests need not wait.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

_RESETS = (("x-ratelimit-remaining-requests", "x-ratelimit-reset-requests"),
           ("x-ratelimit-remaining-tokens", "x-ratelimit-reset-tokens"))
_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")
_SECONDS = re.compile(r"\d+(?:\.\d+)?")
_UNIT_SECONDS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001}


def parse_duration(text: str) -> float | None:
    """Seconds in OpenAI's reset format ("1s", "6m0s", "20ms", "1h2m3.5s", or a bare number of seconds);
    None when unreadable, so a header we do not understand never stalls the calls."""
    text = text.strip()
    if _SECONDS.fullmatch(text):
        return float(text)
    parts = _DURATION_PART.findall(text)
    if not parts or "".join(number + unit for number, unit in parts) != text:
        return None
    return sum(float(number) * _UNIT_SECONDS[unit] for number, unit in parts)


def retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds the server asks us to wait (``retry-after-ms`` first, it is the finer), or None."""
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is not None:
            try:
                return max(0.0, float(value) / scale)
            except ValueError:
                continue
    return None


def budget_reset(headers: Mapping[str, str]) -> float | None:
    """Seconds until the request or token budget resets when the answer says it is spent (remaining 0)."""
    waits = []
    for remaining, reset in _RESETS:
        try:
            spent = float(headers.get(remaining) or "nan") <= 0
        except ValueError:
            continue
        wait = parse_duration(headers.get(reset) or "") if spent else None
        if wait is not None:
            waits.append(wait)
    return max(waits, default=None)


@dataclass(slots=True)
class Call:
    """One call's place in the limiter: what it heard is reported here and judged when the call ends.

    ``epoch`` is the limit the call started under: a burst of refusals to calls sent together lowers the
    limit once, not once per call (else sixteen 429s at once would take sixteen down to one)."""

    epoch: int
    status: int | None = None  # None: no answer (a timeout, a lost connection), which judges nothing
    headers: Mapping[str, str] | None = None

    def report(self, status: int, headers: Mapping[str, str]) -> None:
        """The HTTP status and headers of the answer."""
        self.status, self.headers = status, headers


class AdaptiveLimiter:
    """At most :attr:`limit` calls at once, ``limit`` moving between 1 and ``max_concurrency``; see the
    module docstring. Thread-safe; share one instance between the providers that share a budget."""

    def __init__(self, max_concurrency: int, *, decrease: float = 0.5, max_pause: float = 600.0,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> None:
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        self.max_concurrency = max_concurrency
        self._decrease = decrease
        self._max_pause = max_pause  # a bound on what a server's header can make us wait
        self._clock = clock
        self._sleep = sleep
        self._limit = max_concurrency
        self._successes = 0  # since the limit last moved; a limit's worth of them raises it by one
        self._active = 0
        self._epoch = 0
        self._paused_until = clock()
        self._cond = threading.Condition()

    @property
    def limit(self) -> int:
        """Calls allowed at once now."""
        return self._limit

    @contextmanager
    def slot(self) -> Iterator[Call]:
        """Hold one of the calls allowed at once, after any pause; report the answer on the yielded
        :class:`Call` and it is judged when the block ends (also when the call raised)."""
        call = self._acquire()
        try:
            yield call
        finally:
            self._release(call)

    def _acquire(self) -> Call:
        while True:
            with self._cond:
                wait = self._paused_until - self._clock()
                if wait <= 0:
                    if self._active < self.limit:
                        self._active += 1
                        return Call(self._epoch)
                    self._cond.wait()  # a call ends (or the limit rises): look again
                    continue
            self._sleep(wait)  # outside the lock; the pause may be extended meanwhile, so look again after

    def _release(self, call: Call) -> None:
        headers = call.headers or {}
        with self._cond:
            self._active -= 1
            status = call.status
            if status is not None and (status == 429 or status >= 500):
                if call.epoch == self._epoch:
                    self._limit = max(1, int(self._limit * self._decrease))
                    self._successes = 0
                    self._epoch += 1
                self._pause(retry_after(headers))
            elif status is not None and status < 400 and self._limit < self.max_concurrency:
                self._successes += 1
                if self._successes >= self._limit:
                    self._limit += 1
                    self._successes = 0
            self._pause(budget_reset(headers))
            self._cond.notify_all()

    def _pause(self, seconds: float | None) -> None:
        """Hold new calls for ``seconds`` from now (a longer pause already set stands)."""
        if seconds:
            self._paused_until = max(self._paused_until, self._clock() + min(seconds, self._max_pause))
