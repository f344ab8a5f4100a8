"""Uploaded .docx files are read in child processes, not in the web process.

Reading a .docx is pure CPU under the GIL (unzip, parse, walk, anchor: about
30 ms for a two-page contract). Done on a thread of a web process, it holds the
GIL against every light request of that process: after each of its database
round trips a poll waits for the reader to give the GIL back (lowering Python's
switch interval, which only shortens those waits, cut the load benchmark's poll
p99 from 282 to 193 ms, at the uploads' expense). In a child process the
read has a GIL of its own and runs at a lower priority
(``REDLINE_READER_NICE``), so the operating system prefers the web process's
requests. The child is also a fence: it has an address-space ceiling
(``REDLINE_READER_MEMORY_MB``) and a deadline (``REDLINE_READER_TIMEOUT``), so
an input that would exhaust memory or time fails there as a typed error and the
server carries on.

Each process keeps up to ``REDLINE_DOCUMENT_CONCURRENCY`` children
(:mod:`redline.ooxml.scanner`), started on first use and kept for the next file.
A child that dies or overruns is killed and replaced; the file it was reading is
refused and nothing is stored.
"""

from __future__ import annotations

import json
import os
import queue
import select
import subprocess
import sys
import threading
import time
from pathlib import Path

from django.conf import settings

from ..ooxml.errors import DocxError
from ..ooxml.paragraphs import Scan
from ..ooxml.scanner import HEADER, READY, frame

_PROJECT = Path(__file__).resolve().parents[2]  # where ``python -m redline...`` finds the package
_START_TIMEOUT = 30.0


class ReaderUnavailable(Exception):
    """No reader process could be started: a fault of the server, not of the file."""


class _Child:
    """One reader process and its pipes."""

    def __init__(self) -> None:
        """Start the process and wait until it is ready, so that its start-up is not a file's deadline."""
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "redline.ooxml.scanner",
                 str(settings.REDLINE_READER_NICE), str(settings.REDLINE_READER_MEMORY_MB)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=_PROJECT, bufsize=0,
            )
        except OSError as exc:
            raise ReaderUnavailable(f"the .docx reader process could not be started: {exc!r}") from None
        try:
            ready = self._frame(_START_TIMEOUT)
        except OSError as exc:  # includes TimeoutError
            self.kill()
            raise ReaderUnavailable(f"the .docx reader process did not start: {exc!r}") from None
        if ready != READY:
            self.kill()
            raise ReaderUnavailable("the .docx reader process did not start: it sent something else")

    def scan(self, data: bytes, timeout: float) -> dict:
        """The child's JSON reply for ``data``; raises ``OSError`` if it died, ``TimeoutError`` if it overran."""
        assert self.process.stdin is not None
        self.process.stdin.write(frame(data))
        return json.loads(self._frame(timeout))

    def _frame(self, timeout: float) -> bytes:
        assert self.process.stdout is not None
        deadline = time.monotonic() + timeout
        fd = self.process.stdout.fileno()
        size = int.from_bytes(self._read(fd, HEADER, deadline), "big")
        return self._read(fd, size, deadline)

    @staticmethod
    def _read(fd: int, size: int, deadline: float) -> bytes:
        buf = bytearray()
        while len(buf) < size:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise TimeoutError
            chunk = os.read(fd, size - len(buf))
            if not chunk:
                raise OSError("the reader process exited")
            buf += chunk
        return bytes(buf)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()


class _Pool:
    """Slots for ``size`` children; a slot holds its child between files (None until first used)."""

    def __init__(self, size: int) -> None:
        self.slots: queue.LifoQueue[_Child | None] = queue.LifoQueue()
        for _ in range(size):
            self.slots.put(None)

    def children(self) -> list[_Child]:
        return [child for child in list(self.slots.queue) if child is not None]

    def scan(self, data: bytes) -> Scan:
        child, reply = self.slots.get(), None
        try:
            if child is not None:
                reply = self._reply(child, data)  # None: it died since its last file, which is not this file's fault
            if reply is None:
                child = _Child()
                reply = self._reply(child, data)
            if reply is None:
                raise DocxError("unreadable", "The document could not be read: its reader stopped.")
        except BaseException:
            if child is not None:
                child.kill()  # no-op when already killed; otherwise its state is unknown
            child = None
            raise
        finally:
            self.slots.put(child)
        if "code" in reply:
            raise DocxError(reply["code"], reply["message"], **reply["detail"])
        return Scan(reply["doc_id"], tuple(reply["anchors"]), doc_id_found=bool(reply["doc_id_found"]),
                    carried=tuple(reply["carried"]))

    @staticmethod
    def _reply(child: _Child, data: bytes) -> dict | None:
        """The child's reply, or None when it died (a crash, the memory ceiling) or answered garbage."""
        try:
            return child.scan(data, settings.REDLINE_READER_TIMEOUT)
        except TimeoutError:
            raise DocxError("too_complex", "The document takes longer to read than the server allows.",
                            seconds=settings.REDLINE_READER_TIMEOUT) from None
        except (OSError, ValueError):
            child.kill()
            return None


_lock = threading.Lock()
_pool: _Pool | None = None


def scan_in_child(data: bytes) -> Scan:
    """:func:`~redline.ooxml.paragraphs.scan_document`, in one of this process's reader children.

    Waits for a free child when all are busy. Raises :class:`DocxError` for a
    refused file, including one its reader died or overran on, and
    :class:`ReaderUnavailable` when no reader process can be started.
    """
    global _pool
    with _lock:
        if _pool is None:
            _pool = _Pool(max(1, settings.REDLINE_DOCUMENT_CONCURRENCY))
    return _pool.scan(data)


def reader_pids() -> list[int]:
    """The process ids of this process's idle reader children (the tests watch them)."""
    return [child.process.pid for child in (_pool.children() if _pool is not None else [])]


def shutdown() -> None:
    """Stop this process's idle reader children; the next file starts new ones with the current settings."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    for child in pool.children() if pool is not None else []:
        child.kill()
