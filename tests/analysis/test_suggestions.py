"""Suggestions as ops.json operations, ids, and the rejection filter."""

from __future__ import annotations

import pytest

from redline.analysis.rejections import Rejection, format_rejections, rejection_filter
from redline.analysis.suggestions import Kind, Suggestion, ops_document, suggestion_id


def make(kind: Kind, **kw) -> Suggestion:
    base = dict(id="x", anchor="_RL_0123456789ab", kind=kind, rule_key="r", rule_title="R", category="general",
                severity="minor", quote="q", comment="Because.")
    return Suggestion(**{**base, **kw})


@pytest.mark.parametrize("kind,extra,op", [
    (Kind.COMMENT, {}, {"Type": "COMMENT", "Scope": "quote", "Quote": "q", "Occurrence": 1, "Comment": "Because."}),
    (Kind.COMMENT, {"scope": "paragraph"}, {"Type": "COMMENT", "Scope": "paragraph", "Comment": "Because."}),
    (Kind.REPLACE, {"new_text": "r"},
     {"Type": "REPLACE_TEXT", "Quote": "q", "Replacement": "r", "Occurrence": 1, "Comment": "Because."}),
    (Kind.REPLACE, {"new_text": "r", "occurrence": 2},
     {"Type": "REPLACE_TEXT", "Quote": "q", "Replacement": "r", "Occurrence": 2, "Comment": "Because."}),
    (Kind.REWRITE, {"new_text": "New."}, {"Type": "REWRITE_PARAGRAPH", "NewText": "New.", "Comment": "Because."}),
    (Kind.INSERT, {"new_text": "Added."},
     {"Type": "INSERT", "Text": "Added.", "Position": "after", "Comment": "Because."}),
    (Kind.DELETE, {}, {"Type": "DELETE_PARAGRAPH", "Comment": "Because."}),
])
def test_each_kind_becomes_the_design_op(kind, extra, op):
    assert make(kind, **extra).to_op() == {"Id": "_RL_0123456789ab", **op}


def test_ops_document_shape():
    doc = ops_document([make(Kind.DELETE)], author="Tester")
    assert doc == {"meta": {"author": "Tester"}, "ops": [{"Id": "_RL_0123456789ab", "Type": "DELETE_PARAGRAPH",
                                                        "Comment": "Because."}]}


def test_ids_depend_on_rule_anchor_and_content_only():
    a = suggestion_id("r", "_RL_1", Kind.REPLACE, "ninety (90) days", 1, "sixty (60) days", "one wording")
    assert a == suggestion_id("r", "_RL_1", Kind.REPLACE, "ninety (90) days", 1, "sixty (60) days", "other wording")
    assert len({a,
                suggestion_id("r2", "_RL_1", Kind.REPLACE, "ninety (90) days", 1, "sixty (60) days", ""),
                suggestion_id("r", "_RL_2", Kind.REPLACE, "ninety (90) days", 1, "sixty (60) days", ""),
                suggestion_id("r", "_RL_1", Kind.REPLACE, "ninety (90) days", 1, "thirty (30) days", ""),
                suggestion_id("r", "_RL_1", Kind.REPLACE, "ninety (90) days", 2, "sixty (60) days", "")}) == 5
    # a comment's text is its content
    assert suggestion_id("r", "a", Kind.COMMENT, "q", 1, "", "x") != suggestion_id("r", "a", Kind.COMMENT, "q", 1, "", "y")


def test_rejection_filter_drops_repeats_not_topics():
    rejected = rejection_filter([
        Rejection("REPLACE_TEXT", original_text="within ninety (90) days of receipt", new_text="sixty (60) days"),
        Rejection("COMMENT", comment_text="Consider removing this clause.", document_context="The Supplier shall..."),
    ])
    same = make(Kind.REPLACE, quote="ninety (90) days", new_text="sixty  (60) days")
    other_fix = make(Kind.REPLACE, quote="ninety (90) days", new_text="forty-five (45) days")
    elsewhere = make(Kind.REPLACE, quote="thirty (30) days", new_text="sixty (60) days")
    as_comment = make(Kind.COMMENT, quote="ninety (90) days", comment="sixty (60) days")
    assert rejected(same)
    assert not rejected(other_fix) and not rejected(elsewhere) and not rejected(as_comment)
    assert rejected(make(Kind.COMMENT, quote="The Supplier", comment="Consider  removing this clause."))


def test_rejections_are_formatted_for_the_prompt_without_ids():
    text = format_rejections([
        Rejection("REWRITE_PARAGRAPH", "Payment within 30 days", "Payment within 45 days", "Better cash flow"),
        Rejection("COMMENT", comment_text="Remove this.", document_context="The Contractor shall not be liable."),
    ])
    assert "### Rejected REWRITE_PARAGRAPH 1" in text and 'Suggested: "Payment within 45 days"' in text
    assert "### Rejected COMMENT 2" in text and "> The Contractor shall not be liable." in text
    assert format_rejections([]) == "(No previous rejections)"
