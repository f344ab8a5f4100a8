"""Issue #31 (5, 7): forwarded headers are believed only from a trusted proxy.

Through a real uvicorn run as the README runs it: with HTTPS mode on, a plain-HTTP request that says
``X-Forwarded-Proto: https`` skipped the redirect and could sign in over cleartext; and behind trusted
proxies, a forwarded entry that is no address ("evil") became the client's "address"."""

from __future__ import annotations

import re

import httpx
import pytest
from django.test import RequestFactory

from redline.server.proxies import client_ip
from tests.support.asgi_server import asgi_server


@pytest.fixture
def https_mode(settings):
    """REDLINE_TLS=1's settings (redline/settings.py)."""
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_REDIRECT_EXEMPT = [r"^api/health$"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    return settings


def _sign_in(http: httpx.Client, server: str, alice, proto: str) -> httpx.Response:
    page = http.get(f"{server}/login/", headers={"X-Forwarded-Proto": proto})
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    data = {"username": alice.membership.user.get_username(), "password": alice.password,
            "csrfmiddlewaretoken": token.group(1) if token else ""}
    cookie = page.cookies.get("csrftoken")  # a Secure cookie: the TLS-terminating proxy would carry it back
    return http.post(f"{server}/login/", data=data, headers={
        "X-Forwarded-Proto": proto, "Referer": server.replace("http://", "https://") + "/login/",
        **({"Cookie": f"csrftoken={cookie}"} if cookie else {})})


@pytest.mark.django_db(transaction=True)
def test_a_client_saying_x_forwarded_proto_https_is_still_redirected_and_cannot_sign_in(alice, https_mode):
    https_mode.REDLINE_TRUSTED_PROXIES = []
    with asgi_server() as server, httpx.Client(follow_redirects=False, timeout=10) as http:
        page = http.get(f"{server}/login/", headers={"X-Forwarded-Proto": "https"})
        assert page.status_code == 301 and page.headers["location"].startswith("https://")
        signed = _sign_in(http, server, alice, "https")
        assert signed.status_code == 301 and "sessionid" not in signed.cookies  # no session over cleartext
        assert http.get(f"{server}/api/health").status_code in (200, 503)  # the load balancer's check stays exempt


@pytest.mark.django_db(transaction=True)
def test_the_same_header_from_the_trusted_proxy_is_believed(alice, https_mode):
    # Positive control: the proxy in front (here, the loopback peer) terminates TLS and says so.
    https_mode.REDLINE_TRUSTED_PROXIES = ["127.0.0.1"]
    with asgi_server() as server, httpx.Client(follow_redirects=False, timeout=10) as http:
        assert http.get(f"{server}/login/").status_code == 301  # plain HTTP through the proxy: redirected
        page = http.get(f"{server}/login/", headers={"X-Forwarded-Proto": "https"})
        assert page.status_code == 200 and 'name="password"' in page.text
        signed = _sign_in(http, server, alice, "https")
        assert signed.status_code == 302 and "sessionid" in signed.cookies


@pytest.mark.parametrize("forwarded,expected", [
    ("evil", "10.1.2.3"),  # nothing usable: the peer
    ("unknown, 203.0.113.5", "203.0.113.5"),
    ("203.0.113.5, evil, 10.1.9.9", "203.0.113.5"),  # the garbage entry is skipped, not taken for the client
    ("2001:db8::7", "2001:db8::7"),
])
def test_behind_trusted_proxies_only_forwarded_addresses_count(settings, forwarded, expected):
    settings.REDLINE_TRUSTED_PROXIES = ["10.1.0.0/16"]
    request = RequestFactory().get("/", REMOTE_ADDR="10.1.2.3", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected


def test_without_trusted_proxies_the_peer_is_the_client(settings):
    settings.REDLINE_TRUSTED_PROXIES = []
    request = RequestFactory().get("/", REMOTE_ADDR="198.51.100.4", HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert client_ip(request) == "198.51.100.4"
