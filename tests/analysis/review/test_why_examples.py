"""The rest of issue #26's "Why", each example in the contract's own words: the checks a careful reviewer
expects (price-list changes, "AS IS" in its spellings), options that are not renewals, a notices clause
listed in a table of contents, where an inserted clause goes, the clause map's playbook rows and how a
changed quantity is struck. ``test_gate_examples.py`` holds the others."""

from __future__ import annotations

from dataclasses import replace

import pytest

from redline.analysis.cache import MemoryCache
from redline.analysis.clauses import Clause
from redline.analysis.pipeline import review
from redline.analysis.playbook.io import default_playbook
from redline.analysis.providers.offline import OfflineProvider
from redline.clauses import analyse
from redline.ooxml.diff import Hunk, diff_text

DISTRIBUTION = ('This Distribution Agreement is entered into by and between NETGEAR, Inc., a Delaware corporation '
                '("NETGEAR"), and Ingram Micro Inc., a Delaware corporation ("Distributor").')


def _review(paragraphs: list[str], acting_for: str = "", rules: tuple[str, ...] = (),
            headings: dict[int, int] | None = None):
    headings = headings or {}
    clauses = [Clause(f"_RL_{i:04d}", text, heading_level=headings.get(i)) for i, text in enumerate(paragraphs)]
    playbook = default_playbook()
    if rules:
        playbook = replace(playbook, rules=tuple(r for r in playbook.rules if r.key in rules))
    return review(clauses, playbook, OfflineProvider(), cache=MemoryCache(), acting_for=acting_for)


def test_a_price_list_the_supplier_may_change_at_any_time_is_flagged_for_the_distributor():
    # Issue #26: "NETGEAR may modify the Price List at any time" went unflagged.
    clause = ("4.1 Prices. NETGEAR may modify the Price List at any time. Price increases shall apply to orders "
              "received after the effective date of the change.")
    flagged = _review([DISTRIBUTION, clause], acting_for="Distributor", rules=("price-changes",)).suggestions
    assert flagged and all(s.anchor == "_RL_0001" for s in flagged)
    assert any("Price List" in s.quote or "modify" in s.quote for s in flagged), [s.quote for s in flagged]
    # acting for NETGEAR, its own right to change its prices is no edit
    ours = _review([DISTRIBUTION, clause], acting_for="NETGEAR", rules=("price-changes",)).suggestions
    assert not [s for s in ours if s.kind.value != "comment"]


def test_as_is_is_found_in_its_spellings():
    # Issue #26: 'provided " AS IS"' and 'IS FURNISHED "AS IS"' went unflagged.
    for clause in ('THE SOFTWARE IS PROVIDED " AS IS" WITHOUT WARRANTY OF ANY KIND.',
                   'THE PRODUCT IS FURNISHED "AS IS" AND NETGEAR DISCLAIMS ALL OTHER WARRANTIES.'):
        found = _review([DISTRIBUTION, clause], acting_for="Distributor",
                        rules=("warranties-and-disclaimers",)).suggestions
        assert [s for s in found if "AS IS" in s.quote], (clause, [(s.quote, s.comment) for s in found])
        # the supplier's own disclaimer is left alone when we act for the supplier
        assert _review([DISTRIBUTION, clause], acting_for="NETGEAR", rules=("warranties-and-disclaimers",)).suggestions == []


def test_a_board_seat_option_and_a_customers_extension_option_are_not_renewal_terms():
    # Issue #26: "a board-membership option and a customer's extension option were treated as renewal terms".
    board = ("For so long as Customer holds at least five percent (5%) of the shares, Customer shall have the option "
             "to appoint one (1) member of the Board of Directors for a term of three (3) years.")
    extension = ("Customer shall have the option to extend the term of this Agreement for one additional period of "
                 "five (5) years by giving written notice at least twelve (12) months before the end of the term.")
    outsourcing = ('This Agreement is entered into by and between First Bank ("Customer") and M&I Data Services, Inc. '
                   '("M&I").')
    for clause in (board, extension):
        for side in ("Customer", "M&I", ""):
            found = _review([outsourcing, clause], acting_for=side, rules=("auto-renewal",)).suggestions
            assert not [s for s in found if s.kind.value != "comment"], (clause, side, [s.quote for s in found])
            assert not [s for s in found if "renew" in s.comment.lower()], (clause, side, [s.comment for s in found])


def test_a_notices_clause_listed_in_the_table_of_contents_is_not_added_again():
    # Issue #26: a second, conflicting "22.17 Notices" was added to a contract whose "22.6 Notices" is in its
    # table of contents.
    paragraphs = [
        'This Master Agreement is made between Ford Motor Company ("Buyer") and Magna Inc. ("Seller").',
        "TABLE OF CONTENTS", "22.1 Entire Agreement\t40", "22.6 Notices\t41", "22.7 Waiver\t41",
        "22. GENERAL", "22.1 Entire Agreement. This Agreement is the entire agreement of the parties.",
        "22.6 Notices. All notices under this Agreement shall be in writing and delivered by hand or by courier "
        "to the addresses set out in Schedule 4.",
        "22.7 Waiver. No waiver is effective unless in writing.",
        "22.16 Counterparts. This Agreement may be executed in counterparts.",
    ]
    found = _review(paragraphs, acting_for="Buyer", rules=("notices",), headings={5: 1}).suggestions
    assert not [s for s in found if s.source == "missing"], [(s.anchor, s.new_text) for s in found]


C0308_END = [  # the end of c0308's body, its signature-page note, a page number and the SEC legend, then signatures
    'This Agreement is entered into by and between Antares Pharma, Inc. ("Antares") and AMAG Pharmaceuticals, Inc. '
    '("AMAG").',
    "1. SUPPLY. Antares shall supply the Product to AMAG in accordance with the Forecasts.",
    "12. MISCELLANEOUS",
    "12.7 Conflicts. In the event of any conflict between this Agreement and any provision of the Development and "
    "License Agreement, this Agreement shall control and then only to the extent of the inconsistency.",
    "12.8 Jointly Prepared. This Agreement has been prepared jointly by both Parties and shall not be strictly "
    "construed against either Party.",
    "[Signature page follows.]",
    "- 35 -",
    "[***] INDICATES MATERIAL THAT HAS BEEN OMITTED AND FOR WHICH CONFIDENTIAL TREATMENT HAS BEEN REQUESTED. ALL SUCH "
    "OMITTED MATERIAL HAS BEEN FILED WITH THE SECURITIES AND EXCHANGE COMMISSION PURSUANT TO RULE 24b-2 PROMULGATED "
    "UNDER THE SECURITIES EXCHANGE ACT OF 1934, AS AMENDED.",
    "IN WITNESS WHEREOF, the Parties have executed this Agreement as of the Effective Date.",
    "ANTARES PHARMA, INC. By: Name: Title: AMAG PHARMACEUTICALS, INC. By: Name: Title:",
]
C0186_END = [  # c0186: the note in parentheses, a page number, and signatures introduced by "Agreed to and executed"
    'This Supply Agreement is entered into by and between Fonterra (USA) Inc. ("Fonterra") and Premier Nutrition '
    'Company, LLC ("Premier").',
    "1. Supply. Fonterra shall supply the Products to Premier against Purchase Orders.",
    "16. General. This Agreement may not be amended or modified except by a writing signed by an authorized "
    "representative of the Party against whom such amendment or modification is asserted. This Agreement will be "
    "binding upon, and will inure to the benefit of, the parties, their successors and permitted assigns.",
    "(signature page follows)",
    "11",
    "Agreed to and executed effective as of the date first above written.",
    "Fonterra (USA) Inc. Premier Nutrition Company, LLC",
    "By: [***] By: /s/ Paul Rode Title: President Title: CFO",
]

C0279_END = [  # c0279: the note run into the last clause, then a page number before the witness line
    'This Services Agreement is entered into by and between Ginkgo Bioworks, Inc. ("Provider") and Zymergen Inc. '
    '("Recipient").',
    "1. Services. Provider shall perform the Services described in Exhibit A.",
    "7. MISCELLANEOUS",
    "7.8 Incorporation of Exhibits and Disclosure Schedule. The Exhibit identified in this Agreement is incorporated "
    "herein by reference and made a part hereof.",
    "7.9 Amendment and Restatement. This Agreement amends and restates in full the Production Contract. "
    "[SIGNATURE PAGE FOLLOWS]",
    "9",
    "IN WITNESS WHEREOF, the Parties have executed this Services Agreement as of the date first written above. "
    "PROVIDER: RECIPIENT: [ * * * ] [ * * * ] By: By: Name: Name: Title: Title:",
]


@pytest.mark.parametrize("paragraphs,side", [(C0308_END, "AMAG"), (C0186_END, "Premier"), (C0279_END, "Recipient")],
                         ids=["c0308", "c0186", "c0279"])
def test_an_inserted_clause_goes_before_signature_page_follows_and_a_redaction_legend(paragraphs, side):
    # Issue #26: inserted clauses landed after "[Signature Page Follows]" in two of six contracts, and one after an
    # SEC redaction legend outside the last section.
    found = _review(paragraphs, acting_for=side, rules=("governing-law", "termination-for-cause")).suggestions
    missing = [s for s in found if s.source == "missing"]
    assert {s.rule_key for s in missing} == {"governing-law", "termination-for-cause"}
    note = next(i for i, t in enumerate(paragraphs) if "signature page follows" in t.lower())  # run in, or alone
    body = {f"_RL_{i:04d}" for i in range(1, note)}
    assert all(s.anchor in body for s in missing), [(s.rule_key, s.anchor) for s in missing]


def test_the_playbook_rows_of_the_clause_map_see_termination_for_breach_warranties_and_prices():
    # Issue #26: the overview said "termination: absent", "warranties: absent" and "payment terms: absent" for a
    # contract with a termination-for-breach section, a warranty section and §4 "PRICES, PRICE LIST, TAXES AND
    # PAYMENT".
    paragraphs = [
        DISTRIBUTION,
        "4. PRICES, PRICE LIST, TAXES AND PAYMENT",
        "4.1 Distributor shall pay NETGEAR the prices in the Price List. Payment is due net thirty (30) days from "
        "the date of invoice. Prices exclude sales taxes, which Distributor shall pay.",
        "9. WARRANTY",
        "9.1 NETGEAR warrants to Distributor that the Products will be free from defects in materials and "
        "workmanship for a period of one (1) year from shipment.",
        "12. TERMINATION",
        "12.1 Either party may terminate this Agreement if the other party materially breaches it and fails to cure "
        "the breach within thirty (30) days after written notice.",
    ]
    report = analyse([Clause(f"_RL_{i}", t, heading_level=1 if t[:2].strip(".").isdigit() and t.isupper() else None)
                      for i, t in enumerate(paragraphs)])
    for category in ("termination", "warranties", "payment_terms"):
        assert report.playbook[category].present, (category, report.playbook[category].probability)


def test_a_changed_quantity_is_struck_and_replaced_whole():
    # Issue #26: "~~one~~twelve (~~1~~12) ~~year~~months" and "~~ninety~~thirty (~~90~~30)".
    assert diff_text("within one (1) year of delivery", "within two (2) years of delivery") == \
        [Hunk(7, 19, "two (2) years")]
    assert diff_text("upon ninety (90) days notice", "upon thirty (30) days notice") == [Hunk(5, 16, "thirty (30)")]
