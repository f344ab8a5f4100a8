"""What a request's forwarded headers may say, and who the client is.

Behind a reverse proxy, ``X-Forwarded-For`` names the client and ``X-Forwarded-Proto`` says whether it came
over HTTPS. Anyone can send those headers, so they are believed only from a trusted proxy
(``REDLINE_TRUSTED_PROXIES``, default none): :func:`forwarded_headers_middleware` removes every forwarded
header from any other peer before Django reads them (Django's ``SECURE_PROXY_SSL_HEADER`` believes whatever
arrives: a plain-HTTP request saying ``X-Forwarded-Proto: https`` skipped the HTTPS redirect and could sign in
in cleartext), and :func:`client_ip` takes the nearest forwarded entry that is an address and not a trusted
proxy (an entry such as ``unknown`` or ``evil`` is no address and is skipped).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import lru_cache

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware

_FORWARDED = ("HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PORT",
              "HTTP_X_FORWARDED_SSL", "HTTP_FORWARDED", "HTTP_X_REAL_IP")


@lru_cache(maxsize=4)
def _networks(trusted: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in trusted)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def trusted_proxy(address: str) -> bool:
    """Whether ``address`` is one of ``REDLINE_TRUSTED_PROXIES``."""
    ip = _address(address)
    return ip is not None and any(ip in net for net in _networks(tuple(settings.REDLINE_TRUSTED_PROXIES)))


def client_ip(request: HttpRequest | None) -> str:
    """The address the request came from: the peer, or behind trusted proxies the nearest forwarded address
    that is not a trusted proxy (the proxies append; anything further left is what the client claimed)."""
    if request is None:
        return "unknown"
    peer = request.META.get("REMOTE_ADDR") or "unknown"
    if not trusted_proxy(peer):
        return peer
    forwarded = [str(ip) for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if (ip := _address(a))]
    for address in reversed(forwarded):
        if not trusted_proxy(address):
            return address
    return forwarded[0] if forwarded else peer


@sync_and_async_middleware
def forwarded_headers_middleware(get_response: Callable) -> Callable:
    """Drop the forwarded headers of a request that did not come from a trusted proxy (first in the chain)."""

    def strip(request: HttpRequest) -> None:
        if not trusted_proxy(request.META.get("REMOTE_ADDR") or ""):
            for name in _FORWARDED:
                request.META.pop(name, None)

    if iscoroutinefunction(get_response):
        async def middleware(request: HttpRequest) -> HttpResponse:
            strip(request)
            return await get_response(request)

        return middleware

    def sync_middleware(request: HttpRequest) -> HttpResponse:
        strip(request)
        return get_response(request)

    return sync_middleware
