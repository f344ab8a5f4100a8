"""Every page: login required, full page vs htmx fragment, roles (403 page), workspace isolation (404)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client

from redline.services.playbooks import playbook_default_install
from tests.dashboard.conftest import HTMX, PASSWORD, login, seed_run
from tests.support.world import assert_unchanged, database_snapshot


def _pages(seeded) -> list[str]:
    run = seeded.run
    pb = run.playbook_version.playbook_id
    return [
        "/", f"/documents/{run.document_version.document_id}/", f"/runs/{run.pk}/",
        "/playbooks/", f"/playbooks/{pb}/", f"/playbooks/{pb}/versions/", f"/playbooks/{pb}/versions/1/",
        f"/playbooks/{pb}/rules/payment-terms/try/", "/analytics/", "/rejections/",
        f"/rejections/{seeded.rejection.pk}/", "/preferences/", f"/preferences/versions/{seeded.learned.version.number}/",
    ]


@pytest.mark.django_db
def test_every_page_renders_for_admin_and_reviewer(admin, reviewer, seeded):
    for url in _pages(seeded):
        for client in (admin, reviewer):
            resp = client.get(url)
            assert resp.status_code == 200, (url, resp.status_code)
            body = resp.content.decode()
            assert body.startswith("<!doctype html>") and 'aria-label="Main"' in body, url
            assert "HX-Request" in resp["Vary"], url


@pytest.mark.django_db
def test_anonymous_is_sent_to_login_and_htmx_gets_a_client_redirect(seeded):
    for url in _pages(seeded):
        resp = Client().get(url)
        assert resp.status_code == 302 and resp["Location"].startswith("/login/?next="), url
    resp = Client().get("/playbooks/", HTTP_HX_CURRENT_URL="http://testserver/playbooks/", **HTMX)
    assert resp.status_code == 200 and resp["HX-Redirect"].startswith("/login/?next=/playbooks/")
    login_page = Client().get(resp["HX-Redirect"]).content.decode()
    assert "Sign in to continue: you were signed out" in login_page  # says what happened
    assert "you were signed out" not in Client().get("/login/").content.decode()


@pytest.mark.django_db
def test_admin_pages_are_403_pages_for_reviewers(reviewer, seeded):
    pb = seeded.run.playbook_version.playbook_id
    forbidden = [
        ("get", "/keys/"), ("post", "/keys/new/"), ("get", "/playbooks/import/"), ("post", "/playbooks/new/"),
        ("get", f"/playbooks/{pb}/rules/new/"), ("post", f"/playbooks/{pb}/rules/new/"),
        ("get", f"/playbooks/{pb}/rules/payment-terms/edit/"), ("post", f"/playbooks/{pb}/rules/payment-terms/toggle/"),
        ("post", f"/playbooks/{pb}/rules/payment-terms/move/"), ("post", f"/playbooks/{pb}/rules/payment-terms/delete/"),
        ("post", f"/playbooks/{pb}/versions/1/restore/"), ("post", "/preferences/"),
        ("post", "/preferences/preview/"), ("post", f"/preferences/versions/{seeded.learned.version.number}/restore/"),
    ]
    before = database_snapshot()
    for method, url in forbidden:
        resp = getattr(reviewer, method)(url, {"text": "x", "reason": "y"} if method == "post" else None)
        assert resp.status_code == 403, (method, url)
        assert b"You can't do that here" in resp.content and b"Traceback" not in resp.content
    assert_unchanged(before)  # no key, playbook, rule or preference row changed
    page = reviewer.get("/keys/").content.decode()
    assert 'aria-label="Main"' in page and "Alice LLP · reviewer" in page  # the navigation stays
    assert "API keys</a>" not in page


@pytest.mark.django_db
def test_reviewer_sees_no_edit_controls(reviewer, seeded):
    page = reviewer.get(f"/playbooks/{seeded.run.playbook_version.playbook_id}/").content.decode()
    assert "Add a rule" not in page and "/edit/" not in page and "/toggle/" not in page
    assert "/try/" in page
    assert "API keys" not in reviewer.get("/").content.decode()
    prefs = reviewer.get("/preferences/").content.decode()
    assert 'name="reason"' not in prefs and "Keep late fees as drafted." in prefs


@pytest.mark.django_db
def test_another_workspaces_ids_are_404(bob, seeded, simple_docx):
    """Bob (admin of his own workspace) gets 404 for every id of Alice's, exactly like a missing id."""
    other = seed_run(bob, simple_docx, playbook_default_install(workspace=bob.workspace))
    client = login("bob")
    run = seeded.run
    pb = run.playbook_version.playbook_id
    gets = [
        f"/documents/{run.document_version.document_id}/", f"/runs/{run.pk}/", f"/runs/{run.pk}/progress/",
        f"/versions/{run.document_version_id}/download/",
        f"/suggestions/{seeded.suggestions[0].pk}/feedback/", f"/playbooks/{pb}/", f"/playbooks/{pb}/versions/",
        f"/playbooks/{pb}/versions/1/", f"/playbooks/{pb}/export/", f"/playbooks/{pb}/rules/payment-terms/",
        f"/playbooks/{pb}/rules/payment-terms/edit/", f"/playbooks/{pb}/rules/payment-terms/try/",
        f"/rejections/{seeded.rejection.pk}/",
    ]
    for url in gets:
        resp = client.get(url)
        assert resp.status_code == 404, url
        assert b"Not found" in resp.content
        assert b'aria-label="Main"' in resp.content and b"Bob" in resp.content  # the navigation stays
    posts = [
        f"/documents/{run.document_version.document_id}/runs/", f"/runs/{run.pk}/rerun/", f"/runs/{run.pk}/redline.docx",
        f"/suggestions/{seeded.suggestions[0].pk}/feedback/", f"/playbooks/{pb}/rules/payment-terms/toggle/",
        f"/playbooks/{pb}/rules/payment-terms/delete/", f"/playbooks/{pb}/versions/1/restore/",
        f"/keys/{alice_key_id(seeded)}/revoke/",
    ]
    before = database_snapshot()
    for url in posts:
        assert client.post(url, {"vote": "up", "base": "1"}).status_code == 404, url
    assert_unchanged(before)  # no run started, no vote, rule, version or key changed
    # Bob's own rows work, and Alice's data is not on his pages.
    assert client.get(f"/runs/{other.run.pk}/").status_code == 200
    assert b"Alice" not in client.get("/keys/").content


def alice_key_id(seeded) -> int:
    return seeded.run.workspace.memberships.get().api_keys.get().pk


@pytest.mark.django_db
def test_htmx_requests_get_fragments_and_history_restores_get_pages(admin, seeded):
    pb = seeded.run.playbook_version.playbook_id
    fragment = admin.get(f"/playbooks/{pb}/", **HTMX).content.decode()
    assert fragment.lstrip().startswith('<section id="rules"') and "<html" not in fragment
    restore = admin.get(f"/playbooks/{pb}/", HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX).content.decode()
    assert restore.startswith("<!doctype html>")
    report = admin.get("/analytics/", **HTMX).content.decode()
    assert report.lstrip().startswith('<div id="report">')
    health = admin.get("/analytics/?sort=rule", HTTP_HX_TARGET="rule-health", **HTMX).content.decode()
    assert health.lstrip().startswith('<div id="rule-health">')
    results = admin.get(f"/runs/{seeded.run.pk}/", **HTMX).content.decode()  # a finished run: its filtered list
    assert results.lstrip().startswith('<div id="run-results"') and "<html" not in results


class _Markup(HTMLParser):
    """Collects what the structural checks need: hx-get elements, form controls, labels."""

    def __init__(self) -> None:
        super().__init__()
        self.hx_gets: list[tuple[str, dict]] = []
        self.controls: list[dict] = []
        self.label_for: set[str] = set()
        self.label_depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "hx-get" in a:
            self.hx_gets.append((tag, a))
        if tag == "label":
            self.label_depth += 1
            if a.get("for"):
                self.label_for.add(a["for"])
        if tag in ("input", "select", "textarea") and a.get("type") not in ("hidden", "submit", "button"):
            self.controls.append({**a, "_in_label": self.label_depth > 0, "_tag": tag})

    def handle_endtag(self, tag):
        if tag == "label":
            self.label_depth -= 1


@pytest.mark.django_db
def test_every_hx_get_has_a_real_href_and_every_control_a_label(admin, seeded):
    pb = seeded.run.playbook_version.playbook_id
    pages = [*_pages(seeded), "/keys/", "/playbooks/import/", f"/playbooks/{pb}/rules/new/",
             f"/playbooks/{pb}/rules/payment-terms/edit/"]
    for url in pages:
        markup = _Markup()
        markup.feed(admin.get(url).content.decode())
        for tag, attrs in markup.hx_gets:
            target = attrs.get("href") if tag == "a" else attrs.get("action") if tag == "form" else None
            polling = tag == "section" and "every" in attrs.get("hx-trigger", "")
            assert polling or target == attrs["hx-get"] or (tag == "form" and target), (url, tag, attrs)
        for control in markup.controls:
            labelled = control["_in_label"] or control.get("id") in markup.label_for or control.get("aria-label")
            assert labelled, (url, control)


@pytest.mark.django_db
def test_a_form_from_a_stale_page_is_explained_with_a_way_back(alice, playbook):
    client = Client(enforce_csrf_checks=True)
    assert client.login(username="alice", password=PASSWORD)
    url = f"/playbooks/{playbook.playbook_id}/rules/payment-terms/toggle/"
    resp = client.post(url, {"base": "1", "enabled": "0", "csrfmiddlewaretoken": "stale"},
                       HTTP_REFERER=f"http://testserver/playbooks/{playbook.playbook_id}/?q=pay")
    assert resp.status_code == 403 and resp["X-Redline-Error"] == "stale-page"
    page = resp.content.decode()
    assert "This page was out of date" in page and "permission" not in page
    assert f'href="/playbooks/{playbook.playbook_id}/?q=pay"' in page and 'aria-label="Main"' in page
    elsewhere = client.post(url, {"base": "1"}, HTTP_REFERER="https://evil.example/")
    assert 'href="/"' in elsewhere.content.decode()  # never a link off the site
    fragment = client.post(url, {"base": "1"}, **HTMX)
    assert fragment.status_code == 403 and fragment["Content-Type"].startswith("text/plain")
    assert fragment.content.decode().startswith("This page is out of date")
