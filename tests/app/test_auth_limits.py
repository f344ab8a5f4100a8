"""Every path that checks a key, a stream ticket or a password goes through the failure limiter;
failures count per address and per key prefix; a key that authenticates is never refused for
what others did from its address (one office behind a NAT); and X-Forwarded-For is believed only
from the trusted proxies (none by default), through a real uvicorn run as the README runs it."""

from __future__ import annotations

import httpx
import pytest
from django.core.cache import cache
from django.test import Client

from redline.models import ApiKey
from redline.services.accounts import api_key_issue, api_key_revoke
from tests.conftest import make_member
from tests.support.asgi_server import asgi_server

LIMIT = 3
ADDRESS_LIMIT = 7
OFFICE = "198.51.100.20"  # one NAT address for a whole office


@pytest.fixture
def tight_limits(settings):
    settings.REDLINE_AUTH_FAILURE_LIMIT = LIMIT
    settings.REDLINE_LOGIN_ADDRESS_FAILURE_LIMIT = ADDRESS_LIMIT
    settings.REDLINE_AUTH_FAILURE_WINDOW_S = 60
    cache.clear()
    yield
    cache.clear()


def _bad(n: int = 0) -> str:
    return f"Bearer rl_{n:012d}_not-a-real-key"


def _key_paths(client: Client) -> dict[str, object]:
    """Each path that takes a key: how to call it."""
    return {
        "api": lambda: client.get("/api/documents"),
        "addin account": lambda: client.get("/addin/account/"),
        "addin signout": lambda: client.post("/addin/signout/"),
    }


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["api", "addin account", "addin signout"])
def test_each_key_path_answers_429_past_the_limit(alice, tight_limits, path):
    call = _key_paths(Client(HTTP_AUTHORIZATION=_bad(), REMOTE_ADDR="203.0.113.30"))[path]
    codes = [call().status_code for _ in range(LIMIT + 2)]
    assert codes == [401] * LIMIT + [429, 429]
    # The limit is shared: failures on one path count on the others.
    for other, other_call in _key_paths(Client(HTTP_AUTHORIZATION=_bad(1), REMOTE_ADDR="203.0.113.30")).items():
        resp = other_call()
        assert resp.status_code == 429, other
        assert resp["Retry-After"] == "60"


@pytest.mark.django_db
def test_a_stream_ticket_path_counts_and_refuses(alice, tight_limits):
    client = Client(REMOTE_ADDR="203.0.113.31")
    codes = [client.get("/api/jobs/1/events?ticket=forged").status_code for _ in range(LIMIT + 1)]
    assert codes == [401] * LIMIT + [429]
    assert Client(HTTP_AUTHORIZATION=_bad(), REMOTE_ADDR="203.0.113.31").get("/api/documents").status_code == 429


@pytest.mark.django_db
def test_nat_a_revoked_key_does_not_lock_out_another_workspaces_valid_key(alice, tight_limits):
    bob = make_member("Bob")
    stale = api_key_issue(membership=bob.membership)
    api_key_revoke(workspace=bob.workspace, key_id=stale.api_key.pk)
    revoked = Client(HTTP_AUTHORIZATION=f"Bearer {stale.secret}", REMOTE_ADDR=OFFICE)
    assert [revoked.get("/api/documents").status_code for _ in range(LIMIT + 7)] == [401] * LIMIT + [429] * 7

    # Alice, in another workspace behind the same address: her key works on every path.
    alice_client = Client(HTTP_AUTHORIZATION=f"Bearer {alice.key}", REMOTE_ADDR=OFFICE)
    assert alice_client.get("/api/documents").status_code == 200
    assert alice_client.get("/addin/account/").status_code == 200
    # Bob's live key too, although his revoked key failed: failures count per prefix.
    assert Client(HTTP_AUTHORIZATION=f"Bearer {bob.key}", REMOTE_ADDR=OFFICE).get("/api/documents").status_code == 200
    # The revoked key's prefix is past its limit from any address; an unknown key from the office address is
    # past the address's limit; a stranger elsewhere with a bad key of their own is not.
    assert Client(HTTP_AUTHORIZATION=f"Bearer {stale.secret}", REMOTE_ADDR="192.0.2.1").get(
        "/api/documents").status_code == 429
    assert Client(HTTP_AUTHORIZATION=_bad(5), REMOTE_ADDR=OFFICE).get("/api/documents").status_code == 429
    assert Client(HTTP_AUTHORIZATION=_bad(6), REMOTE_ADDR="192.0.2.2").get("/api/documents").status_code == 401
    # Signing out with a valid key from the locked address works, and revokes exactly that key.
    assert alice_client.post("/addin/signout/").status_code == 204
    assert ApiKey.objects.get(prefix=alice.key.split("_")[1]).revoked_at is not None
    assert ApiKey.objects.get(prefix=bob.key.split("_")[1]).revoked_at is None


def _signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/login/", "/addin/signin/"])
def test_each_password_path_locks_the_account_for_the_failing_address_only(alice, tight_limits, path):
    user = alice.membership.user.get_username()
    # Positive control: the right password signs in (from an address of its own).
    control = Client(REMOTE_ADDR="192.0.2.9")
    control.post(path, {"username": user, "password": alice.password})
    assert _signed_in(control)
    guesser = Client(REMOTE_ADDR="203.0.113.40")
    for _ in range(LIMIT):
        answer = guesser.post(path, {"username": user, "password": "wrong"})
        assert answer.status_code == 200 and not _signed_in(guesser)
    locked = guesser.post(path, {"username": user, "password": alice.password})
    assert not _signed_in(guesser), "a locked login went through"
    # Issue #31: it says so (429, Retry-After, when to try again), not "didn't match" with 200.
    assert locked.status_code == 429 and 0 < int(locked["Retry-After"]) <= 60
    assert "locked for 1 minute" in locked.content.decode() and "didn't match" not in locked.content.decode()
    # Issue #31: the failures of one address never lock the account from another.
    elsewhere = Client(REMOTE_ADDR="192.0.2.40")
    elsewhere.post(path, {"username": user, "password": alice.password})
    assert _signed_in(elsewhere)


@pytest.mark.django_db
def test_one_persons_typos_do_not_lock_out_the_office_but_a_guesser_cycling_names_is_stopped(alice, tight_limits):
    bob = make_member("Bob")
    office = Client(REMOTE_ADDR=OFFICE)
    for _ in range(LIMIT):  # Bob forgets his password, from the office's one address
        office.post("/login/", {"username": "bob", "password": "wrong"})
    alice_at_office = Client(REMOTE_ADDR=OFFICE)
    alice_at_office.post("/login/", {"username": alice.membership.user.get_username(), "password": alice.password})
    assert _signed_in(alice_at_office)  # before, ten failures from an address refused everyone behind it
    guesser = Client(REMOTE_ADDR="203.0.113.77")
    for n in range(ADDRESS_LIMIT):  # one address, many usernames, few tries each
        guesser.post("/login/", {"username": f"user{n}", "password": "wrong"})
    refused = guesser.post("/login/", {"username": "bob", "password": bob.password})
    assert refused.status_code == 429 and not _signed_in(guesser)


@pytest.mark.django_db
def test_a_lock_out_is_in_the_accounts_audit_log(alice, tight_limits):
    from redline.models import AuditEvent

    user = alice.membership.user.get_username()
    for _ in range(LIMIT + 2):
        Client(REMOTE_ADDR="203.0.113.41").post("/login/", {"username": user, "password": "wrong"})
    events = AuditEvent.objects.filter(workspace=alice.workspace, action="auth.login_locked")
    assert [(e.target, e.detail["address"], e.detail["locked"]) for e in events] == \
        [(f"user:{user}", "203.0.113.41", "account")]  # once, when it locked
    shown = alice.api().get("/api/audit").json()  # what the workspace's admin reads
    assert [(e["action"], e["target"], e["detail"]["address"], e["actor"]) for e in shown
            if e["action"] == "auth.login_locked"] == [("auth.login_locked", f"user:{user}", "203.0.113.41", None)]


@pytest.mark.django_db
def test_spoofed_forwarded_for_is_ignored_without_trusted_proxies(alice, tight_limits):
    codes = [Client(HTTP_AUTHORIZATION=_bad(), REMOTE_ADDR="203.0.113.50",
                    HTTP_X_FORWARDED_FOR=f"10.0.0.{i}").get("/api/documents").status_code for i in range(LIMIT + 3)]
    assert codes == [401] * LIMIT + [429] * 3


@pytest.mark.django_db
def test_behind_a_trusted_proxy_the_client_is_the_nearest_untrusted_address(alice, tight_limits, settings):
    settings.REDLINE_TRUSTED_PROXIES = ["10.1.0.0/16"]

    def attempt(forwarded: str, key: str = _bad()) -> int:
        return Client(HTTP_AUTHORIZATION=key, REMOTE_ADDR="10.1.2.3",
                      HTTP_X_FORWARDED_FOR=forwarded).get("/api/documents").status_code

    # The client rotates what it claims (the left part); the proxy appends the address it saw.
    codes = [attempt(f"172.16.0.{i}, 203.0.113.60, 10.1.9.9") for i in range(LIMIT + 2)]
    assert codes == [401] * LIMIT + [429] * 2
    assert attempt("203.0.113.61", _bad(7)) == 401  # another real client behind the same proxy is not locked
    # Bob behind the proxy, sent by the same locked client address: his key still works (NAT rule).
    assert Client(HTTP_AUTHORIZATION=f"Bearer {make_member('Bob').key}", REMOTE_ADDR="10.1.2.3",
                  HTTP_X_FORWARDED_FOR="203.0.113.60").get("/api/documents").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_rotating_forwarded_for_through_uvicorn_does_not_skip_the_limiter(alice, tight_limits):
    with asgi_server() as server, httpx.Client(base_url=server) as http:
        codes = [http.get("/api/documents", headers={"Authorization": _bad(), "X-Forwarded-For": f"10.9.0.{i}"}
                          ).status_code for i in range(LIMIT + 3)]
        assert codes == [401] * LIMIT + [429] * 3
        signout = http.post("/addin/signout/", headers={"Authorization": _bad(2), "X-Forwarded-For": "10.9.1.1"})
        assert signout.status_code == 429
        assert http.get("/api/documents", headers={"Authorization": f"Bearer {alice.key}",
                                                   "X-Forwarded-For": "10.9.1.2"}).status_code == 200
