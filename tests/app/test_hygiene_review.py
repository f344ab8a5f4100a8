"""Issue #27 end to end: drafting slips in an uploaded contract come back from a review as suggestions of their
own (source "hygiene"), in the API and in the redline, where outside readers see them as Word comments and
the one certain fix (a repeated word) as a tracked change."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.jobs.worker import in_process_worker
from redline.services.playbooks import playbook_default_install
from tests.support import oracles
from tests.support.docx_builder import build_docx, para

CLAUSES = [
    "SUPPLY AGREEMENT",
    "This Supply Agreement (this \"Agreement\") is dated as of ___________, 2015 between Acme Widgets, Inc. "
    "(\"Supplier\") and Beta Stores LLC (\"Customer\").",
    "1. Supply. Supplier shall supply the Products ordered by Customer.",
    "2. Payment. Customer shall pay each invoice within thirty (60) days of receipt.",
    "3. Term. This Agreement continues for two years unless the the parties agree otherwise.",
    "4. Notices. Notices shall be in writing.",
    "5. Termination. Either party may terminate this Agreement if the other party materially breaches it and fails "
    "to cure the breach within thirty (30) days after written notice.",
    "6. Default. If a party breaches this Agreement and does not cure the breach within sixty (60) days after notice, "
    "the other party may terminate this Agreement.",
]
EXPECTED = {  # written by hand: rule, the words it is anchored on, a phrase of its comment
    ("hygiene.blank", "dated as of ___________, 2015", "blank"),
    ("hygiene.words_digits", "thirty (60)", "60"),
    ("hygiene.repeated_word", "the the", "the"),
    ("hygiene.two_values", "sixty (60) days", "thirty (30) days in §5"),
}


@pytest.mark.django_db(transaction=True)
def test_drafting_slips_are_suggestions_in_the_api_and_the_redline(alice, tmp_path):
    contract = build_docx("".join(para(t) for t in CLAUSES))
    playbook_default_install(workspace=alice.workspace)
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("supply.docx", contract)}).json()
    run = alice.api().post(f"/api/documents/{up['document']['id']}/runs", {}, content_type="application/json").json()
    assert in_process_worker().wait_idle(60)
    suggestions = alice.api().get(f"/api/runs/{run['id']}/suggestions").json()
    drafting = [s for s in suggestions if s["source"] == "hygiene"]
    assert {(s["rule"], s["quote"]) for s in drafting} == {(rule, quote) for rule, quote, _ in EXPECTED}
    for rule, _, phrase in EXPECTED:
        found = next(s for s in drafting if s["rule"] == rule)
        assert phrase in found["comment"].lower() and found["category"].startswith("drafting_")
    repeated = next(s for s in drafting if s["rule"] == "hygiene.repeated_word")
    assert (repeated["kind"], repeated["new_text"]) == ("replace", "the")
    assert all(s["kind"] == "comment" for s in drafting if s is not repeated)
    assert any(s["source"] != "hygiene" for s in suggestions)  # the playbook's findings are there too

    # Only the drafting suggestions, written into the contract and read by outside readers.
    ids = ",".join(s["id"] for s in drafting)
    resp = alice.api().get(f"/api/runs/{run['id']}/redline.docx?suggestions={ids}")
    assert resp.status_code == 200
    out = tmp_path / "drafting.docx"
    out.write_bytes(resp.content)
    accepted = "\n".join(oracles.pandoc_text(out, "accept"))
    assert "unless the parties agree otherwise" in accepted and "the the" not in accepted
    assert "unless the the parties agree otherwise" in "\n".join(oracles.pandoc_text(out, "reject"))
    assert "thirty (60) days" in accepted  # a comment changes no text
    stats = oracles.stats(out)
    # Every slip says why (4 comments); the fix is token-level: one repeated "the" deleted, nothing inserted.
    assert (stats["comments"], stats["ins"], stats["del"]) == (4, 0, 1), stats
    assert oracles.opens(out)
