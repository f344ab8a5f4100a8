"""The database away is a 503 that says to retry, not a 500 after ten seconds.

A request that cannot reach PostgreSQL (stopped, restarting, its pool exhausted past the wait) answers
503 ``database_unavailable`` with ``Retry-After``, in the API's error shape or as a page; with the pool's
wait (``REDLINE_DB_POOL_TIMEOUT``) and the connect timeout at two seconds it does so within about two.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.deprecation import MiddlewareMixin

logger = logging.getLogger(__name__)

RETRY_AFTER_S = 5
MESSAGE = "The database is unavailable at the moment; nothing was changed. Try again in a few seconds."
UNAVAILABLE = (OperationalError, InterfaceError)


def unavailable_response(request: HttpRequest) -> HttpResponse:
    """503 ``database_unavailable`` with ``Retry-After``: JSON under ``/api/``, a page elsewhere."""
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"code": "database_unavailable", "message": MESSAGE, "detail": {"retry_after": RETRY_AFTER_S}},
            status=503)
    else:
        response = HttpResponse(render_to_string("503.html", {"retry_after": RETRY_AFTER_S}), status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    return response


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """Turns a view's database connection failure into :func:`unavailable_response` (the API's operations
    get the same from their exception handler)."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, UNAVAILABLE):
            logger.warning("database unavailable on %s %s: %s", request.method, request.path, exception)
            return unavailable_response(request)
        return None
