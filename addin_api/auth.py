"""Bearer-key authentication for the add-in API.

A valid key attaches its membership to the request (``request.auth``); every
router reads the workspace from there and nowhere else.
"""

from __future__ import annotations

from django.http import HttpRequest
from ninja.security import HttpBearer

from redline.models import Membership
from redline.services.accounts import api_key_authenticate


class ApiKeyAuth(HttpBearer):
    """``Authorization: Bearer rl_<prefix>_<secret>`` → the key's :class:`Membership`."""

    def authenticate(self, request: HttpRequest, token: str) -> Membership | None:
        key = api_key_authenticate(secret=token)
        return key.membership if key else None
