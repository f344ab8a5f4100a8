"""The dashboard's notion of "current workspace": chosen in the session, checked on every request."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from redline import selectors
from redline.models import Membership

SESSION_KEY = "workspace_id"


def current_membership(request: HttpRequest) -> Membership:
    """The user's membership for the session's workspace (falling back to their first)."""
    membership = selectors.membership_for_user(user_id=request.user.pk, workspace_id=request.session.get(SESSION_KEY))
    if membership is None:
        membership = selectors.membership_for_user(user_id=request.user.pk)
    if membership is None:
        raise PermissionDenied("You are not a member of any workspace.")
    request.session[SESSION_KEY] = membership.workspace_id
    return membership
