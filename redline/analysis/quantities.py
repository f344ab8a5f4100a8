"""Durations, percentages and money amounts in contract prose.

Contracts state numbers in several styles — "thirty (30) days", "90 days",
"a 30-day period", "one hundred percent (100%)", "USD 1,000,000", "£5 million"
— and a threshold check must read them all, know exactly where each sits (a
replacement quotes it), and write a replacement in the *same* style, so that
"ninety (90) days" becomes "sixty (60) days" and not "60 days".

When words and digits disagree ("thirty (45) days") the digits are taken as
the value and the words are kept in :attr:`Quantity.words_value`, so the
validator can flag the contradiction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_SMALL = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_WORD_VALUES = {w: i for i, w in enumerate(_SMALL)} | {w: 20 + 10 * i for i, w in enumerate(_TENS)}

_NUMWORD = r"(?:" + "|".join(sorted([*_SMALL, *_TENS, *_SCALES], key=len, reverse=True)) + r")"
_WORDS = rf"\b{_NUMWORD}(?:(?:\s+and\s+|[\s-]+){_NUMWORD})*\b"
_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_NUM = rf"(?:(?P<w>{_WORDS})\s*\(\s*(?P<d1>{_DIGITS})\s*\)|(?P<d2>\b{_DIGITS})|(?P<w2>{_WORDS}))"

_DURATION = re.compile(
    rf"{_NUM}(?P<sep>\s*-\s*|\s+)(?:(?P<mod>business|working|calendar|banking)\s+)?"
    r"(?P<unit>days?|weeks?|months?|years?|hours?)\b",
    re.IGNORECASE,
)
_PERCENT = re.compile(
    rf"(?P<w>{_WORDS})\s+(?P<pw>per\s?cent|percent)\s*\(\s*(?P<d1>{_DIGITS})\s*%\s*\)"
    rf"|(?P<d2>\b{_DIGITS})\s*(?P<pd>%|\s?per\s?cent\b|\s?percent\b)"
    rf"|(?P<w2>{_WORDS})\s+(?P<pw2>per\s?cent|percent)\b"
    rf"|(?P<m>{_WORDS}|\b\d+(?:\.\d+)?)\s+times\b|\b(?P<twice>twice|double)\b",
    re.IGNORECASE,
)
_PER = re.compile(
    r"\s*(?:per\s+(?:calendar\s+)?(?P<m1>month)|per\s+(?P<y1>annum|year)|a\s+(?P<m2>month)|a\s+(?P<y2>year)"
    r"|(?P<m3>monthly)|(?P<y3>annually|yearly))\b",
    re.IGNORECASE,
)
_CURRENCY_PREFIX = r"US\$|U\.S\.\s?\$|USD|EUR|GBP|CHF|CAD|AUD|JPY|INR|\$|€|£|¥"
_CURRENCY_WORD = r"(?:US\s+|U\.S\.\s+)?dollars|euros?|pounds(?:\s+sterling)?|USD|EUR|GBP|CHF"
_AMOUNT = re.compile(
    rf"(?P<cur>{_CURRENCY_PREFIX})\s?(?P<d>{_DIGITS})(?:\s?(?P<scale>million|billion|thousand|bn|m|k)\b)?"
    rf"|(?P<d2>\b{_DIGITS})(?:\s?(?P<scale2>million|billion|thousand))?\s+(?P<cur2>{_CURRENCY_WORD})\b",
    re.IGNORECASE,
)
_CURRENCY_CODES = {
    "$": "USD", "us$": "USD", "u.s.$": "USD", "usd": "USD", "dollars": "USD", "eur": "EUR", "€": "EUR", "euro": "EUR",
    "euros": "EUR", "gbp": "GBP", "£": "GBP", "pounds": "GBP", "pounds sterling": "GBP", "chf": "CHF", "cad": "CAD",
    "aud": "AUD", "jpy": "JPY", "¥": "JPY", "inr": "INR",
}
_SCALE_VALUES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9}

# Cheap pre-checks: a kind of quantity cannot be present without one of these.
_DURATION_WORDS = ("day", "week", "month", "year", "hour")
_PERCENT_WORDS = ("%", "cent", "times", "twice", "double")  # "per cent", "percent", "%", "three times", "twice"
_AMOUNT_WORDS = ("$", "€", "£", "¥", "usd", "eur", "gbp", "chf", "cad", "aud", "jpy", "inr", "dollar", "pound")
_KIND_WORDS = {"duration": _DURATION_WORDS, "percent": _PERCENT_WORDS, "amount": _AMOUNT_WORDS}

# Days per unit, for comparing durations across units.
DAYS_PER_UNIT = {"hours": 1 / 24, "days": 1.0, "business_days": 7 / 5, "weeks": 7.0, "months": 365 / 12, "years": 365.0}
DURATION_UNITS = frozenset(DAYS_PER_UNIT)
_UNIT_NAMES = {"hours": "hours", "days": "days", "business_days": "Business Days", "weeks": "weeks",
               "months": "months", "years": "years"}


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number with its unit, found at ``text[start:end]`` of a clause.

    ``kind`` is duration, percent or amount; ``unit`` is a duration unit
    (days, business_days, weeks, months, years, hours), "percent", or an ISO
    currency code for amounts. ``style`` records how it was written so a
    replacement can be written the same way; ``per`` is "month" or "year" for
    rates ("1.5% per month").
    """

    kind: str
    value: float
    unit: str
    start: int
    end: int
    text: str
    style: str
    words_value: float | None = None
    per: str | None = None
    unit_text: str = ""
    separator: str = " "


def words_to_number(words: str) -> int | None:
    """'one hundred and twenty' → 120; None when the words are not a number."""
    total = current = 0
    seen = False
    for word in re.split(r"[\s-]+", words.lower().strip()):
        if word == "and" or not word:
            continue
        if word in _WORD_VALUES:
            current += _WORD_VALUES[word]
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in _SCALES:
            total += (current or 1) * _SCALES[word]
            current = 0
        else:
            return None
        seen = True
    return total + current if seen else None


def number_to_words(n: int) -> str:
    """120 → 'one hundred twenty', 45 → 'forty-five' (the style of US and English contracts)."""
    if n < 0:
        raise ValueError("negative numbers are not written in words")
    if n < 20:
        return _SMALL[n]
    if n < 100:
        tens, rest = divmod(n, 10)
        return _TENS[tens - 2] + (f"-{_SMALL[rest]}" if rest else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_SMALL[hundreds]} hundred" + (f" {number_to_words(rest)}" if rest else "")
    for name, scale in (("billion", 10**9), ("million", 10**6), ("thousand", 10**3)):
        if n >= scale:
            head, rest = divmod(n, scale)
            return f"{number_to_words(head)} {name}" + (f" {number_to_words(rest)}" if rest else "")
    raise AssertionError("unreachable")  # pragma: no cover


def _digits_value(s: str) -> float:
    return float(s.replace(",", ""))


def kind_of_unit(unit: str) -> str:
    """The kind of quantity a limit in ``unit`` is compared with: "duration", "percent" or "amount"."""
    return "duration" if unit in DURATION_UNITS else "percent" if unit == "percent" else "amount"


def may_state(lower: str, kind: str) -> bool:
    """False only when a lower-cased text certainly states no quantity of ``kind`` (it lacks every word that kind
    needs): a test far cheaper than :func:`find_quantities`, which starts with it."""
    return any(w in lower for w in _KIND_WORDS[kind])


@lru_cache(maxsize=8192)
def find_quantities(text: str) -> tuple[Quantity, ...]:
    """Every duration, percentage and amount in ``text``, in order of position.

    Memoised: the same paragraph is read by many rules and by the validator.
    Each kind is only parsed when a word it needs is present (most paragraphs
    state no number at all).
    """
    lower = text.lower()
    found = []
    if may_state(lower, "duration"):
        found += _durations(text)
    if may_state(lower, "percent"):
        found += _percents(text)
    if may_state(lower, "amount"):
        found += _amounts(text)
    found.sort(key=lambda q: (q.start, -q.end))
    out: list[Quantity] = []
    for q in found:  # an amount's digits must not also count as something else
        if out and q.start < out[-1].end:
            continue
        out.append(q)
    return tuple(out)


def _number(m: re.Match[str]) -> tuple[float, float | None, str] | None:
    if m.group("d1") is not None:
        return _digits_value(m.group("d1")), words_to_number(m.group("w")), "words_digits"
    if m.group("d2") is not None:
        return _digits_value(m.group("d2")), None, "digits"
    value = words_to_number(m.group("w2"))
    return (float(value), None, "words") if value is not None else None


def _durations(text: str) -> list[Quantity]:
    out = []
    for m in _DURATION.finditer(text):
        number = _number(m)
        if number is None:
            continue
        value, words_value, style = number
        unit = m.group("unit").lower().rstrip("s") + "s"
        mod = (m.group("mod") or "").lower()
        if unit == "days" and mod in {"business", "working", "banking"}:
            unit = "business_days"
        unit_text = text[m.start("mod") if m.group("mod") else m.start("unit") : m.end("unit")]
        out.append(
            Quantity("duration", value, unit, m.start(), m.end(), m.group(0), style, words_value,
                     unit_text=unit_text, separator=m.group("sep"))
        )
    return out


def _percents(text: str) -> list[Quantity]:
    out = []
    for m in _PERCENT.finditer(text):
        if m.group("twice"):
            value, words_value, style = 200.0, None, "multiple"
        elif m.group("m"):
            raw = m.group("m")
            n = words_to_number(raw) if raw[0].isalpha() else _digits_value(raw)
            if n is None:
                continue
            value, words_value, style = float(n) * 100, None, "multiple"
        else:
            number = _number(m)
            if number is None:
                continue
            value, words_value, style = number
            if style == "digits" and m.group("pd").strip() != "%":
                style = "digits_word"
        per_m = _PER.match(text, m.end())
        per = None
        if per_m:
            per = "month" if (per_m.group("m1") or per_m.group("m2") or per_m.group("m3")) else "year"
        spelling = m.group("pw") or m.group("pw2") or (m.group("pd") or "").strip()
        out.append(
            Quantity("percent", value, "percent", m.start(), m.end(), m.group(0), style, words_value, per,
                     unit_text="percent" if spelling in ("", "%") else re.sub(r"\s+", " ", spelling))
        )
    return out


def _amounts(text: str) -> list[Quantity]:
    out = []
    for m in _AMOUNT.finditer(text):
        if m.group("cur"):
            cur_text, digits, scale = m.group("cur"), m.group("d"), m.group("scale")
            style = "prefix"
        else:
            cur_text, digits, scale = m.group("cur2"), m.group("d2"), m.group("scale2")
            style = "suffix"
        value = _digits_value(digits) * (_SCALE_VALUES.get(scale.lower(), 1.0) if scale else 1.0)
        out.append(
            Quantity("amount", value, _currency_code(cur_text), m.start(), m.end(), m.group(0), style, unit_text=cur_text,
                     separator=(scale or ""))
        )
    return out


def _currency_code(written: str) -> str:
    key = re.sub(r"\s+", " ", written.lower()).replace("u.s.", "us")
    key = key.replace("us dollars", "dollars")
    return _CURRENCY_CODES.get(key) or _CURRENCY_CODES.get(key.replace(" ", ""), written.upper())


def convert(q: Quantity, unit: str, per: str | None = None) -> float | None:
    """``q``'s value in ``unit`` (and per ``per`` for rates), or None when not comparable.

    Durations convert through days; a percent rate converts between per-month
    and per-year; a stated-per rate is not compared with a bare percentage;
    an amount compares only with amounts ("amount") or with its own currency.
    """
    if unit in DURATION_UNITS:
        if q.kind != "duration":
            return None
        return q.value * DAYS_PER_UNIT[q.unit] / DAYS_PER_UNIT[unit]
    if unit == "percent":
        if q.kind != "percent":
            return None
        if per is None:
            return q.value if q.per is None else None
        if q.per is None:
            return None
        if q.per == per:
            return q.value
        return q.value * 12 if per == "year" else q.value / 12
    if q.kind != "amount":
        return None
    return q.value if unit in ("amount", q.unit) else None


def _fmt_number(value: float) -> str:
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def _match_case(template: str, like: str) -> str:
    if like[:1].isupper() and template[:1].islower():
        return template[:1].upper() + template[1:]
    return template


def _unit_word(q: Quantity, unit: str, value: float) -> str:
    """The unit as the source wrote it when unchanged, else the plain name; singular for 1."""
    word = q.unit_text if unit == q.unit and q.unit_text else _UNIT_NAMES[unit]
    # "a ten (10) year term": a singular unit after a plural number is adjectival and stays singular.
    adjectival = bool(q.unit_text) and not q.unit_text.lower().endswith("s") and q.value != 1
    if value == 1 or adjectival:
        word = re.sub(r"s$", "", word)
    elif not word.lower().endswith("s"):
        word += "s"
    return word


def format_like(q: Quantity, value: float, unit: str | None = None) -> str:
    """Write ``value`` (in ``unit``, default ``q``'s) in the style ``q`` was written.

    This is what makes a replacement read as if the drafter wrote it:
    "ninety (90) days" → "sixty (60) days", "USD 250,000" → "USD 1,000,000".
    """
    unit = unit or q.unit
    integral = float(value).is_integer()
    digits = _fmt_number(value)
    words = number_to_words(int(value)) if integral else None
    if q.kind == "duration":
        word = _unit_word(q, unit, value)
        if q.separator.strip() == "-":  # adjective form: "30-day period"
            word = re.sub(r"s$", "", word)
        sep = q.separator
        if q.style == "words_digits" and words:
            out = f"{words} ({digits}){sep}{word}"
        elif q.style == "words" and words:
            out = f"{words}{sep}{word}"
        else:
            out = f"{digits}{sep}{word}"
        return _match_case(out, q.text)
    if q.kind == "percent":
        spelling = q.unit_text or "percent"
        if q.style == "words_digits" and words:
            out = f"{words} {spelling} ({digits}%)"
        elif q.style == "words" and words:
            out = f"{words} {spelling}"
        elif q.style == "digits_word":
            out = f"{digits} {spelling}"
        else:
            out = f"{digits}%"
        return _match_case(out, q.text)
    if q.style == "prefix":
        space = " " if re.match(r"^[A-Za-z]", q.unit_text) else ""
        if q.separator and value % _SCALE_VALUES[q.separator.lower()] == 0:
            return f"{q.unit_text}{space}{_fmt_number(value / _SCALE_VALUES[q.separator.lower()])} {q.separator}"
        return f"{q.unit_text}{space}{digits}"
    return f"{digits} {q.unit_text}"


def describe(value: float, unit: str, per: str | None = None) -> str:
    """A plain reading of a limit for comments: '60 days', '100%', '1.5% per month', '1,000,000'."""
    if unit in DURATION_UNITS:
        name = _UNIT_NAMES[unit].lower()
        return f"{_fmt_number(value)} {name[:-1] if value == 1 else name}"
    if unit == "percent":
        return f"{_fmt_number(value)}%" + (f" per {per}" if per else "")
    if unit == "amount":
        return _fmt_number(value)
    return f"{unit} {_fmt_number(value)}"
