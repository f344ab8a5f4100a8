"""Security headers that views do not set themselves: a Content Security Policy.

Dashboard pages get a strict policy: everything from our own origin (htmx and
the dashboard script are vendored under /static/), no inline script, no
framing. htmx injects one fixed ``<style>`` for its request indicators; its hash
is allowed rather than ``'unsafe-inline'``. API responses are data, never
documents: ``default-src 'none'``. A response that already carries a policy is
left alone: the Word add-in's pages set their own, with the ``frame-ancestors``
Office needs. HSTS and secure cookies are settings, switched on by
``REDLINE_TLS=true`` (see settings), and sent by Django's SecurityMiddleware.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware

# htmx 2's indicator style, exactly as it inserts it (static/vendor/htmx.min.js).
HTMX_INDICATOR_STYLE = (".htmx-indicator{opacity:0;visibility: hidden} .htmx-request .htmx-indicator, "
                        ".htmx-request.htmx-indicator{opacity:1;visibility: visible;transition: opacity 200ms ease-in}")
_HTMX_STYLE_HASH = base64.b64encode(hashlib.sha256(HTMX_INDICATOR_STYLE.encode()).digest()).decode()

DASHBOARD_CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    f"style-src 'self' 'sha256-{_HTMX_STYLE_HASH}'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
API_CSP = "default-src 'none'; frame-ancestors 'none'"


def with_security_headers(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    if "Content-Security-Policy" not in response:
        response["Content-Security-Policy"] = API_CSP if request.path.startswith("/api/") else DASHBOARD_CSP
    return response


@sync_and_async_middleware
def security_headers_middleware(get_response: Callable) -> Callable:
    if iscoroutinefunction(get_response):
        async def middleware(request: HttpRequest) -> HttpResponse:
            return with_security_headers(request, await get_response(request))
    else:
        def middleware(request: HttpRequest) -> HttpResponse:
            return with_security_headers(request, get_response(request))
    return middleware
