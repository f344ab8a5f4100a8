"""Security controls: auth-failure rate limits, CSRF on every dashboard form, security headers,
HSTS under TLS, and the audit log of playbook, preference and key changes."""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import URLPattern, get_resolver

from redline.models import AuditEvent
from redline.server.security import DASHBOARD_CSP, HTMX_INDICATOR_STYLE
from redline.services.accounts import api_key_issue, api_key_revoke
from redline.services.playbooks import playbook_default_install
from redline.services.preferences import preferences_restore, preferences_save
from tests.app.test_api_contract import assert_error_shape

BAD_KEY = "Bearer rl_000000000000_not-a-real-key"


@pytest.fixture
def tight_limits(settings):
    settings.REDLINE_AUTH_FAILURE_LIMIT = 3
    settings.REDLINE_AUTH_FAILURE_WINDOW_S = 2
    cache.clear()
    yield
    cache.clear()


# -- rate limits -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_api_key_failures_are_rate_limited_per_address(alice, tight_limits):
    attacker = Client(HTTP_AUTHORIZATION=BAD_KEY, REMOTE_ADDR="203.0.113.9")
    assert [attacker.get("/api/documents").status_code for _ in range(3)] == [401, 401, 401]
    locked = attacker.get("/api/documents")
    assert assert_error_shape(locked, 429, "locked")["code"] == "rate_limited"
    assert locked["Retry-After"] == "2"
    # Another bad key (another prefix) from that address: refused too, the address is past its limit.
    other = Client(HTTP_AUTHORIZATION="Bearer rl_111111111111_guess", REMOTE_ADDR="203.0.113.9")
    assert other.get("/api/documents").status_code == 429
    # Forged stream tickets count too.
    assert Client(REMOTE_ADDR="203.0.113.9").get("/api/jobs/1/events?ticket=forged").status_code == 429
    time.sleep(2.2)  # the window ends
    assert attacker.get("/api/documents").status_code == 401


@pytest.mark.django_db
def test_login_failures_are_rate_limited(alice, tight_limits):
    user = alice.membership.user.get_username()
    client = Client(REMOTE_ADDR="203.0.113.10")
    for _ in range(3):
        assert client.post("/login/", {"username": user, "password": "wrong"}).status_code == 200  # form again
    right = client.post("/login/", {"username": user, "password": alice.password})
    assert right.status_code == 429 and "_auth_user_id" not in client.session, "a locked login went through"
    # Locked for that address only (issue #31: anyone could lock a user out from anywhere); other users are not.
    assert "_auth_user_id" in _login(user, alice.password, "198.51.100.8").session
    assert _login_ok("bob-free", "198.51.100.8")
    time.sleep(2.2)
    assert "_auth_user_id" in _login(user, alice.password, "203.0.113.10").session


def _login(username: str, password: str, ip: str) -> Client:
    client = Client(REMOTE_ADDR=ip)
    client.post("/login/", {"username": username, "password": password})
    return client


def _login_ok(username: str, ip: str) -> bool:
    from redline.services.accounts import user_create

    user_create(username=username, password="another long password")
    return "_auth_user_id" in _login(username, "another long password", ip).session


# -- CSRF ------------------------------------------------------------------------------------------


def _dashboard_get_urls(ids: dict[str, int]) -> list[str]:
    out = []
    for entry in get_resolver().url_patterns:
        if getattr(entry, "app_name", None) != "dashboard":
            continue
        for pattern in entry.url_patterns:
            assert isinstance(pattern, URLPattern)
            route = str(pattern.pattern)
            for name in pattern.pattern.converters:
                route = re.sub(rf"<\w+:{name}>", str(ids.get(name, 1)), route)
            out.append("/" + route)
    return out


@pytest.mark.django_db(transaction=True)
def test_every_dashboard_form_needs_a_csrf_token(alice):
    from tests.support.world import populate

    ids = populate(alice)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice.membership.user)
    forms: dict[str, str] = {}
    for page in _dashboard_get_urls(ids):
        resp = browser.get(page)
        if resp.status_code != 200 or not resp["Content-Type"].startswith("text/html"):
            continue
        for form in re.finditer(r"<form\b[^>]*>.*?</form>", resp.content.decode(), re.S | re.I):
            tag = form.group(0)
            if not re.search(r'method=["\']?post', tag, re.I):
                continue
            action = re.search(r'action=["\']([^"\']*)', tag)
            target = action.group(1) if action and action.group(1) else page
            assert "csrfmiddlewaretoken" in tag, f"a POST form on {page} (to {target}) has no CSRF token"
            forms[target] = page
    assert len(forms) >= 5, forms
    for target, page in forms.items():
        resp = browser.post(target, {})
        assert resp.status_code == 403, f"POST {target} (form on {page}) without a token: {resp.status_code}"
    anonymous = Client(enforce_csrf_checks=True)
    assert anonymous.post("/login/", {"username": "x", "password": "y"}).status_code == 403


# -- headers ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_dashboard_pages_get_a_strict_csp_and_api_responses_a_closed_one(alice, client):
    client.force_login(alice.membership.user)
    page = client.get("/")
    assert page.status_code == 200
    assert page["Content-Security-Policy"] == DASHBOARD_CSP
    assert "default-src 'self'" in DASHBOARD_CSP and "unsafe-inline" not in DASHBOARD_CSP
    assert "frame-ancestors 'none'" in DASHBOARD_CSP and page["X-Frame-Options"] == "DENY"
    login = Client().get("/login/")
    assert login["Content-Security-Policy"] == DASHBOARD_CSP
    assert alice.api().get("/api/documents")["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"
    assert not re.search(r"<script>|<script [^>]*>[^<]|\sstyle=|\son\w+=", page.content.decode()), \
        "inline script or style would be blocked by the CSP"


@pytest.mark.django_db
def test_only_the_api_docs_page_may_run_scripts_and_styles_of_our_own(alice, client):
    from addin_api.docs import DOCS_CSP

    docs = client.get("/api/docs")
    assert docs.status_code == 200 and docs["Content-Security-Policy"] == DOCS_CSP
    assert "script-src 'self'" in DOCS_CSP and "unsafe" not in DOCS_CSP and "frame-ancestors 'none'" in DOCS_CSP
    inline = r"<script>|<script (?![^>]*application/json)[^>]*>[^<]|\sstyle=|\son\w+=|https?://"
    assert not re.search(inline, docs.content.decode()), "the docs page needs inline script or another origin"
    schema = client.get("/api/openapi.json")
    assert schema["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"


def test_the_allowed_inline_style_is_the_one_vendored_htmx_inserts():
    from pathlib import Path

    htmx = (Path(__file__).resolve().parents[2] / "static" / "vendor" / "htmx.min.js").read_text()
    template = re.search(r"`<style\$\{e\}>`\+`(.*?)`\+`(.*?)`\+\"</style>\"", htmx)
    assert template, "htmx's indicator style changed: update HTMX_INDICATOR_STYLE in redline/server/security.py"
    css = (template.group(1) + template.group(2)).replace("${t}", "htmx-indicator").replace("${n}", "htmx-request")
    assert css == HTMX_INDICATOR_STYLE


@pytest.mark.django_db
def test_add_in_pages_keep_their_own_frame_ancestors(client):
    from django.urls import reverse

    resolver = get_resolver()
    addin = next(e for e in resolver.url_patterns if str(getattr(e, "pattern", "")) == "addin/")
    pages = [p for p in addin.url_patterns if isinstance(p, URLPattern) and not p.pattern.converters]
    framed = 0
    for pattern in pages:
        resp = client.get(reverse(f"addin:{pattern.name}"))
        csp = resp.get("Content-Security-Policy", "")
        if "frame-ancestors" in csp and "'none'" not in csp:
            framed += 1
            assert csp != DASHBOARD_CSP
    assert framed >= 1, "no add-in page kept its own frame-ancestors"


def test_tls_setting_turns_on_hsts_secure_cookies_and_redirects():
    code = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE']='redline.settings'; django.setup();"
            "from django.conf import settings as s;"
            "print(s.SECURE_HSTS_SECONDS, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)")
    for flag, expected in (("true", "31536000 True True True"), ("false", "0 False False False")):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={"REDLINE_TLS": flag, "SECRET_KEY": "x", "PATH": "/usr/bin:/bin",
                                  "REDLINE_DATA_DIR": "/tmp/redline-tls-check"})
        assert out.stdout.split() == expected.split(), (flag, out.stdout, out.stderr[-500:])


@pytest.mark.django_db
def test_hsts_is_sent_on_https_only(settings):
    settings.SECURE_HSTS_SECONDS = 31_536_000
    assert Client().get("/api/health", secure=True)["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in Client().get("/api/health")


# -- audit log -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_playbook_preference_and_key_changes_are_audited(alice, bob):
    user = alice.membership.user
    playbook_default_install(workspace=alice.workspace)
    preferences_save(workspace=alice.workspace, text="Prefer mutual caps.", author_kind="user", author=user,
                     reason="first")
    preferences_save(workspace=alice.workspace, text="Prefer low caps.", author_kind="user", author=user,
                     reason="second")
    preferences_restore(workspace=alice.workspace, number=1, author=user)
    issued = api_key_issue(membership=alice.membership, name="laptop")
    api_key_revoke(workspace=alice.workspace, key_id=issued.api_key.pk, actor=user)
    api_key_revoke(workspace=alice.workspace, key_id=issued.api_key.pk, actor=user)  # no change, no event

    events = list(AuditEvent.objects.filter(workspace=alice.workspace).order_by("pk"))
    actions = [e.action for e in events]
    assert actions == ["api_key.issue",  # the fixture's own key
                       "playbook.version_create", "preferences.save", "preferences.save",
                       "preferences.save", "preferences.restore", "api_key.issue", "api_key.revoke"]
    assert events[1].actor is None and events[1].target.endswith(" v1")  # the built-in playbook: the system
    assert all(e.actor == user for e in events[2:])
    assert events[-1].target == f"api_key:{issued.api_key.pk}"
    assert events[-2].detail["name"] == "laptop" and issued.secret not in str(events[-2].detail)
    assert events[5].detail == {"current": 3} and events[5].target == "preferences v1"
    assert all(e.created_at for e in events)
    assert not AuditEvent.objects.filter(workspace=bob.workspace).exclude(action="api_key.issue").exists()
