"""Where the signature block begins, and the outline of a contract shaped like a real filing.

Each contract here is written the way CUAD's SEC filings are laid out once
converted to Word: a signature block without "IN WITNESS WHEREOF", a witness
line behind a running header or run into the last clause, an exhibit label on
the first line, a table of contents flattened into paragraphs, and a heading
style on one numbered clause among unstyled ones. In each, a missing clause
used to be proposed after the signatures or swallowed into the wrong section.
"""

from __future__ import annotations

import pytest

from redline.analysis.document import build_document
from redline.analysis.placement.place import place_missing
from redline.analysis.signature_block import signature_start

from .conftest import make_clauses

Row = tuple[str, str | None, int | None]

BODY: list[Row] = [
    ("SUPPLY AGREEMENT", "Title", None),
    ("This Supply Agreement is made between Acme Inc., a Delaware corporation (\"Acme\"), and Widget LLC, "
     "a Texas limited liability company (\"Widget\").", None, None),
    ("1. Supply. Widget shall supply the Products to Acme in the quantities Acme orders.", None, None),
    ("2. Price. Acme shall pay the prices in Exhibit A within thirty days of each invoice.", None, None),
    ("3. Warranty. Widget warrants that the Products conform to their specifications for one year.", None, None),
    ("4. Notices. Notices shall be sent to Acme Inc., Attention: General Counsel, Telephone: 555-0100, and to "
     "Widget LLC, Attention: President.", None, None),
    ("5. Counterparts. This Agreement may be executed in counterparts.", None, None),
]
LAST_CLAUSE = len(BODY) - 1


def start_of(rows: list[Row]) -> int:
    clauses = make_clauses(rows)
    return signature_start(clauses, build_document(clauses).is_heading)


@pytest.mark.parametrize("block", [
    [("IN WITNESS WHEREOF, the parties have executed this Agreement.", None, None)],
    [("CONFIDENTIAL IN WITNESS WHEREOF, the parties have executed this Agreement.", None, None)],
    [("6. IN WITNESS WHEREOF, the parties acknowledge that each has read this Agreement.", None, None)],
    [("ACME INC. WIDGET LLC", None, None), ("By: /s/ Jane Roe By: /s/ John Doe", None, None)],
    [("ACME INC.", None, None), ("By: ______________________", None, None), ("Name: Jane Roe", None, None)],
    [("Name: Jane Roe Name: John Doe", None, None), ("Title: CEO Title: President", None, None)],
    [("Agreed and Accepted:", None, None), ("Acme Inc.", None, None)],
    [("[Signatures appear on the following page]", None, None), ("ACME INC.", None, None)],
    [("Signed for and on behalf of Acme Inc.", None, None)],
])
def test_signature_blocks_as_filings_write_them_end_the_body(block):
    assert start_of([*BODY, *block]) == LAST_CLAUSE + 1


def test_a_witness_line_run_into_the_last_clause_takes_that_paragraph_with_it(playbook):
    rows = [*BODY[:-1], ("5. Counterparts. This Agreement may be executed in counterparts. IN WITNESS WHEREOF, "
                         "the parties have executed this Agreement.", None, None)]
    assert start_of(rows) == LAST_CLAUSE
    assert start_of([(rows[-1][0], None, None), *BODY[1:]]) == len(BODY)  # at the top it is no signature block
    # the missing clause goes before that paragraph, and "5." is still its number: the new one is "4A."
    placement = place_missing(build_document(make_clauses(rows)), playbook.rule("governing-law"))
    assert placement.after == LAST_CLAUSE - 1
    assert placement.apply("This Agreement is governed by the laws of Delaware.").startswith("4A. ")


@pytest.mark.parametrize("rows", [
    BODY,  # "Attention:" and "Telephone:" in a notices clause are no signatory lines
    [*BODY, ("Name: Acme Inc.", None, None), ("Address: 1 Main Street", None, None)],  # one kind of label: no block
    # a notice address set out in label lines, before the clauses that follow it: no signing line, no block
    [*BODY[:-1], ("Name: Acme Inc.", None, None), ("Title: General Counsel", None, None), BODY[-1]],
    [("EXECUTION VERSION", "Heading 1", 1), *BODY],  # a draft label at the top, not the execution page
])
def test_what_is_not_a_signature_block(rows):
    assert start_of(rows) == len(rows)


@pytest.mark.parametrize("line", [
    "The foregoing limitations shall not apply except as otherwise agreed by the parties.",
    "Costs such as witness fees shall be borne by each party.",
    "The manual is at https://www.dropbox.com/s/abc123/manual.pdf and forms part of the Specification.",
    "By: hand delivery to the address above, or by: courier, at the sender's choice.",
    "Signed by both parties, this Agreement shall take effect on the date of the last signature.",
    "For and on behalf of the Customer, the Agent shall place the orders.",
])
def test_clauses_that_read_like_a_block_are_not_one(line):
    rows = [*BODY[:-1], (line, None, None), BODY[-1]]
    assert start_of(rows) == len(rows)


def test_a_notice_address_in_label_lines_is_not_a_block_even_with_by_nearby():
    rows = [*BODY[:-1], ("Name: John Smith", None, None), ("Title: General Counsel", None, None),
            ("Any notice given by: email is deemed received on the next business day.", None, None), BODY[-1]]
    assert start_of(rows) == len(rows)


def test_the_block_takes_the_party_names_above_it_but_no_sentence():
    rows = [*BODY[:2], ("Governing Law", None, None), ("This Agreement is governed by the laws of New York.", None, None),
            ("Entire Agreement", None, None), ("This Agreement is the entire agreement of the parties.", None, None),
            ("ACME CORP.", None, None), ("By: /s/ Jane Roe", None, None)]
    assert start_of(rows) == 6  # "ACME CORP.", not the two lines of the entire-agreement clause


def test_a_missing_clause_goes_before_a_block_without_in_witness(playbook):
    rows = [*BODY, ("ACME INC. WIDGET LLC", None, None), ("By: /s/ Jane Roe By: /s/ John Doe", None, None),
            ("Title: CEO Title: President", None, None), ("EXHIBIT A", None, None),
            ("1. Prices. The prices are those of the price list.", None, None)]
    doc = build_document(make_clauses(rows))
    placement = place_missing(doc, playbook.rule("governing-law"))
    assert placement.after == LAST_CLAUSE  # after "5. Counterparts.", not after the signatures or the exhibit
    assert placement.apply("This Agreement is governed by the laws of Delaware.").startswith("6. Governing law.")


def test_a_filing_label_a_flattened_contents_and_a_styled_clause_do_not_swallow_the_contract(playbook):
    rows: list[Row] = [
        ("Exhibit 10.1", "Heading 1", 1),
        ("TABLE OF CONTENTS Section 1 Supply 1 Section 2 Price 2 Section 3 Warranty 2", None, None),
        ("Section 4 Termination 3 Section 5 Counterparts 4", None, None),
        *BODY[:3],
        ("Termination", "Heading 2", 2),  # a heading style on one clause's title, as conversions leave it
        ("2A. Termination. Either party may terminate this Agreement on ninety days' notice.", None, None),
        *BODY[3:],
    ]
    doc = build_document(make_clauses(rows))
    placement = place_missing(doc, playbook.rule("limitation-of-liability"))
    # beside the warranty (the related clause), as a new clause after it: not after the exhibit label, inside
    # the contents, or at the end of a "Termination" section holding clauses 3 to 5
    assert doc.clauses[placement.after].text.startswith("3. Warranty.")
    assert placement.reason == "related:warranties"


def test_run_in_capitals_titles_mark_the_general_provisions_and_the_preamble(playbook):
    rows: list[Row] = [
        ("TABLE OF CONTENTS", None, None),
        ("Page 1.1 Supply 2 1.2 Delivery 2 1.3 Acceptance 3 2.1 Price 3 15.1 Governing Law 9", None, None),
        ("SUPPLY AGREEMENT This Supply Agreement is made and entered into by and between Acme Inc. and Widget "
         "LLC.", None, None),
        ("1. SUPPLY 1.1 Supply. Widget shall supply the Products to Acme in the quantities Acme orders.", None, None),
        ("1.2 Delivery. Widget shall deliver the Products to Acme's warehouse.", None, None),
        ("2. PRICE 2.1 Price. Acme shall pay the prices in Exhibit A within thirty days of each invoice.", None, None),
        ("3. MISCELLANEOUS 3.1 Governing Law; Language. This Agreement is governed by the laws of Delaware.",
         None, None),
        ("3.2 Counterparts; PDF. This Agreement may be executed in counterparts.", None, None),
        ("Section 4. Headings; Interpretation. The headings are for convenience only.", None, None),
    ]
    doc = build_document(make_clauses(rows))
    placement = place_missing(doc, playbook.rule("limitation-of-liability"))
    # a new section after the last substantive one (2. PRICE), not after "Counterparts" or "Headings", and
    # never beside the preamble, whose run-in title "SUPPLY AGREEMENT" is no supply section
    assert placement.reason == "before_general"
    assert doc.clauses[placement.after].text.startswith("2. PRICE")


def test_a_contents_line_or_a_cross_reference_in_the_body_does_not_move_the_operative_start(playbook):
    from redline.analysis.placement.outline import Outline

    plain = Outline(build_document(make_clauses(BODY))).first
    for line in ["9. Payment Date\t15",
                 "5. The Supplier shall meet 4.2 Delivery within 10 days, 5.1 Acceptance within 15 days and "
                 "6.3 Invoicing within 30 days."]:
        rows = [*BODY[:4], (line, None, None), *BODY[4:]]
        assert Outline(build_document(make_clauses(rows))).first == plain


def test_an_unnumbered_part_heading_holds_all_its_clauses(playbook):
    rows: list[Row] = [
        *BODY[:2],
        ("PART A - COMMERCIAL TERMS", "Heading 1", 1),
        *BODY[2:5],
        ("PART B - GENERAL", "Heading 1", 1),
        ("4. Notices. Notices shall be in writing.", None, None),
        BODY[-1],
    ]
    doc = build_document(make_clauses(rows))
    placement = place_missing(doc, playbook.rule("governing-law"))
    assert doc.clauses[placement.after].text.startswith("5. Counterparts.")  # at the end of Part B
    assert placement.apply("X.").startswith("6. ")


def test_a_title_run_into_its_first_sub_clause_names_the_section(playbook):
    rows: list[Row] = [
        *BODY[:2],
        ("1. Supply 1.1 Widget shall supply the Products to Acme in the quantities Acme orders.", None, None),
        ("1.2 Widget shall deliver the Products to Acme's warehouse.", None, None),
        ("2. Price 2.1 Acme shall pay the prices in Exhibit A within thirty days of each invoice.", None, None),
        ("3. Miscellaneous 3.1 Each party shall keep records of its performance for two years.", None, None),
        ("3.2 Each party shall bear its own costs of entering into this Agreement.", None, None),
    ]
    doc = build_document(make_clauses(rows))
    placement = place_missing(doc, playbook.rule("limitation-of-liability"))
    # "Miscellaneous" (run into 3.1) is the general provisions: the cap goes before them, after clause 2
    assert placement.reason == "before_general"
    assert doc.clauses[placement.after].text.startswith("2. Price")
