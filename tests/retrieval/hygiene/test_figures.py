"""Numbers written in words and in figures that disagree (issue #27)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from redline.retrieval.hygiene import figures
from tests.retrieval.hygiene.grounded import grounded


def _check(text: str):
    return grounded(figures.check, text)


# -- the "why" examples of the issue ---------------------------------------------------------------------------
def test_thirty_sixty_days():
    [f] = _check("Either party may terminate this Agreement by providing thirty (60) days' written notice.")
    assert (f.kind, f.quote, f.fix) == ("words_digits", "thirty (60)", None)
    assert f.message == ("The words and the figure disagree in 'thirty (60)': the words say thirty (30) but the "
                         "figure says 60; confirm which is meant.")


def test_five_percent_ten_percent():
    [f] = _check("Royalties are five percent (10%) of Net Sales.")
    assert f.quote == "five percent (10%)"
    assert "the words say five percent (5%) but the figure says 10%" in f.message


@pytest.mark.parametrize(("text", "quote", "said", "figure"), [
    ("a fee of Ten Thousand Dollars ($1,000) on signing", "Ten Thousand Dollars ($1,000)", "$10,000", "$1,000"),
    ("One Hundred Twenty-Five Thousand Dollars ($152,000)", "One Hundred Twenty-Five Thousand Dollars ($152,000)",
     "$125,000", "$152,000"),
    ("interest at two and one-half percent (3.5%) per annum", "two and one-half percent (3.5%)", "2.5%", "3.5%"),
    ("a notice period of 30 (sixty) days", "30 (sixty)", "60", "30"),
    ("Ten Thousand and 50/100 Dollars ($10,000.00)", "Ten Thousand and 50/100 Dollars ($10,000.00)",
     "$10,000.50", "$10,000"),
    ("a fee of four million U.S. Dollars (USD $40,000,000.00)", "four million U.S. Dollars (USD $40,000,000.00)",
     "USD $4,000,000", "USD $40,000,000"),
    ("a cap of ten million dollars ($1 million)", "ten million dollars ($1 million)", "$10,000,000", "$1,000,000"),
    ("within ninety (\"9\") days", "ninety (\"9\")", "90", "9"),
])
def test_disagreements(text, quote, said, figure):
    [f] = _check(text)
    assert f.quote == quote
    assert f"({said}) but the figure says {figure};" in f.message


@pytest.mark.parametrize("text", [
    "within thirty (30) days",
    "One Hundred Twenty-Five Thousand Dollars ($125,000)",
    "two and one-half percent (2.5%)",
    "one and one-half percent (1-1/2%) per month",
    "Twenty-Five thousand dollars ($25,000USD)",
    "four\xadmillion U.S. Dollars (USD $4,000,000.00)",
    "five- percent (5%)",
    "ninety (\"90\") days",
    "one-half (50%) of such royalties",  # a fraction and the same share as a percentage
    "one half of one percent (0.5%)",  # a fraction *of* the number that follows
    "a management fee of one percent and one-half (1.5%)",  # words the reader cannot value as one number
    "the fifth (5th) anniversary",  # ordinals are out of scope
    "Section 4 (1) applies",
    "one (1) or two (2) Business Days",
    "thirty (30) days and sixty (60) days",
    "Ten Thousand and 00/100 Dollars ($10,000.00)",
    "$1,000 (one thousand dollars)",
    "nineteen hundred (1900)",
])
def test_agreements_and_what_is_out_of_scope(text):
    assert _check(text) == []


@pytest.mark.parametrize(("words", "value"), [
    ("thirty", 30), ("One Hundred Twenty-Five Thousand", 125_000), ("two and one-half", Decimal("2.5")),
    ("one hundred and twenty", 120), ("a half", Decimal("0.5")), ("one half", Decimal("0.5")), ("three-quarters", Decimal("0.75")),
    ("two three", None), ("five twenty", None), ("twenty five", 25), ("one million two hundred thousand", 1_200_000),
    ("Ten Thousand and 50/100", Decimal("10000.5")), ("half", Decimal("0.5")),
])
def test_words_value(words, value):
    assert figures.words_value(words) == value


def test_the_shared_hand_written_contract_is_clean(graph):
    assert figures.check(graph) == []
