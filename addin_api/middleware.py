"""Every ``/api/`` error answers in the one error shape, even the ones Django makes itself.

Ninja's exception handlers (``addin_api.api``) shape everything that reaches an
operation; this catches what does not: an unknown path under ``/api/`` (Django's
HTML 404 page) and an unsupported method (a plain-text 405).
"""

from __future__ import annotations

from collections.abc import Callable

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.decorators import sync_and_async_middleware

CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
         413: "too_large", 429: "rate_limited"}
MESSAGES = {404: "Not found.", 405: "This method is not allowed here."}


def shaped(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The response, or its error-shape equivalent when an /api/ error is not JSON."""
    if (response.status_code < 400 or not request.path.startswith("/api/") or response.streaming
            or response.get("Content-Type", "").startswith("application/json")):
        return response
    status = response.status_code
    code = CODES.get(status, "internal_error" if status >= 500 else "error")
    message = MESSAGES.get(status, "Something went wrong on our side." if status >= 500 else "The request failed.")
    out = JsonResponse({"code": code, "message": message, "detail": {}}, status=status)
    if response.has_header("Allow"):
        out["Allow"] = response["Allow"]
    return out


@sync_and_async_middleware
def api_error_shape_middleware(get_response: Callable) -> Callable:
    if iscoroutinefunction(get_response):
        async def middleware(request: HttpRequest) -> HttpResponse:
            return shaped(request, await get_response(request))
    else:
        def middleware(request: HttpRequest) -> HttpResponse:
            return shaped(request, get_response(request))
    return middleware
