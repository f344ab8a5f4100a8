"""A returned version is compared with the redline that went out (issue #28, point 3): what the lawyer changed
with tracking off is listed on the run (API, run page) as "changed without tracking", nothing tracked is, and
a clean copy (every change accepted in LibreOffice, no marks left) still yields outcomes."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from redline.models import KnownEntry, Outcome
from redline.ooxml.paragraphs import read_document
from redline.services.playbooks import playbook_default_install
from tests.learning.lawyer import libreoffice_lawyer
from tests.support.docx_builder import build_docx, para

from .conftest import review_and_wait

CONTRACT = build_docx(
    para("SUPPLY AGREEMENT", style="Title")
    + para("1. Payment", style="Heading1")
    + para("The Customer shall pay each undisputed invoice within ninety (90) days of receipt.")
    + para("2. Liability", style="Heading1")
    + para("The Supplier's liability shall be unlimited for all claims arising under this Agreement.")
    + para("3. Delivery", style="Heading1")
    + para("The Supplier shall deliver the Goods within ten (10) days of each order.")
)
DELIVERY = "The Supplier shall deliver the Goods within ten (10) days of each order."


def exported(alice) -> tuple[int, dict, bytes]:
    playbook_default_install(workspace=alice.workspace)
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("supply.docx", CONTRACT)}).json()
    first = review_and_wait(alice, up["document"]["id"], acting_for="Customer")
    sent = alice.api().post(f"/api/runs/{first['id']}/export", {}, content_type="application/json").content
    return up["document"]["id"], first, sent


def anchor_of(data: bytes, text: str) -> str:
    return next(p.anchor for p in read_document(data, anchor=False).paragraphs if p.text == text)


@pytest.mark.django_db(transaction=True)
def test_an_untracked_edit_is_listed_on_the_next_review_and_tracked_ones_are_not(alice):
    doc, first, sent = exported(alice)
    returned = libreoffice_lawyer(sent, [
        {"do": "accept_all"},  # our suggestions, decided with tracking on
        {"do": "retype", "anchor": anchor_of(sent, DELIVERY),  # then, tracking off:
         "text": "The Supplier shall deliver the Goods within thirty (30) days of each order."},
    ])
    alice.api().post("/api/documents", {"file": SimpleUploadedFile("supply-back.docx", returned)})
    second = review_and_wait(alice, doc, acting_for="Customer")
    untracked = second["summary"]["untracked"]
    assert [(c["kind"], c["before"], c["after"], c["severity"]) for c in untracked] == [
        ("changed", DELIVERY, "The Supplier shall deliver the Goods within thirty (30) days of each order.",
         "critical")]
    assert second["stats"]["untracked"]["sent_run"] == first["id"]
    assert second["summary"]["headline"].startswith("1 paragraph changed without tracking since the redline went out.")
    # the clean copy still told us what became of our suggestions
    decided = set(KnownEntry.objects.filter(document_id=doc).exclude(operation_type="COMMENT")
                  .values_list("outcome", flat=True))
    assert decided == {Outcome.ACCEPTED}
    web = Client()
    web.force_login(alice.membership.user)
    page = web.get(f"/runs/{second['id']}/").content.decode()
    assert 'id="untracked-h">Changed without tracking' in page
    assert "<del>ten (10) </del><ins>thirty (30) </ins>" in page


@pytest.mark.django_db(transaction=True)
def test_nothing_is_listed_when_every_change_was_tracked(alice):
    doc, _, sent = exported(alice)
    returned = libreoffice_lawyer(sent, [{"do": "reject_all"}])
    alice.api().post("/api/documents", {"file": SimpleUploadedFile("supply-back.docx", returned)})
    second = review_and_wait(alice, doc, acting_for="Customer")
    assert second["summary"]["untracked"] == []
    assert second["stats"]["untracked"]["changes"] == []  # compared, and nothing found
    assert "without tracking" not in second["summary"]["headline"]


@pytest.mark.django_db(transaction=True)
def test_since_sent_lists_their_tracked_and_untracked_changes(alice):
    from tests.ooxml.test_untracked import counsel_tracks

    doc, _, sent = exported(alice)
    assert alice.api().get(f"/api/documents/{doc}/since-sent").json()["code"] == "not_sent"  # v1 predates it
    returned = libreoffice_lawyer(sent, [
        {"do": "reject_all"},
        {"do": "retype", "anchor": anchor_of(sent, DELIVERY),
         "text": "The Supplier shall deliver the Goods within thirty (30) days of each order."},
    ])
    returned = counsel_tracks(returned, "undisputed", "correct")
    version = alice.api().post("/api/documents", {"file": SimpleUploadedFile("back.docx", returned)}).json()["version"]
    body = alice.api().get(f"/api/documents/{doc}/since-sent?version_id={version['id']}").json()
    assert [(c["kind"], c["after"]) for c in body["untracked"]] == [
        ("changed", "The Supplier shall deliver the Goods within thirty (30) days of each order.")]
    assert [(t["authors"], t["before"], t["after"]) for t in body["tracked"]] == [
        (["Counsel"], "The Customer shall pay each undisputed invoice within ninety (90) days of receipt.",
         "The Customer shall pay each correct invoice within ninety (90) days of receipt.")]
    assert alice.api().get(f"/api/documents/{doc}/since-sent?version_id=999999").status_code == 404
