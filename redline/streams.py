"""Server-sent event streams over a job's stored progress events.

The database holds the events (numbered per job); a stream replays everything
after ``Last-Event-ID`` and then waits for more: on Redis pub/sub when
``REDIS_URL`` is set, otherwise by polling. Heartbeat comments keep proxies from
closing an idle stream; the stream ends after a terminal event.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signing

from .models import JobEvent
from .progress import channel_name

TERMINAL_KINDS = frozenset({"done", "error", "cancelled"})
HEARTBEAT_S = 15.0
POLL_S = 0.25
TICKET_SALT = "redline.sse-ticket"
TICKET_MAX_AGE_S = 300


def ticket_issue(*, membership_id: int, job_id: int) -> str:
    """A short-lived signed token for one stream (EventSource cannot send headers)."""
    return signing.dumps({"m": membership_id, "j": job_id}, salt=TICKET_SALT, compress=True)


def ticket_read(ticket: str) -> dict[str, int] | None:
    """The ticket's claims, or None when forged or older than five minutes."""
    try:
        return signing.loads(ticket, salt=TICKET_SALT, max_age=TICKET_MAX_AGE_S)
    except signing.BadSignature:
        return None


def format_event(event: JobEvent) -> str:
    data = json.dumps({"seq": event.seq, "kind": event.kind, **event.data}, separators=(",", ":"))
    return f"id: {event.seq}\nevent: {event.kind}\ndata: {data}\n\n"


@sync_to_async
def _events_after(job_id: int, after: int) -> list[JobEvent]:
    return list(JobEvent.objects.filter(job_id=job_id, seq__gt=after).order_by("seq")[:500])


async def event_stream(job_id: int, *, after: int = 0) -> AsyncIterator[str]:
    """Yield SSE frames for events after ``after`` until a terminal event."""
    heartbeat_s = HEARTBEAT_S
    pubsub = None
    if settings.REDIS_URL:
        from redis.asyncio import Redis

        client = Redis.from_url(settings.REDIS_URL)
        pubsub = client.pubsub()
        await pubsub.subscribe(channel_name(job_id))
    last, beat = after, time.monotonic()
    try:
        yield "retry: 2000\n\n"
        while True:
            events = await _events_after(job_id, last)
            for event in events:
                yield format_event(event)
                last = event.seq
                if event.kind in TERMINAL_KINDS:
                    return
            if events:
                continue
            if time.monotonic() - beat >= heartbeat_s:
                yield ": heartbeat\n\n"
                beat = time.monotonic()
            if pubsub is not None:
                await pubsub.get_message(ignore_subscribe_messages=True, timeout=min(heartbeat_s, 5.0))
            else:
                await asyncio.sleep(POLL_S)
    finally:
        if pubsub is not None:
            await pubsub.aclose()
            await client.aclose()
