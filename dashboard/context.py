"""The dashboard's notion of "current workspace" and role: chosen in the session, checked on every request."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from redline import selectors
from redline.models import Membership, Role

SESSION_KEY = "workspace_id"
View = Callable[..., HttpResponse]


class DashboardRequest(HttpRequest):
    """What dashboard views receive: htmx details (middleware) and the session's membership."""

    htmx: HtmxDetails
    membership: Membership


def current_membership(request: HttpRequest) -> Membership:
    """The user's membership for the session's workspace (falling back to their first)."""
    membership = selectors.membership_for_user(user_id=request.user.pk, workspace_id=request.session.get(SESSION_KEY))
    if membership is None:
        membership = selectors.membership_for_user(user_id=request.user.pk)
    if membership is None:
        raise PermissionDenied("You are not a member of any workspace.")
    request.session[SESSION_KEY] = membership.workspace_id
    return membership


def member_required(view: View) -> View:
    """Log in first, then attach ``request.membership`` (the only source of the workspace for the view).

    An htmx request from an expired session gets a client redirect, so the login
    page replaces the whole page instead of being swapped into a fragment.
    """

    @wraps(view)
    def wrapper(request: DashboardRequest, *args: object, **kwargs: object) -> HttpResponse:
        if not request.user.is_authenticated:
            if request.htmx:
                return HttpResponseClientRedirect(redirect_to_login(request.htmx.current_url_abs_path or "/").url)
            return redirect_to_login(request.get_full_path())
        request.membership = current_membership(request)
        return view(request, *args, **kwargs)

    return wrapper


def admin_required(view: View) -> View:
    """Like :func:`member_required`, and only for the workspace's admins (others get the 403 page)."""

    @member_required
    @wraps(view)
    def wrapper(request: DashboardRequest, *args: object, **kwargs: object) -> HttpResponse:
        if not is_admin(request.membership):
            raise PermissionDenied("Only workspace admins can do this.")
        return view(request, *args, **kwargs)

    return wrapper


def is_admin(membership: Membership) -> bool:
    """Admins edit playbooks and preferences and manage keys; everyone else reads and gives feedback."""
    return membership.role == Role.ADMIN


def navigation(request: HttpRequest) -> dict[str, object]:
    """Template context processor: the header's workspace data on pages no dashboard view rendered.

    Dashboard views pass these themselves (``render_page``); the 403 and 404 pages
    are rendered by Django, and without this they would lose the navigation. The
    values are callables, so the queries run only when a template shows them.
    """
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    @cache
    def membership() -> Membership | None:
        known = getattr(request, "membership", None)
        return known or selectors.membership_for_user(user_id=user.pk, workspace_id=request.session.get(SESSION_KEY)) \
            or selectors.membership_for_user(user_id=user.pk)

    @cache
    def memberships() -> list[Membership]:
        return list(Membership.objects.filter(user=user).select_related("workspace"))

    return {"membership": membership, "memberships": memberships}
