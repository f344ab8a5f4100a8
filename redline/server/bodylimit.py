"""Request bodies over the limit are refused from their ``Content-Length``, before a byte is read.

Two layers share one rule. Under uvicorn the ASGI wrapper (``redline.asgi``)
answers 413 before Django's handler spools the body, and counts a chunked body
(no ``Content-Length``) as it arrives, cutting it off at the limit; under WSGI
(tests, tooling) the Django middleware does it before anything touches
``request.body``. Past both, Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` still
applies when a body is read, and the API maps it to the same 413.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.decorators import sync_and_async_middleware

UPLOAD_PATH = "/api/documents"
MULTIPART_SLACK = 64 * 1024  # boundaries and the title field around the file
_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})


def body_limit(method: str, path: str) -> int | None:
    """The largest body accepted for this request, or None when this layer does not limit it."""
    if method not in _WITH_BODY or not path.startswith("/api/"):
        return None
    if path.rstrip("/") == UPLOAD_PATH:
        return settings.REDLINE_MAX_UPLOAD_BYTES + MULTIPART_SLACK
    return settings.REDLINE_MAX_JSON_BYTES


def too_large(length: int | None, limit: int | None) -> bool:
    return limit is not None and length is not None and length > limit


def error_body(limit: int) -> dict[str, Any]:
    return {"code": "too_large", "message": "The request body is larger than the limit.", "detail": {"limit": limit}}


def _content_length(raw: str | bytes | None) -> int | None:
    try:
        return int(raw) if raw else None
    except ValueError:
        return None


@sync_and_async_middleware
def body_limit_middleware(get_response: Callable) -> Callable:
    """Django middleware: 413 from the header, leaving the body unread."""

    def refusal(request: HttpRequest) -> HttpResponse | None:
        limit = body_limit(request.method or "", request.path)
        if too_large(_content_length(request.META.get("CONTENT_LENGTH")), limit):
            return JsonResponse(error_body(limit), status=413)  # type: ignore[arg-type]
        return None

    if iscoroutinefunction(get_response):
        async def middleware(request: HttpRequest) -> HttpResponse:
            return refusal(request) or await get_response(request)
    else:
        def middleware(request: HttpRequest) -> HttpResponse:
            return refusal(request) or get_response(request)
    return middleware


ASGIApp = Callable[[dict, Callable[[], Awaitable[dict]], Callable[[dict], Awaitable[None]]], Awaitable[None]]


class BodyLimitASGI:
    """ASGI wrapper: refuses an oversize body from the request head, never receiving it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        limit = body_limit(scope["method"], scope["path"]) if scope["type"] == "http" else None
        if limit is None:
            await self.app(scope, receive, send)
            return
        length = _content_length(dict(scope.get("headers") or []).get(b"content-length"))
        if too_large(length, limit):
            await _refuse(send, limit)
            return
        await self.app(scope, receive if length is not None else _counted(receive, send, limit), send)


async def _refuse(send: Callable, limit: int) -> None:
    body = json.dumps(error_body(limit)).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def _counted(receive: Callable, send: Callable, limit: int) -> Callable[[], Awaitable[dict]]:
    """For a body without Content-Length (chunked): count as it arrives; past the limit, answer
    413 and tell the app the client left, so Django stops spooling it."""
    received = 0

    async def counted_receive() -> dict:
        nonlocal received
        message = await receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > limit:
                await _refuse(send, limit)
                return {"type": "http.disconnect"}
        return message

    return counted_receive
