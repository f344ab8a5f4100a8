"""Fewer glibc malloc arenas for the web server.

glibc gives threads their own malloc arenas (up to eight per core), and memory
freed into an arena mostly stays with the process. Under ASGI every request runs
on a thread of its own, so after a burst of uploads the server keeps the peak
of many arenas. Two arenas are plenty for a process whose Python code runs one
thread at a time (the GIL); measured with ``scripts/load``, it halves the
memory a burst leaves behind. Same effect as ``MALLOC_ARENA_MAX``, set from the
configuration instead of the environment of whoever starts the server.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

logger = logging.getLogger(__name__)

M_ARENA_MAX = -8  # from glibc's malloc.h


def limit_arenas(count: int) -> bool:
    """Cap glibc's malloc arenas at ``count``; False where that is not possible (not glibc)."""
    if count <= 0:
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return bool(libc.mallopt(M_ARENA_MAX, count))
    except (OSError, AttributeError):
        logger.info("malloc arenas not limited: this C library has no mallopt")
        return False
