"""The page for a form sent from a page that is out of date (Django's CSRF failure view).

A CSRF failure in the dashboard is almost never an attack: the page was loaded
before the user signed in or out in another tab (which rotates the token), or the
session ran out. Django's default says "Forbidden (403)", and htmx showed it as
"You don't have permission", which sent admins to ask for a role they already had.
This says what happened and offers the reload that fixes it. htmx requests get a
short text body and ``X-Redline-Error: stale-page``; static/dashboard/app.js shows
it, with a Reload button, next to the control that sent the request.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme

STALE_PAGE = ("This page is out of date: you signed in or out since it was loaded (perhaps in another tab), "
              "so the change was not saved. Reload the page and do it again.")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """403 with what happened and a way back: the page the form was on (same site only), reloaded."""
    if request.headers.get("HX-Request"):
        response = HttpResponse(STALE_PAGE, status=403, content_type="text/plain; charset=utf-8")
    else:
        referer = request.headers.get("Referer", "")
        back = referer if url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()},
                                                          require_https=request.is_secure()) else "/"
        path = urlsplit(back)
        response = render(request, "403_csrf.html", {"message": STALE_PAGE,
                                                     "back": path.path + (f"?{path.query}" if path.query else "")},
                          status=403)
    response["X-Redline-Error"] = "stale-page"
    return response
