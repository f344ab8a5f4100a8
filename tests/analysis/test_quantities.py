"""Reading and writing durations, percentages and amounts the way contracts state them."""

from __future__ import annotations

import pytest

from redline.analysis.quantities import convert, find_quantities, format_like, number_to_words, words_to_number


@pytest.mark.parametrize("text,kind,value,unit,found", [
    ("pay within ninety (90) days of invoice", "duration", 90, "days", "ninety (90) days"),
    ("within 90 days", "duration", 90, "days", "90 days"),
    ("a 30-day notice period", "duration", 30, "days", "30-day"),
    ("Thirty days after delivery", "duration", 30, "days", "Thirty days"),
    ("one hundred and twenty (120) days", "duration", 120, "days", "one hundred and twenty (120) days"),
    ("seven (7) Business Days", "duration", 7, "business_days", "seven (7) Business Days"),
    ("for twelve (12) months", "duration", 12, "months", "twelve (12) months"),
    ("one (1) year", "duration", 1, "years", "one (1) year"),
    ("within seventy-two (72) hours", "duration", 72, "hours", "seventy-two (72) hours"),
    ("one hundred percent (100%) of the fees", "percent", 100, "percent", "one hundred percent (100%)"),
    ("fifty per cent (50%)", "percent", 50, "percent", "fifty per cent (50%)"),
    ("not exceed 50% of the Charges", "percent", 50, "percent", "50%"),
    ("twice the Charges", "percent", 200, "percent", "twice"),
    ("USD 1,000,000", "amount", 1_000_000, "USD", "USD 1,000,000"),
    ("$250,000 per claim", "amount", 250_000, "USD", "$250,000"),
    ("£5 million", "amount", 5_000_000, "GBP", "£5 million"),
    ("1,000,000 dollars", "amount", 1_000_000, "USD", "1,000,000 dollars"),
    ("EUR 2,500,000", "amount", 2_500_000, "EUR", "EUR 2,500,000"),
])
def test_finds_each_style(text, kind, value, unit, found):
    (q,) = find_quantities(text)
    assert (q.kind, q.value, q.unit, q.text) == (kind, value, unit, found)
    assert text[q.start:q.end] == found


def test_rates_know_their_period_and_convert():
    (monthly,) = find_quantities("interest at 1.5% per month")
    (yearly,) = find_quantities("interest at 24% per annum")
    (bare,) = find_quantities("a fee of 5% of the overdue amount")
    assert (monthly.per, yearly.per, bare.per) == ("month", "year", None)
    assert convert(yearly, "percent", "month") == 2.0
    assert convert(monthly, "percent", "year") == 18.0
    assert convert(bare, "percent", "month") is None  # a flat fee is not a rate


def test_words_and_figures_that_disagree_keep_both():
    (q,) = find_quantities("within thirty (45) days")
    assert (q.value, q.words_value) == (45, 30)


def test_durations_convert_across_units():
    (q,) = find_quantities("within three (3) months")
    assert convert(q, "days") == pytest.approx(91.25)  # a month is a twelfth of a year
    (year,) = find_quantities("for one (1) year")
    assert convert(year, "months") == pytest.approx(12)  # so a year is twelve months, never "longer"
    (bd,) = find_quantities("within ten (10) Business Days")
    assert convert(bd, "days") == pytest.approx(14)
    assert convert(q, "percent") is None


@pytest.mark.parametrize("source,value,unit,expected", [
    ("ninety (90) days", 60, None, "sixty (60) days"),
    ("Ninety (90) days", 60, None, "Sixty (60) days"),
    ("90 days", 60, None, "60 days"),
    ("ninety days", 60, None, "sixty days"),
    ("a 90-day period", 60, None, "60-day"),
    ("one (1) year", 3, None, "three (3) years"),
    ("twelve (12) months", 1, None, "one (1) month"),
    ("seven (7) days", 48, "hours", "forty-eight (48) hours"),
    ("seven (7) Business Days", 60, "days", "sixty (60) days"),
    ("fifty percent (50%)", 100, None, "one hundred percent (100%)"),
    ("fifty per cent (50%)", 100, None, "one hundred per cent (100%)"),
    ("50%", 100, None, "100%"),
    ("8 percent", 12, None, "12 percent"),
    ("USD 250,000", 1_000_000, None, "USD 1,000,000"),
    ("$250,000", 1_000_000, None, "$1,000,000"),
    ("£5 million", 1_000_000, None, "£1 million"),
])
def test_replacements_are_written_in_the_drafters_style(source, value, unit, expected):
    q = next(q for q in find_quantities(source))
    assert format_like(q, value, unit) == expected


@pytest.mark.parametrize("n,words", [
    (0, "zero"), (7, "seven"), (45, "forty-five"), (100, "one hundred"), (120, "one hundred twenty"),
    (1_000_000, "one million"), (2_500_000, "two million five hundred thousand"),
])
def test_numbers_in_words_both_ways(n, words):
    assert number_to_words(n) == words
    assert words_to_number(words) == n


def test_text_without_numbers_or_units_has_no_quantities():
    assert find_quantities("The Supplier shall perform the Services with reasonable skill and care.") == ()
    assert find_quantities("Section 4.2 applies to any one Party.") == ()
