"""The outline: hierarchy, numbering forms, and what is not a section (contents, page numbers, headers)."""

from __future__ import annotations

import pytest

from redline.ooxml.paragraphs import read_document
from redline.retrieval.blocks import blocks_from_text
from redline.retrieval.graph import ContractGraph
from redline.retrieval.layout import Role, classify
from redline.retrieval.search import SearchIndex
from tests.retrieval.conftest import section


def test_hierarchy_article_section_clause(graph):
    article = section(graph, "II")
    quality = section(graph, "2.2")
    clause = section(graph, "2.2(b)")
    assert article.kind == "article" and article.label == "Article II SUPPLY"
    assert quality.parent == article.id and quality.title == "Quality"
    assert clause.parent == quality.id and clause.kind == "clause"
    assert [graph.section(c).number for c in quality.children] == ["2.2(a)", "2.2(b)", "2.2(c)"]
    assert graph.section_of(graph.blocks[clause.first].anchor) == clause


def test_table_of_contents_page_numbers_and_running_headers_are_not_sections(graph):
    numbers = [s.number for s in graph.sections]
    # pages 2-5 and the contents entries would otherwise read as sections 2, 3, 4 and a second 1.1
    assert numbers.count("1.1") == 1
    assert not {"2", "3", "4", "5"} & set(numbers)
    roles = {graph.blocks[i].text: r for i, r in enumerate(graph.roles)}
    assert roles["Source: ACME CORP, 10-K, 3/1/2020"] is Role.FURNITURE
    assert roles["TABLE OF CONTENTS"] is Role.CONTENTS
    assert roles["1.1 Definitions 1"] is Role.CONTENTS
    assert roles["2"] is Role.FURNITURE


def test_schedule_and_unnumbered_title(graph):
    schedule = section(graph, "A")
    assert schedule.kind == "schedule" and schedule.label == "Schedule A PRODUCTS" and schedule.parent is None
    assert graph.sections[0].kind == "heading" and graph.sections[0].title == "MASTER SUPPLY AGREEMENT"


@pytest.mark.parametrize(("text", "expected"), [
    ("ARTICLE IV\nTERMINATION\n4.1 Notice. Either party may terminate.\n4.2 Effect. On termination all fees are due.",
     ["IV", "4.1", "4.2"]),
    ("Section 1.1 Notice. Either party may terminate.\nSection 1.2 Effect. Fees are due.", ["1.1", "1.2"]),
    ("1. DEFINITIONS\n1.1 Scope. This applies.\n2. TERM\n2.1 Start. It starts now.", ["1", "1.1", "2", "2.1"]),
    ("EXHIBIT B\nFORM OF NOTICE\nThe notice reads as follows.", ["B"]),
])
def test_numbering_forms(text, expected):
    graph = ContractGraph.from_text("Agreement between the parties.\n" + text)
    assert [s.number for s in graph.sections if s.number] == expected


def test_clauses_run_together_on_one_line_are_split_in_sequence():
    # EDGAR text: several clauses on one line separated by wide gaps or sentence ends.
    text = ("1. GRANT   1.1 Licence. We grant a licence.   1.2 Limits. It is limited. 1.3 Term. It lasts a year."
            "  (a) first point; (b) second point.\n2. FEES 2.1 Amount. Fees are due.")
    numbers = [s.number for s in ContractGraph.from_text(text).sections if s.number]
    assert numbers[:5] == ["1", "1.1", "1.2", "1.3", "1.3(a)"]
    assert "2" in numbers and "2.1" in numbers


def test_numbers_inside_sentences_are_not_sections():
    text = "1. PAYMENT\nThe fee is payable in 2 instalments. 3. The second is due later.\n2. TERM\nIt lasts."
    numbers = [s.number for s in ContractGraph.from_text(text).sections if s.number]
    assert numbers == ["1", "2"]


def test_page_number_glued_to_the_next_heading():
    text = "1. SCOPE\nThe scope.\n7 2. FEES\nFees are due.\n9 EXHIBIT A\nPrices."
    graph = ContractGraph.from_text(text)
    assert [s.number for s in graph.sections if s.number] == ["1", "2", "A"]


def test_running_header_glued_to_the_first_line_of_a_page():
    pages = [f"Confidential Execution Version {n}.1 Clause {n}. Text of the clause.\n{n}" for n in range(1, 5)]
    blocks = blocks_from_text("\n".join(pages))
    roles = classify(blocks)
    furniture = [b.text for b, r in zip(blocks, roles, strict=True) if r is Role.FURNITURE]
    assert "Confidential Execution Version" in furniture


def test_generated_docx_contract(generated_docx):
    paragraphs = read_document(generated_docx.read_bytes(), anchor=True).paragraphs
    graph = ContractGraph.from_paragraphs(paragraphs)
    articles = [s for s in graph.sections if s.kind == "article"]
    assert len(articles) >= 5
    first = articles[0]
    assert first.number == "1" and "DEFINITIONS" in (first.title or "")
    sections = [graph.section(c) for c in first.children]
    assert [s.number for s in sections][:2] == ["1.1", "1.2"]
    clauses = [graph.section(c) for c in sections[1].children]
    assert clauses and all(c.number.startswith("1.2(") for c in clauses)
    # every section is tied to real paragraph anchors
    anchors = {p.anchor for p in paragraphs}
    assert all(set(graph.anchors(s.id)) <= anchors for s in graph.sections)
    assert len(graph.definitions) >= 20
    resolved = [r for r in graph.references if r.status == "resolved"]
    assert resolved and all(graph.section(r.target).number for r in resolved)


def test_parties_and_recitals_numbered_before_the_operative_words_are_preamble():
    text = ("SERVICES AGREEMENT\nBETWEEN\n1. Acme Limited, a company registered in England\nAND\n"
            "2. Beta Inc., a Delaware corporation\nWHEREAS:\nA. Acme provides services;\nB. Beta wants them.\n"
            "NOW THEREFORE IT IS HEREBY AGREED AS FOLLOWS:\n1. Definitions\nWords have meanings.\n"
            "2. Services\nAcme shall provide them, as Section 1 explains.")
    g = ContractGraph.from_text(text)
    assert g.resolve("Section 1").label == "Section 1 Definitions"
    assert g.resolve("Section 2").label == "Section 2 Services"
    (ref,) = g.references
    assert g.section(ref.target).title == "Definitions"


def test_operative_words_inside_the_outline_change_nothing():
    text = ("1. GRANT\n1.1 Licence. We grant it.\n2. FEES\n2.1 Amount. Fees are due.\n3. TRAINING\n"
            "3.1 Initial. To that end, you agree as follows: you attend.\n3.2 Later. More training.")
    numbers = [s.number for s in ContractGraph.from_text(text).sections if s.number]
    assert numbers == ["1", "1.1", "2", "2.1", "3", "3.1", "3.2"]


def test_the_filing_exhibit_number_is_not_a_schedule():
    text = ("Confidential treatment requested.\nExhibit 10.2\nCO-BRANDING AGREEMENT\n"
            "1. DEFINITIONS\n1.1 Terms. Words.\n2. TERM\n2.1 Start. It starts.\nEXHIBIT A\nPRICES\nThe prices.")
    g = ContractGraph.from_text(text)
    assert [s.number for s in g.sections if s.kind == "schedule"] == ["A"]
    assert g.resolve("Section 2").title == "TERM"


def test_a_sentence_wrapped_onto_an_exhibit_line_is_not_a_schedule():
    text = ("1. PAYMENT\n1.1 Amount. A sample schedule is included in\nEXHIBIT G.\n"
            "1.2 Timing. Payment is due monthly.\n2. TERM\n2.1 Start. It starts.")
    numbers = [s.number for s in ContractGraph.from_text(text).sections if s.number]
    assert numbers == ["1", "1.1", "1.2", "2", "2.1"]


def test_a_capitalised_exhibit_heading_run_into_its_text_opens_the_schedule():
    text = ("1. SUPPLY\n1.1 Products. The products are listed in Exhibit A.\n"
            "EXHIBIT A THE PRODUCTS Each unit of Product consists of one kit and one manual, packed together.")
    g = ContractGraph.from_text(text)
    (ref,) = g.references
    assert ref.status == "resolved" and g.section(ref.target).kind == "schedule"


def test_the_title_page_is_one_unit_named_by_each_of_its_lines():
    text = ("LICENCE AGREEMENT\nBY AND BETWEEN\nACME HOLDINGS LIMITED\nAND\nBETA SYSTEMS INC.\n"
            "This Agreement is made on 1 May 2024.\n1. DEFINITIONS\n1.1 Terms. Words have meanings.")
    g = ContractGraph.from_text(text)
    title = g.sections[0]
    assert title.title == "LICENCE AGREEMENT" and "BETA SYSTEMS INC." in g.section_text(title.id)
    assert [s.title for s in g.sections if s.parent is None] == ["LICENCE AGREEMENT", "DEFINITIONS"]
    hits = SearchIndex(g).search("What does the section BY AND BETWEEN say?", k=1)
    assert hits[0].why[0] == "named in the question: LICENCE AGREEMENT"
