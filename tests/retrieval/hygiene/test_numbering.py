"""Numbering that skips or repeats (issue #27): "§12 jumps from B to D", "4.1, 4.2, 4.2, 4.4", and the
jumps a careful associate would not flag (a reserved or redacted clause, an exhibit's own numbering, a table)."""

from __future__ import annotations

from xml.sax.saxutils import escape

from redline.ooxml.paragraphs import read_document
from redline.retrieval.graph import ContractGraph
from redline.retrieval.hygiene import numbering
from tests.retrieval.hygiene.grounded import grounded
from tests.support.docx_builder import NS_DECL, build_docx, para

_CLAUSES = "\n\n".join(f"{n}. Heading {n}\n\nThe parties agree to term {n}." for n in range(1, 12))


def _check(graph: ContractGraph):
    return grounded(numbering.check, graph)


def _text(text: str):
    return _check(ContractGraph.from_text(text))


# -- the examples of the issue -----------------------------------------------------------------------------------
def test_section_12_jumps_from_b_to_d():
    text = f"""SERVICES AGREEMENT

{_CLAUSES}

12. Reports

A. The Supplier shall report monthly.

B. The Customer shall review the reports.

D. Either party may audit the reports.

13. Term

The term is one year.
"""
    [finding] = _text(text)
    assert finding.kind == "numbering_gap"
    assert finding.quote == "D."  # anchored at the item after the gap
    assert finding.message == "§12 jumps from B to D: there is no §12.C."


def test_a_repeated_number_is_one_duplicate_not_also_a_gap():
    text = """SUPPLY AGREEMENT

1. Definitions. Terms have their defined meanings.

2. Supply. The Supplier shall supply the Products.

3. Orders. The Customer shall order in writing.

4. Payment

4.1 Price. The price is set out in the price list.

4.2 Invoices. The Supplier shall invoice monthly.

4.2 Payment Terms. Invoices are payable within thirty days.

4.4 Taxes. Each party bears its own taxes.

5. Term. The term is one year.
"""
    graph = ContractGraph.from_text(text)
    [finding] = _check(graph)
    assert finding.kind == "numbering_duplicate"
    assert finding.quote == "4.2"
    assert graph.blocks[finding.block].text.startswith("4.2 Payment Terms.")  # the second 4.2
    assert finding.message == "Two clauses are numbered §4.2 (the sequence runs 4.2, 4.2, 4.4)."


def test_a_skipped_dotted_number_is_named_in_full():
    text = """AGREEMENT

1. Definitions. Terms have their defined meanings.

2. Services

2.1 Scope. The Provider shall provide the Services.

2.2 Standards. The Services shall meet the standards.

2.4 Personnel. The Provider shall staff the Services.

3. Fees. The Customer shall pay the fees.
"""
    [finding] = _text(text)
    assert (finding.kind, finding.quote) == ("numbering_gap", "2.4")
    assert finding.message == "§2 jumps from 2.2 to 2.4: there is no §2.3."


def test_lettered_clauses_in_brackets():
    text = """AGREEMENT

1. Termination. Either party may terminate this Agreement if the other party:

(a) fails to pay any amount when due;

(b) breaches any other obligation; or

(d) becomes insolvent.

2. Notices. Notices are in writing.
"""
    [finding] = _text(text)
    assert (finding.quote, finding.message) == ("(d)", "§1 jumps from b to d: there is no §1(c).")


# -- what is not a gap -------------------------------------------------------------------------------------------
def test_clean_numbering_has_no_findings():
    text = """AGREEMENT

1. Definitions. Terms have their defined meanings.

2. Services

2.1 Scope. The Provider shall provide the Services.

2.2 Standards. The Services shall meet the standards:

(a) quality;

(b) timeliness; and

(c) security.

2.3 Personnel. The Provider shall staff the Services.

3. Fees. The Customer shall pay the fees.
"""
    assert _text(text) == []


def test_a_reserved_or_redacted_clause_explains_the_jump():
    for between in ("[Reserved.]", "[Intentionally Omitted]", "[***]"):
        text = f"""AGREEMENT

1. Definitions. Terms have their defined meanings.

2. Services

2.1 Scope. The Provider shall provide the Services.

2.2 Standards. The Services shall meet the standards.

{between}

2.4 Personnel. The Provider shall staff the Services.

3. Fees. The Customer shall pay the fees.
"""
        assert _text(text) == [], between


def test_an_exhibit_restarts_its_own_numbering():
    text = """AGREEMENT

1. Definitions. Terms have their defined meanings.

2. Services. The Provider shall provide the Services in Exhibit A.

3. Fees. The Customer shall pay the fees.

EXHIBIT A

SERVICES

1. Hosting of the platform.

2. Support during business hours.

3. Monthly reporting.
"""
    assert _text(text) == []


def test_a_percentage_in_a_royalty_table_is_not_a_clause_number():
    text = """AGREEMENT

1. Definitions. Terms have their defined meanings.

2. Royalties

2.1 Rate. The royalty rates are:

2.3 % on Net Sales up to $10 million

3. Term. The term is one year.
"""
    assert _text(text) == []


def test_a_roman_list_after_h_is_not_the_letter_i_missing():
    text = """AGREEMENT

1. Covenants. The Licensee shall:

(a) pay; (b) report; (c) audit; (d) insure; (e) comply; (f) mark; (g) notify; and

(h) keep records, namely:

(i) sales records;

(ii) inventory records; and

(iii) shipping records.

2. Term. The term is one year.
"""
    assert [f.message for f in _text(text)] == []


# -- Word's automatic numbering ------------------------------------------------------------------------------------
_NUMBERING = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:numbering {NS_DECL}>'
    '<w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="multilevel"/>'
    '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>'
    '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="upperLetter"/><w:lvlText w:val="%2."/></w:lvl>'
    '</w:abstractNum>'
    '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
    # a second instance of the same list whose level 1 is forced to start at 4 ("D."), as after a manual
    # "Set Numbering Value": the labels then run A, B, D, E with no C
    '<w:num w:numId="2"><w:abstractNumId w:val="0"/>'
    '<w:lvlOverride w:ilvl="1"><w:startOverride w:val="4"/></w:lvlOverride></w:num>'
    '</w:numbering>'
)


def _item(text: str, level: int, num_id: int = 1) -> str:
    return (f'<w:p><w:pPr><w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{num_id}"/></w:numPr></w:pPr>'
            f'<w:r><w:t xml:space="preserve">{escape(text)}</w:t></w:r></w:p>')


def _word_contract(override: bool) -> ContractGraph:
    body = para("SERVICES AGREEMENT")
    for n in range(1, 12):
        body += _item(f"Clause {n}", 0) + para(f"The parties agree to term {n}.")
    body += _item("Reports", 0)
    body += _item("The Supplier shall report monthly.", 1)
    body += _item("The Customer shall review the reports.", 1)
    body += _item("Either party may audit the reports.", 1, num_id=2 if override else 1)
    body += _item("The reports are confidential.", 1)
    body += _item("Term", 0) + para("The term is one year.")
    doc = read_document(build_docx(body, numbering=_NUMBERING), anchor=True)
    return ContractGraph.from_paragraphs(doc.paragraphs)


def test_word_automatic_numbering_is_read_from_its_labels():
    graph = _word_contract(override=True)
    labels = [b.label for b in graph.blocks if b.label and b.label[0].isalpha()]
    assert labels == ["A.", "B.", "D.", "E."]  # Word's labels, not in the text
    [finding] = _check(graph)
    assert finding.kind == "numbering_gap"
    assert graph.blocks[finding.block].label == "D."
    assert finding.quote == "Either party may audit the reports."  # the label is not text: the paragraph's words
    assert finding.message == "§12 jumps from B to D: there is no §12.C."


def test_word_automatic_numbering_without_override_is_clean():
    graph = _word_contract(override=False)
    assert [b.label for b in graph.blocks if b.label and b.label[0].isalpha()] == ["A.", "B.", "C.", "D."]
    assert _check(graph) == []
