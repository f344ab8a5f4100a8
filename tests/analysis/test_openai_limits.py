"""The OpenAI provider under a server's rate limits: the real ``openai`` SDK over HTTP to the loopback
server (tests/support/chat_server.py), which answers 429 with ``Retry-After`` or announces a spent budget in
OpenAI's ``x-ratelimit-*`` headers. The provider's own retry sleep is switched off in these tests, so every
wait measured is the limiter's — shared by all the threads and providers that use it."""

from __future__ import annotations

import threading
import time

import pytest

from redline.analysis.providers.limiter import AdaptiveLimiter
from redline.analysis.providers.openai import OpenAIProvider
from tests.support.chat_server import ChatServer, Reply, completion, error, findings

MESSAGES = [{"role": "system", "content": "Review."}, {"role": "user", "content": "[1] Pay within 90 days."}]
# What ``complete`` checks the answer against: any schema will do here, the limits are what is tested.
SCHEMA = {"type": "object", "additionalProperties": False, "required": ["findings"],
          "properties": {"findings": {"type": "array"}}}


class Timed:
    """A responder that answers from ``replies`` in turn (then with no findings) and notes when each
    request arrived."""

    def __init__(self, *replies: Reply) -> None:
        self.replies = list(replies)
        self.arrived: list[float] = []
        self.lock = threading.Lock()

    def __call__(self, body: dict) -> Reply:
        with self.lock:
            self.arrived.append(time.monotonic())
            return self.replies.pop(0) if self.replies else completion(findings())


def provider(srv: ChatServer, **kw) -> OpenAIProvider:
    options = dict(model="gpt-test", api_key="sk-test-key", base_url=srv.url, timeout=5.0, max_retries=2,
                   sleep=lambda seconds: None)
    return OpenAIProvider(**{**options, **kw})


def ask(p: OpenAIProvider) -> int:
    """One structured call; its retries."""
    _, usage = p.complete(MESSAGES, "contract_findings", SCHEMA)
    return usage.retries


def in_threads(n: int, target) -> None:
    threads = [threading.Thread(target=target) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)


def test_the_provider_waits_out_retry_after_even_with_no_backoff_of_its_own():
    timed = Timed(error(429, "slow down", {"retry-after": "0.4"}))
    with ChatServer(timed) as srv:
        assert ask(provider(srv)) == 1  # counted as a retry, as before
    first, retry = timed.arrived
    assert retry - first >= 0.4


def test_a_429_pauses_the_other_calls_sharing_the_limiter():
    """Two providers (two runs of one workspace) share a limiter: one is refused with retry-after-ms 500, and
    the other's calls, started meanwhile, reach the server only after it — none spends an attempt on it."""
    pausing = threading.Event()

    def sleep(seconds: float) -> None:
        pausing.set()
        time.sleep(seconds)

    limiter = AdaptiveLimiter(8, sleep=sleep)
    timed = Timed(error(429, "slow down", {"retry-after-ms": "500"}))
    other_retries: list[int] = []
    with ChatServer(timed) as srv:
        refused, other = provider(srv, limiter=limiter), provider(srv, limiter=limiter)
        first = threading.Thread(target=ask, args=(refused,))
        first.start()
        assert pausing.wait(5)  # the refused call now waits for its retry
        in_threads(3, lambda: other_retries.append(ask(other)))
        first.join(10)
    assert len(timed.arrived) == 5 and other_retries == [0, 0, 0]
    refused_at = timed.arrived[0]
    assert all(t >= refused_at + 0.5 for t in timed.arrived[1:])
    assert limiter.limit == 5  # the calls at once were halved to 4, and four successes gave one back


@pytest.mark.parametrize("headers", [
    {"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "400ms",
     "x-ratelimit-remaining-tokens": "150000", "x-ratelimit-reset-tokens": "6m0s"},
    {"x-ratelimit-remaining-requests": "499", "x-ratelimit-reset-requests": "120ms",
     "x-ratelimit-remaining-tokens": "0", "x-ratelimit-reset-tokens": "0.4s"},
], ids=["requests-spent", "tokens-spent"])
def test_a_spent_rate_limit_budget_holds_every_thread_until_its_reset(headers):
    spent = completion(findings())
    spent.headers = headers
    timed = Timed(spent)
    retries: list[int] = []
    with ChatServer(timed) as srv:
        p = provider(srv)
        assert ask(p) == 0  # a success announcing the budget is spent
        in_threads(4, lambda: retries.append(ask(p)))
    assert len(timed.arrived) == 5 and retries == [0, 0, 0, 0]  # no call was sent to be refused
    assert all(t >= timed.arrived[0] + 0.4 for t in timed.arrived[1:])


def test_a_budget_with_room_left_does_not_wait():
    room = completion(findings())
    room.headers = {"x-ratelimit-remaining-requests": "12", "x-ratelimit-reset-requests": "6m0s"}
    timed = Timed(room)
    with ChatServer(timed) as srv:
        p = provider(srv)
        started = time.monotonic()
        ask(p)
        ask(p)
    assert time.monotonic() - started < 5  # not the six minutes of the reset
