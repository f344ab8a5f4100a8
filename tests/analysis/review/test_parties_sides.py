"""Parties read from the preamble, the side a user names, and the actor of a finding (review/parties.py,
review/sides.py), on the shapes a code review found wanting."""

from __future__ import annotations

from redline.analysis.clauses import Clause
from redline.analysis.review.parties import Party, review_cast
from redline.analysis.review.sides import MUTUAL, Cast, actor


def cast_of(preamble: str, side: str = "") -> tuple[tuple[Party, ...], Party | None]:
    return review_cast([Clause("_RL_0001", preamble)], side)


def test_a_defined_name_wins_over_another_partys_legal_name():
    preamble = ('This Agreement is made between IBM Credit LLC, a Delaware company ("IBM Credit"), and International '
                'Business Machines Corporation, a New York corporation ("IBM").')
    assert cast_of(preamble, "IBM")[1].name == "IBM"
    assert cast_of(preamble, "ibm credit")[1].name == "IBM Credit"
    assert cast_of(preamble, "International Business Machines")[1].name == "IBM"  # the first words of a legal name
    assert cast_of(preamble, "Interna")[1] is None  # not a whole word


def test_a_name_two_parties_answer_to_equally_is_no_side():
    preamble = ('This Agreement is made between Acme Holdings Inc., a Delaware corporation ("Licensor"), and Acme '
                'Retail Inc., a Texas corporation ("Licensee").')
    assert cast_of(preamble, "Acme")[1] is None
    assert cast_of(preamble, "Licensee")[1].legal == "Acme Retail Inc."


def test_parties_with_names_beyond_ascii_are_read():
    preamble = ('This Agreement is made between Ørsted A/S, a Danish company ("Ørsted"), and Électricité de France '
                'SA, a French company ("EDF").')
    parties, client = cast_of(preamble, "Ørsted")
    assert [p.name for p in parties] == ["Ørsted", "EDF"] and client.name == "Ørsted"
    assert parties[1].legal == "Électricité de France SA"


def test_a_party_name_written_in_lower_case_is_an_ordinary_word():
    cast = Cast((Party("Target"), Party("Supplier", role="Supplier")), None)
    text = "The Supplier shall meet each target within 5 days."
    at = text.index("5 days")
    assert actor(text, at, at + 6, cast) == "Supplier"
    lower = Cast((Party("theglobe"), Party("Boxlot")), None)  # a party the contract itself names in lower case
    text = "theglobe may terminate within 10 days."
    assert actor(text, text.index("10"), text.index("10") + 7, lower) == "theglobe"


def test_a_right_given_to_both_named_parties_is_mutual():
    cast = Cast((Party("Company", role="Company"), Party("Contractor", role="Contractor")), None)
    text = "The Company or the Contractor may terminate this Agreement without cause."
    at = text.index("the Contractor may terminate")
    assert actor(text, at, at + len("the Contractor may terminate"), cast) == MUTUAL
