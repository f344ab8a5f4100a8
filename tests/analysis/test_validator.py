"""The validator: the seed's status rules exactly, the offline checks, and the 24-hour verdict cache."""

from __future__ import annotations

import pytest

from redline.analysis.cache import MemoryCache
from redline.analysis.playbook.model import Severity
from redline.analysis.validator import (
    VERDICT_TTL,
    DocumentFacts,
    IssueType,
    OfflineValidator,
    Status,
    ValidationIssue,
    ValidationResult,
    cached_validate,
    decide_status,
    document_facts,
)

C, MAJ, MIN = Severity.CRITICAL, Severity.MAJOR, Severity.MINOR


def issues(*severities: Severity) -> list[ValidationIssue]:
    return [ValidationIssue(IssueType.VAGUE_LANGUAGE, s, "x") for s in severities]


@pytest.mark.parametrize("confidence,severities,status", [
    (0.95, (), Status.PASS),
    (0.95, (MIN, MIN), Status.PASS),
    (0.7, (), Status.PASS),  # the seed's code passes 0.6-0.8 without major issues (its comment's 0.8 is not a rule)
    (0.6, (), Status.PASS),  # exactly 0.6 is not "below 0.6"
    (0.6, (MAJ,), Status.WARN),
    (0.95, (MAJ,), Status.WARN),
    (0.95, (MAJ, MIN), Status.WARN),
    (0.95, (C,), Status.FAIL),
    (0.95, (C, MAJ, MIN), Status.FAIL),
    (0.6, (C,), Status.FAIL),
    (0.5999, (), Status.FAIL),  # too uncertain to recommend, even with no issues
    (0.59, (MIN,), Status.FAIL),
    (0.0, (MAJ,), Status.FAIL),
])
def test_status_rules_are_the_seeds(confidence, severities, status):
    assert decide_status(confidence, issues(*severities)) is status


V = OfflineValidator()
NO_FACTS = DocumentFacts()


def check(text: str, **kw) -> ValidationResult:
    return V.validate(text, facts=kw.pop("facts", NO_FACTS), **kw)


def kinds(result: ValidationResult) -> set[tuple[str, str]]:
    return {(i.issue_type.value, i.severity.value) for i in result.issues}


def test_a_sound_clause_passes():
    r = check("The Customer shall pay each undisputed invoice within sixty (60) days of receipt, failing which "
              "interest accrues on the overdue amount.")
    assert (r.status, r.issues) == (Status.PASS, ())


def test_words_and_figures_that_disagree_fail():
    r = check("The Customer shall pay each invoice within thirty (45) days of receipt, failing which interest accrues.")
    assert r.status is Status.FAIL and ("contradiction", "critical") in kinds(r)
    assert any(i.location_hint == "thirty (45) days" for i in r.issues)


def test_two_payment_periods_across_the_document_contradict():
    texts = ["The Customer shall pay each invoice within thirty (30) days of receipt.",
             "All invoices are payable within sixty (60) days of receipt.",
             "The Supplier's liability shall not exceed the Charges paid in the twelve (12) months preceding the claim."]
    facts = document_facts(texts)
    assert sorted(f.value for f in facts.facts) == ["30 days", "60 days"]  # the look-back is not a payment period
    r = check(texts[0], facts=facts)
    (issue,) = [i for i in r.issues if i.issue_type is IssueType.CONTRADICTION]
    assert issue.severity is MAJ and "60 days" in issue.description and issue.location_hint == "sixty (60) days"
    assert r.status is Status.WARN
    # a clause restating the same period contradicts nothing
    assert IssueType.CONTRADICTION not in {i.issue_type for i in check(texts[0], facts=document_facts(texts[:1])).issues}


def test_the_clause_being_replaced_is_not_elsewhere():
    old = "The Customer shall pay each invoice within ninety (90) days of receipt."
    new = "The Customer shall pay each invoice within sixty (60) days of receipt."
    facts = document_facts([old])
    assert any(i.issue_type is IssueType.CONTRADICTION for i in check(new, facts=facts).issues)
    assert not any(i.issue_type is IssueType.CONTRADICTION for i in check(new, facts=facts, replaces=old).issues)


def test_two_periods_in_one_clause_and_two_governing_laws():
    r = check("The Customer shall pay within thirty (30) days of receipt of invoice, or if later within forty-five "
              "(45) days after the invoice date.")
    assert any("two different payment periods" in i.description for i in r.issues)
    facts = document_facts(["This Agreement is governed by the laws of England and Wales."])
    r = check("This Agreement shall be governed by the laws of the State of New York.", facts=facts)
    assert any(i.issue_type is IssueType.CONTRADICTION and "England and Wales" in i.description for i in r.issues)


@pytest.mark.parametrize("text,expected", [
    ("The Customer shall have unlimited liability for any breach of this Agreement.", ("dangerous_pattern", "critical")),
    ("The Supplier may terminate this Agreement at its sole discretion, failing which nothing happens.",
     ("dangerous_pattern", "major")),
    ("The Supplier may amend these terms by posting them, and the Customer waives all rights to object.",
     ("dangerous_pattern", "major")),
    ("The courts of [jurisdiction] shall have exclusive jurisdiction over any breach.", ("completeness", "major")),
    ("Shall deliver the goods within ten (10) days or pay damages.", ("completeness", "major")),  # no party
    ("The Supplier shall deliver the reports to the Customer.", ("completeness", "minor")),  # no time limit
    ("The Supplier shall use reasonable endeavours to respond promptly and/or escalate, failing which credits apply.",
     ("vague_language", "minor")),
])
def test_offline_checks(text, expected):
    assert expected in kinds(check(text))


def test_policy_violation_uses_the_playbook_rule(playbook):
    rule = playbook.rule("payment-terms")
    r = check("The Customer shall pay each invoice within ninety (90) days of receipt, failing which interest accrues.",
              rules=(rule,))
    assert ("policy_violation", "major") in kinds(r) and r.status is Status.WARN
    assert any(i.location_hint == "ninety (90) days" for i in r.issues)


def test_a_fragment_is_too_short_to_vouch_for():
    r = check("See Schedule 2.")
    assert r.confidence < 0.6 and r.status is Status.FAIL


def test_verdicts_are_cached_by_clause_for_24_hours(playbook):
    now = [1000.0]
    cache = MemoryCache(clock=lambda: now[0])
    text = "The Customer shall pay each invoice within ninety (90) days of receipt."
    rules = (playbook.rule("payment-terms"),)
    first, cached = cached_validate(V, cache, text, rules=rules, facts=NO_FACTS)
    assert not cached
    again, cached = cached_validate(V, cache, text, rules=rules, facts=NO_FACTS)
    assert cached and again == first
    _, cached = cached_validate(V, cache, text, rules=(), facts=NO_FACTS)  # another rule set: another verdict
    assert not cached
    now[0] += VERDICT_TTL - 1
    assert cached_validate(V, cache, text, rules=rules, facts=NO_FACTS)[1]
    now[0] += 2
    assert not cached_validate(V, cache, text, rules=rules, facts=NO_FACTS)[1]


def test_result_round_trips_through_its_dict():
    r = check("The Customer shall have unlimited liability for any breach of this Agreement.")
    assert ValidationResult.from_dict(r.to_dict()) == r
