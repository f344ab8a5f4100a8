"""The HTTP side of progress streams: auth by header or ticket, resume by Last-Event-ID."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from django.db import connection
from django.http import HttpRequest, StreamingHttpResponse
from ninja.security import APIKeyQuery

from redline import selectors
from redline.errors import NotFound
from redline.jobs.streams import event_stream, ticket_read
from redline.models import Job, Membership
from redline.server.ratelimit import RateLimited, credential_check

from .auth import too_many

SSE_OPENAPI = {
    "responses": {
        200: {
            "description": "Server-sent events: `id` is the event sequence, `event` its kind, `data` JSON. "
            "Resume with the `Last-Event-ID` header. Ends after `done`, `error` or `cancelled`.",
            # Before OpenAPI 3.2 (itemSchema), an event stream's schema describes one event.
            "content": {"text/event-stream": {"schema": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "event": {"type": "string"},
                               "data": {"type": "string", "contentMediaType": "application/json"},
                               "retry": {"type": "integer"}},
            }}},
        }
    }
}


class TicketAuth(APIKeyQuery):
    """``?ticket=…`` from ``POST …/ticket``: valid five minutes, for one stream only."""

    param_name = "ticket"

    def authenticate(self, request: HttpRequest, key: str | None) -> Membership | None:
        try:
            claims = credential_check(request, subject=None, authenticate=lambda: ticket_read(key or ""))
        except RateLimited as exc:
            raise too_many(exc) from None
        if not claims:
            return None
        membership = Membership.objects.select_related("workspace", "user").filter(pk=claims["m"]).first()
        if membership is not None:
            request.ticket_job_id = claims["j"]  # type: ignore[attr-defined]
        return membership


T = TypeVar("T")


def releasing_connection(lookup: Callable[..., T]) -> Callable[..., T]:
    """For the lookups before a stream starts. Django runs each request's sync code on a thread of
    its own, whose database connection would otherwise stay open for the stream's whole life: with
    hundreds of streams, more than the database allows. Closed here, a waiting stream holds no
    connection (its reads open and close their own, see ``redline.jobs.streams``)."""

    @wraps(lookup)
    def wrapper(*args: object, **kwargs: object) -> T:
        try:
            return lookup(*args, **kwargs)
        finally:
            if not connection.in_atomic_block:  # (inside a test's transaction it must stay open)
                connection.close()

    return wrapper


def last_event_id(request: HttpRequest) -> int:
    raw = request.headers.get("Last-Event-ID", "") or request.GET.get("last_event_id", "")
    return int(raw) if raw.isdigit() else 0


def stream_response(request: HttpRequest, job_id: int) -> StreamingHttpResponse:
    response = StreamingHttpResponse(event_stream(job_id, after=last_event_id(request)),
                                     content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


@releasing_connection
def job_for_stream(request: HttpRequest, job_id: int) -> Job:
    """The job, scoped to the caller's workspace; a ticket only opens the job it was issued for."""
    ticket_job = getattr(request, "ticket_job_id", None)
    if ticket_job is not None and ticket_job != job_id:
        raise NotFound("Job", job_id)
    return selectors.job_get(workspace=request.auth.workspace, job_id=job_id)
