"""What a budgeted search returns and how much room each piece takes (issue #29).

The named section or term first, what it links to next in reading order, the rest after; a definition as
what the term means, not as a pointer; a long unit cut to the part around the hit, at a sentence end; the
named sections sharing the budget by need.
"""

from __future__ import annotations

import pytest

from redline.retrieval.graph import ContractGraph
from redline.retrieval.passages import MIN_PIECE_CHARS, build_passages
from redline.retrieval.search import SearchIndex
from tests.retrieval.conftest import SERVICES as TEXT


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex(ContractGraph.from_text(TEXT))


def _at(text: str, needle: str) -> int:
    at = text.find(needle)
    assert at >= 0, needle
    return at


def test_a_named_term_comes_as_what_it_means_before_the_pointer(index):
    hits = index.search('How is "Service Credit" defined in this agreement?', k=15, max_chars=3000, grow=True)
    first = hits[0]
    assert first.why[0] == 'term named in the question: "Service Credit"'
    assert first.start <= _at(TEXT, "it shall pay the Customer five percent") < first.end
    pointer = _at(TEXT, '1.2 "Service Credit" has the meaning')
    for hit in hits:  # the pointer, if it comes at all, comes alone: not the glossary around it
        if hit.start <= pointer < hit.end:
            assert hit.end - hit.start < 100


def test_a_named_term_s_uses_follow_it_in_reading_order(index):
    hits = index.search('How is "Service Credit" defined, and what does it do?', k=15, max_chars=4000, grow=True)
    uses = [h for h in hits if "USED_BY" in h.why]
    assert [h.start for h in uses] == sorted(h.start for h in uses)
    assert uses and uses[0].start <= _at(TEXT, "Each report shows the Service Credits") < uses[0].end
    # a use deep in a long clause comes with the sentences around it, not with the clause's beginning
    assert uses[0].start > _at(TEXT, "2.2 Reporting.")
    assert sum(h.end - h.start for h in hits) <= 4000


def test_a_cut_ends_at_a_sentence_and_fills_the_room(index):
    hits = index.search("What does Section 5.2 say?", k=1, max_chars=1500, grow=True)
    assert hits[0].why[0] == "named in the question: Section 5.2 Notices"
    assert hits[0].text.rstrip().endswith(".")
    assert 1400 < hits[0].end - hits[0].start <= 1500  # whole sentences up to the budget


def test_named_sections_share_the_budget_by_need(index):
    hits = index.search("Section 4.1 references Section 3.1. How do they relate?", k=15, max_chars=3000, grow=True)
    named = {h.why[0]: h for h in hits if h.why[0].startswith("named in the question")}
    short = named["named in the question: Section 4.1 Availability"]
    long = named["named in the question: Section 3.1 Invoices"]
    assert short.start <= _at(TEXT, "4.1 Availability") and _at(TEXT, "ninety-nine percent") < short.end
    assert long.end - long.start > 1500  # what the short one leaves goes to the long one, not half each
    assert sum(h.end - h.start for h in hits) <= 3000


def test_sentence_pieces_are_never_a_stray_heading_or_page_number():
    # a heading run into one very long sentence, and the page number run into its end (text from EDGAR)
    sentence = ", ".join(f"the Supplier shall keep record number {i} of the deliveries made" for i in range(30))
    text = f"11.1 Indemnification by the Supplier. The Supplier shall indemnify the Customer, {sentence}. 34\n"
    graph = ContractGraph.from_text(text)
    pieces = [p for p in build_passages(graph, 1500) if p.kind == "section"]
    assert pieces and all(p.end - p.start >= MIN_PIECE_CHARS for p in pieces)
    assert pieces[0].start == 0 and pieces[-1].end == len(text) - 1  # the heading and the "34" stay attached
