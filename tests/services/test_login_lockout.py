"""Issue #31 (3) on the scale-out stack: sign-in failures counted in Redis, through a real uvicorn. A
guesser locks the account only for its own address and is told so (429, Retry-After); a colleague behind the
same address signs in."""

from __future__ import annotations

import re

import httpx
import pytest
from django.core.cache import cache

from tests.conftest import make_member
from tests.support.asgi_server import asgi_server

pytestmark = pytest.mark.usefixtures("require_postgres")


@pytest.fixture
def redis_cache(settings, redis_server):
    settings.CACHES = {"default": {"BACKEND": "redline.server.cache_backend.TolerantRedisCache",
                                   "LOCATION": redis_server.url,
                                   "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 2.0}}}
    settings.REDLINE_AUTH_FAILURE_LIMIT, settings.REDLINE_LOGIN_ADDRESS_FAILURE_LIMIT = 3, 20
    cache.clear()
    yield
    cache.clear()


def _sign_in(server: str, username: str, password: str) -> httpx.Response:
    with httpx.Client(base_url=server, timeout=20) as http:
        page = http.get("/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
        return http.post("/login/", data={"username": username, "password": password, "csrfmiddlewaretoken": token})


def test_a_guesser_locks_one_account_from_its_own_address_and_is_told_so(alice, redis_cache):
    bob = make_member("Bob")
    with asgi_server() as server:
        assert _sign_in(server, "alice", alice.password).status_code == 302  # positive control
        answers = [_sign_in(server, "alice", "wrong").status_code for _ in range(3)]
        locked = _sign_in(server, "alice", alice.password)
        colleague = _sign_in(server, "bob", bob.password)
    assert answers == [200, 200, 200]
    assert locked.status_code == 429 and 0 < int(locked.headers["Retry-After"]) <= 300
    assert "is locked for" in locked.text
    assert colleague.status_code == 302  # same address, another account: not locked out
