"""Thumbs feedback (one vote per user, seed tags) and versioned preferences with roles."""

from __future__ import annotations

import pytest

from redline.models import DocumentVersion, Feedback, Role
from tests.conftest import make_member


@pytest.mark.django_db
class TestFeedback:
    def test_thumbs_down_with_reason_gets_the_seed_tags_and_a_second_vote_updates(self, alice, suggestion):
        url = f"/api/suggestions/{suggestion.pk}/feedback"
        first = alice.api().post(url, {"thumbs_up": False, "follow_up_reason": "too_strict",
                                       "additional_comments": "we accept 90 days"}, content_type="application/json")
        assert first.status_code == 201, first.content
        assert first.json()["tags"] == ["overly_cautious", "false_positive"]
        second = alice.api().post(url, {"thumbs_up": True}, content_type="application/json")
        assert second.status_code == 200 and second.json()["tags"] == []
        assert Feedback.objects.get().thumbs_up is True

    def test_bad_reason_and_reason_on_thumbs_up_are_refused(self, alice, suggestion):
        url = f"/api/suggestions/{suggestion.pk}/feedback"
        bad = alice.api().post(url, {"thumbs_up": False, "follow_up_reason": "meh"}, content_type="application/json")
        assert bad.status_code == 422 and bad.json()["code"] == "validation_error"
        odd = alice.api().post(url, {"thumbs_up": True, "follow_up_reason": "other"}, content_type="application/json")
        assert odd.status_code == 422 and odd.json()["code"] == "invalid_feedback"
        assert Feedback.objects.count() == 0

    def test_other_workspace_gets_404(self, bob, suggestion):
        resp = bob.api().post(f"/api/suggestions/{suggestion.pk}/feedback", {"thumbs_up": True},
                              content_type="application/json")
        assert resp.status_code == 404 and resp.json()["code"] == "not_found"


@pytest.mark.django_db
def test_preferences_versions_append_restore_and_roles(alice, bob):
    api = alice.api()
    assert api.get("/api/preferences").json()["version"] == 0
    v1 = api.put("/api/preferences", {"text": "# Review Preferences\n- Net 60 is fine.", "reason": "start"},
                 content_type="application/json").json()
    assert v1["version"] == 1 and v1["author"] == "alice"
    same = api.put("/api/preferences", {"text": v1["text"]}, content_type="application/json").json()
    assert same["version"] == 1
    v2 = api.put("/api/preferences", {"action": "append", "lines": ["- Never cap liability below fees."],
                                      "reason": "policy"}, content_type="application/json").json()
    assert v2["version"] == 2 and "Never cap liability" in v2["text"] and "Net 60" in v2["text"]
    restored = api.post("/api/preferences/versions/1/restore").json()
    assert restored["version"] == 3 and restored["text"] == v1["text"] and "restore" in restored["reason"]
    assert [v["version"] for v in api.get("/api/preferences/versions").json()] == [3, 2, 1]
    assert bob.api().get("/api/preferences").json()["version"] == 0
    assert api.post("/api/preferences/versions/99/restore").status_code == 404
    neither = api.put("/api/preferences", {"reason": "x"}, content_type="application/json")
    assert neither.status_code == 422


@pytest.mark.django_db
def test_reviewers_cannot_change_preferences(alice):
    carol = make_member("Carol", role=Role.REVIEWER)
    resp = carol.api().put("/api/preferences", {"text": "x"}, content_type="application/json")
    assert resp.status_code == 403 and resp.json()["code"] == "forbidden"
    assert DocumentVersion.objects.count() == 0
