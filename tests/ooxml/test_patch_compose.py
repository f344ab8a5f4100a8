"""Composed patches: several ops on one paragraph, one patch, as the whole-document redline has them."""

from __future__ import annotations

import itertools

import pytest

from redline.ooxml.ops import op_from_json
from redline.ooxml.oxml import qn
from redline.ooxml.package import Package
from redline.ooxml.patch import PatchBuilder, patch_to_docx
from tests.ooxml.write_helpers import DATE, anchor, anchored, check_structure, p, paragraph_xml, r, redline
from tests.support import oracles
from tests.support.validator import assert_no_new_findings

TEXT = "Payment is due within 90 days of invoice, and late payment bears interest at 2% per month."
BODY = "".join([p(r("Heading")), p(r(TEXT)), p(r("The next paragraph stays as it is."))])


@pytest.fixture(scope="module")
def source():
    docx, paragraphs = anchored(BODY)
    return docx, anchor(paragraphs, "Payment")


def ops_for(target: str) -> list[dict]:
    """Three suggestions on one paragraph, in the run's order: two replacements and a comment, and
    (fourth) a clause inserted after it."""
    return [
        {"Id": target, "Type": "REPLACE_TEXT", "Quote": "90 days", "Replacement": "30 days"},
        {"Id": target, "Type": "COMMENT", "Quote": "late payment", "Comment": "Is interest enforceable here?"},
        {"Id": target, "Type": "REPLACE_TEXT", "Quote": "2% per month", "Replacement": "1% per month"},
        {"Id": target, "Type": "INSERT", "Position": "after", "Text": "Invoices are sent by email."},
    ]


# What a reader sees, typed by hand: the four ops accepted, and all rejected (the paragraph as it was).
ACCEPTED = ["Payment is due within 30 days of invoice, and late payment bears interest at 1% per month.",
            "Invoices are sent by email."]
REJECTED = ["Payment is due within 90 days of invoice, and late payment bears interest at 2% per month."]
# Counted by hand: "90" and "2" deleted; "30", "1" and the clause inserted, and the clause's paragraph mark;
# the one comment, referenced once.
COUNTS = {"ins": 3, "del": 2, "para_mark_changes": 1, "revisions_total": 6, "comments": 1, "comment_references": 1}


def compose(docx: bytes, ops: list[dict], order: list[int]):
    builder = PatchBuilder(Package.open(docx), date=DATE)
    return builder.compose([op_from_json(i, ops[i]) for i in order])


def test_any_order_gives_the_same_patch_and_reports_each_op(source):
    docx, target = source
    ops = ops_for(target)[:3]
    patches = [compose(docx, ops, list(order)) for order in itertools.permutations(range(3))]
    assert all(c.xml is not None for c in patches)
    assert len({c.xml for c in patches}) == 1  # byte for byte: the ids too
    first = patches[0]
    assert [(r.op.index, r.status) for r in first.results] == [(0, "applied"), (1, "applied"), (2, "applied")]
    assert first.text == ACCEPTED[0]
    assert (first.before, first.after) == (0, 0)


def test_a_composed_patch_reads_as_the_whole_document_redline_of_the_same_ops(source, tmp_path):
    docx, target = source
    ops = ops_for(target)
    composed = compose(docx, ops, [3, 1, 0, 2])
    assert (composed.before, composed.after) == (0, 1)  # the inserted clause follows the anchored paragraph
    whole = redline(docx, ops)
    assert [r.status for r in whole.results] == ["applied"] * 4
    patch_file, whole_file = tmp_path / "patch.docx", tmp_path / "whole.docx"
    patch_file.write_bytes(patch_to_docx(composed.xml))
    whole_file.write_bytes(whole.docx)
    # Each against the hand-written lines (a mistake the writer and the composer share would pass a comparison
    # of the two), then the patch as the whole document's paragraph.
    assert oracles.pandoc_text(patch_file, "accept") == ACCEPTED
    assert oracles.pandoc_text(patch_file, "reject") == REJECTED
    assert oracles.pandoc_text(whole_file, "accept") == ["Heading", *ACCEPTED, "The next paragraph stays as it is."]
    assert oracles.pandoc_text(whole_file, "reject") == ["Heading", *REJECTED, "The next paragraph stays as it is."]
    patch_stats, whole_stats = oracles.stats(patch_file), oracles.stats(whole_file)
    assert {k: patch_stats[k] for k in COUNTS} == COUNTS
    assert {k: whole_stats[k] for k in COUNTS} == COUNTS
    assert patch_stats["authors"] == whole_stats["authors"] == {"Redline AI": 6}
    got = paragraph_xml(patch_to_docx(composed.xml), target)
    assert len(got.findall(f".//{qn('w:commentReference')}")) == 1  # the comment once, not once per op
    check_structure(patch_to_docx(composed.xml))
    assert_no_new_findings(None, patch_to_docx(composed.xml))
    assert oracles.opens(patch_file)


def test_an_op_that_no_longer_fits_is_reported_and_the_others_still_apply(source):
    docx, target = source
    ops = [*ops_for(target)[:2], {"Id": target, "Type": "REPLACE_TEXT", "Quote": "not in it", "Replacement": "x"}]
    composed = compose(docx, ops, [2, 0, 1])
    assert [r.status for r in composed.results] == ["applied", "applied", "skipped"]
    assert composed.results[2].reason and composed.xml is not None
    nothing = compose(docx, ops, [2])
    assert nothing.xml is None and nothing.results[0].status == "skipped"


def test_ops_on_two_paragraphs_are_refused(source):
    docx, target = source
    other = {"Id": anchor(anchored(BODY)[1], "Heading"), "Type": "COMMENT", "Comment": "x"}
    with pytest.raises(ValueError, match="one paragraph"):
        compose(docx, [ops_for(target)[0], other], [0, 1])
