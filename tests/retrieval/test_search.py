"""Hybrid retrieval with graph expansion, reserved slots and budgets."""

from __future__ import annotations

import pytest

from redline.retrieval.search import SearchIndex


@pytest.fixture(scope="module")
def index(graph):
    # the hand-written contract is tiny: small units so each clause is a passage of its own
    return SearchIndex(graph, unit_chars=200)


def _numbers(index, hits):
    return [index.graph.section(h.passage.node).number if h.passage.kind == "section" else h.passage.node
            for h in hits]


def test_multi_hop_question_pulls_in_definition_and_cited_clause(index):
    # "terminate" finds 3.2; 3.2 uses "Cause"; "Cause" is a breach of Section 2.2 — three hops away.
    hits = index.search("When may a party terminate this agreement?", k=8)
    by_heading = {h.passage.heading: h for h in hits}
    assert any("3.2 Termination for Cause" in h for h in by_heading)
    assert any('"Cause" means a material breach of Section 2.2' in h.text for h in hits)
    quality = next(h for h in hits if "Section 2.2 Quality" in h.passage.heading)
    assert "REFERENCES" in quality.why and "(b) are free from defects" in quality.text


def test_named_section_is_injected(index):
    hits = index.search("What does Section 2.3 say?", k=3)
    assert "Section 2.3 Pricing" in hits[0].passage.heading
    assert hits[0].why[0] == "named in the question: Section 2.3 Pricing"


def test_named_term_brings_its_definition_and_its_uses(index):
    hits = index.search('How is "Business Day" defined and where is it used?', k=6)
    headings = [h.passage.heading for h in hits]
    assert 'Definition of "Business Day"' in headings
    assert any("2.1 Orders" in h for h in headings)  # uses the term
    assert any("3.3 Business Days" in h for h in headings)  # the definition points there


def test_hits_are_verbatim_spans(index):
    graph = index.graph
    for hit in index.search("quality of the products delivered", k=10):
        for line in hit.text.split("\n"):
            assert line in graph.text[hit.start:hit.end]
        assert all(graph.block_for(a) is not None for a in hit.passage.anchors)


def test_budgets(index):
    assert len(index.search("products", k=2)) == 2
    hits = index.search("products", k=15, max_chars=300)
    assert sum(h.end - h.start for h in hits) <= 300


def test_reserved_slots_keep_graph_found_passages(index):
    hits = index.search("Section 3.2", k=3)
    assert any(h.why and h.why[0].startswith("named") and len(h.why) > 1 for h in hits)


def test_units_keep_a_section_whole_when_it_fits(graph):
    hits = SearchIndex(graph, unit_chars=4000).search("What does Section 2.3 say?", k=1)
    assert hits[0].passage.heading == "Article II SUPPLY"  # the whole article, 2.3 included
    assert "2.3 Pricing." in hits[0].text and "(b) are free from defects" in hits[0].text
