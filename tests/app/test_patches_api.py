"""POST /api/runs/{id}/patches: one patch for several suggestions on a paragraph, as redline.docx has them."""

from __future__ import annotations

import itertools
import re
from xml.sax.saxutils import escape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.models import KnownEntry
from redline.ooxml.paragraphs import read_document
from redline.ooxml.patch import patch_to_docx
from tests.app.conftest import install_stacked_playbook, review_and_wait
from tests.support import oracles
from tests.support.docx_builder import build_docx
from tests.support.stacked_contract import FOUR, PARAGRAPHS, SIDE, THREE, stacked_docx
from tests.support.validator import assert_no_new_findings
from tests.support.world import assert_unchanged, database_snapshot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def reviewed(alice):
    """A finished run over the stacked contract: (run id, anchors by paragraph index, suggestions by anchor)."""
    install_stacked_playbook(alice.workspace)
    data = stacked_docx()
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("stacked.docx", data)}).json()
    run = review_and_wait(alice, up["document"]["id"], acting_for=SIDE)
    anchors = [p.anchor for p in read_document(data).paragraphs]
    by_anchor: dict[str, list[dict]] = {}
    for s in alice.api().get(f"/api/runs/{run['id']}/suggestions").json():
        by_anchor.setdefault(s["anchor"], []).append(s)
    return run["id"], anchors, by_anchor


# What a reader of the fourth paragraph sees, typed by hand: its four suggestions accepted (the payment term
# replaced, the jurisdiction clause inserted after it; the two comments change no text), and rejected.
ACCEPTED = [
    "Fees. The Customer shall pay within 60 days of invoice. The Supplier's liability shall be unlimited. This"
    " Agreement shall renew automatically.",
    "The courts of the place where the Supplier has its principal office shall have exclusive jurisdiction over any"
    " dispute arising out of this Agreement.",
]
REJECTED = ["Fees. The Customer shall pay within 90 days of invoice. The Supplier's liability shall be unlimited. This"
            " Agreement shall renew automatically."]
UNTOUCHED = [  # the other paragraphs, as the contract has them
    "The Customer shall pay within 90 days of invoice and this Agreement shall renew automatically for successive"
    " terms.",
    "The Supplier's liability shall be unlimited, and this Agreement shall renew automatically for successive terms"
    " unless terminated.",
    "The Customer shall pay within 90 days of invoice, and the Supplier's liability shall be unlimited.",
    "Payment terms: the Customer shall pay within 90 days of invoice; the Supplier's liability shall be unlimited.",
    "Signed by the parties.",
]
# Counted by hand: "90" deleted; "60" and the clause inserted, and the clause's paragraph mark; each of the four
# suggestions says why in one comment.
COUNTS = {"ins": 2, "del": 1, "para_mark_changes": 1, "revisions_total": 4, "comments": 4, "comment_references": 4}


def compose(member, run_id: int, anchor: str, ids: list[str]):
    return member.api().post(f"/api/runs/{run_id}/patches", {"anchor": anchor, "suggestions": ids},
                             content_type="application/json")


def undated(xml: str) -> str:
    return re.sub(r' w:date="[^"]*"', "", xml)


def test_any_order_gives_one_patch_equal_to_the_redline_of_the_same_suggestions(alice, reviewed, tmp_path):
    run_id, anchors, by_anchor = reviewed
    anchor = anchors[FOUR]
    suggestions = by_anchor[anchor]
    assert sorted(s["kind"] for s in suggestions) == ["comment", "comment", "insert", "replace"]
    ids = [s["id"] for s in suggestions]
    before = database_snapshot()
    bodies = [compose(alice, run_id, anchor, list(order)) for order in itertools.permutations(ids)]
    assert all(b.status_code == 200 for b in bodies), bodies[0].content
    got = [b.json() for b in bodies]
    assert len({undated(g["patch"]) for g in got}) == 1  # the order asked in does not matter
    out = got[0]
    assert [r["id"] for r in out["results"]] == ids  # in the run's order
    assert {r["status"] for r in out["results"]} == {"applied"}
    assert (out["before"], out["after"]) == (0, 1)  # the inserted clause follows the paragraph
    assert out["text"] == ACCEPTED[0]
    assert_unchanged(before)  # a computation: nothing recorded
    assert not KnownEntry.objects.exists()

    # Read by the oracles, the patch and redline.docx of the same suggestions each show the hand-written lines
    # (compared only with each other, a mistake the writer and the composer share would pass).
    whole = alice.api().get(f"/api/runs/{run_id}/redline.docx?suggestions={','.join(ids)}")
    assert whole.status_code == 200
    patch_file, whole_file = tmp_path / "patch.docx", tmp_path / "whole.docx"
    patch_file.write_bytes(patch_to_docx(out["patch"].encode()))
    whole_file.write_bytes(whole.content)
    assert oracles.pandoc_text(patch_file, "accept") == ACCEPTED
    assert oracles.pandoc_text(patch_file, "reject") == REJECTED
    assert oracles.pandoc_text(whole_file, "accept") == [*UNTOUCHED[:3], *ACCEPTED, *UNTOUCHED[3:]]
    assert oracles.pandoc_text(whole_file, "reject") == [*UNTOUCHED[:3], *REJECTED, *UNTOUCHED[3:]]
    patch_stats, whole_stats = oracles.stats(patch_file), oracles.stats(whole_file)
    assert {k: patch_stats[k] for k in COUNTS} == COUNTS
    assert {k: whole_stats[k] for k in COUNTS} == COUNTS
    assert_no_new_findings(None, patch_to_docx(out["patch"].encode()))
    assert oracles.opens(patch_file)


def test_a_suggestion_already_in_keeps_its_comment_once_when_another_is_added(alice, reviewed):
    run_id, anchors, by_anchor = reviewed
    anchor = anchors[THREE]
    comment, renewal, clause = by_anchor[anchor]
    first = compose(alice, run_id, anchor, [comment["id"]]).json()
    both = compose(alice, run_id, anchor, [clause["id"], comment["id"]]).json()
    all_three = compose(alice, run_id, anchor, [renewal["id"], clause["id"], comment["id"]]).json()
    # Each suggestion says why in one comment; the one already in is carried, not repeated.
    assert [x["patch"].count("<w:commentReference ") for x in (first, both, all_three)] == [1, 2, 3]
    said = escape(comment["comment"].splitlines()[0])
    assert [x["patch"].count(said) for x in (first, both, all_three)] == [1, 1, 1]
    assert [(x["before"], x["after"]) for x in (first, both, all_three)] == [(0, 0), (0, 1), (0, 1)]
    # A paragraph's first suggestion alone gets the patch the suggestions list carries (bar the time).
    assert undated(first["patch"]) == undated(comment["patch"])
    assert all_three["text"] == PARAGRAPHS[THREE]  # comments and a clause after: the paragraph reads the same


def test_bad_requests_are_refused_with_a_code(alice, bob, reviewed):
    run_id, anchors, by_anchor = reviewed
    anchor, other = anchors[FOUR], anchors[THREE]
    mine = by_anchor[anchor][0]["id"]
    resp = compose(alice, run_id, anchor, [mine, "not-a-suggestion"])
    assert resp.status_code == 422 and resp.json()["code"] == "unknown_suggestion"
    assert resp.json()["detail"]["unknown"] == ["not-a-suggestion"]
    elsewhere = by_anchor[other][0]["id"]
    resp = compose(alice, run_id, anchor, [mine, elsewhere])
    assert resp.status_code == 422 and resp.json()["code"] == "other_paragraph"
    assert resp.json()["detail"]["other_paragraph"] == [elsewhere]
    resp = compose(alice, run_id, "_Toc100", [mine])
    assert resp.status_code == 422 and resp.json()["code"] == "other_paragraph"
    for body in ({"anchor": anchor, "suggestions": []}, {"anchor": anchor, "suggestions": [1]}, {"suggestions": [mine]}):
        resp = alice.api().post(f"/api/runs/{run_id}/patches", body, content_type="application/json")
        assert resp.status_code == 422 and resp.json()["code"] == "validation_error", body
    # A suggestion of another run (another document) is not this run's.
    other_doc = build_docx(f'<w:p><w:r><w:t>{PARAGRAPHS[FOUR]}</w:t></w:r></w:p>')
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("other.docx", other_doc)}).json()
    other_run = review_and_wait(alice, up["document"]["id"])
    theirs = alice.api().get(f"/api/runs/{other_run['id']}/suggestions").json()[0]
    resp = compose(alice, run_id, theirs["anchor"], [theirs["id"]])
    assert resp.status_code == 422 and resp.json()["detail"]["unknown"] == [theirs["id"]]
    assert compose(alice, other_run["id"], theirs["anchor"], [theirs["id"]]).status_code == 200
    # Another workspace's member: the run does not exist for them.
    resp = compose(bob, run_id, anchor, [mine])
    assert resp.status_code == 404 and resp.json()["code"] == "not_found"
    resp = alice.api().get(f"/api/runs/{run_id}/patches")
    assert resp.status_code == 405
