"""The API's interactive docs (Swagger UI), with the one Content Security Policy they need.

API responses are data and get ``default-src 'none'`` (redline/server/security.py), which
leaves this page blank: Swagger UI is a script and a stylesheet. The docs page alone
is given scripts, styles and images from our own origin (django-ninja's vendored
copies, no CDN) and requests to our own origin for ``openapi.json``; nothing inline,
nothing from elsewhere, and it still may not be framed.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.openapi.docs import Swagger

DOCS_CSP = "; ".join([
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
])


class ApiDocs(Swagger):
    """Swagger UI from ``templates/api/docs.html`` (a ``lang``, our title), under :data:`DOCS_CSP`."""

    template = "api/docs.html"
    # Deep links put a link inside each operation's expand button (nested controls, which
    # screen readers cannot reach); without them each operation is one plain button.
    default_settings = {**Swagger.default_settings, "deepLinking": False}

    def render_page(self, request: HttpRequest, api: NinjaAPI, **kwargs: Any) -> HttpResponse:
        response = super().render_page(request, api, **kwargs)
        response["Content-Security-Policy"] = DOCS_CSP
        return response
