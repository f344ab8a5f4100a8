"""The add-in's Django pages: framing by Office only, the sign-in dialog, the account strip."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from redline.models import ApiKey, AuditEvent, Role
from redline.services.accounts import api_key_authenticate, membership_create

ADDIN_PAGES = ["/addin/taskpane/", "/addin/signin/"]


def payload_of(response) -> dict:
    """The message the sign-in dialog passes to the pane (json_script in the page)."""
    match = re.search(rb'<script id="redline-signin" type="application/json">(.*?)</script>', response.content)
    assert match, response.content
    return json.loads(match.group(1))


@pytest.mark.django_db
@pytest.mark.parametrize("url", ADDIN_PAGES)
def test_addin_pages_can_be_framed_by_office_only(url):
    response = Client().get(url)
    assert response.status_code == 200
    assert "X-Frame-Options" not in response
    csp = response["Content-Security-Policy"]
    assert csp.startswith("frame-ancestors 'self' https://*.officeapps.live.com ")
    assert "*" not in csp.replace("https://*.", "")  # no wildcard origins beyond Office's subdomains


@pytest.mark.django_db
def test_the_rest_of_the_site_is_not_frameable(alice):
    client = Client()
    client.login(username="alice", password=alice.password)
    for url in ("/", "/login/"):
        response = client.get(url)
        assert response["X-Frame-Options"] == "DENY", url
        assert "frame-ancestors 'none'" in response["Content-Security-Policy"], url  # the dashboard's own CSP


@pytest.mark.django_db
def test_taskpane_loads_office_js_from_the_cdn_and_turns_htmx_history_off():
    html = Client().get("/addin/taskpane/").content.decode()
    assert '<script src="https://appsforoffice.microsoft.com/lib/1/hosted/office.js"></script>' in html
    assert html.index("office.js") < html.index("addin/taskpane.js")
    # Office.js in the head, as Microsoft requires; the script that explains a hanging one runs before it
    assert html.index("addin/boot.js") < html.index("office.js") < html.index("</head>")
    assert '"historyEnabled": false' in html
    assert 'type="module"' in html


@pytest.mark.django_db
def test_signin_dialog_logs_in_and_issues_a_key_for_the_pane(alice):
    client = Client()
    form = client.get("/addin/signin/")
    assert b'name="password"' in form.content and form["Cache-Control"] == "no-store"
    wrong = client.post("/addin/signin/", {"username": "alice", "password": "nope"})
    assert b"didn't match" in wrong.content
    assert not ApiKey.objects.filter(name__startswith="Word add-in").exists()

    done = client.post("/addin/signin/", {"username": "alice", "password": alice.password})
    assert done.status_code == 200 and done["Cache-Control"] == "no-store"
    payload = payload_of(done)
    assert payload["type"] == "redline:signed-in"
    assert payload["user"] == "alice" and payload["workspace"] == "Alice LLP"
    key = api_key_authenticate(secret=payload["key"])
    assert key.membership == alice.membership and key.name.startswith("Word add-in")
    assert b"addin/signin.js" in done.content


@pytest.mark.django_db
def test_a_get_never_issues_a_key_and_a_second_workspace_is_chosen(alice, bob):
    membership_create(user=alice.membership.user, workspace=bob.workspace, role=Role.REVIEWER)
    client = Client()
    chooser = client.post("/addin/signin/", {"username": "alice", "password": alice.password})
    assert b'name="workspace"' in chooser.content and b"Bob LLP" in chooser.content
    assert client.get("/addin/signin/").status_code == 200
    assert not ApiKey.objects.filter(name__startswith="Word add-in").exists()
    done = client.post("/addin/signin/", {"workspace": bob.workspace.pk})
    assert payload_of(done)["workspace"] == "Bob LLP"
    key = ApiKey.objects.get(name__startswith="Word add-in")
    assert key.membership.workspace == bob.workspace and key.membership.user.username == "alice"


@pytest.mark.django_db
def test_a_signed_in_user_can_switch_account(alice, bob):
    client = Client()
    client.login(username="alice", password=alice.password)
    assert b"Use another account" in client.get("/addin/signin/").content
    switched = client.post("/addin/signin/", {"switch_account": "1"})
    assert b'name="password"' in switched.content
    done = client.post("/addin/signin/", {"username": "bob", "password": bob.password})
    assert payload_of(done)["user"] == "bob"


@pytest.mark.django_db
def test_a_workspace_the_user_is_not_in_cannot_be_chosen(alice, bob):
    client = Client()
    client.login(username="alice", password=alice.password)
    refused = client.post("/addin/signin/", {"workspace": bob.workspace.pk})
    assert b'name="workspace"' in refused.content
    assert not ApiKey.objects.filter(name__startswith="Word add-in").exists()


@pytest.mark.django_db
def test_a_user_without_workspace_is_told_so(alice):
    user = alice.membership.user
    alice.membership.delete()
    response = Client().post("/addin/signin/", {"username": user.username, "password": alice.password})
    assert b"not a member of any workspace" in response.content
    assert not ApiKey.objects.filter(name__startswith="Word add-in").exists()


@pytest.mark.django_db
def test_account_strip_needs_the_bearer_key_and_sign_out_revokes_it(alice):
    assert Client().get("/addin/account/").status_code == 401
    strip = alice.api().get("/addin/account/")
    assert strip.status_code == 200 and strip["Cache-Control"] == "no-store"
    assert b"alice \xc2\xb7 Alice LLP" in strip.content and b'hx-post="/addin/signout/"' in strip.content
    assert Client().post("/addin/signout/").status_code == 401
    assert alice.api().post("/addin/signout/").status_code == 204
    assert api_key_authenticate(secret=alice.key) is None
    assert AuditEvent.objects.get(action="api_key.revoke").actor == alice.membership.user
    assert alice.api().get("/api/documents").status_code == 401
    assert alice.api().post("/addin/signout/").status_code == 401
