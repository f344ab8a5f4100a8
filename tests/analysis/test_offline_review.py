"""The offline provider through the whole pipeline, on realistic clauses and on the generated contract."""

from __future__ import annotations

import dataclasses
import re

import pytest

from redline.analysis.checks import check_rule
from redline.analysis.clauses import clauses_from_paragraphs
from redline.analysis.pipeline import review
from redline.analysis.playbook.model import Playbook
from redline.analysis.providers.offline import OfflineProvider
from redline.analysis.suggestions import Kind
from redline.analysis.validator import Status
from redline.ooxml.ops import op_from_json
from redline.ooxml.paragraphs import read_document
from redline.ooxml.writer import redline_document

from .conftest import anchor_of, make_clauses


@pytest.fixture
def result(msa, playbook):
    """The MSA reviewed for the Customer: what works against the Customer is raised and edited."""
    return review(msa, playbook, OfflineProvider(), acting_for="Customer")


@pytest.fixture
def for_supplier(msa, playbook):
    return review(msa, playbook, OfflineProvider(), acting_for="Supplier")


def find(result, rule, kind):
    return [s for s in result.suggestions if s.rule_key == rule and s.kind is kind]


def test_payment_period_of_90_days_becomes_60_for_the_payee_only(for_supplier, result, msa):
    # ninety days to pay is the Customer's advantage: acting for the Customer it is left alone
    assert find(result, "payment-terms", Kind.REPLACE) == []
    (s,) = find(for_supplier, "payment-terms", Kind.REPLACE)
    assert (s.quote, s.new_text, s.severity) == ("ninety (90) days", "sixty (60) days", "major")
    assert s.anchor == anchor_of(msa, "1.1 ")
    assert s.to_op() == {
        "Id": s.anchor, "Type": "REPLACE_TEXT", "Quote": "ninety (90) days", "Replacement": "sixty (60) days",
        "Occurrence": 1, "Comment": "A payment period of ninety (90) days is longer than the playbook maximum of 60 days.",
    }
    # the fixed clause satisfies the playbook and contradicts nothing else in the contract
    assert s.validation.status is Status.PASS
    assert {i.issue_type.value for i in s.validation.issues} <= {"completeness"}


def test_liability_cap_below_the_fees_is_raised_to_100_percent(result, for_supplier, msa):
    assert find(for_supplier, "limitation-of-liability", Kind.REPLACE) == []  # the Supplier's own cap
    (s,) = find(result, "limitation-of-liability", Kind.REPLACE)
    assert (s.quote, s.new_text, s.severity) == ("fifty percent (50%)", "one hundred percent (100%)", "critical")
    assert s.anchor == anchor_of(msa, "2.1 ")
    assert s.risk.overall >= 85 and dict(s.risk.scores)["financial"] >= 85
    assert s.validation.status is Status.PASS


def test_unlimited_liability_is_a_critical_comment_that_fails_validation(result, msa):
    (s,) = find(result, "limitation-of-liability", Kind.COMMENT)
    assert s.anchor == anchor_of(msa, "2.2 ") and s.quote == "unlimited liability"
    assert s.severity == "critical" and "uninsurable" in s.comment
    assert s.validation.status is Status.FAIL
    assert {(i.issue_type.value, i.severity.value) for i in s.validation.issues} >= {
        ("dangerous_pattern", "critical"), ("policy_violation", "critical")}
    assert s.to_op()["Scope"] == "quote" and s.to_op()["Quote"] == "unlimited liability"


def test_auto_renewal_notice_window_is_shortened(result, msa):
    # "unless either Party gives notice of non-renewal": the clause answers "can either party stop it?", so the
    # renewal is not commented on; its ninety-day window is the finding
    assert find(result, "auto-renewal", Kind.COMMENT) == []
    replace, = find(result, "auto-renewal", Kind.REPLACE)
    assert (replace.quote, replace.new_text) == ("ninety (90) days", "thirty (30) days")
    assert replace.anchor == anchor_of(msa, "3.1 ")


def test_one_sided_indemnity_is_asked_about_when_the_reciprocal_clause_would_use_foreign_terms(result, msa):
    # The playbook's reciprocal indemnity covers "the Services or Deliverables" and "Intellectual Property
    # Rights", terms this MSA never uses: the finding stays a comment rather than bring them in.
    assert find(result, "indemnity", Kind.INSERT) == []
    (s, broad) = find(result, "indemnity", Kind.COMMENT)
    assert s.quote == "The Customer shall indemnify" and "Only the Customer gives an indemnity" in s.comment
    assert broad.quote.startswith("any and all claims")


def test_one_sided_indemnity_gets_a_reciprocal_indemnity_inserted(msa, playbook):
    defined = make_clauses([("1.0 “Services”, “Deliverables” and “Intellectual Property Rights” are defined in "
                             "the Order Form.", None, None)])
    msa = [*msa[:2], *defined, *msa[2:]]
    result = review(msa, playbook, OfflineProvider(), acting_for="Customer")
    (s,) = find(result, "indemnity", Kind.INSERT)
    assert s.anchor == anchor_of(msa, "4.1 ") and s.quote == "The Customer shall indemnify"
    assert s.new_text.startswith("The Supplier shall indemnify the Customer against")
    assert "Only the Customer gives an indemnity" in s.comment
    assert s.to_op()["Type"] == "INSERT" and s.to_op()["Position"] == "after"
    broad, = find(result, "indemnity", Kind.COMMENT)
    assert broad.quote.startswith("any and all claims") and broad.severity == "major"


def test_missing_governing_law_and_jurisdiction_are_comments_where_they_would_go(result, msa, playbook):
    # The playbook's clauses leave the law and the courts as "[England and Wales]": a choice only the lawyer can
    # make, so the review says where the clause is missing and drafts no bracketed text.
    last_body = anchor_of(msa, "10.1 ")
    for key in ("governing-law", "jurisdiction"):
        assert find(result, key, Kind.INSERT) == []
        (s,) = find(result, key, Kind.COMMENT)
        assert s.anchor == last_body and s.source == "missing" and s.new_text == ""
        assert s.quote == msa[-2].text  # the paragraph it would go after, quoted exactly
        assert s.comment.startswith(f"The contract has no {playbook.rule(key).title.lower()} clause")


def test_compliant_clauses_get_no_suggestions(result, for_supplier):
    assert {s.rule_key for s in result.suggestions} == {
        "limitation-of-liability", "auto-renewal", "indemnity", "governing-law", "jurisdiction",
    }
    assert {s.rule_key for s in for_supplier.suggestions} == {
        "payment-terms", "auto-renewal", "governing-law", "jurisdiction",
    }
    assert result.stats.hallucination_drops == 0 and result.stats.grounded == result.stats.raw_findings


def test_missing_clause_goes_at_the_end_of_its_own_section(playbook):
    clauses = make_clauses([
        ("1. Services", "Heading 1", 1),
        ("1.1 The Supplier shall provide the Services with reasonable skill and care.", None, None),
        ("2. Notices and Governing Law", "Heading 1", 1),
        ("2.1 Notices shall be in writing and delivered by hand or courier to the address set out above, and are "
         "deemed received on delivery.", None, None),
        ("3. General", "Heading 1", 1),
        ("3.1 This Agreement is the entire agreement of the Parties.", None, None),
    ])
    # language in the contract's own words (the default's "[England and Wales]" would make it a comment)
    gov = dataclasses.replace(playbook.rule("governing-law"), suggested_language=(
        "This Agreement is governed by the laws of the country in which the Supplier is incorporated."))
    result = review(clauses, Playbook("one", (gov,)), OfflineProvider())
    (s,) = result.suggestions
    assert s.anchor == clauses[3].anchor  # section 2 is headed for it: the clause belongs there, not at the end
    assert s.new_text.startswith("2.2 This Agreement")  # as its next sub-clause


def test_generated_contract_gets_real_grounded_findings(generated, playbook):
    result = review(generated, playbook, OfflineProvider(), acting_for="Customer")
    by_anchor = {c.anchor: c for c in generated}
    assert result.stats.raw_findings == result.stats.grounded > 0
    assert len({s.id for s in result.suggestions}) == len(result.suggestions)
    for s in result.suggestions:
        text = by_anchor[s.anchor].text
        assert s.quote and s.quote in text
        assert text.count(s.quote) >= s.occurrence
    kinds = {(s.rule_key, s.kind) for s in result.suggestions}
    # the generator writes payment periods of 7-90 days, insurance of USD 250,000 upwards, a Renewal Term,
    # and no governing law, jurisdiction or liability cap clause: the playbook's clauses for the first two leave
    # the law and the forum in brackets, and a cap helps one side or the other, so each is a comment where the
    # clause would go
    assert {("payment-terms", Kind.REPLACE), ("insurance", Kind.REPLACE), ("auto-renewal", Kind.COMMENT),
            ("governing-law", Kind.COMMENT), ("jurisdiction", Kind.COMMENT),
            ("limitation-of-liability", Kind.COMMENT)} <= kinds  # whether a cap helps depends on the side
    assert not [s for s in result.suggestions if s.kind is Kind.INSERT and "[" in s.new_text]
    for s in result.suggestions:
        if s.rule_key == "payment-terms" and s.kind is Kind.REPLACE:
            days = int(re.search(r"\((\d+)\)", s.quote).group(1))
            assert days > 60 or days < 30, s.quote
            assert re.search(r"(sixty \(60\)|thirty \(30\)) days", s.new_text), s.new_text
        if s.rule_key == "insurance":
            assert (s.quote, s.new_text) == ("USD 250,000", "USD 1,000,000")
    execution = next(i for i, c in enumerate(generated) if c.text == "EXECUTION")
    inserts = [s for s in result.suggestions if s.source == "missing" and s.rule_key == "governing-law"]
    assert [generated.index(by_anchor[s.anchor]) for s in inserts] == [execution - 1]


def test_threshold_replacements_actually_satisfy_the_rule(generated, playbook):
    suggestions = [s for side in ("Customer", "Supplier")
                   for s in review(generated, playbook, OfflineProvider(), acting_for=side).suggestions]
    by_anchor = {c.anchor: c.text for c in generated}
    checked = 0
    for s in suggestions:
        if s.kind is not Kind.REPLACE or s.source != "threshold":
            continue
        text = by_anchor[s.anchor]
        start = text.index(s.quote)
        fixed = text[:start] + s.new_text + text[start + len(s.quote):]
        remaining = [fixed[h.start:h.end] for h in check_rule(playbook.rule(s.rule_key), fixed)]
        assert not any(r in s.new_text for r in remaining), (s.new_text, remaining)
        checked += 1
    assert checked >= 3


def test_same_input_gives_the_same_suggestions_and_ids(generated, playbook):
    first = review(generated, playbook, OfflineProvider())
    second = review(generated, playbook, OfflineProvider())
    assert [s.to_dict() for s in first.suggestions] == [s.to_dict() for s in second.suggestions]
    assert first.ops()["ops"] == [s.to_op() for s in first.suggestions]
    assert first.ops()["meta"] == {"author": "Redline AI"}


def test_every_suggestion_on_the_generated_contract_is_applied_by_the_writer(generated_docx, playbook):
    """The ops are the writer's input: each must land (quote found, unambiguous, change proven)."""
    read = read_document(generated_docx)
    result = review(clauses_from_paragraphs(read.paragraphs), playbook, OfflineProvider())
    out = redline_document(read.docx, [op_from_json(i, s.to_op()) for i, s in enumerate(result.suggestions)])
    assert [r.status for r in out.results] == ["applied"] * len(result.suggestions)
