"""Definitions in every shape, and usages linked back case- and plural-aware."""

from __future__ import annotations

import pytest

from redline.retrieval.edges import USES_TERM
from redline.retrieval.graph import ContractGraph
from tests.retrieval.conftest import section


def _defined(text: str) -> dict[str, str]:
    graph = ContractGraph.from_text(text)
    return {d.term: d.sites[0].pattern for d in graph.definitions}


@pytest.mark.parametrize(("text", "term", "pattern"), [
    ('"Cause" means a material breach.', "Cause", "means"),
    ("“Cause” shall mean a material breach.", "Cause", "means"),
    ('"Business Day" has the meaning given in Section 3.', "Business Day", "means"),
    ('As used here, the term "Affiliate" refers to a controlled entity.', "Affiliate", "the_term"),
    ('Acme Corp. (the "Supplier") agrees.', "Supplier", "parenthetical"),
    ('Acme Corp. ("Supplier") agrees.', "Supplier", "parenthetical"),
    ("Acme Corp. (hereinafter “Supplier”) agrees.", "Supplier", "hereinafter"),
    ('Acme Corp., hereinafter referred to as "Supplier", agrees.', "Supplier", "hereinafter"),
])
def test_definition_patterns(text, term, pattern):
    assert _defined(text).get(term) == pattern


def test_singular_and_plural_defined_together_are_one_term():
    graph = ContractGraph.from_text('Acme and Beta (each a "Party" and together the "Parties") agree.')
    assert len(graph.definitions) == 1
    party = graph.definition("Parties")
    assert party is graph.definition("party") and len(party.sites) == 2


def test_two_terms_defined_together():
    defined = _defined('"Licensed Product" or "Product" means the product.')
    assert {"Licensed Product", "Product"} <= set(defined)


def test_citation_in_brackets_is_not_a_definition():
    assert _defined('The goods (as described in "Exhibit A") are supplied.') == {}


def test_unquoted_entries_of_a_definitions_list():
    text = ("1. DEFINITIONS\n1.1 Affiliate means an entity that controls a Party.\n"
            "1.2 Net Sales means gross sales less returns.\n2. LICENCE\n2.1 Grant. Licensee pays on Net Sales.")
    graph = ContractGraph.from_text(text)
    assert {d.term for d in graph.definitions} == {"Affiliate", "Net Sales"}
    net_sales = graph.definition("net sales")
    users = {graph.section(e.source).number for e in graph.edges_to(net_sales.id, USES_TERM)}
    assert users == {"2.1"}


def test_definition_text_is_the_entry(graph):
    text, anchors = graph.definition_text(graph.definition("Cause").id)
    assert text == '"Cause" means a material breach of Section 2.2 that is not cured within thirty (30) days.'
    assert anchors and graph.block_for(anchors[0]).text == text


def test_usages_are_plural_and_case_aware():
    text = ('1. TERMS\n"Product" means a widget. "Party" means a signatory. "control" means power to direct.\n'
            "2. SUPPLY\nThe Products are shipped to each Party. The Parties agree. The product line and the "
            "party wall are not defined terms. CONTROL and Control count.")
    graph = ContractGraph.from_text(text)
    uses = {(graph.definition_by_id(u.definition).term, graph.text[u.start:u.end]) for u in graph.usages}
    assert ("Product", "Products") in uses
    assert ("Party", "Party") in uses and ("Party", "Parties") in uses
    assert ("Product", "product") not in uses and ("Party", "party") not in uses
    # a term defined in lower case is matched in any case
    assert {("control", "CONTROL"), ("control", "Control")} <= uses


def test_longest_term_wins():
    text = '"Information" means data. "Confidential Information" means secret data. Keep Confidential Information safe.'
    graph = ContractGraph.from_text(text)
    used = [graph.definition_by_id(u.definition).term for u in graph.usages]
    assert used == ["Confidential Information"]


def test_usage_edges_point_from_the_using_section(graph):
    cause = graph.definition("Cause")
    users = {graph.section(e.source).number for e in graph.edges_to(cause.id, USES_TERM)}
    assert users == {"3.2"}
    defines = graph.edges_to(cause.id, "DEFINES")
    assert [graph.section(e.source).number for e in defines] == [section(graph, "1.1").number]
