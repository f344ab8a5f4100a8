"""CPU-heavy document work, admitted a few at a time per process.

Reading a .docx is CPU work under the GIL, and so is most of an upload around
it (the multipart body, hashing, storing). Fifty uploads at once in one web
process would run as fifty threads taking turns on a core: each finishes late,
their parse trees are in memory together, and every light request of the process
(a poll, a vote) waits behind the queue for the GIL after each of its database
round trips — measured, a 15 ms poll took 1.6 s during such a burst. So:

- ``UploadAdmissionASGI`` lets ``REDLINE_DOCUMENT_CONCURRENCY`` file uploads per
  process in at a time; the others wait on the event loop, holding no thread and
  no part of their body.
- ``document_work`` bounds .docx reads the same way inside the process (an
  ingestion job on the in-process worker, a revision accepted through the API).
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager

from django.conf import settings

_lock = threading.Lock()
_slots: dict[int, threading.BoundedSemaphore] = {}


@contextmanager
def document_work() -> Iterator[None]:
    """Hold one of the process's ``REDLINE_DOCUMENT_CONCURRENCY`` slots for the duration."""
    size = settings.REDLINE_DOCUMENT_CONCURRENCY
    with _lock:
        slots = _slots.setdefault(size, threading.BoundedSemaphore(size))
    with slots:
        yield


ASGIApp = Callable[[dict, Callable[[], Awaitable[dict]], Callable[[dict], Awaitable[None]]], Awaitable[None]]


def is_file_upload(scope: dict) -> bool:
    """A request whose body carries a file: a multipart POST or PUT."""
    if scope.get("type") != "http" or scope.get("method") not in ("POST", "PUT"):
        return False
    content_type = dict(scope.get("headers") or []).get(b"content-type", b"")
    return content_type.lower().startswith(b"multipart/form-data")


class UploadAdmissionASGI:
    """ASGI wrapper: at most ``slots`` file uploads of this process are being handled at once."""

    def __init__(self, app: ASGIApp, slots: int) -> None:
        self.app = app
        self.size = max(1, slots)
        # Per event loop (a semaphore belongs to one): one per server process, one per test server.
        self.slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary())

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if not is_file_upload(scope):
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        if loop not in self.slots:
            self.slots[loop] = asyncio.Semaphore(self.size)
        async with self.slots[loop]:
            await self.app(scope, receive, send)
