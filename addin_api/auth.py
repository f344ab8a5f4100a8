"""Bearer-key authentication for the add-in API.

A valid key attaches its membership to the request (``request.auth``); every
router reads the workspace from there and nowhere else.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from ninja.security import HttpBearer

from redline.errors import ApplicationError
from redline.models import Membership, Role
from redline.ratelimit import client_ip, is_locked, record_failure
from redline.services.accounts import api_key_authenticate


def refuse_if_locked(request: HttpRequest) -> None:
    """429 for an address that failed authentication too often in the current window."""
    if is_locked("api", client_ip(request)):
        raise ApplicationError("rate_limited", "Too many failed authentication attempts; try again later.",
                               status=429, detail={"retry_after": settings.REDLINE_AUTH_FAILURE_WINDOW_S})


class ApiKeyAuth(HttpBearer):
    """``Authorization: Bearer rl_<prefix>_<secret>`` → the key's :class:`Membership`."""

    def authenticate(self, request: HttpRequest, token: str) -> Membership | None:
        refuse_if_locked(request)
        key = api_key_authenticate(secret=token)
        if key is None:
            record_failure("api", client_ip(request))
            return None
        return key.membership


def require_admin(request: HttpRequest) -> Membership:
    """The caller's membership if it may change workspace settings (role ``admin``), else 403."""
    membership: Membership = request.auth
    if membership.role != Role.ADMIN:
        raise ApplicationError("forbidden", "Only workspace admins can do this.", status=403)
    return membership
