"""The add-in API: one NinjaAPI, one router per resource, one error shape.

Every 4xx body is ``{"code", "message", "detail"}``; handlers below are the only
place errors are shaped. Unexpected exceptions become a 500 with a generic body
(logged server-side, never echoed).
"""

from __future__ import annotations

import logging

from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from redline.errors import ApplicationError

from .auth import ApiKeyAuth
from .routers import addin, analytics, documents, health, jobs, preferences, revisions, runs, suggestions

logger = logging.getLogger(__name__)

api = NinjaAPI(
    title="Redline add-in API",
    version="1.0",
    description="Contract review for the Word add-in: documents, runs, suggestions keyed to anchors, feedback.",
    auth=ApiKeyAuth(),
    urls_namespace="api",
)

api.add_router("/health", health.router)
api.add_router("/documents", documents.router)
api.add_router("/documents", runs.document_runs)
api.add_router("/documents", revisions.router)
api.add_router("/jobs", jobs.router)
api.add_router("/runs", runs.router)
api.add_router("/runs", addin.router)
api.add_router("/suggestions", suggestions.router)
api.add_router("/preferences", preferences.router)
api.add_router("/analytics", analytics.router)


def error_response(request: HttpRequest, status: int, code: str, message: str, detail: dict | None = None) -> HttpResponse:
    return api.create_response(request, {"code": code, "message": message, "detail": detail or {}}, status=status)


@api.exception_handler(ApplicationError)
def on_application_error(request: HttpRequest, exc: ApplicationError) -> HttpResponse:
    return error_response(request, exc.status, exc.code, exc.message, exc.detail)


@api.exception_handler(AuthenticationError)
def on_auth_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return error_response(request, 401, "unauthorized", "A valid API key is required (Authorization: Bearer <key>).")


@api.exception_handler(ValidationError)
def on_validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    errors = [{"loc": list(e.get("loc", [])), "msg": e.get("msg", ""), "type": e.get("type", "")} for e in exc.errors]
    return error_response(request, 422, "validation_error", "The request is not valid.", {"errors": errors})


@api.exception_handler(Http404)
def on_not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error_response(request, 404, "not_found", "Not found.")


@api.exception_handler(HttpError)
def on_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    code = {400: "bad_request", 405: "method_not_allowed", 413: "too_large"}.get(exc.status_code, "error")
    return error_response(request, exc.status_code, code, str(exc.message))


@api.exception_handler(Exception)
def on_unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
    logger.exception("unhandled API error on %s %s", request.method, request.path)
    return error_response(request, 500, "internal_error", "Something went wrong on our side; it has been logged.")
