"""Failed logins and failed key (or stream ticket) authentications are limited.

Each failure increments counters in the Django cache (shared by every process
when Redis is configured) that live for a fixed window from the first failure:
per client address, and per username (logins) or per key prefix (keys).

- Logins: failures count per (username, address) pair, and per address with a
  higher bar; once either is reached, every attempt for that pair (or from that
  address) is refused until the window ends (a password can be guessed: a correct
  one must not get through either), with 429, ``Retry-After`` and a page that says
  when to try again, and an ``auth.login_locked`` audit event. Failing from one
  address never locks the account from another.
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
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.http import HttpRequest

from ..models import AuditEvent, Membership
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


def is_locked(scope: str, ident: str, limit: int | None = None) -> bool:
    """Whether ``ident`` (an address, a username) has used up its ``limit`` failures (default
    ``REDLINE_AUTH_FAILURE_LIMIT``) in this window."""
    return (cache.get(_key(scope, ident)) or 0) >= (settings.REDLINE_AUTH_FAILURE_LIMIT if limit is None else limit)


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
    """Django's username/password backend, refusing every attempt while the (username, address) pair, or the
    address, is locked (see :func:`login_lock`). The request is marked (``request.login_retry_after``) so the
    sign-in pages answer 429 saying when to try again; Django reports the refusal as a failed login."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> AbstractBaseUser | None:
        retry_after = login_lock(request, username or "")
        if retry_after:
            logger.warning("login refused: too many failures (ip %s)", client_ip(request))
            if request is not None:
                request.login_retry_after = retry_after  # type: ignore[attr-defined]
            raise PermissionDenied("too many failed logins")
        return super().authenticate(request, username=username, password=password, **kwargs)


def _pair(request: HttpRequest | None, username: str) -> str:
    return f"{username.strip().lower()}|{client_ip(request)}"


def login_lock(request: HttpRequest | None, username: str) -> int:
    """Seconds until sign-in may be tried again for this username from this address (0: not locked).

    Failures count per (username, address) pair, so nobody can lock a user out by failing from elsewhere, and
    per address with a higher bar (``REDLINE_LOGIN_ADDRESS_FAILURE_LIMIT``), so one person's typos behind an
    office's one address do not lock out everyone behind it, while a guesser cycling usernames is stopped."""
    pair, address = _pair(request, username), client_ip(request)
    if is_locked("login-pair", pair):
        return _retry_after("login-pair", pair)
    if is_locked("login-ip", address, settings.REDLINE_LOGIN_ADDRESS_FAILURE_LIMIT):
        return _retry_after("login-ip", address)
    return 0


def retry_minutes(seconds: int) -> int:
    """Whole minutes to wait before signing in again, rounded up (0 when not locked)."""
    return -(-seconds // 60) if seconds else 0


def _retry_after(scope: str, ident: str) -> int:
    until = cache.get(_key(scope, ident) + ":until")
    return max(1, int(until - time.time()) + 1) if until else settings.REDLINE_AUTH_FAILURE_WINDOW_S


@receiver(user_login_failed)
def count_login_failure(sender: object, credentials: dict[str, Any], request: HttpRequest | None = None,
                        **_: Any) -> None:
    """Count a failed sign-in; when it locks the pair or the address, say so in the account's audit log."""
    username = str(credentials.get("username") or "")
    address = client_ip(request)
    window = settings.REDLINE_AUTH_FAILURE_WINDOW_S
    for scope, ident in (("login-pair", _pair(request, username)), ("login-ip", address)):
        cache.add(_key(scope, ident) + ":until", time.time() + window, window)
    locked_pair = record_failure("login-pair", _pair(request, username)) == settings.REDLINE_AUTH_FAILURE_LIMIT
    locked_address = record_failure("login-ip", address) == settings.REDLINE_LOGIN_ADDRESS_FAILURE_LIMIT
    if (locked_pair or locked_address) and username:
        _audit_lock(username, address, "address" if locked_address else "account", window)


def _audit_lock(username: str, address: str, scope: str, seconds: int) -> None:
    """An ``auth.login_locked`` event in each workspace of the account signed in to, for its admins."""
    user = get_user_model().objects.filter(username__iexact=username).first()
    if user is None:
        return
    for membership in Membership.objects.filter(user=user).select_related("workspace"):
        AuditEvent.objects.create(workspace=membership.workspace, actor=None, action="auth.login_locked",
                                  target=f"user:{user.get_username()}",
                                  detail={"address": address, "locked": scope, "minutes": round(seconds / 60, 1),
                                          "failures": settings.REDLINE_AUTH_FAILURE_LIMIT if scope == "account"
                                          else settings.REDLINE_LOGIN_ADDRESS_FAILURE_LIMIT})
