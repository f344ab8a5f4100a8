"""A rejected suggestion is never suggested again, whatever the provider proposes."""

from __future__ import annotations

import dataclasses

from redline.analysis.clauses import Clause
from redline.analysis.pipeline import review
from redline.analysis.playbook.io import default_playbook
from redline.analysis.providers.offline import OfflineProvider
from redline.analysis.suggestions import Kind, Suggestion
from redline.learning.outcomes import Status, detect_outcomes
from redline.learning.suppression import RejectedSuggestion, Suppressor, rejected_suggestion
from redline.ooxml.ops import KnownEntry

ANCHOR, OTHER = "_RL_aaaaaaaaaaaa", "_RL_bbbbbbbbbbbb"


def suggestion(kind: Kind = Kind.REPLACE, *, anchor: str = ANCHOR, rule: str = "payment-terms", quote: str = "90 days",
               new_text: str = "60 days", comment: str = "Shorten the payment period.") -> Suggestion:
    return Suggestion(id="s", anchor=anchor, kind=kind, rule_key=rule, rule_title="Payment terms",
                      category="payment_terms", severity="high", quote=quote, comment=comment, new_text=new_text)


def record(s: Suggestion, *, paragraph: str = "Payment is due within 90 days of invoice.") -> RejectedSuggestion:
    op = {Kind.COMMENT: "COMMENT", Kind.REPLACE: "REPLACE_TEXT", Kind.REWRITE: "REWRITE", Kind.INSERT: "INSERT",
          Kind.DELETE: "DELETE"}[s.kind]
    entry = KnownEntry(id="e1", index=0, operation_type=op, bookmark_id=s.anchor, original_text=paragraph,
                       new_text=s.new_text, comment_text=s.comment)
    return rejected_suggestion(entry, reason="user rejected", suggestion=s, document_context=paragraph)


def test_rejected_outcomes_become_records_with_rule_anchor_kind_and_text(written, reviewed):
    entries = list(written.entries.values())
    rejected = [(e, o) for e, o in zip(entries, detect_outcomes(reviewed, entries), strict=True)
                if o.status is Status.REJECTED]
    records = [rejected_suggestion(e, reason=o.reason) for e, o in rejected]
    by_type = {r.operation_type: r for r in records}
    assert set(by_type) == {"REPLACE_TEXT", "REWRITE_PARAGRAPH", "INSERT", "COMMENT", "DELETE_PARAGRAPH"}
    replace = by_type["REPLACE_TEXT"]
    assert (replace.quote, replace.new_text) == ("30", "90")  # recovered from "30 days" → "90 days"
    assert replace.anchor == written.entries["replace_rejected_anchor_lost"].bookmark_id
    assert by_type["DELETE_PARAGRAPH"].new_text == ""
    assert by_type["COMMENT"].comment_text == "Two years is short for trade secrets."
    rejection = by_type["REWRITE_PARAGRAPH"].to_rejection()
    assert rejection.operation_type == "REWRITE_PARAGRAPH" and rejection.document_context


def test_the_same_suggestion_again_is_suppressed():
    s = suggestion()
    match = Suppressor([record(s)]).match(dataclasses.replace(s, id="new"))
    assert match is not None and match.why == "repeat" and match.rejection.id == "e1"


def test_the_same_rule_at_the_same_anchor_is_suppressed_however_it_is_worded():
    suppress = Suppressor([record(suggestion())])
    reworded = suggestion(Kind.COMMENT, quote="within 90 days", new_text="", comment="90 days is too long.")
    assert suppress.match(reworded).why == "same_rule_and_anchor"
    assert not suppress(suggestion(anchor=OTHER, quote="thirty days"))
    assert not suppress(suggestion(rule="late-interest", quote="5% per annum", new_text="1% per month"))


def test_everything_the_pipelines_own_filter_drops_is_still_dropped():
    """The analysis filter matches repeats by text, wherever they are; the Suppressor only adds to it."""
    suppress = Suppressor([record(suggestion())])
    assert suppress.match(suggestion(anchor=OTHER, rule="notice")).why == "repeat"


def test_the_same_new_text_is_suppressed_where_it_means_the_same():
    rewrite = suggestion(Kind.REWRITE, quote="Payment is due within 90 days of invoice.",
                         new_text="Payment is due within 60 days of invoice.")
    suppress = Suppressor([record(rewrite)])
    elsewhere = dataclasses.replace(rewrite, anchor=OTHER, rule_key="other-rule", quote="Payment is due promptly.",
                                    new_text="Payment is due within  60 days of invoice.")
    assert suppress.match(elsewhere).why == "same_new_text"
    # A short replacement proves nothing on its own at another place.
    short = Suppressor([record(suggestion())])
    assert not short(suggestion(anchor=OTHER, rule="notice", quote="thirty days"))


def test_a_similar_comment_on_the_same_clause_is_suppressed():
    c = suggestion(Kind.COMMENT, rule="confidentiality", new_text="",
                   comment="Two years is too short for trade secrets.")
    suppress = Suppressor([record(c)])
    similar = dataclasses.replace(c, rule_key="trade-secrets", comment="Two years is too short for trade secrets!")
    assert suppress.match(similar).why == "similar_comment"
    assert not suppress(dataclasses.replace(similar, anchor=OTHER))
    assert not suppress(dataclasses.replace(similar, comment="Add a carve-out for personal data."))


def test_the_pipeline_never_shows_a_rejected_suggestion_again():
    """The offline provider proposes the same finding on every run; after its rejection it is gone."""
    clauses = [Clause("_RL_000000000001", "1. Fees and Payment", heading_level=1),
               Clause(ANCHOR, "1.1 The Customer shall pay each undisputed invoice within ninety (90) days of receipt.")]
    playbook = default_playbook()
    first = review(clauses, playbook, OfflineProvider())
    (found,) = [s for s in first.suggestions if s.rule_key == "payment-terms"]
    entry = KnownEntry(id="e-pay", index=0, operation_type="REPLACE_TEXT", bookmark_id=found.anchor,
                       original_text=clauses[1].text, new_text=clauses[1].text.replace(found.quote, found.new_text))
    rejection = rejected_suggestion(entry, reason="user rejected", suggestion=found, document_context=clauses[1].text)
    again = review(clauses, playbook, OfflineProvider(), rerun=True, prior_rejections=[rejection.to_rejection()],
                   suppress=Suppressor([rejection]))
    assert [s for s in again.suggestions if s.rule_key == "payment-terms"] == []
    assert again.stats.suppressed >= 1
    assert {s.id for s in again.suggestions} == {s.id for s in first.suggestions} - {found.id}
