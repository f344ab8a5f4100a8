"""Examples of issue #26's "Why" and every suggestion a reviewer rated WRONG on the dev contracts
(docs/review-ratings/), as regression tests quoting the contract's own clause.

Run against the review before the gate (08e8efd, with the side dropped since it had none), 25 of these 28 fail.
The other three pass there too: the c0349 cure period is the positive case (an edit that must still be made),
and two edits in one paragraph and the months that price a termination fee were already handled in the shapes
written here."""

from __future__ import annotations

import pytest

from redline.analysis.cache import MemoryCache
from redline.analysis.clauses import Clause
from redline.analysis.pipeline import ReviewError, review
from redline.analysis.playbook.io import default_playbook
from redline.analysis.providers.offline import OfflineProvider


def _review(paragraphs: list[str], acting_for: str = "", rules: tuple[str, ...] = ()):
    clauses = [Clause(f"_RL_{i:04d}", text) for i, text in enumerate(paragraphs)]
    playbook = default_playbook()
    if rules:
        from dataclasses import replace
        playbook = replace(playbook, rules=tuple(r for r in playbook.rules if r.key in rules))
    return review(clauses, playbook, OfflineProvider(), cache=MemoryCache(), acting_for=acting_for)


def _preamble(a: str, role_a: str, b: str, role_b: str) -> str:
    return (f'This Agreement is entered into by and between {a}, a Delaware corporation ("{role_a}"), and {b}, '
            f'a California corporation ("{role_b}").')


LICENCE = _preamble("Acme Software, Inc.", "Licensor", "Beta Corp.", "Licensee")
DISTRIBUTION = _preamble("Delteq Pte Ltd", "Distributor", "IMRS Operations Inc.", "Developer")


def test_a_termination_for_convenience_notice_is_not_a_renewal_notice():
    # Issue #26: the auto-renewal rule changed this ninety-day termination notice to thirty days.
    result = _review([LICENCE, "Either party may terminate this Agreement without cause upon ninety (90) days "
                               "written notice to the other party."], acting_for="Licensee", rules=("auto-renewal",))
    assert result.suggestions == []


def test_a_non_compete_period_is_not_confidentiality_survival():
    # Issue #26 and c0295 §4.4, under the confidentiality article: the survival rule lengthened this non-compete
    # from two to three years, the validator said "pass 90%", and preferences then learned it.
    clauses = [Clause("_RL_0000", DISTRIBUTION), Clause("_RL_0001", "ARTICLE 4 CONFIDENTIALITY", heading_level=1),
               Clause("_RL_0002", "4.4 Covenant Not to Compete. During the term of this Agreement and for a period of "
                                  "two (2) years after the termination hereof for any reason, Distributor will not "
                                  "market, or attempt to market, a computer program which competes in any way with "
                                  "the Products.")]
    playbook = default_playbook()
    from dataclasses import replace
    playbook = replace(playbook, rules=(playbook.rule("confidentiality"),))
    result = review(clauses, playbook, OfflineProvider(), cache=MemoryCache(), acting_for="Distributor")
    assert not [s for s in result.suggestions if s.quote.startswith("two (2) years")]


def test_one_year_meets_a_twelve_month_maximum():
    # Issue #26: "one (1) year" was "longer than the playbook maximum of 12 months" and became "twelve (12) months".
    text = ("Licensee shall not solicit any employee of Licensor during the term and for one (1) year thereafter.")
    result = _review([LICENCE, text], acting_for="Licensee", rules=("non-solicitation",))
    assert not [s for s in result.suggestions if "one (1) year" in s.quote]


def test_a_right_either_party_holds_is_not_one_sided_discretion():
    # Issue #26: "either party may, in its sole discretion, terminate" was rewritten as a one-sided discretion.
    text = "Either party may, in its sole discretion, terminate this Agreement upon thirty (30) days notice."
    result = _review([LICENCE, text], acting_for="Licensee", rules=("unilateral-discretion",))
    assert result.suggestions == []


def test_without_a_side_a_one_sided_right_is_a_question_not_an_edit():
    text = "Licensor may, in its sole discretion, modify the Products at any time."
    result = _review([LICENCE, text], rules=("unilateral-discretion",))
    assert [s.kind.value for s in result.suggestions] == ["comment"]
    assert "Which party do you act for?" in result.suggestions[0].comment


def test_our_clients_own_discretion_is_left_alone_and_the_other_sides_is_edited():
    text = "Licensor may, in its sole discretion, modify the Products at any time."
    assert _review([LICENCE, text], acting_for="Licensor", rules=("unilateral-discretion",)).suggestions == []
    edit = _review([LICENCE, text], acting_for="Licensee", rules=("unilateral-discretion",)).suggestions
    assert [(s.kind.value, s.quote, s.new_text) for s in edit] == [
        ("replace", "in its sole discretion", "acting reasonably and in good faith")]


def test_c0016_our_clients_twelve_hour_cure_right_is_not_lengthened():
    # c0016 (acting for theglobe), rated WRONG: "Any nonconformance … shall permit theglobe to terminate
    # immediately if the breach is not cured within 12 hours" was pushed to 30 days, weakening our own remedy.
    preamble = ('This Co-Branding Agreement is entered into by and between theglobe.com, Inc., with its principal '
                'place of business in New York ("theglobe"), and The Boxlot Company, with its principal place of '
                'business in San Diego ("Boxlot").')
    text = ("Any nonconformance with the terms of the frequency/quantity columns of Exhibit A shall permit theglobe to "
            "terminate immediately if the breach is not cured within 12 hours.")
    result = _review([preamble, text], acting_for="theglobe", rules=("termination-for-cause",))
    assert not [s for s in result.suggestions if s.quote == "12 hours"]


def test_c0349_a_short_cure_period_for_our_client_is_lengthened():
    # c0349 (acting for Customer), rated USEFUL: seven business days to cure non-payment.
    preamble = ('Under this e-business Hosting Agreement between International Business Machines Corporation ("IBM") '
                'and Bluefly, Inc. ("Customer"), IBM will provide Web hosting services to Customer.')
    text = ("Customer or IBM may terminate this Agreement if the other party materially breaches it. The breaching "
            "party will have thirty (30) days from receipt of notice to cure such breach, except for nonpayment by "
            "Customer, which must be cured within seven (7) business days from receipt of notice.")
    result = _review([preamble, text], acting_for="Customer", rules=("termination-for-cause",))
    assert [(s.quote, s.new_text) for s in result.suggestions if s.kind.value == "replace"] == [
        ("seven (7) business days", "thirty (30) days")]


def test_c0104_and_c0349_a_right_given_to_both_parties_is_not_made_mutual():
    # c0104, rated WRONG: "The Company or the Contractor may terminate this Agreement without cause" became
    # "The Company or either party may terminate"; c0349: "Customer or IBM may terminate" called one-sided.
    preamble = _preamble("Acme Holdings, Inc.", "Company", "Web Works LLC", "Contractor")
    text = ("The Company or the Contractor may terminate this Agreement without cause upon sixty (60) days "
            "written notice.")
    result = _review([preamble, text], acting_for="Company", rules=("termination-for-convenience",))
    assert not [s for s in result.suggestions if s.kind.value == "replace"]


def test_c0145_an_exclusion_written_for_both_elsewhere_is_not_one_sided():
    # c0145 (acting for Magenta), rated WRONG: §5.4 "In no event shall Bachem be liable" made "either Party"
    # although §11.3 already says neither party shall be liable for consequential loss.
    preamble = _preamble("Magenta Therapeutics, Inc.", "Magenta", "Bachem Americas, Inc.", "Bachem")
    result = _review([preamble,
                      "In no event shall Bachem be liable for defects that could not have been detected at the date "
                      "of product release.",
                      "Neither Party shall be liable to the other for any indirect, incidental or consequential "
                      "damages."], acting_for="Magenta", rules=("limitation-of-liability",))
    assert not [s for s in result.suggestions if s.kind.value == "replace"]


def test_c0094_disclaiming_implied_warranties_beside_express_ones_is_no_finding():
    # c0094, rated WRONG: "D2 SPECIFICALLY DISCLAIMS ALL WARRANTIES OF MERCHANTABILITY AND FITNESS" called
    # "All warranties are disclaimed" although §8.1-8.3 give express warranties.
    preamble = _preamble("D2 Technologies, Inc.", "D2", "Summa Four Inc.", "LICENSEE")
    text = ("EXCEPT AS SET FORTH IN THIS ARTICLE 8, D2 SPECIFICALLY DISCLAIMS ALL WARRANTIES OF MERCHANTABILITY AND "
            "FITNESS FOR A PARTICULAR PURPOSE IN CONNECTION WITH THE LICENSED TECHNOLOGY.")
    result = _review([preamble, text], acting_for="LICENSEE", rules=("warranties-and-disclaimers",))
    assert result.suggestions == []


def test_c0016_a_forum_clause_naming_a_court_is_a_jurisdiction_clause():
    # c0016, rated WRONG: "no jurisdiction clause" beside "submit to the jurisdiction of a court in New York City".
    preamble = _preamble("Acme Software, Inc.", "Licensor", "Beta Corp.", "Licensee")
    result = _review([preamble, "1. Grant. Licensor grants Licensee a licence to use the Software.",
                      "12.2 Each party consents to be sued in a court in New York City, NY."],
                     acting_for="Licensee", rules=("jurisdiction",))
    assert not [s for s in result.suggestions if s.source == "missing"]


def test_c0175_and_c0295_renewal_terms_are_not_cut_against_our_client():
    # c0175 (the Customer's ten-year exclusive renewals) and c0295 (the exclusive Distributor's two-year
    # renewal terms), rated WRONG: the renewal term was pushed down to twelve months.
    text = ("This Agreement will automatically renew for successive renewal terms of two (2) years each unless "
            "either party gives notice of non-renewal.")
    result = _review([DISTRIBUTION, text], acting_for="Distributor", rules=("auto-renewal",))
    assert not [s for s in result.suggestions if "two (2) year" in s.quote]


def test_missing_data_protection_is_not_claimed_in_a_contract_without_personal_data():
    # Issue #26: GDPR-style terms inserted into a vehicle supply contract and an endorsement deal.
    result = _review([_preamble("Acme Motors, Inc.", "Buyer", "Parts Co.", "Seller"),
                      "1. Supply. Seller shall manufacture and supply the vehicles described in Schedule A."],
                     acting_for="Buyer", rules=("data-protection",))
    assert result.suggestions == []


def test_a_force_majeure_clause_in_other_words_is_not_missing():
    # Issue #26: a comment on "… or other causes beyond its control" and a second force majeure clause below it.
    result = _review([LICENCE, "Neither party shall be liable for delays caused by fire, flood or other causes "
                               "beyond its control."], acting_for="Licensee", rules=("force-majeure",))
    assert not [s for s in result.suggestions if s.source == "missing"]


def test_inserted_text_never_brings_the_playbooks_words_into_the_contract():
    # Issue #26: inserted clauses spoke of "the Supplier", "Services", "Charges" and "[England and Wales]".
    result = _review([LICENCE, "1. Grant. Licensor grants Licensee a licence to use the Software.",
                      "2. Payment. Licensee shall pay the fees within thirty (30) days of invoice."],
                     acting_for="Licensee")
    for s in result.suggestions:
        for word in ("Supplier", "Customer", "Services", "Charges", "[England and Wales]", "endeavours"):
            assert word not in s.new_text, (s.rule_key, s.new_text)


def test_an_unknown_side_is_a_clear_error():
    with pytest.raises(ReviewError) as caught:
        _review([LICENCE, "1. Grant. Licensor grants Licensee a licence."], acting_for="Nobody")
    assert caught.value.code == "unknown_party" and "Licensor" in caught.value.message


def test_a_rule_with_prose_only_is_checked_from_its_position_and_a_rule_without_checks_is_reported():
    # Issue #26: a dashboard rule ("survive at least five (5) years", no detection YAML) said "this text passes"
    # on a clause that breaks it, and the run said "the document meets every rule".
    from redline.analysis.categories import Category
    from redline.analysis.playbook.model import Playbook, Rule, Severity

    survival = Rule(key="survival", title="Confidentiality survival", category=Category.CONFIDENTIALITY,
                    severity=Severity.MAJOR, preferred_position="Confidentiality obligations survive at least five (5) "
                                                                "years after termination.")
    tone = Rule(key="tone", title="Tone", category=Category.GENERAL, severity=Severity.MINOR, guidance="Be fair.")
    clause = Clause("_RL_0001", "The obligations of confidentiality in this Section shall survive for two (2) years "
                                "after termination of this Agreement.")
    result = review([clause], Playbook("prose", (survival, tone)), OfflineProvider(), acting_for="")
    assert [(s.kind.value, s.quote) for s in result.suggestions] == [("comment", "two (2) years")]
    assert "five (5) years" in result.suggestions[0].comment
    assert result.stats.not_checked == ["tone"]
    five = Clause("_RL_0001", "The obligations of confidentiality shall survive for five (5) years after termination.")
    assert review([five], Playbook("prose", (survival,)), OfflineProvider()).suggestions == []


def test_c0175_and_c0295_a_renewal_either_party_can_stop_is_not_questioned():
    # c0175 and c0295 (round 3), rated WRONG: "The agreement renews automatically. Confirm that either party can
    # prevent renewal by short written notice, renewal terms are capped at twelve months" on 1.3 "automatically
    # renewed at the end of every ten (10) year term … A six (6) months notice must be given by either party",
    # pushing an exclusive distributor towards shorter renewals it does not want.
    text = ("This agreement will be automatically renewed at the end of every ten (10) year term, with each "
            "subsequent term of renewal being for a ten (10) year term. A six (6) months notice must be given by "
            "either party of their intention to terminate relations due to any reason other than breach.")
    result = _review([DISTRIBUTION, text], acting_for="Distributor", rules=("auto-renewal",))
    assert result.suggestions == []
    c0295 = ("This Agreement shall have an initial term of one (1) year and shall thereafter automatically renew for "
             "successive two (2) year periods. Either party may cancel this Agreement effective on the last day of "
             "the Initial Term, or")
    assert _review([DISTRIBUTION, c0295], acting_for="Distributor", rules=("auto-renewal",)).suggestions == []
    # a renewal nobody can stop is still asked about
    bare = "This Agreement shall automatically renew for successive two (2) year periods."
    asked = _review([DISTRIBUTION, bare], rules=("auto-renewal",)).suggestions
    assert {s.kind.value for s in asked} == {"comment"}
    assert any("renews automatically" in s.comment for s in asked)


def test_a_courts_clause_naming_a_county_is_a_forum_clause():
    # Issue #26: "no jurisdiction clause" in a contract with an Orange County courts clause.
    for clause in ("This Agreement shall be governed by the laws of the State of California, and the parties agree "
                   "that the state and federal courts located in Orange County, California shall be the sole venue "
                   "for any dispute.",
                   "Venue for any action shall lie exclusively in Orange County, California."):
        result = _review([LICENCE, "1. Grant. Licensor grants Licensee a licence to use the Software.", clause],
                         acting_for="Licensee", rules=("jurisdiction",))
        assert result.suggestions == [], clause


def test_a_contract_that_limits_liability_nowhere_is_asked_about():
    # Issue #26: "a liability clause with no cap at all" went unflagged.
    paragraphs = [LICENCE, "1. Grant. Licensor grants Licensee a licence to use the Software.",
                  "2. Liability. Each party shall be liable to the other for any breach of this Agreement.",
                  "3. General. This Agreement is the entire agreement of the parties."]
    result = _review(paragraphs, acting_for="Licensee", rules=("limitation-of-liability",))
    assert [(s.kind.value, s.source) for s in result.suggestions] in ([("comment", "missing")], [("comment", "ask")])
    assert "neither party's liability is capped" in result.suggestions[0].comment or \
        "Confirm" in result.suggestions[0].comment


def test_text_whose_words_and_figures_disagree_is_never_proposed():
    # Issue #26: "ninety-seven point 99.5%" and "five hundred thousand dollars ($1,000,000)", made by the tool.
    from redline.analysis.review.wording import ContractWords, adapt

    words = ContractWords.of(["The Licensor shall pay the Licensee."])
    assert adapt("ninety-seven point 99.5%", words).problems
    assert adapt("thirty (60) days", words).problems
    assert adapt("thirty (30) days", words).problems == ()


def test_a_right_only_our_client_holds_is_not_made_mutual():
    # Issue #26: "Customer may terminate … provided that Customer pays M&I" became "Either Party may terminate",
    # handing the outsourcer an exit from the bank's core processing.
    preamble = _preamble("First Bank Corp.", "Customer", "M&I Data Services, Inc.", "M&I")
    text = ("Customer may terminate this Agreement for convenience at any time, provided that Customer pays M&I the "
            "termination fee.")
    result = _review([preamble, text], acting_for="Customer", rules=("termination-for-convenience",))
    assert not [s for s in result.suggestions if s.kind.value == "replace"]
    for_mi = _review([preamble, text], acting_for="M&I", rules=("termination-for-convenience",))
    assert [(s.quote, s.new_text) for s in for_mi.suggestions if s.kind.value == "replace"] == [
        ("Customer may terminate", "Either party may terminate")]


def test_a_confidentiality_obligation_with_no_survival_anywhere_is_flagged():
    # Issue #26: "a confidentiality obligation with no survival period" went unflagged.
    bare = [LICENCE, "5. Confidentiality. Each party shall keep the other party's information confidential."]
    result = _review(bare, acting_for="Licensee", rules=("confidentiality",))
    assert [s.kind.value for s in result.suggestions] == ["comment"]
    assert "survives termination" in result.suggestions[0].comment
    covered = [*bare, "12. Survival. Section 5 survives any termination of this Agreement."]
    assert _review(covered, acting_for="Licensee", rules=("confidentiality",)).suggestions == []


def test_c0221_a_jury_waiver_the_parties_give_together_is_not_questioned():
    # c0221 (round 3), rated NOISE: "Jury-trial waiver … confirm it is mutual" on "THE PARTIES HEREBY WAIVE ANY RIGHT
    # TO TRIAL BY JURY", which answers the question itself.
    text = "10.6 THE PARTIES HEREBY WAIVE ANY RIGHT TO TRIAL BY JURY IN ANY ACTION ARISING OUT OF THIS AGREEMENT."
    result = _review([LICENCE, text], acting_for="Licensee", rules=("jurisdiction",))
    assert not [s for s in result.suggestions if s.source == "red_flag"]
    one_sided = "10.6 LICENSEE HEREBY WAIVES ANY RIGHT TO TRIAL BY JURY."
    assert [s for s in _review([LICENCE, one_sided], rules=("jurisdiction",)).suggestions if "WAIVES" in s.quote]


def test_two_edits_of_the_same_right_in_one_paragraph_both_apply(tmp_path):
    # Issue #26: of two edits in one sentence the second was skipped ("occurs 1 times, not 2"), leaving thirty
    # days in one place and ninety in the next for the same right. Read back by pandoc, not by our writer.
    from redline.analysis.clauses import clauses_from_paragraphs
    from redline.ooxml.ops import op_from_json
    from redline.ooxml.paragraphs import read_document
    from redline.ooxml.writer import redline_document
    from tests.support import oracles
    from tests.support.docx_builder import build_docx

    def para(text: str) -> str:
        return f'<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'

    source = build_docx(para('This Agreement is made between Acme Inc., a Delaware corporation ("Customer"), and '
                             'Beta LLC, a Texas company ("Supplier").')
                        + para("The Customer shall pay each invoice within ninety (90) days of receipt, and the "
                               "Customer shall pay each credit note within ninety (90) days of receipt."))
    read = read_document(source)
    from dataclasses import replace
    playbook = default_playbook()
    playbook = replace(playbook, rules=(playbook.rule("payment-terms"),))
    result = review(clauses_from_paragraphs(read.paragraphs), playbook, OfflineProvider(), acting_for="Supplier")
    assert len(result.suggestions) == 2
    out = redline_document(read.docx, [op_from_json(i, s.to_op()) for i, s in enumerate(result.suggestions)])
    path = tmp_path / "out.docx"
    path.write_bytes(out.docx)
    accepted = " ".join(oracles.pandoc_text(path, "accept"))
    assert accepted.count("sixty (60) days") == 2 and "ninety" not in accepted


def test_a_short_cure_for_trademark_misuse_is_not_lengthened_for_the_licensor():
    # Issue #26: a ten-day cure period for trademark misuse was pushed to thirty days, the licensor's remedy weakened.
    text = ("Licensor may terminate this Agreement if Licensee misuses the Licensed Marks and fails to cure such "
            "misuse within ten (10) days after written notice.")
    for_licensor = _review([LICENCE, text], acting_for="Licensor", rules=("termination-for-cause",))
    assert not [s for s in for_licensor.suggestions if s.kind.value == "replace"]
    for_licensee = _review([LICENCE, text], acting_for="Licensee", rules=("termination-for-cause",))
    assert [(s.quote, s.new_text) for s in for_licensee.suggestions if s.kind.value == "replace"] == [
        ("ten (10) days", "thirty (30) days")]


def test_the_months_that_price_a_termination_fee_are_no_notice_period():
    # Issue #26: the three-month average that prices a termination fee got two contradictory edits.
    preamble = _preamble("First Bank Corp.", "Customer", "M&I Data Services, Inc.", "M&I")
    text = ("If Customer terminates this Agreement for convenience, Customer shall pay M&I a termination fee equal to "
            "the average monthly fees paid over the preceding three (3) months multiplied by the months remaining.")
    for side in ("Customer", "M&I", ""):
        result = _review([preamble, text], acting_for=side,
                         rules=("termination-for-convenience", "limitation-of-liability", "payment-terms"))
        assert not [s for s in result.suggestions if s.source == "threshold"], side


def test_a_missing_cap_is_raised_only_where_our_client_carries_the_exposure():
    # c0104 and c0175 (round 4), rated NOISE: "no limitation of liability" for the customer, whose supplier alone
    # indemnifies ("The Manufacturer indemnifies the Customer for the same"); a cap would protect the other side.
    preamble = _preamble("Organic Preparations Inc.", "Manufacturer", "Agape ATP Ltd.", "Customer")
    paragraphs = [preamble, "3.5 The Manufacturer indemnifies the Customer for any claim that the Products infringe.",
                  "12. General. This Agreement is the entire agreement of the parties."]
    assert _review(paragraphs, acting_for="Customer", rules=("limitation-of-liability",)).suggestions == []
    for_manufacturer = _review(paragraphs, acting_for="Manufacturer", rules=("limitation-of-liability",))
    assert [s.kind.value for s in for_manufacturer.suggestions] == ["comment"]  # its exposure is uncapped
