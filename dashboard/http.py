"""Requests and responses of the dashboard: one page template per URL, a fragment of it for htmx.

Every view renders its page template; an htmx request gets only the named
``{% partialdef %}`` of that same template, so the fragment and the page can
never drift apart. Responses vary on ``HX-Request`` so a browser cache never
serves a fragment as a page (or the reverse) after back/forward navigation.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from redline.models import Membership

from .context import DashboardRequest, is_admin


def wants_fragment(request: DashboardRequest) -> bool:
    """True for htmx swaps; history restores (back button, cache miss) need the whole page."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def render_page(
    request: DashboardRequest,
    template: str,
    context: dict[str, Any],
    *,
    partial: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """The page, or its ``partial`` for htmx; the nav's membership data is added here once."""
    name = f"{template}#{partial}" if partial and wants_fragment(request) else template
    membership = request.membership
    base = {
        "membership": membership,
        "memberships": Membership.objects.filter(user=request.user).select_related("workspace"),
        "is_admin": is_admin(membership),
    }
    response = render(request, name, {**base, **context}, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response
