"""Outcome detection on our own redlined contract after a lawyer worked on it."""

from __future__ import annotations

import pytest
from lxml import etree

from redline.learning.outcomes import Outcome, Status, detect_outcomes
from redline.ooxml.ops import KnownEntry
from redline.ooxml.oxml import qn
from redline.ooxml.package import Package
from tests.learning.lawyer import AUTHOR, EXPECTED, SCENARIOS, Lawyer, Written, write_contract


def outcomes(data: bytes, written: Written) -> dict[str, Outcome]:
    return dict(zip(written.entries, detect_outcomes(data, list(written.entries.values())), strict=True))


def test_the_scenarios_cover_every_operation_type_and_outcome(written):
    assert {e.operation_type for e in written.entries.values()} == {
        "COMMENT", "REPLACE_TEXT", "REWRITE", "INSERT", "DELETE"}
    assert set(EXPECTED.values()) == {s.value for s in Status}
    assert set(EXPECTED) == set(SCENARIOS)


def test_everything_is_pending_in_the_file_we_wrote(written):
    found = outcomes(written.docx, written)
    assert {n: o.status for n, o in found.items()} == dict.fromkeys(SCENARIOS, Status.PENDING)
    assert {o.located_by for o in found.values()} == {"anchor"}


@pytest.mark.parametrize("scenario", list(EXPECTED))
def test_each_outcome_after_the_lawyers_review(written, reviewed, scenario):
    assert outcomes(reviewed, written)[scenario].status == EXPECTED[scenario]


def test_reasons_say_what_was_seen(written, reviewed):
    found = outcomes(reviewed, written)
    assert found["comment_deleted"].reason == "our comment was deleted"
    assert found["comment_resolved"].reason == "our comment was resolved"
    assert found["rewrite_rejected"].reason.endswith("still contains the original text")
    assert found["rewrite_clause_removed"].reason == "the anchor and the text are both gone"
    assert found["rewrite_clause_removed"].located_by is None and found["rewrite_clause_removed"].current_text == ""
    lost = found["replace_rejected_anchor_lost"]
    assert lost.located_by == "text" and "anchor lost" in lost.reason
    assert lost.current_text == written.entries["replace_rejected_anchor_lost"].original_text


def test_a_modification_reports_what_the_lawyer_wrote(written, reviewed):
    edited = outcomes(reviewed, written)["rewrite_hand_edited"]
    assert edited.current_text == "7. Each party shall maintain insurance of at least GBP 2,000,000."


def test_detection_is_idempotent_and_deterministic(written, reviewed):
    first = detect_outcomes(reviewed, list(written.entries.values()))
    assert detect_outcomes(reviewed, list(written.entries.values())) == first
    resaved = Package.open(reviewed).save()
    assert detect_outcomes(resaved, list(written.entries.values())) == first
    # Entry order decides nothing but the order of the answers.
    reordered = detect_outcomes(reviewed, list(reversed(written.entries.values())))
    assert list(reversed(reordered)) == first


def test_op_type_names_are_accepted_as_well_as_the_seeds(written):
    entry = written.entries["rewrite_rejected"]
    as_op = KnownEntry(**{**entry.to_json(), "operation_type": "REWRITE_PARAGRAPH"})
    (outcome,) = detect_outcomes(written.docx, [as_op])
    assert outcome.status is Status.PENDING


def test_an_unknown_operation_type_is_refused(written):
    entry = KnownEntry(id="x", index=0, operation_type="MOVE", bookmark_id="_RL_000000000000")
    with pytest.raises(ValueError, match="unknown operation type"):
        detect_outcomes(written.docx, [entry])


def test_a_comment_by_someone_else_with_our_text_is_not_ours(written):
    """Match by author: the lawyer pasting our words into their own comment does not keep ours alive."""
    entry = written.entries["comment_pending"]
    lawyer = Lawyer(written.docx)
    lawyer.delete_comment(entry.comment_text)
    data = lawyer.save()
    pkg = Package.open(data)
    comments = pkg.xml("word/comments.xml")
    c = etree.SubElement(comments, qn("w:comment"), {qn("w:id"): "99", qn("w:author"): "Lawyer"})
    etree.SubElement(etree.SubElement(etree.SubElement(c, qn("w:p")), qn("w:r")), qn("w:t")).text = entry.comment_text
    (outcome,) = detect_outcomes(pkg.save(), [entry])
    assert outcome.status is Status.REJECTED


def test_marks_count_as_ours_only_under_our_author(written):
    """Under another author name our marks read as the lawyer's own pending edits (accepted view)."""
    entry = written.entries["rewrite_rejected"]
    (mine,) = detect_outcomes(written.docx, [entry], author=AUTHOR)
    (theirs,) = detect_outcomes(written.docx, [entry], author="Someone Else")
    assert mine.status is Status.PENDING
    assert theirs.status is Status.ACCEPTED  # the accepted view reads as suggested, and the marks are not ours


def test_lost_anchors_are_found_again_by_text(written, reviewed):
    """Pending and rejected deletions, and a rejected rewrite, with their bookmarks lost."""
    lawyer = Lawyer(reviewed)
    for name in ("delete_pending", "delete_rejected", "rewrite_rejected"):
        lawyer.drop_anchor(written.entries[name].bookmark_id)
    found = outcomes(lawyer.save(), written)
    for name in ("delete_pending", "delete_rejected", "rewrite_rejected"):
        assert (found[name].status.value, found[name].located_by) == (EXPECTED[name], "text")


def test_an_accepted_deletion_whose_anchor_is_gone_too_is_accepted(written, reviewed):
    lawyer = Lawyer(reviewed)
    lawyer.drop_anchor(written.entries["delete_accepted"].bookmark_id)
    found = outcomes(lawyer.save(), written)["delete_accepted"]
    assert (found.status, found.located_by) == (Status.ACCEPTED, None)


def test_writing_the_same_suggestions_again_gives_the_same_entry_ids(written):
    """The seed's scenario 3 at engine level: ids are stable hashes, so a re-run adds no duplicates."""
    again = write_contract(written.anchored)
    assert [e.id for e in again.entries.values()] == [e.id for e in written.entries.values()]
    assert len({e.id for e in written.entries.values()}) == len(written.entries)


def test_no_entries_no_outcomes(written):
    assert detect_outcomes(written.docx, []) == []
