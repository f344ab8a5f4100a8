"""A re-review never claims more than it knows (issue #30, point 1).

The lawyer rejects our tracked changes in LibreOffice and leaves the comments undecided; the document comes
back and is reviewed again, twice. The run must say how many earlier suggestions are still open in the
document, name why each one was not proposed again (rejected before, still in the document), never print
"meets every rule", and the documents page must not call the contract "nothing open".
"""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from redline.models import KnownEntry, Outcome
from redline.services.playbooks import playbook_default_install
from tests.learning.lawyer import libreoffice_lawyer
from tests.ooxml.conftest import make_contract

from .conftest import review_and_wait


def _export(member, run_id: int) -> bytes:
    return member.api().post(f"/api/runs/{run_id}/export", {}, content_type="application/json").content


@pytest.mark.django_db(transaction=True)
def test_a_rereview_counts_open_and_answered_suggestions_and_never_calls_the_contract_clear(alice, tmp_path):
    playbook_default_install(workspace=alice.workspace)
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile(
        "msa.docx", make_contract(tmp_path / "c.docx", 3).read_bytes())}).json()
    doc_id = up["document"]["id"]
    first = review_and_wait(alice, doc_id)
    returned = libreoffice_lawyer(_export(alice, first["id"]), [{"do": "reject_all"}])  # comments stay open
    alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa-back.docx", returned)})

    second = review_and_wait(alice, doc_id)
    entries = KnownEntry.objects.filter(document_id=doc_id)
    still_open = entries.filter(outcome=Outcome.PENDING).count()
    rejected = entries.filter(outcome=Outcome.REJECTED).count()
    assert still_open and rejected
    summary, stats = second["summary"], second["stats"]
    assert summary["open_earlier"] == still_open
    assert f"{still_open} earlier suggestion" in summary["headline"] and "still open in the document" in \
        summary["headline"]
    by = stats["suppressed_by"]
    assert sum(by.values()) == stats["suppressed"] > 0 and set(by) <= {"pending", "rejected"}
    for outcome, words in (("pending", "still open in the document"), ("rejected", "you rejected")):
        if by.get(outcome):
            assert words in summary["not_repeated"] and str(by[outcome]) in summary["not_repeated"]
    assert "meets every rule" not in summary["headline"]

    # The second run is exported and comes back untouched; its review has nothing new to say, and says so
    # without calling the contract clear: everything it would repeat is still open in the document.
    alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa-3.docx", _export(alice, second["id"]))})
    third = review_and_wait(alice, doc_id)
    open_now = entries.filter(outcome=Outcome.PENDING).count()
    assert third["summary"]["new"] == 0 and third["summary"]["open_earlier"] == open_now >= still_open
    assert third["summary"]["headline"] == f"No new issues; {open_now} earlier suggestions are still open in the document."
    lines = third["summary"]["rules"]
    assert lines and not any(line["status"] == "meets" and line["suggestions"] for line in lines)
    assert {line["status"] for line in lines} & {"does_not_meet"}  # the open ones are named per rule
    assert any("still open in the document" in line["note"] for line in lines)

    # The run page says the same, with one line per rule, each linked.
    web = Client()
    web.force_login(alice.membership.user)
    page = web.get(f"/runs/{third['id']}/").content.decode()
    assert f"No new issues; {open_now} earlier suggestions are still open in the document." in page
    assert "meets every rule" not in page and "suppressed (rejected before)" not in page
    assert len(re.findall(r'class="rule-line"', page)) == len(lines)
    # The documents page counts what is still open in the document, not only the latest run's suggestions.
    home = web.get("/").content.decode()
    assert "nothing open" not in home
    counts = [int(n) for n in re.findall(r'<span class="badge sev-\w+">(\d+) \w+</span>', home)]
    assert sum(counts) == open_now
