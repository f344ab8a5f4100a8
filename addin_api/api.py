"""The add-in API: one NinjaAPI, one router per resource, one error shape.

Every 4xx body is ``{"code", "message", "detail"}``; handlers below are the only
place errors are shaped. Unexpected exceptions become a 500 with a generic body
(logged server-side, never echoed).
"""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser
from ninja.types import DictStrAny

from redline.errors import ApplicationError
from redline.server.dbdown import unavailable_response

from .auth import ApiKeyAuth
from .docs import ApiDocs
from .routers import (
    addin,
    analytics,
    audit,
    clauses,
    compare,
    documents,
    health,
    jobs,
    patches,
    preferences,
    revisions,
    runs,
    suggestions,
)

logger = logging.getLogger(__name__)


class ObjectBodyParser(Parser):
    """JSON bodies must be objects: ninja's schemas would read ``[1, 2]``, ``"text"``, ``7`` or
    ``null`` as an empty object and carry on with the defaults. Refused here, they are a 400
    (an optional body is left out, or sent as ``{}``)."""

    def parse_body(self, request: HttpRequest) -> DictStrAny:
        data = json.loads(request.body)
        if not isinstance(data, dict):
            raise ValueError("The request body must be a JSON object.")
        return data


ERROR_SCHEMA = {"$ref": "#/components/schemas/ErrorOut"}


def document_errors(schema: dict) -> dict:
    """Document the error responses every operation can give beyond its own: 400 (an
    ``ApplicationError``'s default status, or a body that is not a JSON object), 401/429 behind a
    key, 422 for parameters or a body, 413 for a body, 404 for path ids. They come from shared
    layers, so no router lists them, yet clients receive them."""
    for ops in schema["paths"].values():
        for method, op in ops.items():
            params = op.get("parameters", [])
            possible = {
                401: bool(op.get("security")), 429: bool(op.get("security")),
                422: bool(params or op.get("requestBody")), 400: True,
                413: method in ("post", "put", "patch"), 404: any(p["in"] == "path" for p in params),
            }
            responses = op.setdefault("responses", {})
            for status, applies in possible.items():
                if applies and status not in responses and str(status) not in responses:
                    responses[status] = {"description": ERROR_DESCRIPTIONS[status],
                                         "content": {"application/json": {"schema": ERROR_SCHEMA}}}
    return schema


ERROR_DESCRIPTIONS = {
    400: "The request cannot be carried out (``code`` says why), or its body is not a JSON object.", 401: "A valid API key is required.", 404: "Not found.",
    413: "The body is larger than the limit.", 422: "The request is not valid.",
    429: "Too many failed attempts; try again later.",
}


class RedlineAPI(NinjaAPI):
    """The NinjaAPI whose OpenAPI document also lists the errors of its shared layers."""

    def get_openapi_schema(self, *args: object, **kwargs: object) -> dict:
        return document_errors(super().get_openapi_schema(*args, **kwargs))


api = RedlineAPI(
    title="Redline add-in API",
    version="1.0",
    description="Contract review for the Word add-in: documents, runs, suggestions keyed to anchors, feedback.",
    auth=ApiKeyAuth(),
    urls_namespace="api",
    docs=ApiDocs(),
    parser=ObjectBodyParser(),
)

api.add_router("/health", health.router)
api.add_router("/documents", documents.router)
api.add_router("/documents", runs.document_runs)
api.add_router("/documents", revisions.router)
api.add_router("/documents", clauses.router)
api.add_router("/documents", compare.router)
api.add_router("/jobs", jobs.router)
api.add_router("/runs", runs.router)
api.add_router("/runs", addin.router)
api.add_router("/runs", patches.router)
api.add_router("/suggestions", suggestions.router)
api.add_router("/preferences", preferences.router)
api.add_router("/analytics", analytics.router)
api.add_router("/audit", audit.router)


def error_response(request: HttpRequest, status: int, code: str, message: str, detail: dict | None = None) -> HttpResponse:
    return api.create_response(request, {"code": code, "message": message, "detail": detail or {}}, status=status)


@api.exception_handler(ApplicationError)
def on_application_error(request: HttpRequest, exc: ApplicationError) -> HttpResponse:
    response = error_response(request, exc.status, exc.code, exc.message, exc.detail)
    if exc.status == 429 and "retry_after" in exc.detail:
        response["Retry-After"] = str(exc.detail["retry_after"])
    return response


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


@api.exception_handler(RequestDataTooBig)
def on_body_too_big(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    """A body without Content-Length that grew past Django's cap (sized bodies never get here)."""
    return error_response(request, 413, "too_large", "The request body is larger than the limit.",
                          {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE})


@api.exception_handler(OperationalError)
@api.exception_handler(InterfaceError)
def on_database_unavailable(request: HttpRequest, exc: Exception) -> HttpResponse:
    """The database away (stopped, restarting, its pool exhausted): 503 with Retry-After, not a 500."""
    logger.warning("database unavailable on %s %s: %s", request.method, request.path, exc)
    return unavailable_response(request)


@api.exception_handler(Exception)
def on_unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
    logger.exception("unhandled API error on %s %s", request.method, request.path)
    return error_response(request, 500, "internal_error", "Something went wrong on our side; it has been logged.")
