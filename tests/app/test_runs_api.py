"""A review run end to end on embedded defaults: upload → run → suggestions with patches → redline.docx."""

from __future__ import annotations

import io
import re
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.jobs.worker import in_process_worker
from redline.models import AnalysisRun, KnownEntry, RunStatus, Suggestion
from redline.ooxml.paragraphs import read_document
from redline.services.playbooks import playbook_default_install
from redline.services.runs import run_redline
from tests.ooxml.conftest import make_contract
from tests.support import oracles


@pytest.fixture(scope="module")
def contract(tmp_path_factory) -> bytes:
    return make_contract(tmp_path_factory.mktemp("runs") / "c.docx", 3).read_bytes()


def _parts(docx: bytes) -> dict[str, bytes]:
    """A .docx's parts, without the times two writes of the same document differ by (zip entries, w:date)."""
    with zipfile.ZipFile(io.BytesIO(docx)) as z:
        return {n: re.sub(rb' w:date="[^"]*"', b"", z.read(n)) for n in z.namelist()}


def _review(member, data: bytes) -> tuple[dict, dict]:
    playbook_default_install(workspace=member.workspace)
    up = member.api().post("/api/documents", {"file": SimpleUploadedFile("msa.docx", data)}).json()
    resp = member.api().post(f"/api/documents/{up['document']['id']}/runs", {}, content_type="application/json")
    assert resp.status_code == 201, resp.content
    assert in_process_worker().wait_idle(60)
    return up, member.api().get(f"/api/runs/{resp.json()['id']}").json()


@pytest.mark.django_db(transaction=True)
def test_run_produces_anchored_suggestions_with_patches_and_a_redline(alice, bob, contract, tmp_path):
    up, run = _review(alice, contract)
    assert run["status"] == RunStatus.DONE, run["error_message"]
    assert run["stats"]["suggestions"] > 0 and run["stats"]["hallucination_drops"] == 0
    suggestions = alice.api().get(f"/api/runs/{run['id']}/suggestions").json()
    anchors = {p.anchor for p in read_document(contract).paragraphs if p.anchor}
    assert suggestions and all(s["anchor"] in anchors for s in suggestions)
    kinds = {s["kind"] for s in suggestions}
    assert "comment" in kinds and kinds & {"replace", "insert", "rewrite"}
    with_patch = [s for s in suggestions if s["patch"]]
    assert with_patch and all(s["patch"].startswith("<?xml") and "pkg:package" in s["patch"] for s in with_patch)

    # Asking again is idempotent; another workspace sees nothing.
    again = alice.api().post(f"/api/documents/{up['document']['id']}/runs", {}, content_type="application/json")
    assert again.status_code == 200 and again.json()["id"] == run["id"]
    assert bob.api().get(f"/api/runs/{run['id']}").status_code == 404
    assert bob.api().get(f"/api/runs/{run['id']}/suggestions").status_code == 404

    # The full redline: rejecting everything gives the original text back; it opens in LibreOffice.
    resp = alice.api().get(f"/api/runs/{run['id']}/redline.docx")
    assert resp.status_code == 200
    out = tmp_path / "redline.docx"
    out.write_bytes(resp.content)
    original = tmp_path / "original.docx"
    original.write_bytes(contract)
    assert oracles.pandoc_text(out, "reject") == oracles.pandoc_text(original, "accept")
    assert oracles.pandoc_text(out, "accept") != oracles.pandoc_text(original, "accept")
    assert read_document(resp.content, anchor=False).doc_id == up["document"]["doc_id"]
    stats = oracles.stats(out)
    assert stats["comments"] >= sum(1 for s in suggestions if s["kind"] == "comment")
    assert oracles.opens(out)

    # Reads have no side effects: previewing twice records nothing, and analytics see no outcome.
    assert _parts(alice.api().get(f"/api/runs/{run['id']}/redline.docx").content) == _parts(resp.content)
    assert not KnownEntry.objects.exists()
    totals = alice.api().get("/api/analytics?time_range=all").json()["totals"]
    assert totals["suggestions"] == len(suggestions) and sum(totals["outcomes"].values()) == 0

    # The export (a POST) returns the same file and records what it wrote, once even when exported twice.
    _, log = run_redline(run=AnalysisRun.objects.get(pk=run["id"]))
    applied = {line["id"] for line in log if line["status"] == "applied"}
    for _ in range(2):
        export = alice.api().post(f"/api/runs/{run['id']}/export", {}, content_type="application/json")
        assert export.status_code == 200 and _parts(export.content) == _parts(resp.content)
        assert export["Content-Disposition"] == resp["Content-Disposition"]
    assert applied and KnownEntry.objects.filter(run_id=run["id"]).count() == len(applied)
    assert set(KnownEntry.objects.values_list("entry_id", flat=True)) == applied
    assert set(KnownEntry.objects.values_list("outcome", flat=True)) == {"pending"}
    assert bob.api().post(f"/api/runs/{run['id']}/export", {}, content_type="application/json").status_code == 404

    # A chosen subset only.
    first = suggestions[0]["id"]
    subset = alice.api().get(f"/api/runs/{run['id']}/redline.docx?suggestions={first}")
    assert subset.status_code == 200
    bad = alice.api().get(f"/api/runs/{run['id']}/redline.docx?suggestions=nope")
    assert bad.status_code == 400 and bad.json()["code"] == "unknown_suggestion"
    bad = alice.api().post(f"/api/runs/{run['id']}/export", {"suggestions": ["nope"]},
                           content_type="application/json")
    assert bad.status_code == 400 and bad.json()["code"] == "unknown_suggestion"


@pytest.mark.django_db(transaction=True)
def test_run_that_fails_ends_in_error_not_running(alice, contract, settings):
    settings.OPENAI_API_KEY = ""
    playbook_default_install(workspace=alice.workspace)
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa.docx", contract)}).json()
    resp = alice.api().post(f"/api/documents/{up['document']['id']}/runs", {"provider": "openai"},
                            content_type="application/json")
    assert resp.status_code == 201
    assert in_process_worker().wait_idle(60)
    run = AnalysisRun.objects.get(pk=resp.json()["id"])
    assert run.status == RunStatus.ERROR and "OPENAI_API_KEY" in run.error_message
    assert run.job.error_code == "provider_not_configured"
    assert Suggestion.objects.filter(run=run).count() == 0


@pytest.mark.django_db
def test_unknown_provider_and_missing_playbook_are_clear_errors(alice, simple_docx):
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("a.docx", simple_docx)}).json()
    url = f"/api/documents/{up['document']['id']}/runs"
    none = alice.api().post(url, {}, content_type="application/json")
    assert none.status_code == 404 and none.json()["code"] == "not_found"
    playbook_default_install(workspace=alice.workspace)
    bad = alice.api().post(url, {"provider": "magic"}, content_type="application/json")
    assert bad.status_code == 422 and bad.json()["code"] == "validation_error"


PARAGRAPHS = [
    {"anchor": "_RL_00000000000a", "text": "5. Payment", "style": "Heading 1"},
    {"anchor": "_RL_00000000000b", "text": "The Customer shall pay each invoice within ninety (90) days of receipt."},
    {"anchor": "_RL_00000000000c", "text": "The Supplier's liability shall be unlimited."},
]


@pytest.mark.django_db(transaction=True)
def test_add_in_paragraphs_are_reviewed_and_patched_by_anchor(alice, tmp_path):
    playbook_default_install(workspace=alice.workspace)
    body = {"title": "Live doc", "doc_id": "0123456789ABCDEF", "paragraphs": PARAGRAPHS}
    up = alice.api().post("/api/documents", body, content_type="application/json")
    assert up.status_code == 201, up.content
    assert up.json()["anchors"] == [p["anchor"] for p in PARAGRAPHS]
    assert up.json()["document"]["doc_id"] == "0123456789ABCDEF"
    assert up.json()["version"]["source"] == "paragraphs"
    again = alice.api().post("/api/documents", body, content_type="application/json")
    assert again.status_code == 200 and again.json()["version"]["id"] == up.json()["version"]["id"]

    document_id = up.json()["document"]["id"]
    # no preamble: the parties are the roles the paragraphs give them, and the other side may be chosen too
    parties = alice.api().get(f"/api/documents/{document_id}/parties").json()
    assert [p["name"] for p in parties["parties"]] == ["Customer", "Supplier"] and parties["last_acting_for"] == ""
    unknown = alice.api().post(f"/api/documents/{document_id}/runs", {"acting_for": "Acme Bank"},
                               content_type="application/json")
    assert unknown.status_code == 422 and unknown.json()["code"] == "unknown_party"
    assert "Customer, Supplier" in unknown.json()["message"]
    run = alice.api().post(f"/api/documents/{document_id}/runs", {"acting_for": "the supplier"},
                           content_type="application/json").json()
    assert run["acting_for"] == "Supplier"  # stored as the contract names the party
    assert in_process_worker().wait_idle(60)
    assert alice.api().get(f"/api/documents/{document_id}/parties").json()["last_acting_for"] == "Supplier"
    suggestions = alice.api().get(f"/api/runs/{run['id']}/suggestions").json()
    payment = [s for s in suggestions if s["anchor"] == "_RL_00000000000b" and s["kind"] == "replace"]
    assert payment and "sixty (60) days" in payment[0]["new_text"]
    assert payment[0]["patch"] and "_RL_00000000000b" in payment[0]["patch"]
    docx = alice.api().get(f"/api/runs/{run['id']}/redline.docx").content
    out = tmp_path / "live.docx"
    out.write_bytes(docx)
    assert oracles.pandoc_text(out, "reject") == [p["text"] for p in PARAGRAPHS]
    assert any("sixty (60) days" in line for line in oracles.pandoc_text(out, "accept"))


@pytest.mark.django_db
@pytest.mark.parametrize(("body", "code"), [
    ({"paragraphs": []}, "validation_error"),
    ({"paragraphs": [{"anchor": "p1", "text": "x"}]}, "validation_error"),
    ({"paragraphs": [{"anchor": "_RL_00000000000a", "text": "x"}] * 2}, "invalid_paragraphs"),
    ({"doc_id": "zz", "paragraphs": [{"anchor": "_RL_00000000000a", "text": "x"}]}, "validation_error"),
])
def test_bad_paragraph_payloads_are_422(alice, body, code):
    resp = alice.api().post("/api/documents", body, content_type="application/json")
    assert resp.status_code == 422 and resp.json()["code"] == code, resp.content


@pytest.mark.django_db
def test_malformed_json_is_422(alice):
    resp = alice.api().post("/api/documents", b"{not json", content_type="application/json")
    assert resp.status_code == 422 and resp.json()["code"] == "validation_error"
