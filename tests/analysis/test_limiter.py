"""The adaptive limiter: bounded calls under contention, a 429's Retry-After and spent rate-limit budgets
holding every thread, and the limit lowered on refusals and given back after successes.

Most tests run on a fake clock (``sleep`` advances it) so a 6-minute reset costs nothing; the threaded ones
run in real time, with short pauses."""

from __future__ import annotations

import threading
import time
from contextlib import ExitStack

import pytest

from redline.analysis.providers.limiter import AdaptiveLimiter, budget_reset, parse_duration, retry_after


class FakeTime:
    """A clock that only moves when someone sleeps; every sleep is recorded."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 6))
        self.now += seconds


def fake(max_concurrency: int, **kw) -> tuple[AdaptiveLimiter, FakeTime]:
    t = FakeTime()
    return AdaptiveLimiter(max_concurrency, clock=t.clock, sleep=t.sleep, **kw), t


def answer(limiter: AdaptiveLimiter, status: int | None, headers: dict[str, str] | None = None) -> None:
    """One call that ends with ``status`` (None: no answer, e.g. a timeout)."""
    with limiter.slot() as call:
        if status is not None:
            call.report(status, headers or {})


@pytest.mark.parametrize(("text", "seconds"), [
    ("1s", 1.0), ("6m0s", 360.0), ("20ms", 0.02), ("1h2m3.5s", 3723.5), ("0.5", 0.5), ("17.2s", 17.2),
    ("", None), ("soon", None), ("5x", None), ("1s and more", None),
])
def test_openai_reset_durations(text, seconds):
    assert parse_duration(text) == (pytest.approx(seconds) if seconds is not None else None)


def test_headers_read():
    assert retry_after({"retry-after": "2"}) == 2.0
    assert retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25  # the finer one first
    assert retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) is None and retry_after({}) is None
    spent = {"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "1s",
             "x-ratelimit-remaining-tokens": "0", "x-ratelimit-reset-tokens": "6m0s"}
    assert budget_reset(spent) == 360.0  # both spent: the later reset
    assert budget_reset({**spent, "x-ratelimit-remaining-tokens": "1200"}) == 1.0
    assert budget_reset({"x-ratelimit-remaining-requests": "3", "x-ratelimit-reset-requests": "1s"}) is None
    assert budget_reset({"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "?"}) is None


def test_threads_contending_never_exceed_the_limit():
    limiter = AdaptiveLimiter(4)
    in_flight, peak, lock = [0], [0], threading.Lock()

    def work() -> None:
        with limiter.slot() as call:
            with lock:
                in_flight[0] += 1
                peak[0] = max(peak[0], in_flight[0])
            time.sleep(0.02)
            with lock:
                in_flight[0] -= 1
            call.report(200, {})

    threads = [threading.Thread(target=work) for _ in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert peak[0] == 4 and limiter.limit == 4  # parallel, never wider than allowed, nor above the maximum


def test_refusals_lower_the_limit_once_per_burst_never_below_one_and_successes_give_it_back():
    limiter, _ = fake(16)
    with ExitStack() as stack:  # three calls sent together, all refused: one halving, not three
        calls = [stack.enter_context(limiter.slot()) for _ in range(3)]
        for call in calls:
            call.report(429, {})
    assert limiter.limit == 8
    for expected in (4, 2, 1, 1):  # each refusal of a call sent under the new limit halves it again
        answer(limiter, 503)
        assert limiter.limit == expected
    for status in (400, 404, None):  # the request's own fault, or no answer: no judgement on the server's load
        answer(limiter, status)
    assert limiter.limit == 1
    answer(limiter, 200)
    assert limiter.limit == 2  # additive: one more per window of successes
    for _ in range(2):
        answer(limiter, 200)
    assert limiter.limit == 3
    for _ in range(sum(range(3, 16))):
        answer(limiter, 200)
    assert limiter.limit == 16
    for _ in range(50):
        answer(limiter, 200)
    assert limiter.limit == 16  # never above the configured maximum


def test_retry_after_holds_the_next_call_and_is_bounded():
    limiter, t = fake(4)
    answer(limiter, 429, {"retry-after": "30"})
    answer(limiter, 200)
    assert t.slept == [30.0]
    answer(limiter, 503, {"retry-after-ms": "1500"})
    answer(limiter, 200)
    assert t.slept == [30.0, 1.5]
    answer(limiter, 429, {"retry-after": "86400"})  # a server cannot stall us for a day
    answer(limiter, 200)
    assert t.slept[-1] == 600.0  # ten minutes at most
    answer(limiter, 200, {"retry-after": "30"})  # a success's Retry-After asks nothing
    answer(limiter, 200)
    assert len(t.slept) == 3


@pytest.mark.parametrize(("headers", "wait"), [
    ({"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "6m0s"}, 360.0),
    ({"x-ratelimit-remaining-tokens": "0", "x-ratelimit-reset-tokens": "20ms"}, 0.02),
    ({"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "1s",
      "x-ratelimit-remaining-tokens": "0", "x-ratelimit-reset-tokens": "2s"}, 2.0),
], ids=["requests", "tokens", "both"])
def test_a_spent_budget_holds_calls_until_its_reset(headers, wait):
    limiter, t = fake(4)
    answer(limiter, 200, headers)  # announced on a success: the next call would be refused
    assert limiter.limit == 4  # not a refusal: the limit stands
    answer(limiter, 200)
    assert t.slept == [wait]
    answer(limiter, 200, {**headers, "x-ratelimit-remaining-requests": "7", "x-ratelimit-remaining-tokens": "900"})
    answer(limiter, 200)
    assert t.slept == [wait]  # budget left: no wait


def test_a_429_pauses_every_thread_not_only_the_one_that_heard_it():
    """Real time: three threads queue behind the one call allowed; it is refused with Retry-After 300 ms, and
    none of them starts before then — the waiting is the limiter's, shared, not the refused thread's."""
    limiter = AdaptiveLimiter(1)
    started: list[float] = []
    queued = threading.Event()

    def later() -> None:
        queued.set()
        with limiter.slot() as call:
            started.append(time.monotonic())
            call.report(200, {})

    with limiter.slot() as call:
        threads = [threading.Thread(target=later) for _ in range(3)]
        for th in threads:
            th.start()
        assert queued.wait(5)
        time.sleep(0.05)  # the others are waiting for the slot
        call.report(429, {"retry-after-ms": "300"})
        refused_at = time.monotonic()
    for th in threads:
        th.join(10)
    assert len(started) == 3 and min(started) >= refused_at + 0.3
    assert max(started) - refused_at < 5  # and then they go
