"""What the job layer runs without knowing it: the handler of each job kind, and the workers' duties.

The job layer sits below the services, so it never imports them (that made an import circle:
dispatch → tasks → services → dispatch). Instead the services register here, when the app is ready
(:meth:`redline.apps.RedlineConfig.ready` imports the modules that do): a handler per job kind, which
:func:`redline.jobs.tasks.job_run` looks up, and the duties a worker performs at a moment of its life
(an in-process worker starting, every pulse, a Celery worker's heartbeat), called with keyword arguments.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported by redline.celery (through the pulse) before Django is set up: no models at run time
    from ..models import Job
    from .progress import ProgressCallback

    JobHandler = Callable[[Job, ProgressCallback], dict[str, Any]]

MOMENTS = (
    "worker_start",  # an in-process worker is starting (no arguments)
    "pulse",  # every worker's pulse: beat (0 first), interval_s
    "heartbeat",  # a Celery worker's pulse, first: hostname, broker_url
    "heartbeat_forget",  # a Celery worker shutting down: hostname
)

_handlers: dict[str, JobHandler] = {}
_duties: dict[str, list[Callable[..., object]]] = {moment: [] for moment in MOMENTS}


def handler_register(kind: str, handler: JobHandler) -> None:
    """Make ``handler`` run the jobs of ``kind``; a second, different handler for a kind is a mistake."""
    if _handlers.get(kind, handler) is not handler:
        raise ValueError(f"job kind {kind!r} already has a handler")
    _handlers[kind] = handler


def handler_for(kind: str) -> JobHandler | None:
    """The handler of job ``kind``, or None when no service registered one."""
    return _handlers.get(kind)


def duty_register(moment: str, duty: Callable[..., object]) -> None:
    """Call ``duty`` at ``moment`` (one of :data:`MOMENTS`), after the duties registered before it."""
    if duty not in _duties[moment]:
        _duties[moment].append(duty)


def duties_run(moment: str, **kwargs: object) -> None:
    """Call the duties of ``moment`` in order; an exception stops the rest (the caller logs it)."""
    for duty in _duties[moment]:
        duty(**kwargs)
