"""Run a function on hostile input in a forked child with a time and memory budget.

The OOXML reader's allocations happen mostly inside libxml2 and zlib, where
``tracemalloc`` cannot see them, and a runaway input must not take the test
process (or the machine) down with it. So each call runs in a fork of the test
process: a hard address-space limit is the safety net, ``SIGALRM`` the time
limit, and the child's peak resident memory over what it started with is
measured and reported back, together with the result or the exception.
"""

from __future__ import annotations

import os
import pickle
import resource
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

_PAGE = os.sysconf("SC_PAGE_SIZE")
_SAFETY_NET = 3 * 1024**3  # address space a child may add before allocations fail outright


@dataclass(frozen=True)
class Outcome:
    """What happened in the child: ``value`` or an exception (type name, and its ``code``
    attribute for typed errors), with wall time and peak memory growth in MiB."""

    value: Any = None
    error_type: str | None = None
    error_code: str | None = None
    error_text: str = ""
    seconds: float = 0.0
    peak_growth_mib: float = 0.0
    timed_out: bool = False


def _rss_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * _PAGE


def _vm_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[0]) * _PAGE


def _child(fn: Callable[[], Any], seconds: float, write_fd: int) -> None:
    start_rss = _rss_bytes()
    limit = _vm_bytes() + _SAFETY_NET
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGALRM, signal.SIG_DFL)  # the default action ends the child
    signal.setitimer(signal.ITIMER_REAL, seconds)
    t0 = time.monotonic()
    try:
        result: dict[str, Any] = {"value": fn()}
    except BaseException as exc:  # report everything, including MemoryError
        result = {"error_type": type(exc).__name__, "error_code": getattr(exc, "code", None),
                  "error_text": "".join(traceback.format_exception(exc))[-4000:]}
    signal.setitimer(signal.ITIMER_REAL, 0)
    result["seconds"] = time.monotonic() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    result["peak_growth_mib"] = max(peak - start_rss, 0) / 1024**2
    with os.fdopen(write_fd, "wb") as out:
        pickle.dump(result, out)


def bounded(fn: Callable[[], Any], *, seconds: float = 10.0) -> Outcome:
    """Call ``fn`` in a forked child; its return value must be picklable."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read_fd)
        try:
            _child(fn, seconds, write_fd)
        finally:
            os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as inp:
        payload = inp.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        if os.WTERMSIG(status) == signal.SIGALRM:
            return Outcome(timed_out=True, seconds=seconds)
        return Outcome(error_type="KilledBySignal", error_text=f"signal {os.WTERMSIG(status)}")
    if not payload:
        return Outcome(error_type="NoResult", error_text="the child reported nothing (unpicklable result?)")
    return Outcome(**pickle.loads(payload))  # our own child wrote it
