"""Bearer-key authentication for the add-in API.

A valid key attaches its membership to the request (``request.auth``); every
router reads the workspace from there and nowhere else.
"""

from __future__ import annotations

from django.http import HttpRequest
from ninja.security import HttpBearer

from redline.errors import ApplicationError
from redline.models import Membership, Role
from redline.services.accounts import api_key_authenticate


class ApiKeyAuth(HttpBearer):
    """``Authorization: Bearer rl_<prefix>_<secret>`` → the key's :class:`Membership`."""

    def authenticate(self, request: HttpRequest, token: str) -> Membership | None:
        key = api_key_authenticate(secret=token)
        return key.membership if key else None


def require_admin(request: HttpRequest) -> Membership:
    """The caller's membership if it may change workspace settings (role ``admin``), else 403."""
    membership: Membership = request.auth
    if membership.role != Role.ADMIN:
        raise ApplicationError("forbidden", "Only workspace admins can do this.", status=403)
    return membership
