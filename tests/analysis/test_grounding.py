"""Grounding: quotes must be in their paragraph, up to whitespace and quote marks only."""

from __future__ import annotations

import pytest

from redline.analysis.grounding import locate, normalize, widen_to_unique
from redline.analysis.pipeline import review
from redline.analysis.playbook.model import Playbook
from redline.analysis.providers.base import ProviderResponse, RawFinding, RuleRequest, Usage
from redline.analysis.suggestions import Kind

from .conftest import make_clauses

CLAUSE = "The Supplier\u00a0shall deliver the “Deliverables”  within\nthirty (30) days of the Supplier's receipt."


@pytest.mark.parametrize("quote,exact", [
    ('the "Deliverables" within thirty', "the “Deliverables”  within\nthirty"),  # straight vs curly, spaces
    ("Supplier shall deliver", "Supplier\u00a0shall deliver"),  # non-breaking space
    ("Supplier’s receipt", "Supplier's receipt"),  # curly apostrophe in the quote
    ("  thirty (30) days ", "thirty (30) days"),  # surrounding whitespace
])
def test_tolerates_whitespace_and_quote_marks_and_maps_to_the_exact_original(quote, exact):
    span = locate(quote, CLAUSE)
    assert span is not None and span.quote == exact == CLAUSE[span.start:span.end]


@pytest.mark.parametrize("quote", [
    "the Deliverables within thirty",  # quote marks dropped: a different string
    "The supplier shall deliver",  # case differs
    "within thirty days",  # paraphrase
    "deliver the Deliverables",  # "..." style shortening
    "",
])
def test_anything_else_is_not_found(quote):
    assert locate(quote, CLAUSE) is None


def test_normalize_keeps_an_index_into_the_original():
    norm, index = normalize("a \u00a0\n b“c”")
    assert norm == 'a b"c"'
    assert [("a \u00a0\n b“c”")[i] for i in index] == ["a", " ", "b", "“", "c", "”"]


def test_hint_picks_the_right_one_of_identical_quotes():
    text = "pay within ten (10) days, and notify within ten (10) days"
    second = text.rindex("ten (10) days")
    span = locate("ten (10) days", text, (second, second + len("ten (10) days")))
    assert (span.start, span.occurrence) == (second, 2)
    assert locate("ten (10) days", text).occurrence == 1


def test_widen_to_unique_grows_by_whole_words():
    text = "pay within ten (10) days of receipt, within ten (10) days."
    first = text.index("ten (10) days")
    start, end = widen_to_unique(text, first, first + len("ten (10) days"))
    assert text[start:end] == "ten (10) days of"
    assert text.count(text[start:end]) == 1


class ScriptedProvider:
    """Returns fixed findings, as a model might: the pipeline must ground or drop each."""

    name = "scripted"
    model = "script"
    max_concurrency = 1
    max_batch_chars = None
    identity = "scripted/1"

    def __init__(self, findings: list[RawFinding]) -> None:
        self.findings = findings

    def analyze(self, request: RuleRequest) -> ProviderResponse:
        return ProviderResponse(tuple(self.findings), Usage(calls=1))


def test_pipeline_drops_and_counts_hallucinated_quotes(playbook):
    clauses = make_clauses([
        ("1. Payment", "Heading 1", 1),
        ("The Customer shall pay the “Charges” within ninety (90) days of receipt.", None, None),
    ])
    rule = playbook.rule("payment-terms")
    provider = ScriptedProvider([
        RawFinding(1, "replace", "ninety (90) days", "sixty (60) days", "Too long."),
        RawFinding(1, "comment", 'pay the "Charges"  within', comment="Straight quotes, double space."),
        RawFinding(1, "replace", "ninety days", "sixty days", "Paraphrased quote."),
        RawFinding(7, "comment", "ninety (90) days", comment="No paragraph 7 was sent."),
        RawFinding(1, "replace", "ninety (90) days", "", "No replacement text."),
        RawFinding(1, "explode", "ninety (90) days", comment="Unknown kind."),
    ])
    result = review(clauses, Playbook("p", (rule,)), provider, acting_for="Supplier")
    stats = result.stats
    assert (stats.raw_findings, stats.grounded, stats.hallucination_drops, stats.invalid_drops) == (6, 2, 2, 2)
    assert stats.hallucination_rate == pytest.approx(2 / 6)
    quotes = {(s.kind, s.quote) for s in result.suggestions}
    assert quotes == {(Kind.REPLACE, "ninety (90) days"), (Kind.COMMENT, "pay the “Charges” within")}


def test_a_repeated_quote_is_widened_so_the_writer_needs_no_occurrence_count(playbook):
    clauses = make_clauses([("The Customer shall pay within ten (10) days of receipt, within ten (10) days.", None, None)])
    provider = ScriptedProvider([RawFinding(1, "replace", "ten (10) days", "thirty (30) days", "Too short.")])
    result = review(clauses, Playbook("p", (playbook.rule("payment-terms"),)), provider, acting_for="Customer")
    (s,) = result.suggestions
    assert (s.quote, s.new_text, s.occurrence) == ("ten (10) days of", "thirty (30) days of", 1)
    assert clauses[0].text.count(s.quote) == 1


def test_a_quote_that_cannot_be_made_unique_keeps_its_occurrence():
    half = "pay one two three four five six seven eight nine ten eleven twelve"
    text = f"{half} {half}"
    start, end = widen_to_unique(text, 0, 3)  # the first "pay": no room to the left, too far to the right
    assert text[start:end] != text and text.count(text[start:end]) == 2
    second = text.rindex("pay")
    start, end = widen_to_unique(text, second, second + 3)
    assert text[start:end] == "twelve pay" and text.count("twelve pay") == 1
