"""Preferences: safe preview, save with a reason, versions with diffs and restore, learned lines with provenance."""

from __future__ import annotations

import re

import pytest

from redline.models import PreferencesVersion
from redline.services.preferences import preferences_current, preferences_save
from tests.dashboard.conftest import HTMX


@pytest.mark.django_db
def test_live_preview_is_safe_markdown(admin, alice):
    resp = admin.post("/preferences/preview/", {"text": "## Positions\n\n- **Cap**: 12 months <script>x()</script>"},
                      **HTMX)
    body = resp.content.decode()
    assert "<html" not in body and "<h2>Positions</h2>" in body and "<strong>Cap</strong>" in body
    assert "<script>" not in body and "&lt;script&gt;" in body


@pytest.mark.django_db
def test_save_needs_a_reason_then_creates_a_version(admin, alice):
    missing = admin.post("/preferences/", {"text": "- Prefer mutual caps.", "reason": "", "step": "save"})
    body = missing.content.decode()
    assert missing.status_code == 200 and re.search(r'id="id_reason_error".*?This field is required', body, re.S)
    assert "Prefer mutual caps." in body  # the text typed is kept
    assert preferences_current(workspace=alice.workspace) is None
    saved = admin.post("/preferences/", {"text": "- Prefer mutual caps.", "reason": "team policy", "step": "save"})
    assert saved.status_code == 302
    current = preferences_current(workspace=alice.workspace)
    assert (current.number, current.reason, current.author_kind) == (1, "team policy", "user")
    same = admin.post("/preferences/", {"text": "- Prefer mutual caps.", "reason": "again", "step": "save"}, follow=True)
    assert "unchanged, so no new version" in same.content.decode()


@pytest.mark.django_db
def test_preview_without_javascript_keeps_the_text(admin, alice):
    body = admin.post("/preferences/", {"text": "# Draft", "reason": "", "step": "preview"}).content.decode()
    assert "<h1>Draft</h1>" in body and "This field is required" not in body
    assert preferences_current(workspace=alice.workspace) is None


@pytest.mark.django_db
def test_versions_diff_restore_and_learned_lines(admin, seeded, alice):
    admin.post("/preferences/", {"text": "# Review Preferences\n\n- Mutual caps only.", "reason": "rewrite",
                                 "step": "save"})
    page = admin.get("/preferences/").content.decode()
    assert "v2" in page and "rewrite" in page and "learned from 1 rejection(s)" in page
    # The learned line links to the rejection it came from.
    assert "Keep late fees as drafted." in page and f'href="/rejections/{seeded.rejection.pk}/"' in page
    diff = admin.get("/preferences/versions/2/").content.decode()
    assert '<span class="d-del">-- Keep late fees as drafted.</span>' in diff
    assert '<span class="d-add">+- Mutual caps only.</span>' in diff
    old = admin.get("/preferences/versions/1/").content.decode()
    assert "Differences to the current version (v2)" in old and "Restore v1" in old
    resp = admin.post("/preferences/versions/1/restore/")
    assert resp.status_code == 302
    current = preferences_current(workspace=alice.workspace)
    assert current.number == 3 and current.reason == "restore version 1" and "late fees" in current.text
    assert admin.get("/preferences/versions/99/").status_code == 404
    assert admin.post("/preferences/versions/99/restore/").status_code == 404
    rejection = admin.get(f"/rejections/{seeded.rejection.pk}/").content.decode()
    assert "Keep late fees as drafted." in rejection and "The Supplier shall deliver the Goods." in rejection


@pytest.mark.django_db
def test_reviewers_read_the_rendered_preferences(reviewer, seeded):
    page = reviewer.get("/preferences/").content.decode()
    assert "<h1>Review Preferences</h1>" in page and "<textarea" not in page and "Restore" not in page
    assert reviewer.post("/preferences/", {"text": "x", "reason": "y", "step": "save"}).status_code == 403
    assert PreferencesVersion.objects.count() == 1


@pytest.mark.django_db
def test_saving_over_a_version_a_colleague_saved_meanwhile_is_refused_and_keeps_the_text(admin, alice):
    # Issue #31: a save built on an old version overwrote a colleague's lines without a word.
    page = admin.get("/preferences/").content.decode()
    assert re.search(r'name="base_version" value="0"', page)  # the version being edited travels with the form
    preferences_save(workspace=alice.workspace, text="- A colleague's line.", author_kind="user", reason="theirs")
    stale = admin.post("/preferences/", {"text": "- My line.", "reason": "mine", "step": "save", "base_version": "0"})
    body = stale.content.decode()
    assert stale.status_code == 409 and "A colleague saved version 1" in body and "- My line." in body
    assert preferences_current(workspace=alice.workspace).text == "- A colleague's line."
    assert re.search(r'name="base_version" value="1"', body)  # saving again is a deliberate overwrite
    again = admin.post("/preferences/", {"text": "- My line.", "reason": "mine", "step": "save", "base_version": "1"})
    assert again.status_code == 302 and preferences_current(workspace=alice.workspace).text == "- My line."
