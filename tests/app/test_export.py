"""Reads have no side effects: a preview records nothing; the export (a POST) records what it wrote,
and an older version never decides the outcome of what was exported after it."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.jobs.worker import in_process_worker
from redline.models import KnownEntry
from redline.services.playbooks import playbook_default_install
from tests.ooxml.conftest import make_contract


def _run(member, document_id: int, version_id: int) -> dict:
    resp = member.api().post(f"/api/documents/{document_id}/runs", {"version_id": version_id},
                             content_type="application/json")
    assert resp.status_code in (200, 201), resp.content
    assert in_process_worker().wait_idle(60)
    return member.api().get(f"/api/runs/{resp.json()['id']}").json()


@pytest.mark.django_db(transaction=True)
def test_an_older_version_never_decides_what_was_exported_after_it(alice, tmp_path):
    playbook_default_install(workspace=alice.workspace)
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile(
        "msa.docx", make_contract(tmp_path / "c.docx", 2).read_bytes())}).json()
    doc, v1 = up["document"]["id"], up["version"]["id"]
    first = _run(alice, doc, v1)
    # A preview (GET, twice) is a second version of the document (it carries RedlineDocID), and records nothing.
    preview = alice.api().get(f"/api/runs/{first['id']}/redline.docx").content
    assert alice.api().get(f"/api/runs/{first['id']}/redline.docx").status_code == 200
    assert not KnownEntry.objects.exists()
    v2 = alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa-preview.docx", preview)}).json()
    assert v2["document"]["id"] == doc
    second = _run(alice, doc, v2["version"]["id"])
    assert second["stats"]["mode"] == "first_run"  # nothing was ever exported, so nothing to learn from
    exported = alice.api().post(f"/api/runs/{second['id']}/export", {}, content_type="application/json")
    assert exported.status_code == 200 and exported.content[:2] == b"PK"
    entries = KnownEntry.objects.filter(document_id=doc)
    assert entries.exists() and set(entries.values_list("run_id", flat=True)) == {second["id"]}
    # Asking again for the review of v1 (uploaded before the export) leaves every entry pending.
    assert _run(alice, doc, v1)["id"] == first["id"]
    assert set(entries.values_list("outcome", flat=True)) == {"pending"}
    totals = alice.api().get("/api/analytics?time_range=all").json()["totals"]
    assert totals["outcomes"]["rejected"] == 0 and totals["outcomes"]["pending"] == entries.count()
