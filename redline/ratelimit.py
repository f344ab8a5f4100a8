"""Failed logins and failed API-key authentications are limited per client address.

Each failure increments a counter in the Django cache (shared by every process
when Redis is configured) that lives for a fixed window from the first failure;
once it reaches the limit, further attempts from that address (or, for logins,
for that username) are refused until the window ends: the API answers 429 in the
error shape, the login backend refuses to authenticate. Successful attempts are not
counted. When the cache is unavailable the limiter fails open (logged by the
cache backend): availability of sign-in matters more than the throttle.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.http import HttpRequest

logger = logging.getLogger(__name__)


def client_ip(request: HttpRequest | None) -> str:
    """The address the request came from (set REMOTE_ADDR correctly behind a proxy)."""
    return (request.META.get("REMOTE_ADDR") or "unknown") if request is not None else "unknown"


def _key(scope: str, ident: str) -> str:
    return f"redline:authfail:{scope}:{hashlib.sha256(ident.encode()).hexdigest()[:32]}"


def is_locked(scope: str, ident: str) -> bool:
    """Whether ``ident`` (an address, a username) has used up its failures in this window."""
    return (cache.get(_key(scope, ident)) or 0) >= settings.REDLINE_AUTH_FAILURE_LIMIT


def record_failure(scope: str, ident: str) -> int:
    """Count one failure; returns the count in the current window (0 when the cache is down)."""
    key = _key(scope, ident)
    cache.add(key, 0, settings.REDLINE_AUTH_FAILURE_WINDOW_S)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr: start a new window
        cache.set(key, 1, settings.REDLINE_AUTH_FAILURE_WINDOW_S)
        return 1


class ThrottledModelBackend(ModelBackend):
    """Django's username/password backend, refusing every attempt for a locked address or username
    (PermissionDenied: Django stops there and reports a failed login)."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> AbstractBaseUser | None:
        if is_locked("login-ip", client_ip(request)) or (username and is_locked("login-user", username.lower())):
            logger.warning("login refused: too many failures (ip %s)", client_ip(request))
            raise PermissionDenied("too many failed logins")
        return super().authenticate(request, username=username, password=password, **kwargs)


@receiver(user_login_failed)
def count_login_failure(sender: object, credentials: dict[str, Any], request: HttpRequest | None = None,
                        **_: Any) -> None:
    record_failure("login-ip", client_ip(request))
    if credentials.get("username"):
        record_failure("login-user", str(credentials["username"]).lower())
