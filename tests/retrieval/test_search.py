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


def test_growth_widens_hits_to_whole_sections_within_the_budget(index):
    graph = index.graph
    small = index.search("What does Section 2.3 say?", k=3, max_chars=2000)
    grown = index.search("What does Section 2.3 say?", k=3, max_chars=2000, grow=True)
    assert sum(h.end - h.start for h in grown) <= 2000
    assert sum(h.end - h.start for h in grown) > sum(h.end - h.start for h in small)
    top = grown[0]
    assert top.why[0] == "named in the question: Section 2.3 Pricing" and top.why[-2] == "WITHIN"
    assert "2.3 Pricing." in top.text and top.passage.anchors
    for hit in grown:  # verbatim paragraphs, no page furniture, anchors that exist
        assert "Source: ACME CORP" not in hit.text
        assert all(line in graph.text[hit.start:hit.end] for line in hit.text.split("\n"))
        assert all(graph.block_for(a) is not None for a in hit.passage.anchors)


def test_without_a_budget_hits_grow_to_their_top_level_section(index):
    (hit,) = index.search("What does Section 2.3 say?", k=1, grow=True)
    assert hit.passage.heading == "Article II SUPPLY" and "(b) are free from defects" in hit.text


def test_two_named_sections_share_the_budget(index):
    hits = index.search("Section 2.2 references Section 3.2. How do they relate?", k=4, max_chars=700, grow=True)
    texts = "\n".join(h.text for h in hits[:2])
    assert "2.2 Quality." in texts and "3.2 Termination for Cause." in texts
    assert sum(h.end - h.start for h in hits) <= 700


def test_a_named_table_of_contents_is_returned(index):
    hits = index.search("What does the table of contents list?", k=2, max_chars=400, grow=True)
    assert hits[0].why[0] == "named in the question: Table of contents"
    assert "ARTICLE I DEFINITIONS 1" in hits[0].text
