"""Bearer-key authentication for the add-in API.

A valid key attaches its membership to the request (``request.auth``); every
router reads the workspace from there and nowhere else.
"""

from __future__ import annotations

from django.http import HttpRequest
from ninja.security import HttpBearer

from redline.errors import ApplicationError
from redline.models import ApiKey, Membership, Role
from redline.server.ratelimit import RateLimited, credential_check
from redline.services.accounts import api_key_authenticate, api_key_prefix


def bearer_key(request: HttpRequest, token: str) -> ApiKey | None:
    """The live key for ``token``, through the failure limiter (raises ``RateLimited``): the one way
    every path that takes a key checks it."""
    return credential_check(request, subject=api_key_prefix(token),
                            authenticate=lambda: api_key_authenticate(secret=token))


def too_many(exc: RateLimited) -> ApplicationError:
    return ApplicationError("rate_limited", "Too many failed authentication attempts; try again later.",
                            status=429, detail={"retry_after": exc.retry_after})


class ApiKeyAuth(HttpBearer):
    """``Authorization: Bearer rl_<prefix>_<secret>`` → the key's :class:`Membership`."""

    def authenticate(self, request: HttpRequest, token: str) -> Membership | None:
        try:
            key = bearer_key(request, token)
        except RateLimited as exc:
            raise too_many(exc) from None
        if key is None:
            return None
        request.api_key_id = key.pk  # type: ignore[attr-defined]  (a stream ticket dies with the key)
        return key.membership


def require_admin(request: HttpRequest) -> Membership:
    """The caller's membership if it may change workspace settings (role ``admin``), else 403."""
    membership: Membership = request.auth
    if membership.role != Role.ADMIN:
        raise ApplicationError("forbidden", "Only workspace admins can do this.", status=403)
    return membership
