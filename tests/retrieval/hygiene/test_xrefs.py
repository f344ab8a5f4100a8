"""Cross-references that lead nowhere (issue #27): "section II above" with no section II, "§12.C" with no
12.C, a referenced exhibit attached empty, and the references a careful associate would not flag (statutes,
other agreements, the filing's own exhibits, exhibits a filing says it omitted)."""

from __future__ import annotations

from xml.sax.saxutils import escape

import pytest

from redline.ooxml.paragraphs import read_document
from redline.retrieval.graph import ContractGraph
from redline.retrieval.hygiene import xrefs
from tests.retrieval.hygiene.grounded import grounded
from tests.support.docx_builder import NS_DECL, build_docx, para

_CLAUSES = "\n\n".join(f"{n}. Heading {n}\n\nThe parties agree to term {n}." for n in range(1, 12))
_SHORT = """SUPPLY AGREEMENT

1. Definitions. Terms have their defined meanings.

2. Supply

2.1 Products. The Supplier shall supply the Products.

2.2 Forecasts. The Customer shall give forecasts.

3. Payment. {payment}

4. Term. The term is one year.
{tail}"""


def _check(text: str):
    return grounded(xrefs.check, text)


def _messages(payment: str, tail: str = "") -> list[str]:
    return [f.message for f in _check(_SHORT.format(payment=payment, tail=tail))]


# -- the examples of the issue -----------------------------------------------------------------------------------
def test_section_ii_above_in_a_contract_with_no_section_ii():
    text = f"""SERVICES AGREEMENT

{_CLAUSES}

12. Reports

The Supplier shall report monthly.

13. Confidentiality

The Recipient shall keep the information reported under section II above confidential.
"""
    [finding] = _check(text)
    assert (finding.kind, finding.quote) == ("missing_reference", "section II")
    assert finding.message == "section II is referenced in §13 but the contract has no Section II."


def test_section_12_c_referenced_in_18_g():
    letters = "\n\n".join(f"{c}. Item {c} of the miscellaneous provisions." for c in "ABCDEF")
    text = f"""SERVICES AGREEMENT

{_CLAUSES}

12. Reports

A. The Supplier shall report monthly.

B. The Customer shall review the reports.

13. Term

The term is one year.

14. Notices

Notices are in writing.

15. Assignment

No assignment.

16. Waiver

No waiver.

17. Law

New York law governs.

18. Miscellaneous

{letters}

G. Subject to Section 12.C, the Supplier may subcontract.
"""
    [finding] = _check(text)
    assert finding.quote == "Section 12.C"
    assert finding.message == "Section 12.C is referenced in §18.G but the contract has no Section 12.C."
    assert _check(text.replace("Section 12.C", "Section 12.B")) == []


def test_a_missing_section_cited_twice_is_one_finding():
    messages = _messages("Fees are payable under Section 2.9. Late fees are payable under Section 2.9.")
    assert messages == ["Section 2.9 is referenced in §3 (and 1 other place) but the contract has no Section 2.9."]


def test_existing_targets_are_not_reported():
    assert _messages("Subject to Section 2.2 and Sections 1 and 4, the Customer shall pay.") == []


def test_a_clause_letter_not_in_the_section():
    text = """AGREEMENT

1. Definitions. Terms have their defined meanings.

2. Termination. Except as provided in clause (e) below, either party may terminate if the other:

(a) fails to pay;

(b) breaches this Agreement; or

(c) becomes insolvent.

3. Notices. Notices are in writing.
"""
    [finding] = _check(text)
    assert (finding.quote, finding.message) == ("clause (e)", "clause (e) is referenced in §2 but the contract has "
                                                              "no clause (e).")
    assert _check(text.replace("clause (e)", "clause (c)")) == []


# -- references outside the contract ---------------------------------------------------------------------------
def test_statutes_and_other_agreements_are_not_this_contracts_sections():
    payment = ("Section 9 of the Supply Agreement applies, as does Section 409A of the Code and 21 U.S.C. § 321. "
               "Sections 6.4 (Record Retention) and 6.10 (Protective Arrangements) of the Separation Agreement "
               "are incorporated. Section 365(n) of the U.S. Bankruptcy Code applies; Section 365(n) governs.")
    assert _messages(payment) == []


def test_an_appendix_of_another_instrument_known_by_its_initials_is_not_missing_here():
    """Rated WRONG (docs/review-ratings/hygiene-round1.json, c0268): "information of the type listed on Appendix A
    to the TAA" is the technical assistance agreement's appendix, not an attachment this contract lacks."""
    payment = ("Know-how includes technical literature including but not limited to information of the type listed "
               "on Appendix A to the TAA, tangible or intangible.")
    assert _messages(payment) == []
    own = "Know-how includes the information listed on Appendix A, tangible or intangible."  # positive control
    assert _messages(own) == ["Appendix A is referenced in §3 but is not attached to the contract."]


def test_an_annex_heading_behind_a_page_number_is_attached():
    """Rated WRONG (docs/review-ratings/hygiene-round1.json, c0265): "9 Annex A THIS WARRANT …" is the annex,
    its heading run in behind the page number of the filing's text."""
    payment = "The Company shall issue warrants in the form attached hereto as Annex A."
    annex = "\n\n9 Annex A THIS WARRANT AND THE SHARES ISSUABLE HEREUNDER HAVE NOT BEEN REGISTERED.\n"
    assert _messages(payment, annex) == []
    assert _messages(payment) == ["Annex A is referenced in §3 but is not attached to the contract."]  # control


def test_an_amendment_cites_the_sections_it_amends():
    text = """FIRST AMENDMENT TO SUPPLY AGREEMENT

1. Amendment. Section 14.2 is hereby amended by deleting subsection (b).

2. Effect. Except as amended, the Agreement is unchanged.

3. Counterparts. This Amendment may be signed in counterparts.
"""
    assert _check(text) == []


# -- attachments ---------------------------------------------------------------------------------------------------
def test_exhibits_left_out_of_a_filing_are_one_finding():
    payment = "The price is in Exhibit A. The forecast form is Exhibit B. Rebates are in Schedule 1 and Exhibit A."
    assert _messages(payment) == ["Exhibits A and B and Schedule 1 are referenced (first in §3) but are not "
                                  "attached to the contract."]


def test_a_filing_that_says_its_exhibits_are_omitted_gets_no_finding():
    tail = "\n[Exhibits A and B have been omitted pursuant to Item 601(a)(5) of Regulation S-K.]\n"
    assert _messages("The price is in Exhibit A. The forecast form is Exhibit B.", tail) == []


def test_the_filings_own_exhibit_number_is_not_an_attachment():
    assert _check("Exhibit 10.1\n\n" + _SHORT.format(payment="The Customer shall pay.", tail="")) == []


def test_the_marketing_plan_exhibit_attached_blank():
    tail = """
EXHIBIT A

PRICES

Product A: $10 per unit.

EXHIBIT C

MARKETING PLAN
"""
    payment = ("The price is in Exhibit A. Exclusivity is subject to the Marketing Plan to be developed and "
               "attached as Exhibit C.")
    findings = _check(_SHORT.format(payment=payment, tail=tail))
    assert [(f.kind, f.quote, f.message) for f in findings] == [
        ("empty_attachment", "EXHIBIT C", "Exhibit C is referenced in §3 but is attached empty.")]


@pytest.mark.parametrize(("payment", "name", "when"), [
    # c0393 (rated WRONG when the comment only said "attached empty": §3.9 provides for the plan later)
    ("The initial Plan will be established by the parties written ninety (90) days following the effective date of "
     "this Agreement and incorporated by reference into this Agreement as a new Exhibit C to this Agreement.",
     "Exhibit C", "ninety (90) days following the effective date of this Agreement"),
    # c0094 (the same, for the acceptance specification of §4)
    ("The acceptance specification shall be completed no later than 90 days after the effective date of this "
     "Agreement and shall be attached to this agreement as Exhibit C.",
     "Exhibit C", "no later than 90 days after the effective date of this Agreement"),
])
def test_an_attachment_the_contract_says_comes_later_is_reported_as_such(payment, name, when):
    tail = "\nEXHIBIT C\n\nSALES AND MARKETING PLANS\n"
    assert _messages(payment, tail) == [
        f"{name} is attached empty. §3 provides for it to be agreed and added later ({when}); until it is, what "
        "depends on it has no agreed content."]


def test_to_be_attached_is_empty_and_intentionally_omitted_is_not():
    payment = "The price is in Schedule 1."
    empty = _messages(payment, "\nSCHEDULE 1\n\nPRICES\n\n[To be attached]\n")
    assert empty == ["Schedule 1 is referenced in §3 but is attached empty."]
    for deliberate in ("[Intentionally omitted]", "None.", "[***]", "Product A: $10 per unit."):
        assert _messages(payment, f"\nSCHEDULE 1\n\nPRICES\n\n{deliberate}\n") == [], deliberate


def test_an_exhibit_titled_by_the_agreement_it_belongs_to_is_still_empty():
    # c0410: the heading names its agreement, parties and date; nothing follows it
    heading = ("EXHIBIT A TO CONTENT LICENSE AGREEMENT BY AND AMONG DIGICORP, INC. AND NEW CHINA MEDIA, LLC; YGP, LLC "
               "and TWK HOLDINGS, LLC DATED June 2, 2008")
    payment = "The Licensor licenses the content described in the attached Exhibit A."
    assert _messages(payment, f"\n{heading}\n") == ["Exhibit A is referenced in §3 but is attached empty."]
    content = "Supply Agreement for Content dated May 31, 2008 among Yes Television (Hong Kong) Limited and others."
    assert _messages(payment, f"\n{heading}\n\n{content}\n") == []


def test_an_exhibit_cited_where_a_schedule_is_attached():
    tail = "\nSCHEDULE B\n\nPRICES\n\nProduct A: $10 per unit.\n"
    assert _messages("The price is in Exhibit B.", tail) == [
        "Exhibit B is referenced in §3 but is not attached; the attachment is headed Schedule B."]


# -- Word's automatic numbering ------------------------------------------------------------------------------------
_NUMBERING = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:numbering {NS_DECL}>'
    '<w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="multilevel"/>'
    '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>'
    '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="upperLetter"/><w:lvlText w:val="%2."/></w:lvl>'
    '</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>'
)


def _item(text: str, level: int) -> str:
    return (f'<w:p><w:pPr><w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="1"/></w:numPr></w:pPr>'
            f'<w:r><w:t xml:space="preserve">{escape(text)}</w:t></w:r></w:p>')


def test_word_labels_count_as_the_clauses_they_number():
    def findings(cited: str) -> list[str]:
        body = para("SERVICES AGREEMENT") + "".join(_item(f"Clause {n}", 0) + para(f"Term {n} applies.")
                                                    for n in range(1, 12))
        body += _item("Reports", 0) + "".join(_item(t, 1) for t in ("Monthly reports.", "Reviews.", "Audits."))
        body += _item("Miscellaneous", 0) + para(f"Subject to Section {cited}, the Supplier may subcontract.")
        doc = read_document(build_docx(body, numbering=_NUMBERING), anchor=True)
        return [f.message for f in xrefs.check(ContractGraph.from_paragraphs(doc.paragraphs))]

    assert findings("12.C") == []  # "C." is Word's label, not in the text
    assert findings("12.E") == ["Section 12.E is referenced in §13 but the contract has no Section 12.E."]
    assert findings("14") == ["Section 14 is referenced in §13 but the contract has no Section 14."]
