"""Server-sent event streams over a job's stored progress events.

The database holds the events (numbered per job); a stream replays everything
after ``Last-Event-ID`` and then waits for more: on Redis pub/sub when
``REDIS_URL`` is set, otherwise by polling. A published event that is the next
one in order is sent on as it is, so a caught-up stream costs the database
nothing; anything else (a gap, a quiet interval) is read from the database,
which stays the record. Redis only makes streams faster, so
when it is down at the start or goes away mid-stream the stream carries on by
polling the database. A job retried after its worker died reports again from a
new ``started`` event (``{"attempt": n}``): a stream starts (or resumes) at the
newest attempt, and a client that sees ``started`` again starts over, so the
failed attempt's events never add up with the retry's. Heartbeat comments keep
proxies from closing an idle stream; the stream ends after a terminal event (a quiet stream checks every few
seconds that its job did not finish without one, and appends it if so), and
``open_streams()`` counts the streams being served (a client that goes away must
bring it down again).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
import weakref
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.db import InterfaceError, OperationalError, connection

from ..models import ApiKey, JobEvent
from .progress import TERMINAL_KINDS, channel_name, terminal_repair

logger = logging.getLogger(__name__)

HEARTBEAT_S = 15.0
END_CHECK_S = 5.0  # how often a quiet stream checks that its job has not finished without its end
POLL_S = 0.25
REDIS_TIMEOUT_S = 2.0
TICKET_SALT = "redline.sse-ticket"
TICKET_MAX_AGE_S = 300


def ticket_issue(*, membership_id: int, job_id: int, key_id: int) -> str:
    """A short-lived signed token for one stream (EventSource cannot send headers): for one connection (its
    nonce), and only while the key that asked for it lives."""
    claims = {"m": membership_id, "j": job_id, "k": key_id, "n": secrets.token_urlsafe(12)}
    return signing.dumps(claims, salt=TICKET_SALT, compress=True)


def ticket_read(ticket: str) -> dict[str, Any] | None:
    """The ticket's claims, or None when forged, older than five minutes, used before, or issued by a key that
    has been revoked since."""
    try:
        claims = signing.loads(ticket, salt=TICKET_SALT, max_age=TICKET_MAX_AGE_S)
    except signing.BadSignature:
        return None
    if not isinstance(claims, dict) or not {"m", "j", "k", "n"} <= claims.keys():
        return None  # (an old ticket without a key or nonce)
    if not ApiKey.objects.filter(pk=claims["k"], membership_id=claims["m"], revoked_at__isnull=True).exists():
        return None
    return claims if _first_use(str(claims["n"])) else None


_UNSEEN = object()


def _first_use(nonce: str) -> bool:
    """Whether this is the ticket's first use (a replayed ticket is refused). With the cache away (Redis down)
    use cannot be recorded: the ticket is let through rather than every stream refused, still bound to its
    live key and its five minutes."""
    key = f"redline:ticket:{nonce}"
    if cache.add(key, 1, TICKET_MAX_AGE_S):
        return True
    return cache.get(key, _UNSEEN) is _UNSEEN


def format_event(event: JobEvent) -> str:
    return format_frame(event.seq, event.kind, event.data)


def format_frame(seq: int, kind: str, data: dict) -> str:
    body = json.dumps({"seq": seq, "kind": kind, **data}, separators=(",", ":"))
    return f"id: {seq}\nevent: {kind}\ndata: {body}\n\n"


# A stream holds a database connection only while it reads: its queries run on the event loop's
# small thread pool (not on a thread per request) and close their connection when done, so open
# streams cost no connections (hundreds of them would exhaust the database), and a restarted
# database costs a stream one poll, not its life. Reads are rare once a stream is caught up:
# Redis brings it the events themselves.


@sync_to_async(thread_sensitive=False)
def _events_after(job_id: int, after: int) -> list[JobEvent]:
    try:
        return list(JobEvent.objects.filter(job_id=job_id, seq__gt=after).order_by("seq")[:500])
    except (OperationalError, InterfaceError):
        logger.warning("SSE for job %s: database unavailable, retrying", job_id, exc_info=True)
        return []
    finally:
        connection.close()


@sync_to_async(thread_sensitive=False)
def _current_attempt_from(job_id: int) -> int:
    """The sequence number of the newest ``started`` event (0 when none): a stream skips what an
    earlier, failed attempt reported, so a client sees the attempt that counts from its start."""
    try:
        return JobEvent.objects.filter(job_id=job_id, kind="started").order_by("-seq").values_list(
            "seq", flat=True).first() or 0
    except (OperationalError, InterfaceError):
        return 0
    finally:
        connection.close()


@sync_to_async(thread_sensitive=False)
def _ended_at(job_id: int, seq: int) -> bool:
    """Whether event ``seq`` was the job's terminal one (a client resuming after the end)."""
    try:
        return JobEvent.objects.filter(job_id=job_id, seq=seq, kind__in=TERMINAL_KINDS).exists()
    finally:
        connection.close()


@sync_to_async(thread_sensitive=False)
def _end_repaired(job_id: int) -> bool:
    """Whether the job had finished without its terminal event, which is now appended (then: read it)."""
    try:
        return terminal_repair(job_id) is not None
    except (OperationalError, InterfaceError):
        return False
    finally:
        connection.close()


_open = 0


def open_streams() -> int:
    """How many streams this process is serving now."""
    return _open


class _Hub:
    """One Redis pub/sub connection per process (per event loop) for all of its streams.

    Each job channel is subscribed once, however many streams follow the job, and
    each published event is read and decoded once, then handed to every stream of
    its job. A connection per stream cost a Redis connection each and, on every
    event, as many socket reads and JSON decodes as there were streams: with 200
    streams, a stall of the event loop at each tick, which polling clients felt.
    If Redis fails, every stream is told (``DOWN``) and polls the database; the
    next stream to open connects again.
    """

    DOWN: dict = {}  # a unique marker: Redis went away, poll the database

    def __init__(self) -> None:
        self.pubsub = None
        self.client = None
        self.reader: asyncio.Task | None = None
        self.queues: dict[int, set[asyncio.Queue]] = {}
        self.lock = asyncio.Lock()

    async def join(self, job_id: int) -> asyncio.Queue | None:
        """A queue of the job's published events (dicts), or None when Redis is unavailable."""
        async with self.lock:
            try:
                if self.pubsub is None:
                    from redis.asyncio import Redis

                    self.client = Redis.from_url(settings.REDIS_URL, socket_connect_timeout=REDIS_TIMEOUT_S)
                    self.pubsub = self.client.pubsub()
                queue: asyncio.Queue = asyncio.Queue()
                if job_id not in self.queues:
                    await self.pubsub.subscribe(channel_name(job_id))
                self.queues.setdefault(job_id, set()).add(queue)
                if self.reader is None or self.reader.done():
                    self.reader = asyncio.get_running_loop().create_task(self._read())
                return queue
            except Exception:
                logger.warning("SSE for job %s: Redis unavailable, polling the database", job_id, exc_info=True)
                await self._fail()
                return None

    async def leave(self, job_id: int, queue: asyncio.Queue) -> None:
        async with self.lock:
            followers = self.queues.get(job_id)
            if followers is None or queue not in followers:
                return
            followers.discard(queue)
            if not followers:
                del self.queues[job_id]
                with contextlib.suppress(Exception):
                    await self.pubsub.unsubscribe(channel_name(job_id))

    async def _read(self) -> None:
        pubsub = self.pubsub
        try:
            while pubsub is not None and self.pubsub is pubsub:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=HEARTBEAT_S)
                if message is None:
                    continue
                try:
                    job_id = int(message["channel"].rsplit(b":", 1)[-1])
                    event = json.loads(message["data"])
                except (TypeError, ValueError, KeyError):
                    continue
                for queue in self.queues.get(job_id, ()):
                    queue.put_nowait(event)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.warning("SSE: Redis went away, streams poll the database", exc_info=True)
            async with self.lock:
                if self.pubsub is pubsub:  # (not a connection made since, by a join that saw the failure first)
                    await self._fail()

    async def _fail(self) -> None:
        """Tell every stream to poll, and forget the connection (the next join makes a new one)."""
        for followers in self.queues.values():
            for queue in followers:
                queue.put_nowait(self.DOWN)
        self.queues.clear()
        pubsub, client, self.pubsub, self.client = self.pubsub, self.client, None, None
        for resource in (pubsub, client):
            if resource is not None:
                with contextlib.suppress(Exception):
                    await resource.aclose()


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Hub] = weakref.WeakKeyDictionary()


def _hub() -> _Hub:
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = _Hub()
    return _hubs[loop]


class _Wakeup:
    """A stream's published events from the process's hub, or nothing once Redis has failed (then: polling)."""

    def __init__(self, job_id: int) -> None:
        self.job_id = job_id
        self.queue: asyncio.Queue | None = None

    async def open(self) -> None:
        if settings.REDIS_URL:
            self.queue = await _hub().join(self.job_id)

    async def wait(self, timeout: float) -> dict | None:
        """The published event (``{"seq", "kind", "data"}``) once one arrives, or None after
        ``timeout``; when polling, None after a short sleep."""
        if self.queue is None:
            await asyncio.sleep(POLL_S)
            return None
        try:
            event = await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None
        if event is _Hub.DOWN:
            self.queue = None
            return None
        return event

    async def close(self) -> None:
        queue, self.queue = self.queue, None
        if queue is not None:
            with contextlib.suppress(RuntimeError):  # (no event loop any more: nothing left to leave)
                await _hub().leave(self.job_id, queue)


async def event_stream(job_id: int, *, after: int = 0) -> AsyncIterator[str]:
    """Yield SSE frames for events after ``after`` until a terminal event."""
    global _open
    _open += 1
    wakeup = _Wakeup(job_id)
    last, beat, checked = after, time.monotonic(), float("-inf")
    try:
        if after and await _ended_at(job_id, after):
            return
        last = max(last, await _current_attempt_from(job_id) - 1)
        await wakeup.open()
        yield "retry: 2000\n\n"
        read = True
        while True:
            if read:  # the database: replay, catch-up after a gap, and the only source when polling
                events = await _events_after(job_id, last)
                for event in events:
                    yield format_event(event)
                    last = event.seq
                    if event.kind in TERMINAL_KINDS:
                        return
                if events:
                    continue
                if time.monotonic() - checked >= END_CHECK_S:
                    checked = time.monotonic()
                    if await _end_repaired(job_id):
                        continue  # the job had finished without its end: read it now
            if time.monotonic() - beat >= HEARTBEAT_S:
                yield ": heartbeat\n\n"
                beat = time.monotonic()
            published = await wakeup.wait(HEARTBEAT_S / 2)
            if published and published.get("seq") == last + 1 and "kind" in published:
                yield format_frame(last + 1, published["kind"], published.get("data") or {})
                last += 1
                if published["kind"] in TERMINAL_KINDS:
                    return
                read = False  # the next event in order, sent on without reading the database
            else:  # a gap, an old or unreadable message, a quiet interval, or polling: read
                read = not (published and isinstance(published.get("seq"), int) and published["seq"] <= last)
    finally:
        _open -= 1
        await wakeup.close()
