"""clause_context (what a clause depends on) and the JSON round trip used for caching."""

from __future__ import annotations

import json

from redline.retrieval.context import clause_context
from redline.retrieval.graph import ContractGraph
from tests.retrieval.conftest import SERVICES, section


def _anchor(graph, number):
    return graph.blocks[section(graph, number).first].anchor


def test_clause_context_gives_definition_reference_and_parent(graph):
    items = clause_context(graph, _anchor(graph, "3.2"))
    by_label = {i.label: i for i in items}
    cause = by_label['Definition of "Cause"']
    assert cause.kind == "definition" and cause.text.startswith('"Cause" means a material breach')
    assert cause.path == ("Section 3.2 Termination for Cause", "USES_TERM", '"Cause"')
    parent = by_label["Article III TERM AND TERMINATION"]
    assert parent.kind == "parent"
    referenced = by_label["Section 2.2(b)"]
    assert referenced.kind == "reference" and referenced.text == "(b) are free from defects; and"
    # the definition of Cause cites Section 2.2: it comes in through the definition, with its clauses
    quality = by_label["Section 2.2 Quality"]
    assert quality.path[-2:] == ("REFERENCES", "Section 2.2 Quality") and "(b) are free from defects" in quality.text
    for item in items:  # every line of every item is verbatim text of the paragraphs it points to
        texts = [graph.block_for(a).text for a in item.anchors]
        assert all(any(line in t for t in texts) for line in item.text.split("\n"))


def test_clause_context_is_bounded(graph):
    items = clause_context(graph, _anchor(graph, "3.2"), max_items=2, max_chars=10_000)
    assert len(items) == 2
    small = clause_context(graph, _anchor(graph, "3.2"), max_chars=120)
    assert sum(len(i.text) for i in small) <= 120


def test_clause_context_skips_terms_the_clause_defines(graph):
    items = clause_context(graph, _anchor(graph, "3.1"))
    assert 'Definition of "Effective Date"' not in {i.label for i in items}


def test_clause_context_unknown_anchor(graph):
    assert clause_context(graph, "_RL_nope") == []


def test_round_trip_through_json(graph):
    data = json.loads(json.dumps(graph.to_dict()))
    again = ContractGraph.from_dict(data)
    assert again.to_dict() == graph.to_dict()
    assert [i.to_dict() for i in clause_context(again, _anchor(graph, "3.2"))] == \
        [i.to_dict() for i in clause_context(graph, _anchor(graph, "3.2"))]


def test_from_dict_refuses_another_format(graph):
    data = graph.to_dict() | {"version": 99}
    try:
        ContractGraph.from_dict(data)
    except ValueError as exc:
        assert "unsupported graph format" in str(exc)
    else:
        raise AssertionError("expected ValueError")


def test_stats(graph):
    stats = graph.stats()
    assert stats["sections"] == len(graph.sections) and stats["unresolved"] == 2
    assert {"parent_of", "defines", "uses_term", "references"} <= set(stats)


def _services_anchor(graph, number):
    return graph.blocks[section(graph, number).first].anchor


def test_a_term_defined_where_it_operates_comes_as_that_sentence_not_as_its_pointer():
    graph = ContractGraph.from_text(SERVICES)
    items = clause_context(graph, _services_anchor(graph, "5.1"))  # "Service Credits are the sole remedy"
    credit = next(i for i in items if i.label == 'Definition of "Service Credit"')
    assert credit.text.startswith("If the Supplier misses a service level") and "has the meaning" not in credit.text
    assert "Section 4.2 Credits" not in {i.label for i in items}  # the pointer's target adds nothing to it


def test_a_cited_section_too_long_for_the_room_comes_as_its_beginning():
    graph = ContractGraph.from_text(SERVICES)
    items = clause_context(graph, _services_anchor(graph, "4.1"), max_chars=1000)  # cites Section 3.1 (2,800)
    invoices = next(i for i in items if i.label == "Section 3.1 Invoices")
    assert invoices.text.startswith("3.1 Invoices.") and invoices.text.endswith(".")
    assert sum(len(i.text) for i in items) <= 1000
    assert invoices.text in graph.block_for(invoices.anchors[0]).text  # verbatim

