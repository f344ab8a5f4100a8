"""Where a missing clause is inserted, and its number: as a drafter would place it.

Contracts are built here, each shaped like a real one: a licence whose only
neighbour for data protection is its confidentiality clause (and a trade-mark
licence a naive rule picks), a consulting agreement of one-paragraph clauses
ending in boilerplate, a supply agreement whose only mentions of the related
clauses are in its table of contents, recitals, definitions, a table and the
signature block, and a Word-numbered agreement whose numbers are not text.
"""

from __future__ import annotations

import re
from dataclasses import replace
from xml.sax.saxutils import escape

import pytest

from redline.analysis.categories import Category
from redline.analysis.clauses import Clause, clauses_from_paragraphs
from redline.analysis.document import build_document
from redline.analysis.pipeline import review
from redline.analysis.placement.numbers import parse_number
from redline.analysis.placement.outline import Outline
from redline.analysis.placement.place import Placement, place_missing, stagger
from redline.analysis.playbook.model import Playbook
from redline.analysis.providers.base import ProviderResponse, RawFinding, RuleRequest, Usage
from redline.analysis.providers.offline import OfflineProvider
from redline.analysis.rejections import Rejection, rejection_filter
from redline.analysis.suggestions import Kind, Suggestion
from redline.ooxml.ops import op_from_json
from redline.ooxml.paragraphs import read_document
from redline.ooxml.writer import redline_document
from tests.support import oracles
from tests.support.docx_builder import DEFAULT_STYLES, NS_DECL, build_docx

from .conftest import make_clauses

Row = tuple[str, str | None, int | None]

LICENCE: list[Row] = [
    ("SOFTWARE LICENCE AGREEMENT", "Title", None),
    ("This Agreement is dated 1 March 2024 and is made between Northwind Software Limited, a company incorporated in "
     "England and Wales (the “Licensor”), and Contoso Retail Inc., a Delaware corporation (the “Licensee”).", None, None),
    ("BACKGROUND", "Heading 1", 1),
    ("(A) The Licensor has developed stock-control software for retailers.", None, None),
    ("(B) The Licensee wishes to license that software and the parties will exchange confidential information.",
     None, None),
    ("(C) The software stores personal data of the Licensee's customers.", None, None),
    ("IT IS AGREED as follows:", None, None),
    ("1. Definitions", "Heading 1", 1),
    ("“Confidential Information” means all information disclosed by a party that is marked as confidential.",
     None, None),
    ("“Software” means the Licensor's stock-control software in object code form.", None, None),
    ("2. Licence", "Heading 1", 1),
    ("2.1 The Licensor grants the Licensee a non-exclusive, non-transferable licence to use the Software in its "
     "stores.", None, None),
    ("2.2 The Licensee shall not sub-license, copy or modify the Software except as this Agreement permits.",
     None, None),
    ("3. Trade Marks", "Heading 1", 1),
    ("3.1 The Licensor grants the Licensee a licence to use the Licensor's trade marks solely to promote the "
     "Software.", None, None),
    ("4. Fees and Payment", "Heading 1", 1),
    ("4.1 The Licensee shall pay the licence fee within thirty (30) days of receipt of a valid invoice.", None, None),
    ("5. Confidentiality", "Heading 1", 1),
    ("5.1 Each party shall keep the other party's Confidential Information confidential and use it only to perform "
     "this Agreement.", None, None),
    ("5.2 Clause 5.1 does not apply to information that is or becomes public other than through a breach of this "
     "Agreement.", None, None),
    ("6. Warranties", "Heading 1", 1),
    ("6.1 The Licensor warrants that the Software will perform substantially in accordance with its documentation.",
     None, None),
    ("7. Term and Termination", "Heading 1", 1),
    ("7.1 Either party may terminate this Agreement by written notice if the other commits a material breach which "
     "is not remedied within thirty (30) days.", None, None),
    ("8. General", "Heading 1", 1),
    ("8.1 This Agreement constitutes the entire agreement between the parties.", None, None),
    ("8.2 This Agreement may be executed in any number of counterparts, each of which is an original.", None, None),
    ("IN WITNESS WHEREOF the parties have signed this Agreement on the date above.", None, None),
    ("Signed for and on behalf of Northwind Software Limited", None, None),
]

CONSULTING: list[Row] = [
    ("CONSULTING AGREEMENT", "Title", None),
    ("This Consulting Agreement is entered into between Fabrikam LLC (the “Client”) and Tailspin Advisory Ltd "
     "(the “Consultant”).", None, None),
    ("1. Services. The Consultant shall provide the advisory services described in Exhibit A with reasonable skill "
     "and care.", None, None),
    ("2. Fees. The Client shall pay the Consultant's fees within thirty (30) days of receipt of an undisputed "
     "invoice.", None, None),
    ("3. Expenses. The Client shall reimburse reasonable travel expenses approved in advance in writing.", None, None),
    ("4. Term. This Agreement begins on the Effective Date and continues for twelve (12) months.", None, None),
    ("5. Entire Agreement. This Agreement is the entire agreement between the parties about its subject matter.",
     None, None),
    ("6. Notices. Notices shall be in writing and delivered by hand or courier to the addresses above, and are "
     "deemed received on delivery.", None, None),
    ("7. Counterparts. This Agreement may be executed in counterparts, which together are one agreement.", None, None),
    ("IN WITNESS WHEREOF the parties have executed this Agreement.", None, None),
]


def supply_agreement() -> list[Clause]:
    """Every mention of confidentiality, data and liability sits where a clause must never go."""
    rows: list[tuple[str, str | None, int | None, bool]] = [
        ("MASTER SUPPLY AGREEMENT", "Title", None, False),
        ("CONTENTS", None, None, False),
        ("1.\tDefinitions\t1", "TOC 1", None, False),
        ("2.\tSupply of Goods\t2", "TOC 1", None, False),
        ("3.\tConfidentiality and Data\t3", "TOC 1", None, False),
        ("This Agreement is dated 2 May 2024 and made between Oakwood Components Ltd (the “Supplier”) and Birch "
         "Motors plc (the “Buyer”).", None, None, False),
        ("RECITALS", "Heading 1", 1, False),
        ("(A) The Supplier manufactures components and keeps its customers' information confidential.",
         None, None, False),
        ("(B) The Buyer wishes to buy components, and accepts that the Supplier's liability is limited.",
         None, None, False),
        ("NOW, THEREFORE, the parties agree as follows:", None, None, False),
        ("1. DEFINITIONS", "Heading 1", 1, False),
        ("“Confidential Information” means all information of a confidential nature disclosed by either party.",
         None, None, False),
        ("“Personal Data” has the meaning given in the data protection legislation, and includes data about "
         "employees.", None, None, False),
        ("2. SUPPLY OF GOODS", "Heading 1", 1, False),
        ("2.1 The Supplier shall supply the Goods in accordance with each Order.", None, None, False),
        ("2.2 The Goods shall be delivered to the delivery points in the table below.", None, None, False),
        ("Delivery point", None, None, True),
        ("Confidential storage area, Bay 4; liability for stored Goods stays with the Supplier", None, None, True),
        ("3. PRICE AND PAYMENT", "Heading 1", 1, False),
        ("3.1 The Buyer shall pay each invoice within thirty (30) days of receipt.", None, None, False),
        ("3.2 The Supplier may increase the prices once a year by written notice.", None, None, False),
        ("4. GENERAL", "Heading 1", 1, False),
        ("4.1 This Agreement is the entire agreement of the parties.", None, None, False),
        ("4.2 This Agreement may be executed in counterparts.", None, None, False),
        ("IN WITNESS WHEREOF the parties have signed this Agreement.", None, None, False),
        ("Signed by the Data Protection Officer for and on behalf of Oakwood Components Ltd, who keeps this "
         "Agreement confidential", None, None, False),
    ]
    return [Clause(f"_RL_{i:012x}", text, style, level, None, table) for i, (text, style, level, table) in enumerate(rows)]


# The playbook's clauses as a drafter of the licence would write them: the review inserts only text in the
# contract's own words (the default's "[England and Wales]", "the Supplier" and "Personal Data" make comments).
LICENCE_WORDS = {
    "data-protection": "To the extent the Licensor processes personal data for the Licensee, it shall comply with "
                       "applicable data protection law.",
    "notices": "Any notice under this Agreement shall be in writing and delivered by hand or by courier to the "
               "address of the recipient set out above.",
    "jurisdiction": "The courts of the place where the Licensor has its registered office shall have exclusive "
                    "jurisdiction over any dispute arising out of this Agreement.",
    "force-majeure": "Neither party is liable for any delay or failure to perform caused by events beyond its "
                     "reasonable control, other than a failure to pay.",
}
CONSULTING_WORDS = {
    "data-protection": "To the extent the Consultant processes personal data for the Client, it shall comply with "
                       "applicable data protection law.",
    "confidentiality": "Each party shall keep confidential all confidential information of the other party and use "
                       "it only to perform this Agreement.",
}


def in_words(playbook: Playbook, words: dict[str, str]) -> Playbook:
    """``playbook`` with those rules' suggested language replaced (and required)."""
    return replace(playbook, rules=tuple(
        replace(r, suggested_language=words[r.key], required=True) if r.key in words else r for r in playbook.rules))


def doc_of(rows: list[Row] | list[Clause]):
    clauses = make_clauses(rows) if isinstance(rows[0], tuple) else rows
    return build_document(clauses)


def index_of(doc, prefix: str) -> int:
    return next(i for i, c in enumerate(doc.clauses) if c.text.startswith(prefix))


def only(playbook: Playbook, *keys: str) -> Playbook:
    return Playbook("some", tuple(playbook.rule(k) for k in keys))


def rule_for(playbook: Playbook, category: Category, title: str = "Clause"):
    return replace(playbook.rule("confidentiality"), category=category, title=title)


# ----------------------------------------------------------------------------- the place
def test_data_protection_goes_after_confidentiality_not_after_the_trademark_licence(playbook):
    doc = doc_of(LICENCE)
    placement = place_missing(doc, playbook.rule("data-protection"))
    assert placement.reason == "related:confidentiality"
    assert placement.after == index_of(doc, "5.2 ")  # the end of clause 5, not 3.1 (trade marks) or 8.2 (counterparts)
    assert placement.apply("To the extent the Licensor processes Personal Data ...") == \
        "5.3 To the extent the Licensor processes Personal Data ..."


def test_the_review_proposes_it_there_with_the_next_number(playbook):
    clauses = make_clauses(LICENCE)
    result = review(clauses, only(in_words(playbook, LICENCE_WORDS), "data-protection"), OfflineProvider())
    (s,) = result.suggestions
    assert s.kind is Kind.INSERT and s.source == "missing" and s.position == "after"
    assert s.anchor == clauses[index_of(doc_of(LICENCE), "5.2 ")].anchor
    assert s.new_text == "5.3 " + LICENCE_WORDS["data-protection"]


class ModelLike:
    """A provider answering as a language model might: the missing clause numbered and titled its own way."""

    name, model, identity, max_concurrency, max_batch_chars = "model-like", "stub", "model-like/1", 1, None

    def analyze(self, request: RuleRequest) -> ProviderResponse:
        if request.missing_after is None:
            return ProviderResponse((), Usage(calls=1))
        item = next(i for i in request.items if i.number == request.missing_after)
        drafted = "9. Data Protection. To the extent the Licensor processes personal data, it shall comply with law."
        return ProviderResponse((RawFinding(item.number, "insert", item.text[:20], drafted, "No clause."),),
                                Usage(calls=1))


def test_a_model_drafted_clause_gets_the_same_place_and_number(playbook):
    clauses = make_clauses(LICENCE)
    (s,) = review(clauses, only(playbook, "data-protection"), ModelLike()).suggestions
    assert s.anchor == clauses[index_of(doc_of(LICENCE), "5.2 ")].anchor
    assert s.new_text == "5.3 To the extent the Licensor processes personal data, it shall comply with law."


def test_a_liability_cap_goes_before_the_general_provisions_never_after_counterparts(playbook):
    doc = doc_of(CONSULTING)
    placement = place_missing(doc, playbook.rule("limitation-of-liability"))
    assert placement.reason == "before_general"
    assert placement.after == index_of(doc, "4. Term.")  # the last substantive clause; 5-7 are boilerplate
    # "5." is taken by Entire Agreement, and typed numbers cannot shift: the drafter's inserted-clause number
    assert placement.apply("Each party's total liability ...") == \
        "4A. Limitation of Liability. Each party's total liability ..."


def test_a_general_provision_goes_at_the_end_of_the_general_provisions(playbook):
    doc = doc_of(CONSULTING)
    placement = place_missing(doc, playbook.rule("governing-law"))
    assert placement.after == index_of(doc, "7. Counterparts.")
    assert placement.apply("This Agreement is governed by English law.") == \
        "8. Governing Law. This Agreement is governed by English law."
    licence = doc_of(LICENCE)  # a "General" section with numbered sub-clauses takes it as its next one
    placement = place_missing(licence, playbook.rule("governing-law"))
    assert (placement.after, placement.reason) == (index_of(licence, "8.2 "), "related:general")
    assert placement.apply("X.") == "8.3 X."


def test_schedules_before_the_signatures_are_not_the_contracts_clauses(playbook):
    rows = [
        *CONSULTING[:-1],
        ("SCHEDULE 1 SERVICES", None, None),
        ("1. Strategy review. The Consultant shall review the Client's retail strategy.", None, None),
        ("2. Workshops. The Consultant shall run four workshops.", None, None),
        CONSULTING[-1],
    ]
    doc = doc_of(rows)
    assert place_missing(doc, playbook.rule("limitation-of-liability")).after == index_of(doc, "4. Term.")
    placement = place_missing(doc, playbook.rule("governing-law"))
    assert placement.after == index_of(doc, "7. Counterparts.")  # not after the schedule's clause 2
    assert placement.apply("X.") == "8. Governing Law. X."  # the schedule's own numbers do not count


def test_a_section_headed_for_the_clause_takes_it_at_its_end(playbook):
    rows: list[Row] = [
        ("1. Services", "Heading 1", 1),
        ("1.1 The Supplier shall provide the Services with reasonable skill and care.", None, None),
        ("2. Notices and Governing Law", "Heading 1", 1),
        ("2.1 Notices shall be in writing and delivered by hand to the address set out above.", None, None),
        ("3. Fees", "Heading 1", 1),
        ("3.1 The Customer shall pay each invoice within thirty (30) days.", None, None),
    ]
    doc = doc_of(rows)
    placement = place_missing(doc, playbook.rule("governing-law"))
    assert (placement.after, placement.reason, placement.apply("X.")) == (3, "own_section", "2.2 X.")


def test_never_inside_definitions_recitals_contents_tables_or_the_signature_block(playbook):
    doc = doc_of(supply_agreement())
    placement = place_missing(doc, playbook.rule("data-protection"))
    # confidentiality, compliance and audit appear only where a clause cannot go: a new section before GENERAL
    assert placement.reason == "before_general"
    assert placement.after == index_of(doc, "3.2 ")
    assert placement.apply("To the extent ...") == "3A. DATA PROTECTION\n3A.1 To the extent ..."


@pytest.mark.parametrize("category", list(Category))
def test_every_kind_of_clause_lands_at_the_end_of_a_whole_operative_section(playbook, category):
    """Whatever the category, the anchor is never in the front matter, definitions, a table (or the
    paragraph introducing one) or the signature block, and what follows it opens a section."""
    doc = doc_of(supply_agreement())
    forbidden = set(range(index_of(doc, "1. DEFINITIONS") + 1)) | set(range(index_of(doc, "2. SUPPLY"))) \
        | {index_of(doc, "2.2 "), index_of(doc, "Delivery point"), index_of(doc, "Confidential storage")} \
        | set(range(index_of(doc, "IN WITNESS"), len(doc.clauses)))
    opens = {index_of(doc, p) for p in ("2.2 ", "3. PRICE", "3.2 ", "4. GENERAL", "4.2 ", "IN WITNESS")}
    placement = place_missing(doc, rule_for(playbook, category, category.value.replace("_", " ")))
    assert placement.after not in forbidden, (category, doc.clauses[placement.after].text)
    assert placement.after + 1 in opens, (category, doc.clauses[placement.after].text)


def test_clauses_are_never_placed_among_sub_items(playbook):
    rows: list[Row] = [
        ("1. Supply. The Supplier shall:", None, None),
        ("(a) deliver the Goods on the Delivery Date;", None, None),
        ("(b) provide the Documentation.", None, None),
        ("2. Confidentiality. Each party shall keep the other's Confidential Information confidential, and shall:",
         None, None),
        ("(a) use it only to perform this Agreement; and", None, None),
        ("(b) return it on request.", None, None),
        ("3. Payment. The Buyer shall pay within thirty (30) days.", None, None),
    ]
    doc = doc_of(rows)
    placement = place_missing(doc, playbook.rule("data-protection"))
    # after confidentiality's items, as a new clause: an item (c) would hang off "shall:" and "3." is taken
    assert placement.after == index_of(doc, "(b) return it")
    assert placement.apply("X.") == "2A. Data protection. X."


# ----------------------------------------------------------------------------- the number
def test_typed_numbering_continues_15_after_14(playbook):
    titles = ["Services", "Specifications", "Delivery", "Acceptance", "Fees", "Invoicing", "Expenses", "Personnel",
              "Subcontracting", "Records", "Reports", "Meetings", "Changes", "Term"]
    rows: list[Row] = [("SERVICES AGREEMENT", "Title", None)]
    rows += [(f"{n}. {t}. The Supplier shall comply with the {t.lower()} requirements of Schedule {n}.", None, None)
             for n, t in enumerate(titles, 1)]
    rows.append(("IN WITNESS WHEREOF the parties have signed this Agreement.", None, None))
    doc = doc_of(rows)
    placement = place_missing(doc, playbook.rule("limitation-of-liability"))
    assert placement.after == index_of(doc, "14. Term.")
    assert placement.apply("Each party's total liability ...") == \
        "15. Limitation of liability. Each party's total liability ..."


def test_sub_clause_and_section_keyword_numbers_continue_at_their_level(playbook):
    rows: list[Row] = [
        ("Section 1 Services", "Heading 1", 1),
        ("1.1 The Supplier shall provide the Services.", None, None),
        ("Section 2 Confidentiality", "Heading 1", 1),
        ("2.1 Each party shall keep the other's Confidential Information confidential.", None, None),
        ("2.2 This Section 2 survives termination for five (5) years.", None, None),
        ("(a) save for trade secrets, which are protected indefinitely.", None, None),
        ("Section 3 Payment", "Heading 1", 1),
        ("3.1 The Customer shall pay within thirty (30) days.", None, None),
    ]
    doc = doc_of(rows)
    placement = place_missing(doc, playbook.rule("data-protection"))
    assert placement.after == index_of(doc, "(a) save")  # after the sub-items of 2.2, at the end of Section 2
    assert placement.apply("X.") == "2.3 X."
    placement = place_missing(doc, rule_for(playbook, Category.INSURANCE, "Insurance"))
    # no insurance neighbour: a new last section, numbered and headed like the others, its text a sub-clause
    assert placement.after == index_of(doc, "3.1 ")
    assert placement.apply("X.") == "Section 4 Insurance\n4.1 X."


def test_roman_articles_section_numbers_and_a_signature_page_line(playbook):
    rows: list[Row] = [
        ("ASSET PURCHASE AGREEMENT", "Title", None),
        ('This Agreement is entered into by and between Acme Corp. ("Buyer") and Beta LLC ("Seller").', None, None),
        ("WHEREAS, Seller wishes to sell the Assets to Buyer;", None, None),
        ("NOW, THEREFORE, in consideration of the premises, the parties agree as follows:", None, None),
        ("ARTICLE I DEFINITIONS", "Heading 1", 1),
        ('Section 1.1 "Assets" means the assets listed in Exhibit A.', None, None),
        ("ARTICLE II PURCHASE AND SALE", "Heading 1", 1),
        ("Section 2.1 Seller shall sell and Buyer shall purchase the Assets at the Closing.", None, None),
        ("ARTICLE III INDEMNIFICATION", "Heading 1", 1),
        ("Section 3.1 Seller shall indemnify Buyer against all Losses arising from a breach of its warranties.",
         None, None),
        ("ARTICLE IV MISCELLANEOUS", "Heading 1", 1),
        ("Section 4.1 This Agreement may be executed in counterparts.", None, None),
        ("Section 4.2 This Agreement is the entire agreement of the parties.", None, None),
        ("[Signature page follows]", None, None),
        ("IN WITNESS WHEREOF, the parties have executed this Agreement.", None, None),
    ]
    doc = doc_of(rows)
    cap = place_missing(doc, playbook.rule("limitation-of-liability"))
    assert (cap.after, cap.apply("X.")) == (index_of(doc, "Section 3.1 "), "Section 3.2 X.")  # beside the indemnity
    law = place_missing(doc, playbook.rule("governing-law"))
    assert (law.after, law.apply("X.")) == (index_of(doc, "Section 4.2 "), "Section 4.3 X.")
    data = place_missing(doc, playbook.rule("data-protection"))  # no neighbour: a new article before Miscellaneous
    assert data.apply("X.") == "ARTICLE IIIA DATA PROTECTION\nSection 3A.1 X."


def test_numbers_are_read_as_drafters_write_them():
    assert parse_number("14.3 The Supplier", typed=True).render() == "14.3"
    assert parse_number("14. Term. This", typed=True).following().render() == "15."
    assert parse_number("ARTICLE IV CONFIDENTIALITY", typed=True).following().render() == "ARTICLE V"
    assert parse_number("Clause 7.2 The", typed=True).inserted_after().render() == "Clause 7.2A"
    assert parse_number("14A. Data", typed=True).following().render() == "14B."
    for not_a_number in ("30 days after delivery", "I agree", "(a) deliver", "2024 was"):
        assert parse_number(not_a_number, typed=True) is None, not_a_number


def test_a_number_or_title_the_provider_added_is_not_doubled():
    placement = Placement(after=3, number=parse_number("8.", typed=True), run_in="Governing Law")
    assert placement.apply("8. Governing Law. This Agreement is governed by English law.") == \
        "8. Governing Law. This Agreement is governed by English law."
    assert Placement(after=3).apply("11. This Agreement ...") == "This Agreement ..."  # Word numbers it


def test_clauses_sharing_an_anchor_get_distinct_numbers_in_document_order(playbook):
    doc = doc_of(CONSULTING)
    rules = [playbook.rule(k) for k in ("limitation-of-liability", "confidentiality", "data-protection")]
    placed = stagger([place_missing(doc, r) for r in rules])
    assert {p.after for p in placed} == {index_of(doc, "4. Term.")}
    # the writer puts each later insertion directly after the anchor, so the first in order is last in the text
    assert [p.apply("X.") for p in placed] == [
        "4C. Limitation of Liability. X.", "4B. Confidentiality. X.", "4A. Data Protection. X."]


def test_a_rejected_insertion_is_not_proposed_again_under_another_number():
    clause = "Each Party shall keep confidential all Confidential Information of the other Party."
    rejected = rejection_filter([Rejection("INSERT", original_text="4. Term. This Agreement begins",
                                           new_text=f"4B. Confidentiality. {clause}")])
    again = Suggestion(id="x", anchor="_RL_1", kind=Kind.INSERT, rule_key="confidentiality", rule_title="C",
                       category="confidentiality", severity="major", quote="4. Term. This Agreement begins",
                       comment="", new_text=f"4A. Confidentiality. {clause}")
    assert rejected(again)
    assert not rejected(replace(again, new_text=f"4A. Confidentiality. {clause[:-1]} and its Affiliates."))


def test_the_generated_contract_gets_new_articles_after_the_last_one(generated, playbook):
    doc = build_document(generated)
    outline = Outline(doc)
    last = outline.roots[-1]
    assert doc.clauses[last.start].text.startswith("ARTICLE ")
    placement = place_missing(doc, playbook.rule("governing-law"))
    number = int(doc.clauses[last.start].text.split()[1]) + 1
    assert placement.after == doc.body_end
    assert placement.apply("X.").split("\n") == [f"ARTICLE {number} GOVERNING LAW", f"{number}.1 X."]
    assert outline.first == index_of(doc, "NOW, THEREFORE") + 1


# ----------------------------------------------------------------------------- end to end, judged by outside readers
TITLE_STYLE = ('<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/>'
               '<w:basedOn w:val="Normal"/></w:style>')
STYLE_IDS = {"Title": "Title", "Heading 1": "Heading1", "Heading 2": "Heading2"}


def docx_of(rows: list[Row], numbering: str | None = None, num: dict[int, int] | None = None) -> bytes:
    """A .docx of ``rows``; ``num`` maps a row index to the list level (ilvl) it is numbered at."""
    body = []
    for i, (text, style, _level) in enumerate(rows):
        ppr = f'<w:pStyle w:val="{STYLE_IDS[style]}"/>' if style else ""
        if num and i in num:
            ppr += f'<w:numPr><w:ilvl w:val="{num[i]}"/><w:numId w:val="1"/></w:numPr>'
        body.append(f'<w:p><w:pPr>{ppr}</w:pPr><w:r><w:t xml:space="preserve">{escape(text)}</w:t></w:r></w:p>')
    return build_docx("".join(body), styles=DEFAULT_STYLES.replace("</w:styles>", TITLE_STYLE + "</w:styles>"),
                      numbering=numbering)


def redlined(tmp_path, data: bytes, playbook: Playbook, name: str = "out.docx"):
    read = read_document(data)
    clauses = clauses_from_paragraphs(read.paragraphs)
    result = review(clauses, playbook, OfflineProvider())
    out = redline_document(read.docx, [op_from_json(i, s.to_op()) for i, s in enumerate(result.suggestions)])
    assert [r.status for r in out.results] == ["applied"] * len(result.suggestions)
    path = tmp_path / name
    path.write_bytes(out.docx)
    src = tmp_path / ("src-" + name)
    src.write_bytes(data)
    return result, path, src


@pytest.mark.slow  # LibreOffice
def test_end_to_end_the_inserted_clauses_sit_where_a_drafter_puts_them(tmp_path, playbook):
    """The whole default playbook on the licence: every missing clause lands in its place, numbered in order,
    as pandoc and LibreOffice read the redline with its changes accepted; rejected, it is the original."""
    result, out, src = redlined(tmp_path, docx_of(LICENCE), in_words(playbook, LICENCE_WORDS))
    inserted = [s for s in result.suggestions if s.source == "missing" and s.kind is Kind.INSERT]
    assert {s.rule_key for s in inserted} >= {"data-protection", "notices", "jurisdiction", "force-majeure"}
    dp = LICENCE_WORDS["data-protection"]
    lo_accepted, lo_rejected = oracles.lo_texts([(out, "accept"), (out, "reject")])
    for accepted in (oracles.pandoc_text(out, "accept"), lo_accepted):
        at = accepted.index(f"5.3 {dp}")
        assert accepted[at - 1].startswith("5.2 Clause 5.1") and accepted[at + 1] == "6. Warranties"
        # the general provisions gain their next sub-clauses, numbered in document order, before the signature
        tail = accepted[accepted.index("8.2 This Agreement may be executed in any number of counterparts, each of "
                                       "which is an original."):]
        added = [line for line in tail[1:] if re.match(r"8\.\d+ ", line)]
        assert [line.split()[0] for line in added] == [f"8.{n}" for n in range(3, 3 + len(added))]
        assert len(added) >= 3 and tail[len(added) + 1].startswith("IN WITNESS WHEREOF")
    original = oracles.pandoc_text(src, "accept")
    assert oracles.pandoc_text(out, "reject") == original and lo_rejected == original


@pytest.mark.slow  # LibreOffice
def test_end_to_end_boilerplate_fallback_in_one_paragraph_clauses(tmp_path, playbook):
    consulting = [*CONSULTING[:2], ("The Consultant may process personal data of the Client's staff.", None, None),
                  *CONSULTING[2:]]
    _, out, _ = redlined(tmp_path, docx_of(consulting),
                         only(in_words(playbook, CONSULTING_WORDS), "confidentiality", "data-protection"))
    accepted = oracles.lo_text(out, "accept")
    at = accepted.index(next(line for line in accepted if line.startswith("4. Term.")))
    assert accepted[at + 1].startswith("4A. Data Protection. To the extent")
    assert accepted[at + 2].startswith("4B. Confidentiality. Each party shall keep confidential")
    assert accepted[at + 3].startswith("5. Entire Agreement.")
    assert not any(line.startswith("Counterparts") for line in accepted[at + 4:-1])


# A Word multilevel list: "1." for the sections (Heading 1), "1.1" for their clauses.
LIST_NUMBERING = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:numbering {NS_DECL}>'
    '<w:abstractNum w:abstractNumId="0">'
    '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>'
    '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/></w:lvl>'
    '</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>'
)


@pytest.mark.slow  # LibreOffice
def test_end_to_end_word_list_numbering_continues_instead_of_a_typed_number(tmp_path, playbook):
    rows = [(re.sub(r"^\d+(?:\.\d+)*\.? ", "", text), style, level) for text, style, level in LICENCE]
    numbered = {i: 0 if style == "Heading 1" else 1 for i, (text, style, _) in enumerate(LICENCE)
                if re.match(r"\d+\.", text)}
    data = docx_of(rows, LIST_NUMBERING, numbered)
    result, out, _ = redlined(tmp_path, data, only(in_words(playbook, LICENCE_WORDS), "data-protection"))
    (s,) = result.suggestions
    dp = LICENCE_WORDS["data-protection"]
    assert s.new_text == dp  # no typed number: Word numbers the paragraph, which copies the anchor's w:numPr
    after = read_document(out.read_bytes()).paragraphs
    labels = {p.text: p.list_label for p in after}
    assert labels[dp] == "5.3" and labels["Warranties"] == "6."
    # LibreOffice's own text export prints list labels: its numbering agrees
    txt = oracles.oracle.normalise(oracles.oracle.lo_paragraphs(str(out), "accept", method="txt"))
    at = txt.index(next(line for line in txt if line.endswith(dp)))
    assert txt[at].startswith("5.3") and txt[at - 1].startswith("5.2") and txt[at + 1].startswith("6.")


# -- shapes seen in CUAD's dev contracts -------------------------------------------------------------------------
def test_an_exhibit_run_into_its_first_paragraph_ends_the_operative_body(playbook):
    """CUAD filings render "Exhibit A Revenue, Cost ..." as body text: a clause never goes after it."""
    rows: list[Row] = [("DISTRIBUTION AGREEMENT", "Title", None),
                       ("This Agreement is made between Acme Inc. (the “Supplier”) and Beta LLC (the “Customer”).",
                        None, None)]
    rows += [(f"{n}. Clause {n}. The Supplier shall perform obligation number {n} with reasonable care.", None, None)
             for n in range(1, 9)]
    rows += [("9. Miscellaneous 9.1 Entire Agreement. This Agreement is the entire agreement of the parties.",
              None, None),
             ("9.2 Exhibits. The Exhibits referred to in the Agreement are incorporated by reference.", None, None)]
    rows += [("Exhibit A Revenue, Cost and Margin April 28, 2016 Gross Revenue Net Revenue", None, None),
             ("Materials Cost Center Expenses including wages and related taxes and benefits", None, None),
             ("Exhibit B Development Plan FY 2016 Target Review Month", None, None)]
    clauses = make_clauses(rows)
    doc = build_document(clauses)
    placement = place_missing(doc, playbook.rule("jurisdiction"))
    exhibit = next(i for i, c in enumerate(clauses) if c.text.startswith("Exhibit A"))
    assert placement.after < exhibit


def test_a_section_headed_for_an_uncovered_category_is_that_clause(playbook):
    """ "13. NOTICES" over text the keyword classifier does not read as a notice clause: not missing."""
    from redline.analysis.selection import rule_present, select_clauses

    rows: list[Row] = [("SERVICES AGREEMENT", "Title", None),
                       ("1. SERVICES", "Heading 1", 1),
                       ("The Supplier shall provide the Services with reasonable skill and care.", None, None),
                       ("2. NOTICES", "Heading 1", 1),
                       ("Either party may change the address to which correspondence is sent by telling the other.",
                        None, None)]
    doc = build_document(make_clauses(rows))
    rule = playbook.rule("notices")
    assert rule_present(doc, rule, select_clauses(doc, rule))
    bare = build_document(make_clauses(rows[:3]))
    assert not rule_present(bare, rule, select_clauses(bare, rule))
