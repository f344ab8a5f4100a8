"""A NUL character anywhere a request carries text is a 400 ``nul_character``, never a 500.

PostgreSQL cannot store U+0000 (these tests run on SQLite and on PostgreSQL);
before the guard, a NUL in a feedback comment was a 500 on PostgreSQL.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from redline.models import Document, Feedback, Suggestion

pytestmark = pytest.mark.django_db


def refused(resp) -> bool:
    return resp.status_code == 400 and resp.json() == {
        "code": "nul_character", "message": "Text cannot contain the NUL character (U+0000).", "detail": {}}


def test_a_nul_in_a_json_string_is_refused_and_nothing_is_stored(alice, suggestion):
    url = f"/api/suggestions/{suggestion.pk}/feedback"
    for comments in ("net 90\x00", {"nested": ["\x00"]}):
        body = {"thumbs_up": False, "follow_up_reason": "other", "additional_comments": comments}
        assert refused(alice.api().post(url, body, content_type="application/json"))
    assert not Feedback.objects.exists()
    literal = "a backslash then u0000: \\u0000"  # the six characters, not a NUL: accepted and kept
    ok = alice.api().post(url, {"thumbs_up": False, "follow_up_reason": "other", "additional_comments": literal},
                          content_type="application/json")
    assert ok.status_code == 201 and Feedback.objects.get().additional_comments == literal


def test_a_nul_in_paragraphs_a_form_field_or_the_query_is_refused(alice, simple_docx):
    paragraphs = {"title": "Live", "paragraphs": [{"anchor": "_RL_00000000000a", "text": "Pay\x00 in 30 days."}]}
    assert refused(alice.api().post("/api/documents", paragraphs, content_type="application/json"))
    titled = {"file": SimpleUploadedFile("a.docx", simple_docx), "title": "MSA\x00"}
    assert refused(alice.api().post("/api/documents", titled))
    assert refused(alice.api().get("/api/documents?search=%00"))
    assert not Document.objects.exists()
    assert alice.api().post("/api/documents", {"file": SimpleUploadedFile("a.docx", simple_docx),
                                               "title": "MSA"}).status_code == 201


def test_a_nul_in_a_dashboard_filter_is_a_plain_400(alice):
    client = Client()
    assert client.login(username=alice.membership.user.username, password=alice.password)
    resp = client.get("/rejections/?rule=%00")
    assert resp.status_code == 400 and b"NUL" in resp.content
    assert client.get("/rejections/?rule=payment_terms").status_code == 200
    assert Suggestion.objects.count() == 0
