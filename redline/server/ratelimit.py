"""Failed logins and failed key (or stream ticket) authentications are limited.

Each failure increments counters in the Django cache (shared by every process
when Redis is configured) that live for a fixed window from the first failure:
per client address, and per username (logins) or per key prefix (keys).

- Logins: once the address or the username reached the limit, every attempt is
  refused until the window ends (a password can be guessed: a correct one must
  not get through either).
- Keys: a key that authenticates is always accepted, whatever failed before from
  its address (an office behind one NAT address must not be locked out by one
  member's revoked key): its 256-bit secret cannot be guessed, so the limit is on
  failures: past the limit for the address or the key prefix, a failing attempt
  is answered 429 instead of 401.

Successful attempts are not counted. The client address is
:func:`redline.server.proxies.client_ip`: a client cannot pick its own address by sending a header. When the cache is
unavailable the limiter fails open (logged by the cache backend): availability of
sign-in matters more than the throttle.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.http import HttpRequest

from .proxies import client_ip

logger = logging.getLogger(__name__)


T = TypeVar("T")


class RateLimited(Exception):
    """Too many failures: the caller answers 429 with ``Retry-After``."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("too many failed authentication attempts")
        self.retry_after = retry_after


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


def credential_check(request: HttpRequest, *, subject: str | None, authenticate: Callable[[], T | None]) -> T | None:
    """Run ``authenticate`` (a key or ticket check); count a failure against the address and
    ``subject`` (a key prefix), raising :class:`RateLimited` once either is past the limit.
    What authenticates is returned whatever failed before (see the module docstring)."""
    found = authenticate()
    if found is not None:
        return found
    limit = settings.REDLINE_AUTH_FAILURE_LIMIT
    over = record_failure("api-ip", client_ip(request)) > limit
    if subject:
        over = record_failure("api-key", subject) > limit or over
    if over:
        logger.warning("key authentication refused: too many failures (ip %s)", client_ip(request))
        raise RateLimited(settings.REDLINE_AUTH_FAILURE_WINDOW_S)
    return None


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
