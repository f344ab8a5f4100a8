"""Explicit linking: an upload can name its document; a file that lost its RedlineDocID but carries
our anchors is recognised as a version of the document whose anchors it holds; the response says how."""

from __future__ import annotations

import io
import re
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.jobs.worker import in_process_worker
from redline.ooxml.paragraphs import read_document
from redline.services.playbooks import playbook_default_install
from tests.support.docx_builder import build_docx, para

CONTRACT = build_docx(para("1. Payment", style="Heading1")
                      + para("The Customer shall pay each invoice within ninety (90) days of receipt.")
                      + para("This Agreement renews automatically for successive periods of twelve (12) months."))
OTHER = build_docx(para("Side letter") + para("The parties agree to meet quarterly."))


def _without_doc_id(docx: bytes) -> bytes:
    """The file as an editor that drops custom properties saves it: no RedlineDocID, anchors kept."""
    src = zipfile.ZipFile(io.BytesIO(docx))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name in src.namelist():
            data = src.read(name)
            if name == "docProps/custom.xml":
                data = re.sub(rb'<(\w+:)?property [^>]*name="RedlineDocID".*?</(\w+:)?property>', b"", data, flags=re.S)
            z.writestr(name, data)
    return out.getvalue()


def _upload(member, data: bytes, name: str, **form) -> dict:
    resp = member.api().post("/api/documents", {"file": SimpleUploadedFile(name, data), **form})
    assert resp.status_code in (200, 201), resp.content
    return resp.json()


@pytest.mark.django_db(transaction=True)
def test_a_file_that_lost_its_id_is_found_by_its_anchors(alice, bob):
    playbook_default_install(workspace=alice.workspace)
    first = _upload(alice, CONTRACT, "msa.docx")
    assert first["linked_by"] == "new"
    doc = first["document"]["id"]
    run = alice.api().post(f"/api/documents/{doc}/runs", {}, content_type="application/json").json()
    assert in_process_worker().wait_idle(60)
    exported = alice.api().post(f"/api/runs/{run['id']}/export", {}, content_type="application/json").content
    stripped = _without_doc_id(exported)
    assert read_document(stripped, anchor=False).doc_id is None  # the id is really gone
    assert {p.anchor for p in read_document(stripped, anchor=False).paragraphs if p.anchor}  # the anchors are not
    back = _upload(alice, stripped, "msa-returned.docx")
    assert back["created"] and back["linked_by"] == "anchors" and back["document"]["id"] == doc
    assert len(back["document"]["versions"]) == 2
    # Another workspace holds none of those anchors: there the same file is a new document.
    assert _upload(bob, stripped, "msa-returned.docx")["linked_by"] == "new"
    # A file without the id and without our anchors is a new document too.
    assert _upload(alice, _without_doc_id(OTHER), "other.docx")["linked_by"] == "new"


@pytest.mark.django_db
def test_an_upload_can_name_its_document(alice, bob):
    first = _upload(alice, CONTRACT, "msa.docx")
    doc = first["document"]["id"]
    added = _upload(alice, OTHER, "side-letter.docx", document_id=str(doc))
    assert added["created"] and added["linked_by"] == "document_id" and added["document"]["id"] == doc
    assert {v["filename"] for v in added["document"]["versions"]} == {"msa.docx", "side-letter.docx"}
    again = _upload(alice, OTHER, "side-letter.docx", document_id=str(doc))
    assert not again["created"] and again["linked_by"] == "same_file"
    # The add-in's paragraphs can name the document too.
    body = {"title": "Live", "document_id": doc,
            "paragraphs": [{"anchor": "_RL_00000000000a", "text": "The parties agree to meet monthly."}]}
    live = alice.api().post("/api/documents", body, content_type="application/json")
    assert live.status_code == 201 and live.json()["linked_by"] == "document_id"
    assert live.json()["document"]["id"] == doc
    # Bad input: 4xx with a code, never a 500.
    other_doc = _upload(bob, build_docx(para("Bob's own.")), "b.docx")["document"]["id"]
    missing = alice.api().post("/api/documents", {"file": SimpleUploadedFile("x.docx", build_docx(para("New."))),
                                                  "document_id": str(other_doc)})
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    bad = alice.api().post("/api/documents", {"file": SimpleUploadedFile("x.docx", CONTRACT), "document_id": "abc"})
    assert bad.status_code == 422 and bad.json()["code"] == "validation_error"
    second = _upload(alice, build_docx(para("Another.")), "another.docx")["document"]["id"]
    clash = alice.api().post("/api/documents", {"file": SimpleUploadedFile("x.docx", OTHER),
                                                "document_id": str(second)})
    assert clash.status_code == 409 and clash.json()["code"] == "already_uploaded"
    assert clash.json()["detail"]["document_id"] == doc
