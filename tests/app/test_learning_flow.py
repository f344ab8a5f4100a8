"""The seed's scenarios end to end with real files: first run, lawyer rejects in LibreOffice (file saved
there), re-upload, outcomes, learned preferences with provenance, re-run without repeats."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.models import KnownEntry, LearnedLine, Outcome, PreferencesVersion, Rejection
from redline.ooxml.paragraphs import read_document
from redline.services.playbooks import playbook_default_install
from tests.learning.lawyer import libreoffice_lawyer
from tests.ooxml.conftest import make_contract

from .conftest import review_and_wait

OUR_EDITS = {"REPLACE_TEXT", "REWRITE", "INSERT", "DELETE"}


@pytest.mark.django_db(transaction=True)
def test_rejections_are_learned_and_never_suggested_again(alice, tmp_path):
    playbook_default_install(workspace=alice.workspace)
    original = make_contract(tmp_path / "c.docx", 3).read_bytes()
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa.docx", original)}).json()
    doc_id = up["document"]["id"]

    # 1. First run: the export carries RedlineDocID and every written suggestion is a known entry.
    first = review_and_wait(alice, doc_id)
    assert first["stats"]["mode"] == "first_run"
    redline = alice.api().post(f"/api/runs/{first['id']}/export", {}, content_type="application/json").content
    assert read_document(redline, anchor=False).doc_id == up["document"]["doc_id"]
    entries = KnownEntry.objects.filter(document_id=doc_id)
    kinds = set(entries.values_list("operation_type", flat=True))
    assert "COMMENT" in kinds and kinds & OUR_EDITS
    sent = alice.api().get(f"/api/runs/{first['id']}/suggestions").json()  # (cached: a finished run)
    assert sum(s["outcome"] == "pending" for s in sent) == entries.count()
    assert {s["outcome"] for s in sent} <= {"pending", None} and not any(s["outcome_at"] for s in sent)

    # 2. The lawyer rejects every tracked change (all ours) in LibreOffice, keeps the comments, saves there.
    returned = libreoffice_lawyer(redline, [{"do": "reject_all"}])
    back = alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa-returned.docx", returned)})
    assert back.status_code == 201 and back.json()["document"]["id"] == doc_id  # RedlineDocID survived

    # 3. The re-run detects outcomes, learns, and routes to the re-run prompt.
    second = review_and_wait(alice, doc_id)
    assert second["stats"]["mode"] == "rerun"
    edits = entries.filter(operation_type__in=OUR_EDITS)
    assert edits.exists() and set(edits.values_list("outcome", flat=True)) == {Outcome.REJECTED}
    assert set(entries.filter(operation_type="COMMENT").values_list("outcome", flat=True)) == {Outcome.PENDING}
    assert Rejection.objects.filter(entry__document_id=doc_id).count() == edits.count()
    learned = PreferencesVersion.objects.filter(workspace=alice.workspace).order_by("-number").first()
    assert learned.author_kind == PreferencesVersion.Author.LEARNING and "rejected" in learned.reason
    cited = set(LearnedLine.objects.filter(version=learned).values_list("sources__entry_id", flat=True))
    assert cited and cited <= set(edits.values_list("entry_id", flat=True))
    assert second["preferences_version"] == learned.number  # the re-run read what was learned

    # The outcomes are in the suggestions API, and the preferences API names each line's sources.
    by_sid = {s["id"]: s for s in alice.api().get(f"/api/runs/{first['id']}/suggestions").json()}
    for e in entries.select_related("suggestion"):
        s = by_sid[e.suggestion.sid]
        assert s["outcome"] == e.outcome and s["outcome_version_id"] == back.json()["version"]["id"]
        assert s["outcome_at"] is not None and s["lawyer_text"] is None  # none was modified
    prefs = alice.api().get("/api/preferences").json()
    assert prefs["version"] == learned.number and prefs["learned"]
    for line in prefs["learned"]:
        assert line["line"] in prefs["text"] and line["rejected"] == len(line["sources"]) > 0
        assert {s["outcome"] for s in line["sources"]} == {"rejected"}
        assert all(by_sid[s["suggestion_id"]]["outcome"] == "rejected" and s["outcome_at"] for s in line["sources"])

    # 4. Nothing rejected comes back, though the unchanged text would trigger the same rules.
    rejected = {(e.rule_key, e.suggestion.data["quote"], e.suggestion.data["new_text"])
                for e in edits.select_related("suggestion")}
    again = alice.api().get(f"/api/runs/{second['id']}/suggestions").json()
    assert not {(s["rule"], s["quote"], s["new_text"]) for s in again} & rejected
    assert second["stats"]["suppressed"] > 0

    # The round report compares the two rounds per rule: nothing we had suggested came back unresolved.
    rounds = alice.api().get(f"/api/runs/{second['id']}/rounds").json()
    assert rounds["previous_run"] == first["id"] and rounds["rules"]
    prev_by_rule: dict[str, set] = {}
    for s in alice.api().get(f"/api/runs/{first['id']}/suggestions").json() + again:
        prev_by_rule.setdefault(s["rule"], set()).add(s["anchor"])
    for r in rounds["rules"]:  # the four lists partition every anchor either round flagged under the rule
        parts = r["newly_failing"] + r["resolved"] + r["still_open"] + r["regressed"]
        assert len(parts) == len(set(parts)) and set(parts) == prev_by_rule[r["rule"]]
    assert any(r["resolved"] for r in rounds["rules"])  # the rejected edits were not repeated
    assert alice.api().get(f"/api/runs/{first['id']}/rounds").json() == {"previous_run": None, "rules": []}

    # feedback.json has the seed's shape; redetection is idempotent.
    fb = alice.api().get(f"/api/documents/{doc_id}/feedback.json").json()
    assert set(fb) == {"document_id", "created_at", "last_updated", "known_entries", "rejections"}
    assert fb["document_id"] == up["document"]["doc_id"]
    assert len(fb["known_entries"]) == entries.count() and len(fb["rejections"]) == edits.count()
    assert {"reason", "rejected_at"} <= set(fb["rejections"][0])
    assert {(e["suggestion_id"], e["outcome"]) for e in fb["known_entries"]} == {
        (e.suggestion.sid, e.outcome) for e in entries.select_related("suggestion")}
    assert {r["outcome"] for r in fb["rejections"]} == {"rejected"}
    third_export = alice.api().post(f"/api/runs/{first['id']}/export", {}, content_type="application/json")
    assert third_export.status_code == 200 and KnownEntry.objects.filter(document_id=doc_id).count() == len(
        fb["known_entries"])
