"""Blanks, drafting notes and redactions (issue #27): what must be filled in or deleted before signing, and
what a lawyer would never flag (signature blocks, the fill-in lines of a form, each redaction mark)."""

from __future__ import annotations

import pytest

from redline.retrieval.hygiene import blanks
from tests.retrieval.hygiene.grounded import grounded


def _check(text: str):
    return grounded(blanks.check, text)


def _quotes(text: str, kind: str | None = None) -> list[str]:
    return [f.quote for f in _check(text) if kind is None or f.kind == kind]


# -- the "why" examples of the issue ---------------------------------------------------------------------------
def test_blank_date_in_the_preamble_is_quoted_with_its_lead_in():
    text = "This Supply Agreement is dated as of ___________, 2015 by and between Acme Corp. and Beta LLC."
    [finding] = _check(text)
    assert finding.kind == "blank"
    assert finding.quote == "dated as of ___________, 2015"
    assert finding.message == "A blank date: 'dated as of ___________, 2015' needs the date before signing."


def test_an_agreed_note_in_brackets_is_not_a_drafting_note():
    """Rated WRONG (docs/review-ratings/hygiene-round1.json, c0016): the promotions exhibit's bracketed note is
    an agreed qualification of an obligation, not a note to the drafters; deleting it would widen the duty."""
    agreed = (". list auctions in myglobe [Note: this will be done when commercially reasonable to do so some time"
              " after the Launch Date] . list auctions in shop.theglobe.com")
    assert _quotes(agreed, "drafting_note") == []
    addressed = "The fee is payable monthly [Note: Parties to confirm the fee schedule before signing]."
    assert _quotes(addressed, "drafting_note") == ["[Note: Parties to confirm the fee schedule before signing]"]


def test_capitalised_note_to_the_parties_is_a_drafting_note():
    note = ("[PRIOR TO EXECUTION OF THIS AGREEMENT, THE PARTIES WILL AGREE UPON APPROPRIATE LANGUAGE AND PROVISONS "
            "FOR THE PAYMENT OF PROFIT INTEREST TO THE MEMBERS]")
    text = f"5. Distributions. Distributions shall be made quarterly. {note}"
    [finding] = _check(text)
    assert (finding.kind, finding.quote) == ("drafting_note", note)
    assert finding.message.startswith("A drafting note was left in the text: '[PRIOR TO EXECUTION OF THIS AGREEMENT")


# -- blanks ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "quote"), [
    ("The Supplier shall deliver within ______ days of the order.", "within ______ days"),
    ("The Licensee shall pay a fee of $_____ per unit.", "$_____"),
    ("The royalty is ____% of Net Sales.", "____%"),
    ("The Fixed Amount is USD[ ] payable on signing.", "USD[ ]"),
    ("Franchisee is [•] (add the business of the Franchisee).", "is [•] (add the business of the Franchisee)"),
    ("The Bank shall be [●] acting through its London branch.", "be [●] acting"),
    ("The Term shall end on [TBD].", "[TBD]"),
    ("Delivery terms: TBD.", "TBD"),
    ("Notices to the Buyer shall be sent to [insert address].", "[insert address]"),
    ("Telephone number: [Insert details]", "[Insert details]"),
    ("The Company shall appoint [Company Name] as its agent.", "[Company Name]"),
    ("This Agreement is entered into on this ____ day of ___________, 2000, by the parties.",
     "entered into on this ____ day of ___________, 2000"),
    ("This Co-Branding Agreement is entered into as of March ___, 1999 by theglobe.com.",
     "entered into as of March ___, 1999"),
    ("This Amendment is dated as of [ ], 20[_] and made under Section 3.1.", "dated as of [ ], 20[_]"),
    ("The services start on or before [TBD] at the latest.", "[TBD]"),
])
def test_blanks_are_found_and_quoted_with_what_they_are_for(text, quote):
    assert _quotes(text, "blank") == [quote]


def test_date_whose_blank_was_lost_in_conversion():
    text = "This OUTSOURCING AGREEMENT is entered into as of this day of , 2012 by and between Twin Cities and Redwater."
    [finding] = _check(text)
    assert finding.quote == "as of this day of , 2012"
    assert "no day or month" in finding.message


def test_blank_amount_is_named_as_an_amount():
    [finding] = _check("Buyer shall pay Seller the sum of $__________ on the Closing Date.")
    assert finding.message == "A blank amount: '$__________' needs the figure before signing."


def test_letter_agreement_date_line_is_a_blank_date():
    text = "AGENCY AGREEMENT\n\n____________, 1996\n\nCapital Resources, Inc.\n\nLadies and Gentlemen:"
    assert _quotes(text) == ["____________, 1996"]


# -- drafting notes --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("note", [
    "[NOTE TO DRAFT: PARTIES TO CONFIRM THE FEE SCHEDULE]",
    "[Note to draft: Supplier to confirm the delivery address.]",
    "[NTD: Company to provide its insurance certificate.]",
    "[PRIOR TO EXECUTION, THE PARTIES WILL AGREE ON THE SERVICE LEVELS]",
    "[purchasing entity to be determined]",
    "[Parties to discuss whether the cap applies to indemnities]",
])
def test_drafting_notes(note):
    assert _quotes(f"10. Liability. Each party's liability is limited as set out below. {note}") == [note]


@pytest.mark.parametrize(("text", "quote"), [
    ("The purchase price for additional units: to be agreed.", "to be agreed"),
    ("The fee for the second phase is to be determined.", "phase is to be determined"),
    ("A notice of at least fourteen [14 ] days shall be given to each Director.", "[14 ]"),
    ("If the JVC fails to sell [one million dollars (US$ 1,000,000.00)] worth of Products, either party may end it.",
     "[one million dollars (US$ 1,000,000.00)]"),
    ("within [eighteen (18)] months of signing", "[eighteen (18)]"),
])
def test_open_points_and_bracketed_figures(text, quote):
    assert _quotes(text, "drafting_note") == [quote]


@pytest.mark.parametrize("text", [
    # an agreement to agree with its mechanism is a choice the parties made, not a blank
    "The revenue share shall be determined on a case by case basis, to be determined by the Steering Committee.",
    "Such work will be done under a separate statement of work to be agreed upon in writing by the Parties.",
    "An additional fee to be agreed upon between Antares and AMAG shall apply.",
    # bracketed captions and filing furniture
    "ARTICLE 5 [TERMINATION AND SURVIVAL] This Agreement may be terminated as set out below.",
    "[Signature Page Follows]",
    "[Remainder of page intentionally left blank]",
    "[LOGO]",
    "The fee under Section 3.01 [AMOUNT] is payable monthly.",
    "The URL [guidesitename].about.com shall display the co-branded page.",
])
def test_not_drafting_defects(text):
    assert _check(text) == []


# -- signature blocks and forms ----------------------------------------------------------------------------------
SIGNATURES = """\
IN WITNESS WHEREOF, the parties have executed this Agreement as of the date first written above.

ACME CORP.

By: ______________________
Name: ____________________
Title: ___________________
Date: ____________________

BETA LLC

Signature:__________________ Date Signed__________________

______________________________ Mr Craig Nelson Deputy CEO

EXECUTED this ________ day of ______________, in the year ________. Network 1 By: _____________________

Dated the ____ day of May, 2000.

GARMAN ROUTING SYSTEMS, INC.

Per: ___________________________________
"""


def test_signature_block_blanks_are_not_defects():
    assert _check("1. Term. This Agreement runs for two years.\n\n" + SIGNATURES) == []


def test_blank_date_in_the_testimonium_of_a_signed_copy_is_a_defect():
    text = ("IN WITNESS WHEREOF, the parties have signed this Agreement, dated as of ____________, 20__. "
            "THE JOHNS HOPKINS UNIVERSITY By: /s/ Neil Veloso VIRTUOSO SURGICAL, INC. By: /s/ Jane Doe")
    assert _quotes(text) == ["dated as of ____________, 20__"]


def test_tbd_left_in_a_signature_block_is_still_a_blank():
    text = ("IN WITNESS WHEREOF, the parties have executed this Agreement effective on or before [TBD]. "
            "Slinger Bag Inc. By: ____________ Title: ____________")
    assert _quotes(text) == ["[TBD]"]


def test_decorative_rule_on_a_cover_page_is_not_a_blank():
    assert _check("DATED 26 September 2019\n\nBicycleTX Ltd\n\n_____________________________\n\nSERVICE AGREEMENT") == []


FORM_EXHIBIT = """\
1. Term. This Warrant may be exercised at any time before its expiry.

2. Exercise. The Holder may exercise this Warrant by delivering the Exercise Notice in Appendix 1.

3. Notices. Notices shall be in writing.

4. Governing Law. This Warrant is governed by the laws of New York.

5. Counterparts. This Warrant may be signed in counterparts.

6. Entire Agreement. This Warrant is the entire agreement of the parties.

Appendix 1 EXERCISE NOTICE

Date of Exercise: ______________________ Number of shares to be purchased: ______________
Issue to: ______________________________ Address: _____________________________
"""


def test_fill_in_lines_of_a_form_exhibit_are_not_defects():
    assert _check(FORM_EXHIBIT) == []


def test_blank_in_the_body_is_still_found_when_a_form_exhibit_follows():
    text = FORM_EXHIBIT.replace("before its expiry", "before ____________, 2021")
    assert _quotes(text) == ["before ____________, 2021"]


def test_form_of_marker_makes_the_amendment_a_form():
    text = ("1. Term. One year.\n\n2. Fees. As agreed.\n\n3. Notices. In writing.\n\n4. Law. New York.\n\n"
            "5. Assignment. None.\n\n[Form of Amendment to Appendix A]\n\nAMENDMENT TO APPENDIX A\n\n"
            "This Amendment to Appendix A is dated as of [ ], 20[_], and made pursuant to Section 3.1.")
    assert _check(text) == []


def test_a_drafting_note_in_a_form_is_still_a_note():
    text = FORM_EXHIBIT + "\n[Note to draft: Company to confirm the share count.]\n"
    assert _quotes(text) == ["[Note to draft: Company to confirm the share count.]"]


# -- redaction ---------------------------------------------------------------------------------------------------
REDACTED = """\
Exhibit 10.1

CERTAIN INFORMATION IN THIS EXHIBIT HAS BEEN OMITTED AND FILED SEPARATELY WITH THE SECURITIES AND EXCHANGE \
COMMISSION. CONFIDENTIAL TREATMENT HAS BEEN REQUESTED WITH RESPECT TO THE OMITTED PORTIONS.

1. Price. The price per unit is [***].

2. Volume. The minimum volume is [***] units per [***].

3. Rebate. A rebate of [*] applies.
"""


def test_redaction_is_reported_once_at_the_legend():
    [finding] = _check(REDACTED)
    assert finding.kind == "redaction"
    assert finding.quote == ("CERTAIN INFORMATION IN THIS EXHIBIT HAS BEEN OMITTED AND FILED SEPARATELY WITH THE "
                             "SECURITIES AND EXCHANGE COMMISSION.")
    assert "4 passages are marked as omitted" in finding.message


def test_redaction_marks_without_a_legend_are_reported_once_at_the_first_mark():
    text = "1. Price. The price is ***.\n\n2. Volume. The volume is *** units.\n\n3. Term. Three years."
    [finding] = _check(text)
    assert (finding.kind, finding.quote, finding.block) == ("redaction", "***", 0)


def test_modern_legend_without_filing_is_a_redaction_too():
    text = ("Exhibit 10.1 [*] Certain confidential information contained in this document, marked by brackets, is "
            "omitted because it is both (i) not material and (ii) would be competitively harmful if publicly "
            "disclosed.\n\n1. Price. The price is [*].")
    assert [f.kind for f in _check(text)] == ["redaction"]


def test_a_promise_about_confidential_treatment_is_not_a_legend():
    text = ("16.2 Filing. In such filing the Parties shall request confidential treatment of sensitive provisions "
            "of this Agreement, to the extent permitted by Law, and filed with the Commission.")
    assert _check(text) == []


def test_the_shared_hand_written_contract_is_clean(graph):
    assert blanks.check(graph) == []
