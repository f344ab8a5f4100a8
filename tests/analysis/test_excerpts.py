"""A rule's excerpt of a long paragraph: what a model is shown, and how its findings ground.

The clause engine is the real one; the provider is scripted (it answers as a
model might) and records what it is given. The OpenAI path is
tests/analysis/test_openai_provider.py.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from redline.analysis.cache import MemoryCache
from redline.analysis.document import build_document
from redline.analysis.excerpts import GAP, WHOLE_UP_TO, excerpt_of
from redline.analysis.pipeline import review
from redline.analysis.playbook.model import Playbook
from redline.analysis.providers.base import BatchRequest, ProviderResponse, RawFinding, Usage
from redline.analysis.providers.offline import OfflineProvider
from redline.analysis.selection import rule_matchers
from redline.analysis.suggestions import Kind
from redline.clauses import SentenceScores
from redline.clauses.units import sentence_spans

from .conftest import CountingProvider, make_clauses

PAYMENT = "The Customer shall pay each invoice within ninety (90) days of its receipt by the Customer."
LATE = "Late payments bear interest at two percent (2%) per month."
LONG = ("7.1 General. Each party shall keep the other party's premises tidy and shall comply with the reasonable "
        "site rules notified to it in writing by the Customer from time to time. "
        f"{PAYMENT} "
        "No press release about this Agreement shall be issued by the Customer without the prior written consent "
        "of the other party. "
        "Each party shall keep the keys and access cards of the other party's premises in a safe place. "
        f"{LATE} "
        "Each party shall bear its own costs of attending the meetings.")
SHORT = "Each party shall pay its own costs of preparing this Agreement."


def clauses():
    return make_clauses([("7. General", "Heading 1", 1), (LONG, None, None), (SHORT, None, None)])


class ExcerptedProvider:
    """Takes excerpts in batches like a model provider; answers with fixed findings (under the batch's first
    rule) and records each request."""

    name = "scripted"
    model = "script"
    max_concurrency = 1
    max_batch_chars = None
    identity = "scripted-excerpts/1"
    excerpts = True

    def __init__(self, findings: list[RawFinding]) -> None:
        self.findings = findings
        self.requests: list[BatchRequest] = []

    def analyze_batch(self, request: BatchRequest) -> ProviderResponse:
        self.requests.append(request)
        return ProviderResponse(tuple(replace(f, rule=request.rules[0].key) for f in self.findings),
                                Usage(calls=1))


def test_a_long_paragraph_is_cut_to_the_rules_whole_sentences_marked_as_an_excerpt(playbook):
    assert len(LONG) > WHOLE_UP_TO
    doc = build_document(clauses())
    rule = playbook.rule("payment-terms")
    excerpt = excerpt_of(doc, rule, 1, rule_matchers(doc, rule))
    assert excerpt is not None
    assert excerpt.text == f"{GAP} {PAYMENT} {GAP} {LATE} {GAP}"  # left-out start, middle and end are marked
    bounds = {(s.start, s.end) for s in sentence_spans(LONG)}
    assert all(span in bounds for span in excerpt.spans)  # sentence-complete
    assert [LONG[a:b] for a, b in excerpt.spans] == [PAYMENT, LATE]


def test_adjacent_kept_sentences_read_as_one_passage(playbook):
    text = LONG.replace(f"{PAYMENT} ", "").replace(LATE, f"{LATE} {PAYMENT}")
    doc = build_document(make_clauses([(text, None, None)]))
    rule = playbook.rule("payment-terms")
    excerpt = excerpt_of(doc, rule, 0, rule_matchers(doc, rule))
    assert excerpt is not None and f"{LATE} {PAYMENT}" in excerpt.text  # one passage, no gap between them
    spans = excerpt.spans
    assert all(text[b:a].strip() for (_, b), (a, _) in itertools.pairwise(spans))  # a gap is always text left out
    assert excerpt.text.count(GAP) == len(spans) - 1 + (spans[0][0] > 0) + (spans[-1][1] < len(text))


def without_the_engine(doc):
    """``doc`` as if the engine rated no sentence for anything: only wording can keep a sentence."""
    units = [(p, s.start, s.end) for p, c in enumerate(doc.clauses) for s in sentence_spans(c.text)]
    silent = SentenceScores(units, np.zeros((len(units), 1)), ["Revenue/Profit Sharing"])
    return replace(doc, found=replace(doc.found, sentences=silent))


def test_the_rules_keywords_keep_their_sentences_and_a_paragraph_with_none_is_given_whole(playbook):
    doc = without_the_engine(build_document(clauses()))
    payment = playbook.rule("payment-terms")  # keywords: invoice, payment, payable
    excerpt = excerpt_of(doc, payment, 1, rule_matchers(doc, payment))
    assert excerpt is not None and [LONG[a:b] for a, b in excerpt.spans] == [PAYMENT, LATE]
    law = playbook.rule("governing-law")  # routed by its heading, say: nothing to cut it by, so all of it
    assert excerpt_of(doc, law, 1, rule_matchers(doc, law)) is None


def test_short_paragraphs_and_rules_the_engine_does_not_cover_are_given_whole(playbook):
    doc = build_document(clauses())
    payment = playbook.rule("payment-terms")
    assert len(SHORT) <= WHOLE_UP_TO and excerpt_of(doc, payment, 2, rule_matchers(doc, payment)) is None
    confidentiality = playbook.rule("confidentiality")  # no CUAD category: nothing measured to cut it by
    assert excerpt_of(doc, confidentiality, 1, rule_matchers(doc, confidentiality)) is None


def test_the_provider_is_shown_the_excerpt_and_its_quotes_ground_against_the_whole_paragraph(playbook):
    provider = ExcerptedProvider([
        RawFinding(1, "replace", "ninety (90) days", "sixty (60) days", "Too long."),
        RawFinding(1, "comment", "by the Customer", comment="Receipt is hard to prove; use the invoice date."),
    ])
    source = clauses()
    result = review(source, Playbook("p", (playbook.rule("payment-terms"),)), provider, acting_for="Supplier")
    (request,) = provider.requests
    shown = {item.text: item.excerpt for item in request.items}
    assert shown == {f"{GAP} {PAYMENT} {GAP} {LATE} {GAP}": True, SHORT: False}
    by_kind = {s.kind: s for s in result.suggestions if s.anchor == source[1].anchor}
    replace = by_kind[Kind.REPLACE]
    assert (replace.quote, replace.new_text, replace.scope) == ("ninety (90) days", "sixty (60) days", "quote")
    # "by the Customer" is also in a sentence the model was not shown: the quote grounds to the copy it was shown
    comment = by_kind[Kind.COMMENT]
    assert LONG.count("by the Customer") == 3 and LONG.index("by the Customer") < LONG.index(PAYMENT)
    assert comment.quote in PAYMENT and LONG.count(comment.quote) == 1


def test_a_paragraph_seen_in_part_is_never_rewritten_or_deleted_and_no_quote_crosses_a_gap(playbook):
    provider = ExcerptedProvider([
        RawFinding(1, "rewrite", "", f"{PAYMENT} {LATE}", "Rewritten from the excerpt."),
        RawFinding(1, "delete", PAYMENT, comment="Deleted from the excerpt."),
        RawFinding(1, "comment", f"of its receipt by the Customer. {GAP} Late payments", comment="Across a gap."),
        RawFinding(2, "rewrite", "", "Each party shall bear its own costs.", "A short paragraph is shown whole."),
    ])
    result = review(clauses(), Playbook("p", (playbook.rule("payment-terms"),)), provider)
    stats = result.stats
    assert (stats.raw_findings, stats.invalid_drops, stats.hallucination_drops, stats.grounded) == (4, 2, 1, 1)
    (s,) = result.suggestions
    assert s.kind is Kind.REWRITE and s.quote == SHORT


@pytest.mark.parametrize("key", ["payment-terms", "late-payment"])
def test_the_offline_engine_is_given_whole_paragraphs(playbook, key):
    assert OfflineProvider.excerpts is False
    provider = CountingProvider()
    review(clauses(), Playbook("p", (playbook.rule(key),)), provider)
    assert LONG in {item.text for r in provider.requests for item in r.items}
    assert not any(item.excerpt for r in provider.requests for item in r.items)


def test_an_unchanged_excerpt_is_answered_from_the_cache(playbook):
    cache = MemoryCache()
    rule = Playbook("p", (playbook.rule("payment-terms"),))
    first = ExcerptedProvider([])
    review(clauses(), rule, first, cache=cache)
    again = ExcerptedProvider([])
    review(clauses(), rule, again, cache=cache)
    assert len(first.requests) == 1 and again.requests == []  # the same excerpt is answered from the cache
