"""Cross-references in every form, resolved to sections or kept and reported."""

from __future__ import annotations

import pytest

from redline.retrieval.edges import REFERENCES
from redline.retrieval.graph import ContractGraph
from redline.retrieval.references import extract


def _refs(graph):
    return {(r.text, r.status, graph.section(r.target).number if r.target else None) for r in graph.references}


@pytest.mark.parametrize(("text", "refs"), [
    ("subject to Section 8.2", [("section", "8.2")]),
    ("under Sections 3 and 4", [("section", "3"), ("section", "4")]),
    ("Sections 3.1, 3.2 and 3.4 apply", [("section", "3.1"), ("section", "3.2"), ("section", "3.4")]),
    ("as set out in 8.1(b)", [("section", "8.1(b)")]),
    ("Section 8.1(a) and (b)", [("section", "8.1(a)"), ("section", "8.1(b)")]),
    ("pursuant to Article III", [("article", "III")]),
    ("in clause 5", [("clause", "5")]),
    ("see paragraph (c)", [("clause", "(c)")]),
    ("listed in Schedule A and Exhibit B-1", [("schedule", "A"), ("schedule", "B-1")]),
    ("under § 4.2", [("section", "4.2")]),
    ("as provided in Section XIII", [("section", "XIII")]),
])
def test_reference_forms_are_extracted(text, refs):
    assert [(r.kind, r.ident) for r in extract(text)] == refs


def test_references_to_other_instruments_are_external():
    raws = extract("Section 9.9 and Section 4.2 of the Master Services Agreement and Section 351(k) of the Act")
    assert [(r.ident, r.external) for r in raws] == [("9.9", False), ("4.2", True), ("351(k)", True)]


def test_resolution_in_the_contract(graph):
    refs = _refs(graph)
    assert ("Section 2.2", "resolved", "2.2") in refs  # in the definition of Cause
    assert ("Sections 2.1", "resolved", "2.1") in refs and ("2.2", "resolved", "2.2") in refs
    assert ("Article III", "resolved", "III") in refs
    assert ("clause 3.1", "resolved", "3.1") in refs
    assert ("Section 2.2(b)", "resolved", "2.2(b)") in refs
    assert ("paragraph (a)", "resolved", "2.2(a)") in refs  # relative: the (a) of the clause it sits in
    assert ("Schedule A", "resolved", "A") in refs


def test_unresolved_and_external_are_kept_and_reported(graph):
    unresolved = {r.text for r in graph.unresolved_references()}
    assert unresolved == {"Exhibit B", "Section 9.9"}
    external = [r for r in graph.references if r.status == "external"]
    assert [r.ident for r in external] == ["4.2"]


def test_partial_resolution_to_the_nearest_existing_ancestor(graph):
    g = ContractGraph.from_text("1. FEES\n1.1 Amount. Fees are due.\n2. TERM\n2.1 End. Subject to Section 1.1(c).")
    ref = next(r for r in g.references if r.ident == "1.1(c)")
    assert ref.status == "partial" and g.section(ref.target).number == "1.1"


def test_reference_edges_and_resolve(graph):
    termination = next(s for s in graph.sections if s.number == "3.2")
    targets = {graph.section(e.target).number for e in graph.edges_from(termination.id, REFERENCES)}
    assert targets == {"3.1", "2.2(b)"}
    assert graph.resolve("Section 2.2").number == "2.2"
    assert graph.resolve("Article II").number == "II"
    assert graph.resolve("Schedule A").number == "A"
    assert graph.resolve("Section 42") is None
    clause_c = next(s for s in graph.sections if s.number == "2.2(c)")
    assert graph.resolve("paragraph (a)", near=graph.blocks[clause_c.first].anchor).number == "2.2(a)"


def test_a_section_number_the_body_only_has_as_an_article():
    # "Section 1"/"Section III" in an agreement of articles means the article, not the "1." of a schedule
    g = ContractGraph.from_text(
        "ARTICLE I\nDEFINITIONS\n1.1 Terms. Words have meanings.\nARTICLE II\nSUPPLY\n"
        "2.1 Orders. Subject to Section 1 and Section III.\nARTICLE III\nTERM\n3.1 Start. It starts.\n"
        "SCHEDULE A\nPRICES\n1. The price list.\n2. The discounts.")
    assert g.resolve("Section 1").label == "Article I DEFINITIONS"
    assert g.resolve("Section III").label == "Article III TERM"
    assert {(r.ident, g.section(r.target).label) for r in g.references} == {
        ("1", "Article I DEFINITIONS"), ("III", "Article III TERM")}
