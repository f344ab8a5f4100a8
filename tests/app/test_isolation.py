"""One workspace never sees another's rows: foreign ids behave exactly like missing ones."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.models import Job
from tests.support.world import assert_unchanged, database_snapshot


@pytest.mark.django_db
def test_foreign_ids_are_404_with_the_error_shape(alice, bob, simple_docx):
    body = alice.api().post("/api/documents", {"file": SimpleUploadedFile("a.docx", simple_docx)}).json()
    doc_id, version_id, job_id = body["document"]["id"], body["version"]["id"], body["job_id"]
    assert Job.objects.filter(pk=job_id, workspace=alice.workspace).exists()
    routes = [("/api/documents/{}", doc_id), ("/api/documents/versions/{}/file", version_id),
              ("/api/jobs/{}", job_id), ("/api/jobs/{}/events.json", job_id), ("/api/jobs/{}/events", job_id)]
    for template, ident in routes:
        assert alice.api().get(template.format(ident)).status_code == 200, template
        before = database_snapshot()
        foreign = bob.api().get(template.format(ident))
        assert_unchanged(before)
        missing = bob.api().get(template.format(999999))
        assert foreign.status_code == missing.status_code == 404, template
        assert foreign.json()["code"] == missing.json()["code"] == "not_found"
    assert bob.api().get("/api/documents").json() == []
    assert [d["id"] for d in alice.api().get("/api/documents").json()] == [doc_id]


@pytest.mark.django_db
def test_same_file_in_two_workspaces_is_two_documents(alice, bob, simple_docx):
    a = alice.api().post("/api/documents", {"file": SimpleUploadedFile("a.docx", simple_docx)}).json()
    b = bob.api().post("/api/documents", {"file": SimpleUploadedFile("a.docx", simple_docx)}).json()
    assert a["document"]["id"] != b["document"]["id"]
    assert b["created"] is True
