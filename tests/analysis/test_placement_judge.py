"""The placement judge graded by hand, so that its verdicts on CUAD do not rest on the product being right.

Each contract below is a list of paragraph texts written for this test; the landmarks (where the signatures
start, where the front matter ends, each paragraph's top-level number, which paragraphs are boilerplate,
which numbers a new clause may not take) and the verdicts are stated by hand, not computed. Nothing here
calls the placement; the judge is ``tests/support/placement_judge.py``.
"""

from __future__ import annotations

import pytest

from tests.support.placement_judge import (
    front_matter_end,
    is_general,
    judge,
    landmarks,
    opening_number,
    ranges_of,
    signature_start,
    top_numbers,
)

SERVICES = [
    "MASTER SERVICES AGREEMENT",  # 0
    'This Agreement is made between Acme Inc. ("Customer") and Widget Ltd ("Supplier").',  # 1: the parties
    "WHEREAS Customer wishes to buy services;",  # 2
    "WHEREAS Supplier provides such services;",  # 3: the front matter ends here
    "NOW, THEREFORE, the parties agree as follows:",  # 4
    "1. Services",  # 5
    "1.1 Supplier shall provide the Services.",  # 6
    "Name: Jane Roe, General Counsel, 1 Main Street",  # 7: a notice address, too early to be a signature
    "2. Fees",  # 8
    "2.1 Customer shall pay each invoice within thirty days.",  # 9
    "Section 3. Term",  # 10
    "3.01 This Agreement runs for two years.",  # 11
    "ARTICLE IV CONFIDENTIALITY",  # 12
    "Each party shall keep the other's information confidential.",  # 13
    "5. General",  # 14
    "5.1 Counterparts. This Agreement may be signed in counterparts.",  # 15
    "5.2 Notices. Notices shall be in writing.",  # 16
    "IN WITNESS WHEREOF the parties have signed this Agreement.",  # 17: the signatures start here
    "By: /s/ Jane Roe",  # 18
    "Title: Chief Executive Officer",  # 19
]
SERVICES_PARTIES = [1]
SERVICES_TOPS = [None] * 5 + ["1"] * 3 + ["2"] * 2 + ["3"] * 2 + ["IV"] * 2 + ["5"] * 6
SERVICES_NUMBERS = [None] * 5 + ["1", "1.1", None, "2", "2.1", "3", "3.01", None, None, "5", "5.1", "5.2"] + [None] * 3
SERVICES_GENERAL = {14, 15, 16}

# Ten paragraphs of nine characters, one apart: distances can be counted on the fingers. Paragraph i runs
# from 10*i to 10*i + 9; the contract is 99 characters long.
SHORT = ["1. Alpha.", "1.1 Beta.", "1.2 Gamma", "2. Delta.", "2.1 Epsil", "2.2 Zeta.", "3. Theta.", "3.1 Iota.",
         "By: Jane.", "/s/ Jane."]
SHORT_RANGES = [(10 * i, 10 * i + 9) for i in range(10)]


def test_the_landmarks_of_a_services_agreement():
    assert signature_start(SERVICES) == 17  # not 7: "Name:" there is in the first 40%
    assert front_matter_end(SERVICES, SERVICES_PARTIES) == 3
    assert top_numbers(SERVICES) == SERVICES_TOPS
    assert [opening_number(t) for t in SERVICES] == SERVICES_NUMBERS
    assert {i for i, t in enumerate(SERVICES) if is_general(t)} == SERVICES_GENERAL
    marks = landmarks(SERVICES, SERVICES_PARTIES)
    assert (marks.signatures, marks.front, marks.tops, marks.numbers) == (17, 3, SERVICES_TOPS, SERVICES_NUMBERS)


def test_signatures_and_recitals_count_only_where_they_can_be():
    supply = [
        "SUPPLY AGREEMENT",  # 0
        "Supplier: Acme Inc.",  # 1: a party, in the first fifth
        "1. Supply",  # 2
        "Signature: of the delivery note is proof of receipt.",  # 3: a label, but in the first 40%
        "2. Price",  # 4
        "WHEREAS the price may change, the parties shall review it each year.",  # 5: past the first 30%
        "3. Term",  # 6
        "3.1 One year.",  # 7
        "ACCEPTED AND AGREED",  # 8: not one of the judge's signs
        "Customer: Beta LLC",  # 9: a party, but not in the first fifth
    ]
    assert signature_start(supply) == len(supply)  # none
    assert front_matter_end(supply, [1, 9]) == 1
    assert front_matter_end(supply, []) == -1
    signed = [*supply, "/s/ John Smith"]
    assert signature_start(signed) == 10
    assert signature_start([*supply[:9], "Its: President", "Name: John Smith"]) == 9


@pytest.mark.parametrize(("text", "general"), [
    ("5. General", True), ("15.11 Counterparts; PDF", True), ("Section 18. Headings; Interpretation", True),
    ("ARTICLE XII MISCELLANEOUS", True), ("Severability. If any provision is held invalid ...", True),
    ("7. Exclusivity. Supplier shall not sell to others.", False),
    ("2.1 Customer shall pay each invoice within thirty days.", False),
    ("IN WITNESS WHEREOF the parties have signed this Agreement.", False),
])
def test_which_paragraphs_are_boilerplate(text, general):
    assert is_general(text) is general


@pytest.mark.parametrize(("text", "number"), [
    ("16. Counterparts", "16"), ("9.14 Notices", "9.14"), ("15A. The clause.", "15A"), ("Section 7.02 Term", "7.02"),
    ("ARTICLE IV CONFIDENTIALITY", None), ("The clause.", None), ("2023 was a year.", None),
])
def test_the_number_a_paragraph_opens_with(text, number):
    assert opening_number(text) == number


def test_ranges_of_paragraphs_laid_end_to_end():
    assert ranges_of(["abc", "", "de"]) == [(0, 3), (4, 4), (5, 7)]


def services_verdict(held, after, inserted="The clause.", *, own_general=False):
    marks = landmarks(SERVICES, SERVICES_PARTIES)
    return judge(SERVICES, ranges_of(SERVICES), marks, held, after, inserted, own_general=own_general)


def test_a_clause_put_back_where_it_was():
    v = services_verdict([9], 8)  # the fee clause, put back under "2. Fees"
    assert v.same_section and v.distance == 0
    assert not (v.in_signatures or v.in_front_matter or v.after_general or v.number_taken)
    assert v.baseline == 16 and not v.baseline_same_section  # appended after "5.2 Notices"


def test_the_places_a_clause_must_not_go():
    assert services_verdict([9], 17).in_signatures and services_verdict([9], 19).in_signatures
    assert not services_verdict([9], 16).in_signatures
    assert services_verdict([9], 3).in_front_matter and services_verdict([9], -1).in_front_matter
    assert not services_verdict([9], 4).in_front_matter
    assert not services_verdict([9], -1).same_section


def test_a_substantive_clause_after_the_boilerplate():
    assert services_verdict([9], 16).after_general  # the fee clause after "5.2 Notices"
    assert not services_verdict([9], 16, own_general=True).after_general  # governing law may go there
    assert not services_verdict([16], 15).after_general  # the drafter had it after "5.1 Counterparts" too
    assert not services_verdict([9], 13).after_general


def test_which_numbers_are_taken():
    # kept paragraphs open with 1, 1.1, 2, 3, 3.01, 5, 5.1, 5.2 when the fee clause (2.1) is out
    assert services_verdict([9], 8, "2. The clause.").number_taken
    assert services_verdict([9], 8, "Section 3. The clause.").number_taken
    assert services_verdict([9], 16, "5.2 The clause.").number_taken
    assert not services_verdict([9], 8, "2.1 The clause.").number_taken  # its own number, freed
    assert not services_verdict([9], 16, "5.3 The clause.").number_taken
    assert not services_verdict([9], 8, "2A. The clause.").number_taken
    assert not services_verdict([8, 9], 7, "2. The clause.").number_taken  # "2. Fees" is out too


def test_distances_and_the_baseline_counted_by_hand():
    assert {len(t) for t in SHORT} == {9}
    marks = landmarks(SHORT, [])
    assert (marks.signatures, marks.front, marks.tops) == (8, -1, ["1"] * 3 + ["2"] * 3 + ["3"] * 4)
    # "2.2 Zeta." (paragraph 5) taken out: the drafter's place is the end of paragraph 4, character 49
    v = judge(SHORT, SHORT_RANGES, marks, [5], 7, "The clause.")
    assert v.distance == pytest.approx(30 / 99) and not v.same_section  # after paragraph 7, ending at 79
    assert v.baseline == 7 and v.baseline_distance == pytest.approx(30 / 99)
    v = judge(SHORT, SHORT_RANGES, marks, [5], 3, "The clause.")
    assert v.distance == pytest.approx(10 / 99) and v.same_section  # after "2. Delta.", ending at 39
    v = judge(SHORT, SHORT_RANGES, marks, [5], -1, "The clause.")
    assert v.distance == pytest.approx(49 / 99)  # at the top, character 0
    v = judge(SHORT, SHORT_RANGES, marks, [0, 1], 2, "The clause.")  # the drafter's place is the top
    assert v.distance == pytest.approx(29 / 99) and v.same_section and v.baseline == 7
