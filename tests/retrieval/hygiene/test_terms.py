"""Defined-term hygiene (issue #27): a capitalised term used but never defined (the "SSS" of the issue), a term
defined but never used, defined twice with different meanings, written in the wrong case, and one party called
by two names; and the capitalised words a careful associate would not flag (headings, places, statutes, company
names, words opening a sentence, passages in capitals, terms taken from another agreement)."""

from __future__ import annotations

import pytest

from redline.ooxml.paragraphs import read_document
from redline.retrieval.graph import ContractGraph
from redline.retrieval.hygiene import terms
from tests.retrieval.hygiene.grounded import grounded
from tests.support.docx_builder import build_docx, para

# A short distribution agreement as it comes out of an EDGAR filing, every term defined and used.
CONTRACT = """DISTRIBUTION AGREEMENT

This Distribution Agreement (this "Agreement") is made on 1 March 2021 between Acme Widgets, Inc., a Delaware \
corporation ("Supplier"), and Beta Trading LLC, a New York limited liability company ("Distributor").

1. Definitions

1.1 "Products" means the widgets listed in Schedule A.

1.2 "Territory" means the United States of America.

1.3 "Confidential Information" means all non-public information disclosed by a party under this Agreement.

1.4 "Marketing Plan" means the annual plan for promoting the Products in the Territory.

2. Appointment

2.1 Supplier appoints Distributor as its exclusive distributor of the Products in the Territory.

2.2 Distributor shall promote the Products in accordance with the Marketing Plan and shall not sell the Products \
outside the Territory.

2.3 Distributor shall buy the Products only from Supplier, and Supplier shall fill each order Distributor places.

3. Marketing

3.1 Distributor shall deliver the Marketing Plan to Supplier each year. Supplier may comment on the Marketing Plan \
within thirty (30) days after it receives the Marketing Plan.

4. Confidentiality

4.1 Each party shall keep the Confidential Information of the other party secret and shall use such Confidential \
Information only to perform this Agreement.

5. Term

5.1 This Agreement continues for three (3) years. Either party may end it on ninety (90) days' notice to the other.

6. General

6.1 THE PRODUCTS ARE SOLD AS IS AND SUPPLIER MAKES NO OTHER WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.

6.2 This Agreement is governed by the laws of the State of New York, and the Uniform Commercial Code applies to \
every sale of Products under it.
"""


def _check(text: str) -> list:
    return grounded(terms.check, text)


def _found(text: str) -> list[tuple[str, str, str]]:
    return [(f.kind, f.quote, f.message) for f in _check(text)]


def _undefined(text: str) -> list[str]:
    return [f.quote for f in _check(text) if f.kind == "undefined_term"]


def test_a_clean_contract_has_no_findings():
    # headings, "Schedule A", "United States of America", "State of New York", "Acme Widgets, Inc.", the
    # Uniform Commercial Code, months and the passage in capitals are not undefined terms
    assert _found(CONTRACT) == []


# -- undefined terms --------------------------------------------------------------------------------------------
def test_the_sss_of_the_issue_is_used_but_never_defined():
    text = CONTRACT.replace("4. Confidentiality", "3.2 Distributor shall maintain the SSS at its own cost. Supplier may "
                            "audit such SSS at any time.\n\n4. Confidentiality")
    assert _found(text) == [("undefined_term", "SSS", "'SSS' is used in §3.2 but never defined")]


def test_an_acronym_explained_in_brackets_or_well_known_is_not_reported():
    text = CONTRACT.replace("4. Confidentiality", "3.2 Distributor shall maintain its sales support system (SSS) and "
                            "shall file with the FDA. Supplier may audit such SSS at any time, and the FDA may too.\n\n"
                            "4. Confidentiality")
    assert _found(text) == []


def test_a_capitalised_phrase_used_as_a_defined_term_but_never_defined():
    text = CONTRACT.replace("6. General", "5.2 Distributor shall follow the Launch Plan. When the Launch Plan ends, "
                            "Supplier may appoint other distributors.\n\n6. General")
    assert _found(text) == [("undefined_term", "Launch Plan", "'Launch Plan' is used in §5.2 but never defined")]


def test_a_phrase_used_once_or_defined_elsewhere_or_by_another_agreement_is_not_reported():
    once = CONTRACT.replace("6.2 This Agreement", "6.3 Distributor shall follow the Brand Guidelines.\n\n6.2 This Agreement")
    assert _found(once) == []  # one use is too little evidence
    explained = CONTRACT.replace("6.2 This Agreement", "6.3 Distributor shall follow the Brand Guidelines (as defined in "
                                 "the Trademark Licence) and keep the Brand Guidelines at hand.\n\n6.2 This Agreement")
    assert _found(explained) == []
    incorporated = CONTRACT.replace("1. Definitions\n", "1. Definitions\n\nCapitalized terms used but not defined herein "
                                    "have the meanings given in the Master Supply Agreement.\n") + (
        "\n6.3 Distributor shall follow the Brand Guidelines and keep the Brand Guidelines at hand.\n")
    assert _found(incorporated) == []


def test_a_party_of_an_instrument_that_borrows_its_terms_is_still_its_own():
    # c0210, c0265: an amendment takes its terms from the agreement it amends, but not its parties' names
    incorporates = "1. Definitions\n\nCapitalized terms used but not defined herein have the meanings given in the " \
                   "Master Supply Agreement.\n"
    recital = "WHEREAS, Supplier wishes to appoint Distributor to resell the Products.\n\n"
    text = CONTRACT.replace("1. Definitions\n", recital + incorporates).replace(' ("Distributor")', "")
    assert ("undefined_term", "Distributor", "'Distributor' is used in the opening paragraphs but never defined") in (
        _found(text))
    customer = text.replace("6. General", "5.2 The Customer shall pay. The Customer shall report. Supplier may audit "
                            "the Customer, and the Customer shall cooperate.\n\n6. General")
    assert "Customer" not in _undefined(customer)  # not named in the opening: perhaps the Master Agreement's term


def test_a_quoted_sentence_defines_nothing():
    # c0130: '"the Licensee exercises its option under clause 10.4.1 of the Licence Agreement"' is an amendment's
    # new wording, not a definition of "… Licence Agreement"
    text = CONTRACT.replace("6. General", '5.2 Clause 4 is replaced by: "the Distributor follows the rules of the '
                            'Launch Plan". Distributor shall follow the Launch Plan, and the Launch Plan binds it.\n\n'
                            "6. General")
    assert _undefined(text) == ["Launch Plan"]


def test_a_plural_term_whose_singular_is_written_in_lower_case():
    # c0244: "all Codes", "the Codes" (five times), where "code" is also an ordinary word
    text = CONTRACT.replace("6. General", "5.2 Distributor shall deposit the Codes and all updates of the code. "
                            "Supplier may audit the Codes, the Codes shall be kept safe, such Codes are "
                            "confidential, and the Codes remain Supplier's.\n\n6. General")
    assert _undefined(text) == ["Codes"]


def test_sentence_openers_headings_and_institutions_are_not_undefined_terms():
    text = CONTRACT.replace("6.2 This Agreement", "6.3 Compliance. Each party shall comply with the rules of the "
                            "Federal Trade Commission and the Securities Exchange Act of 1934. Notices go to the "
                            "Chief Executive Officer of the Supplier, who reports to the Board of Directors.\n\n"
                            "6.2 This Agreement")
    assert _found(text) == []


# Capitalised words that are not this contract's terms, each from a CUAD training contract (the rules were tuned on
# train; dev is where they are measured), each used often enough to be reported if it were read as a term.
@pytest.mark.parametrize(("clause", "phrase"), [
    # c0087: an acronym's words, the acronym defined
    ('5.2 "CTA" means a Clinical Trial Application or an equivalent application for a clinical trial. Distributor '
     "shall file the Clinical Trial Application and keep such Clinical Trial Application current.",
     "Clinical Trial Application"),
    # c0241: captions without their full stop
    ("5.2 No Other Rights; Other Limitations. Except as granted here, nothing passes.\n\n5.3 No Other Rights; "
     "No Waiver. Nothing else is granted by either party.", "Other Rights"),
    # c0087, c0287: a body of rules, a convention, a standard
    ("5.2 All disputes shall be settled under the Rules of Arbitration of the ICC, and the Rules of Arbitration "
     "shall govern the appointment of the arbitrators.", "Rules of Arbitration"),
    ("5.2 The goods are not subject to the International Sale of Goods convention of the United Nations, nor to "
     "any international sale rules like the International Sale of Goods convention.", "International Sale of Goods"),
    ("5.2 The Products shall meet the General Product Standards, and such General Product Standards may change "
     "from time to time, as product standards in general do.", "General Product Standards"),
    # c0075: another instrument of the same deal, named twice
    ("5.2 The licence of the marks shall be set forth in the Trademark Licence Agreement, and the Trademark "
     "Licence Agreement prevails.", "Trademark Licence Agreement"),
])
def test_capitalised_words_that_are_not_this_contracts_terms(clause, phrase):
    assert phrase in clause
    assert _undefined(CONTRACT.replace("6. General", f"{clause}\n\n6. General")) == []


def test_one_use_of_a_term_contracts_commonly_define_is_enough():
    # c0172, c0351: "commence on the Effective Date", "is not a Business Day", each used once and defined nowhere
    text = CONTRACT.replace("6. General", "5.2 This Agreement commences on the Effective Date.\n\n6. General")
    assert _found(text) == [("undefined_term", "Effective Date", "'Effective Date' is used in §5.2 but never defined")]
    other = CONTRACT.replace("6. General", "5.2 This Agreement commences on the Launch Plan.\n\n6. General")
    assert _undefined(other) == []  # one use of a phrase contracts do not commonly define: too little evidence


def test_a_title_used_as_a_term_three_times_is_one():
    thrice = "5.2 The supply of goods follows the Supply Agreement. Supplier may audit the Supply Agreement and " \
             "such Supply Agreement at any time.\n\n6. General"
    assert _undefined(CONTRACT.replace("6. General", thrice)) == ["Supply Agreement"]


# -- deleting a definition that is used: the injected defect -----------------------------------------------------
@pytest.mark.parametrize(("definition", "term", "where"), [
    ('1.4 "Marketing Plan" means the annual plan for promoting the Products in the Territory.\n', "Marketing Plan", "§2.2"),
    ('1.2 "Territory" means the United States of America.\n', "Territory", "§1.4"),
    ('1.3 "Confidential Information" means all non-public information disclosed by a party under this Agreement.\n',
     "Confidential Information", "§4.1"),
])
def test_deleting_a_used_definition_leaves_its_term_undefined(definition, term, where):
    assert definition in CONTRACT
    found = _found(CONTRACT.replace(definition, ""))
    assert ("undefined_term", term, f"'{term}' is used in {where} but never defined") in found


def test_deleting_a_party_definition_leaves_its_name_undefined():
    found = _found(CONTRACT.replace(' ("Distributor")', ""))
    assert ("undefined_term", "Distributor", "'Distributor' is used in §2.1 but never defined") in found


# -- defined but never used -------------------------------------------------------------------------------------
def test_a_definition_never_used_again():
    text = CONTRACT.replace("1.4 ", '1.5 "Business Day" means a day on which banks are open in New York.\n\n1.4 ')
    assert _found(text) == [("unused_definition", "Business Day", "'Business Day' is defined in §1.5 but never used")]


def test_a_definition_used_in_another_form_is_used():
    # "Products" used only as "Product", "Territory" only as "Territory-wide": both are uses
    text = (CONTRACT.replace("of the Products in the Territory.", "of each Product on a Territory-wide basis.")
            .replace("promote the Products in accordance", "promote each Product in accordance")
            .replace("shall not sell the Products outside the Territory", "shall not sell any Product elsewhere")
            .replace("for promoting the Products in the Territory", "for promoting each Product Territory-wide")
            .replace("every sale of Products under it", "every sale under it"))
    assert _found(text) == []


# -- defined twice with different meanings ---------------------------------------------------------------------
def test_a_term_defined_again_with_another_meaning():
    text = CONTRACT.replace("6. General", '5.2 Distributor may also sell the Products in Canada (the "Territory").\n\n'
                            "6. General")
    assert _found(text) == [("conflicting_definition", "Territory",
                             "'Territory' is defined in §1.2 and again, differently, in §5.2")]


def test_a_pointer_to_the_definition_or_an_alias_is_no_conflict():
    text = (CONTRACT.replace('"Products" means', '"Product" or "Products" means')
            .replace("1.4 ", '1.5 "Effective Date" has the meaning given in the preamble.\n\n1.4 ')
            .replace("is made on 1 March 2021", 'is made on 1 March 2021 (the "Effective Date")')
            .replace("continues for three (3) years.", "continues for three (3) years from the Effective Date."))
    assert _found(text) == []


# -- the same term in the other case ----------------------------------------------------------------------------
def test_a_defined_term_written_in_the_other_case():
    text = CONTRACT.replace("use such Confidential Information only", "use such Confidential information only")
    assert _found(text) == [("term_case", "Confidential information",
                             "'Confidential information' in §4.1 should read 'Confidential Information', as defined in §1.3")]


def test_a_letter_that_lowers_to_two_keeps_the_places_right():
    # "İ" lowers to "i̇", two characters: found in a lower-cased copy, a place must still be the text's
    text = CONTRACT.replace("6. General", "5.2 Distributor's İstanbul office keeps the Confidential information of "
                            "Supplier.\n\n6. General")
    assert [(f.kind, f.quote) for f in _check(text) if f.kind == "term_case"] == [
        ("term_case", "Confidential information")]


def test_plain_lower_case_capitals_or_a_slip_in_of_are_not_case_errors():
    text = (CONTRACT.replace("3. Marketing", "3. MARKETING PLAN")
            .replace("keep the Confidential Information", "keep the confidential information")
            .replace("1.4 ", '1.5 "Right of First Refusal" means the right in Section 5.\n\n1.4 ')
            .replace("on ninety (90) days' notice", "on ninety (90) days' notice, subject to the Right Of First Refusal"))
    assert _found(text) == []


# -- one party, two names ---------------------------------------------------------------------------------------
def test_the_distributor_later_called_the_reseller():
    text = CONTRACT.replace("6. General", "5.2 The Reseller shall keep records. The Reseller shall report monthly, and "
                            "the Reseller shall allow audits. Supplier may inspect the Reseller at any time.\n\n6. General")
    assert _found(text) == [("party_names", "Reseller", "'Reseller' in §5.2 seems to name the party defined as "
                             "'Distributor' in the opening paragraphs: one party, two names")]


def test_a_second_name_for_a_party_is_reported_where_terms_come_from_another_document():
    # c0092 (train): "Contractor" defined in the preamble, "Consultant" used four times; with an incorporation clause
    incorporates = "1. Definitions\n\nCapitalized terms used but not defined herein have the meanings given in the " \
                   "Master Supply Agreement.\n"
    text = CONTRACT.replace("1. Definitions\n", incorporates).replace("6. General", "5.2 The Reseller shall keep "
                            "records. The Reseller shall report monthly, and the Reseller shall allow audits. Supplier "
                            "may inspect the Reseller at any time.\n\n6. General")
    assert [(f.kind, f.quote) for f in _check(text)] == [("party_names", "Reseller")]


def test_another_role_word_used_once_is_not_a_second_name():
    text = CONTRACT.replace("6. General", "5.2 The Reseller shall keep records.\n\n6. General")
    assert _found(text) == []


# -- every WRONG of the second rating round (docs/review-ratings/hygiene-round2-terms.json), its clause quoted ---------
_GENERAL = "6. General"
ROUND2_WRONG = [
    # c0268: "Technical Know-How" defined, "Technical Know How" used
    ('1.5 "Technical Know-How" shall mean the technical information Supplier supplies.\n\n' + _GENERAL,
     "5.2 The JVC will have a right to continue to use the Technical Know How already received and absorbed, and "
     "the Technical Know How stays Supplier's.", "undefined_term", "Technical Know How"),
    # c0094: 'the Warranty period defined in Article 8.3'
    ('1.5 The warranty obligations extend for a period (the "Warranty period") of one year.\n\n' + _GENERAL,
     "5.2 On the date of expiry of the Warranty period defined in Article 8.3, and on any anniversary of the expiry "
     "date, the Distributor may pay for support during the Warranty period.", "undefined_term", "Warranty"),
    # c0295: '(the "End-Users")' defined, "End User" used
    ('1.5 Distributor resells to its customers (the "End-Users").\n\n' + _GENERAL,
     "5.2 Distributor indemnifies Supplier for any breach by the Distributor of any End User or other agreement, "
     "and for the End User claims it settles.", "undefined_term", "End User"),
    # c0221: identified by an exhibit
    (_GENERAL, "5.2 The rights granted herein include the limited license to use the Trademarks of the Supplier (the "
     "details of which are morefully set out in Exhibit A). Distributor shall use the Trademarks only in the "
     "Territory, and such Trademarks remain Supplier's.", "undefined_term", "Trademarks"),
    # c0094: 'as identified in Exhibit E'
    (_GENERAL, "5.2 Two (2) computers, as identified in Exhibit E, may be used as the Development Computer and Back-up "
     "Computer. The Back-up Computer may be used as the Development Computer during any time when the Development "
     "Computer is unavailable.", "undefined_term", "Development Computer"),
    # c0062: '("Force Majeure Event")' defined, 'the Force Majeure event' used
    ('1.5 An event beyond a party\'s control is a "Force Majeure Event".\n\n' + _GENERAL,
     "5.2 The affected party shall suspend performance only as is necessary as a result of the Force Majeure event, "
     "and shall resume it when the Force Majeure event ends.", "undefined_term", "Force Majeure"),
    # c0011: defined "-ized", used "-ised"
    ('1.5 "Terminated Commercialized Product" means a Product whose sale has ended.\n\n' + _GENERAL,
     "5.2 The parties will explore the continued sale of such Terminated Commercialised Product, and the "
     "Terminated Commercialised Product may be sold off.", "undefined_term", "Terminated Commercialised Product"),
    # c0060: terms taken from another agreement
    ("1.5 For purposes of this Agreement, all capitalized terms shall have the meaning ascribed to them as set forth in "
     "the Asset Purchase Agreement.\n\n" + _GENERAL,
     "5.2 No Transferred Patent is jointly owned by Supplier and any other Person, and the SRAM Intellectual Property "
     "and such SRAM Intellectual Property stay Supplier's.", "undefined_term", "SRAM Intellectual Property"),
    # c0440: the same, from "the Offer"
    ("1.5 Each term used and not otherwise defined herein shall have the meaning assigned to such term in the "
     "Offer.\n\n" + _GENERAL, "5.2 Every decision needs both parties until the Acceptance Time, and after the "
     "Acceptance Time the Distributor decides alone, at any time.", "undefined_term", "Acceptance Time"),
    # c0062: defined in place by its annex
    (_GENERAL, "5.2 Supplier's Products and Services The Modules offered by Supplier are set out in Annex I.\n\n5.3 "
     "Distributor shall store the Modules, insure the Modules, label the Modules, ship the Modules, resell the "
     "Modules and return such Modules, each module tested.", "undefined_term", "Modules"),
    # c0308: a pointer to a section the filing redacted
    ('1.5 "Supply Failure Remedy Option" has the meaning specified in Section 5.3(b);\n\n' + _GENERAL,
     "5.3 [***]", "unused_definition", "Supply Failure Remedy Option"),
    # c0308: a publication's title in brackets
    (_GENERAL, "5.2 Supply ends once the Product is placed on the Discontinued Drug Product List of the FDA Orange Book "
     'publication ("Approved Drug Products with Therapeutic Equivalence Evaluations").', "unused_definition",
     "Approved Drug Products with Therapeutic Equivalence Evaluations"),
    # c0322: words to display, not a definition
    (_GENERAL, "5.2 The identification shall be in a form which specifies the Distributor's name, followed by the term "
     '"Independent Franchise Owner" or such other identification as Supplier approves.', "unused_definition",
     "Independent Franchise Owner"),
    # c0130: used in a shorter form
    ('1.5 "Full Verification Service" means the bespoke tests agreed for the verification of the Products.\n\n'
     + _GENERAL, "5.2 The Distributor shall be entitled to require that Supplier carries out a Full Verification.",
     "unused_definition", "Full Verification Service"),
]


# -- every WRONG of the third round (docs/review-ratings/hygiene-round3-terms.json), its clause quoted ------------------
ROUND3_WRONG = [
    # c0244: '(g) Person includes an individual, corporation, …'
    ("1.5 Person includes an individual, corporation, partnership or trust.\n\n" + _GENERAL,
     "5.2 Distributor shall not assign this Agreement to any Person, nor transfer the Products to such Person or to "
     "another Person, except with consent.", "undefined_term", "Person"),
    # c0215: an index entry pointing to its clause
    ("1.5 Term has the meaning set out in Clause 3.1;\n\n" + _GENERAL,
     "5.2 Distributor shall report during the Term, the Term may be extended, and such Term ends on notice.",
     "undefined_term", "Term"),
    # c0154: "Client's Sponsor Graphics" for the defined "Sponsor Client Graphic"
    ('1.5 "Sponsor Distributor Graphic" means a graphic naming Distributor as a sponsor.\n\n' + _GENERAL,
     "5.2 Supplier will show the banner impressions of Distributor's Sponsor Graphics on its pages each month, and "
     "Distributor's Sponsor Graphics shall be rotated among the pages it names in the order form.", "undefined_term",
     "Sponsor Graphics"),
    # c0124: the defined "Change of Control Event" without its last word
    ('1.5 A change in who controls a party is a "Change of Control Event".\n\n' + _GENERAL,
     "5.2 If a party undergoes a Change of Control Event, the other party may terminate this Agreement on notice to "
     "the party undergoing the Change of Control, and the Change of Control ends the licence.", "undefined_term",
     "Change of Control"),
    # c0411: another name of a named institution
    (_GENERAL, "5.2 Distributor shall not use the name of The Johns Hopkins University or the Johns Hopkins Health "
     "System, nor the name of the Johns Hopkins Health System's hospitals.", "undefined_term",
     "Johns Hopkins Health System"),
    # c0244: an attachment's title
    ('1.5 The following Schedules form part of this Agreement:\n\nSchedule "A": Fee Schedule.\n\n' + _GENERAL,
     "5.2 Fees for other locations are payable in accordance with the Fee Schedule, and the Fee Schedule may change.",
     "undefined_term", "Fee Schedule"),
    # c0125: a committee formed where it is named
    (_GENERAL, "5.2 The parties shall form a Steering Committee of senior staff. The Steering Committee shall meet "
     "quarterly, and the Steering Committee decides by consensus.", "undefined_term", "Steering Committee"),
    # c0156: 'The Term of this Agreement shall be for the Contract Period'
    (_GENERAL, "5.2 Duration. The Term of this Agreement shall be for three years unless extended, the Term ends on "
     "notice, and such Term may be renewed.", "undefined_term", "Term"),
    # c0292: 'The Message Manager is a tool used to …'
    (_GENERAL, "5.2 Message Manager The Message Manager is a tool used to collect incoming messages. Distributor shall "
     "support the Message Manager and such Message Manager updates.", "undefined_term", "Message Manager"),
    # c0016: quoted where it is used, before its definition
    ('5.3 An "Ownership Change Event" means the acquisition of half of Distributor\'s shares.\n\n' + _GENERAL,
     '5.2 Supplier may terminate this Agreement if one of the following competitors does an "Ownership Change '
     'Event": Lycos, Yahoo or AOL.', "unused_definition", "Ownership Change Event"),
    # c0440: 'against any Non- Recourse Party', the hyphen broken at a line end
    (_GENERAL, '5.2 No claim lies against any officer or agent of a party (collectively, "Non-Recourse Parties"), and '
     "no claim lies against any Non- Recourse Party.", "unused_definition", "Non-Recourse Parties"),
]


# -- every WRONG of the fourth round (docs/review-ratings/hygiene-round4-terms.json), its clause quoted -----------------
ROUND4_WRONG = [
    # c0011: '"Major Market Country" means each of the United States, Canada, Japan …', "other Major Markets"
    ('1.5 "Major Market Country" means each of the United States, Canada and Japan.\n\n' + _GENERAL,
     "5.2 The objective is approval in the US and other Major Markets, then in such Major Markets as the parties pick, "
     "and in any other market later.",
     "undefined_term", "Major Markets"),
    # c0045: "Net Revenue is defined on Exhibit A"
    ("1.5 Net Revenue is defined on Exhibit A.\n\n" + _GENERAL, "5.2 The prices follow the Net Revenue of the period, "
     "and the Net Revenue is reported monthly.", "undefined_term", "Net Revenue"),
    # c0391: "The amount of the Exit Fee … shall be defined as the following"
    ("1.5 The amount of the Exit Fee payable by Distributor shall be defined as the following sum.\n\n" + _GENERAL,
     "5.2 In addition to the Exit Fee, Distributor pays its expenses, and the Exit Fee is due on exit.",
     "undefined_term", "Exit Fee"),
    # c0395: "the Third Party specified in paragraph 2 below"
    (_GENERAL, "5.2 Distributor may supply the products to the Third Party specified in paragraph 2 below only, and "
     "the Third Party pays for them.", "undefined_term", "Third Party"),
    # c0094: "this LICENSEE's Customer Agreement", a form naming itself
    (_GENERAL, "5.2 The end user protects the rights in the software as set forth in this Licensee's Customer "
     "Agreement, and the Customer Agreement governs every customer copy, and the Customer Agreement binds it.",
     "undefined_term", "Customer Agreement"),
    # c0351: "the business day hereof shall mean the work day other than public holidays"
    ("1.5 The business day hereof shall mean the work day other than public holidays.\n\n" + _GENERAL,
     "5.2 A notice sent on a day that is not a Business Day arrives on the following Business Day.",
     "undefined_term", "Business Day"),
    # c0125: followed by what the filing redacted
    (_GENERAL, "5.2 Distributor is not required to offer VS Preferred Pricing [***]. The parties agree that the VS "
     "Preferred Pricing [***] applies to all pricing of orders, and the VS Preferred Pricing [***] survives.",
     "undefined_term",
     "VS Preferred Pricing"),
    # c0045: "such Proposed Sale Transaction" for the defined "Sale Transaction"
    ('1.5 "Sale Transaction" means a sale of the business.\n\n' + _GENERAL, "5.2 Supplier shall give notice of any "
     "proposed Sale Transaction, and such Proposed Sale Transaction and the Proposed Sale Transaction need consent.",
     "undefined_term", "Proposed Sale Transaction"),
    # c0053: "AUTOS CHANNEL HOME PAGE" defined, "the Auto Channel Home Page" used
    ('1.5 "AUTOS CHANNEL HOME PAGE" means the web page shown at the site.\n\n' + _GENERAL,
     "5.2 Supplier shall place a link on the Auto Channel Home Page.", "unused_definition", "AUTOS CHANNEL HOME PAGE"),
    # c0035: an acronym naming the securities it follows, a service mark
    (_GENERAL, '5.2 The 4,500,000 Trust Preferred Income Equity Redeemable Securities ("PIERS") are sold by Supplier.',
     "unused_definition", "PIERS"),
]


@pytest.mark.parametrize(("before", "clause", "kind", "quote"), [
    *(pytest.param(*case, id=f"round{n}-{case[3][:30]}") for n, cases in enumerate(
        (ROUND2_WRONG, ROUND3_WRONG, ROUND4_WRONG), start=2) for case in cases)])
def test_what_a_rating_round_rated_wrong_is_not_reported(before, clause, kind, quote):
    text = CONTRACT.replace(_GENERAL, f"{clause}\n\n{before}")
    assert quote in text and (kind, quote) not in {(f.kind, f.quote) for f in _check(text)}


def test_a_description_that_shares_an_acronym_with_a_term_is_no_case_error():
    # c0395: "Section 11.2(a)(ii) (third party IP infringement)" beside the defined "Third Party IP"
    text = CONTRACT.replace(_GENERAL, '5.2 "Third Party IP" means software Supplier licenses from others.\n\n5.3 '
                            "Supplier warrants the Third Party IP. The warranties in Section 4 (third party IP "
                            "infringement) survive.\n\n" + _GENERAL)
    assert [f for f in _check(text) if f.kind == "term_case"] == []
    slip = text.replace("(third party IP infringement)", "(Third party IP)")
    assert [f.quote for f in _check(slip) if f.kind == "term_case"] == ["Third party IP"]


def test_a_shorter_use_of_a_term_with_a_qualifier_is_still_undefined():
    # c0149 (rated USEFUL): '"Gross Margin Per Tablet" means the Gross Margin calculated …', "Gross Margin" undefined
    text = CONTRACT.replace(_GENERAL, '5.2 "Gross Margin Per Tablet" means the Gross Margin calculated under GAAP, '
                            "and the Gross Margin is the gross margin of the Products.\n\n" + _GENERAL)
    assert "Gross Margin" in _undefined(text)


def test_a_term_defined_again_in_an_attached_form_is_no_conflict():
    # c0322: Exhibit G, a form of confidentiality agreement whose "RECITALS" heading (a Word heading) the layout
    # reads as a section of its own, defines "Franchises" for itself
    body = [para(t) for t in CONTRACT.split("\n\n") if t.strip()]
    recital = para('A. Company sells air purifiers (the "Products").')
    exhibit = [para("EXHIBIT G"), para("CONFIDENTIALITY AGREEMENT"), para("This Confidentiality Agreement is made "
               "by the undersigned."), para("RECITALS", "Heading1"), recital]
    graph = ContractGraph.from_paragraphs(read_document(build_docx("".join(body + exhibit)), anchor=True).paragraphs)
    assert [f for f in grounded(terms.check, graph) if f.kind == "conflicting_definition"] == []
    in_body = CONTRACT.replace(_GENERAL, 'A. Company sells air purifiers (the "Products").\n\n' + _GENERAL)
    assert [f.quote for f in _check(in_body) if f.kind == "conflicting_definition"] == ["Products"]
