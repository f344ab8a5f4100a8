"""Requests carrying a NUL character are refused before any view sees them.

PostgreSQL cannot store U+0000 in a text or jsonb value (``DataError``), and XML
cannot hold it at all, so a NUL typed into a feedback reason, a preference, a
paragraph sent by the add-in or a dashboard filter would otherwise end as a 500
on PostgreSQL only, the database this product runs on in production (Schemathesis
found it). One rule for every request, API and dashboard: a NUL in the path, a
query parameter, a form field or a JSON string is a 400 ``nul_character``.
Files in a multipart body are bytes, not text, and are not looked at.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.http.multipartparser import MultiPartParserError

NUL = "\x00"
CODE = "nul_character"
MESSAGE = "Text cannot contain the NUL character (U+0000)."
_FORMS = ("multipart/form-data", "application/x-www-form-urlencoded")


def has_nul(request: HttpRequest) -> bool:
    """True when the request's path, query, form fields or JSON strings contain a NUL."""
    if NUL in request.path or _in_lists(request.GET.lists()):
        return True
    if request.method not in ("POST", "PUT", "PATCH"):
        return False
    try:
        if request.content_type == "application/json":
            body = request.body
            # A JSON string holds a NUL only as the escape \u0000: parse only bodies that might.
            return b"\\u0000" in body and _in_json(body)
        if request.content_type in _FORMS:
            return _in_lists(request.POST.lists())
    except (MultiPartParserError, SuspiciousOperation, ValueError):
        pass  # too large for Django's cap, or malformed: the view refuses it in its own words (413, 400)
    return False


def _in_lists(items: Any) -> bool:
    return any(NUL in key or any(NUL in value for value in values) for key, values in items)


def _in_json(body: bytes) -> bool:
    try:
        stack = [json.loads(body)]
    except ValueError:
        return False  # not JSON: the parser refuses it
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if NUL in node:
                return True
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def nul_guard_middleware(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable:
    def middleware(request: HttpRequest) -> HttpResponse:
        if has_nul(request):
            if request.path.startswith("/api/"):
                return JsonResponse({"code": CODE, "message": MESSAGE, "detail": {}}, status=400)
            return HttpResponseBadRequest(MESSAGE, content_type="text/plain; charset=utf-8")
        return get_response(request)

    return middleware
