"""Words and figures that disagree: "thirty (60) days", "five percent (10%)", "Ten Thousand Dollars ($1,000)".

Contracts write important numbers twice so that a typo in one is caught by the
other; when the two disagree nobody knows which was meant, and courts reach
for canons (words prevail over figures) rather than for what the parties
agreed. Finding the disagreement is mechanical: read the words as a number
("One Hundred Twenty-Five Thousand", "two and one-half", "Ten Thousand and
50/100"), read the figure in the parentheses next to them ("(60)", "(10%)",
"(US$ 1,000.00)", "($10 million)"), and compare. The reverse order, "30
(thirty)", is read too.

Only a pair that parses completely on both sides is compared, so a phrase the
reader cannot value ("one-third (33.33%)", "one half of one percent (0.5%)",
"fifth (5th)") is left alone rather than guessed at: ordinals are out of scope
and a fraction written "of" something is not the number in front of it.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from ..blocks import Block
from ..graph import ContractGraph
from ..layout import Role
from .finding import Finding

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
    "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}
_SCALES = {"thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000, "trillion": 1_000_000_000_000}
# Denominators of a fraction: "one-half", "three-quarters", "one-tenth"; only after a numerator ("a", "one"…).
_DENOMS = {"half": 2, "halves": 2, "quarter": 4, "quarters": 4, "fourth": 4, "fourths": 4,
           "tenth": 10, "tenths": 10, "hundredth": 100, "hundredths": 100}
_NUM_WORD = "|".join(sorted([*_UNITS, *_SCALES, *_DENOMS, "hundred"], key=len, reverse=True))
_SEP = r"(?:\s*[-‐‑–\xad]\s*|\s+)"
_WORDS = (
    rf"\b(?:{_NUM_WORD})\b(?:{_SEP}(?:and{_SEP}(?:a{_SEP})?)?(?:{_NUM_WORD})\b)*"
    r"(?:\s+and\s+\d{1,2}/100(?:ths)?)?"
)
_CURRENCY = r"(?:USD\s?\$|U\.?S\.?\s?\$|USD|C\$|CAD|A\$|AUD|EUR|GBP|RMB|Rs\.?|INR|[$€£¥])"
_UNIT_WORDS = (
    r"(?:(?:U\.?S\.?|United\s+States|Canadian|Australian|Hong\s+Kong|Singapore)\s+)?"
    r"(?:dollars?|percent|per\s?cent|euros?|pounds(?:\s+sterling)?)"
)
_FIGURE = (
    rf"(?P<cur>{_CURRENCY})?\s?(?P<num>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<frac>[\s-]?(?:[½¼¾]|\d/\d{1,2}))?"
    r"(?:\s?(?P<scale>thousand|million|billion)\b)?\s?(?P<pct>%|percent\b|per\s?cent\b)?"
    r"(?:\s?(?:USD|U\.S\.\s?dollars|dollars))?"
)
# words, an optional unit ("Dollars", "percent"), then the figure in parentheses
_WORDS_FIRST_RE = re.compile(
    rf"(?P<words>{_WORDS})(?P<unit>{_SEP}{_UNIT_WORDS})?\s*(?P<open>\()\s*[\"“]?{_FIGURE}[\"”]?\s*\)", re.IGNORECASE
)
# the figure, then the words in parentheses: "30 (thirty) days", "$1,000 (one thousand dollars)"
_FIGURE_FIRST_RE = re.compile(
    rf"(?<![\w.,/-]){_FIGURE}\s*(?P<open>\()\s*(?P<words>{_WORDS})(?P<unit>\s+{_UNIT_WORDS})?\s*\)", re.IGNORECASE
)
# where a pair can be: a parenthesis opening on a figure, "(60)", "($1,000)", "(US$ 5)", or on a number word
_FIGURE_PAREN_RE = re.compile(r"\((?=\s?[\"“]?(?:[A-Z$€£¥][A-Za-z.]{0,3}\s?\$?\s?)?\d)")
_WORDS_PAREN_RE = re.compile(rf"\((?=\s*(?:{_NUM_WORD})\b)", re.IGNORECASE)
_WINDOW = 200  # characters either side of that parenthesis a pair can span
_ENDS_IN_WORD_RE = re.compile(rf"(?:{_NUM_WORD}|dollars?|percent|cent|sterling|euros?)[\s\xad]*$", re.IGNORECASE)
_ENDS_IN_FIGURE_RE = re.compile(r"[\d%½¼¾]\s*(?:USD|dollars|percent|thousand|million|billion)?\s*$", re.IGNORECASE)
# "one half of one percent (0.5%)": the words in front are a fraction *of* the number, not the number
_FRACTION_OF_RE = re.compile(
    rf"(?:{'|'.join(_DENOMS)}|third|thirds|fifth|fifths|{'|'.join(_UNITS)}|hundred)\s+of\s+(?:the\s+)?$", re.I
)
# "one percent and one-half (1.5%)": the words run on past what was matched; not one readable number
_AND_RE = re.compile(rf"\b(?:{_NUM_WORD}|percent|dollars?)\s+and\s+(?:a\s+)?$", re.IGNORECASE)
_CENTS_RE = re.compile(r"\band\s+(\d{1,2})/100(?:ths)?$", re.IGNORECASE)
_FRACTION_GLYPHS = {"½": Decimal("0.5"), "¼": Decimal("0.25"), "¾": Decimal("0.75")}


def check(graph: ContractGraph) -> list[Finding]:
    """Every place where a number written in words and the same number in figures disagree."""
    findings: list[Finding] = []
    for block in graph.blocks:
        if graph.roles[block.index] is not Role.BODY or "(" not in block.text:
            continue
        findings.extend(_check_block(block))
    return findings


def words_value(words: str) -> Decimal | None:
    """The value of a number written in words ("One Hundred Twenty-Five Thousand" → 125000), or None
    when the words are not one well-formed number ("two three", "half")."""
    words = words.strip()
    cents = Decimal(0)
    m = _CENTS_RE.search(words)
    if m:
        cents = Decimal(m.group(1)) / 100
        words = words[: m.start()].strip()
    parts = [t for t in re.split(r"[\s\-‐‑–\xad]+", words.lower()) if t]
    groups: list[list[str]] = [[]]
    for word in parts:
        if word == "and":
            groups.append([])
        else:
            groups[-1].append(word)
    if not groups[0] or any(not g for g in groups):
        return None
    integer_tokens, fraction = list(groups[0]), Decimal(0)
    for group in groups[1:]:
        if group[-1] in _DENOMS:
            if fraction or group is not groups[-1]:
                return None
            value = _fraction(group)
            if value is None:
                return None
            fraction = value
        else:
            integer_tokens.extend(group)
    if integer_tokens[-1] in _DENOMS:  # "one-half" on its own
        value = _fraction(integer_tokens)
        return None if value is None or len(groups) > 1 else value + cents
    whole = _integer(integer_tokens)
    if whole is None:
        return None
    return Decimal(whole) + fraction + cents


def _integer(parts: list[str]) -> int | None:
    total, current, last = 0, 0, ""
    for word in parts:
        if word in _UNITS:
            value = _UNITS[word]
            # "twenty five" is fine, "five twenty" / "two three" is not one number
            if last in _UNITS and not (_UNITS[last] >= 20 and _UNITS[last] % 10 == 0 and value < 10):
                return None
            current += value
        elif word == "hundred":
            if last == "hundred":
                return None
            current = (current or 1) * 100
        elif word in _SCALES:
            if last in _SCALES:
                return None
            total += (current or 1) * _SCALES[word]
            current = 0
        else:
            return None
        last = word
    return total + current


def _fraction(parts: list[str]) -> Decimal | None:
    """ "one half", "a half", "three quarters", "one tenth"."""
    *numerator, denominator = parts
    if numerator in (["a"], []):
        count = 1
    else:
        count_or_none = _integer(numerator)
        if count_or_none is None:
            return None
        count = count_or_none
    return Decimal(count) / Decimal(_DENOMS[denominator])


def _figure_value(m: re.Match[str]) -> Decimal | None:
    try:
        value = Decimal(m.group("num").replace(",", ""))
    except InvalidOperation:
        return None
    frac = (m.group("frac") or "").strip(" -")
    if frac:
        if frac in _FRACTION_GLYPHS:
            value += _FRACTION_GLYPHS[frac]
        else:
            top, bottom = frac.split("/")
            if int(bottom) == 0:
                return None
            value += Decimal(top) / Decimal(bottom)
    scale = (m.group("scale") or "").lower()
    if scale:
        value *= _SCALES[scale]
    return value


def _pairs(text: str) -> list[tuple[re.Match[str], bool]]:
    """Words-and-figure pairs, looked for only around a parenthesis that opens on a figure or on a number word
    (the full patterns are slow to try at every word of a long contract)."""
    out = []
    for cue, before, regex, words_first in ((_FIGURE_PAREN_RE, _ENDS_IN_WORD_RE, _WORDS_FIRST_RE, True),
                                            (_WORDS_PAREN_RE, _ENDS_IN_FIGURE_RE, _FIGURE_FIRST_RE, False)):
        for c in cue.finditer(text):
            paren = c.start()
            if not before.search(text, max(0, paren - 30), paren):
                continue  # "Section 4 (1)", "(2)": no number in words right before the parenthesis
            close = text.find(")", paren, paren + _WINDOW)
            for m in regex.finditer(text, max(0, paren - _WINDOW), close + 1 if close > 0 else paren + _WINDOW):
                if m.start("open") == paren:
                    out.append((m, words_first))
    return out


def _check_block(block: Block) -> list[Finding]:
    text, out, seen = block.text, [], set()
    for m, words_first in _pairs(text):
        if m.start() in seen:
            continue
        words = m.group("words")
        before = text[max(0, m.start() - 30): m.start()]
        if words_first and (_FRACTION_OF_RE.search(before) or _AND_RE.search(before)):
            continue
        said, figure = words_value(words), _figure_value(m)
        if said is None or figure is None or said == figure or _fraction_as_percent(said, figure, m):
            continue
        seen.add(m.start())
        quote = m.group(0)
        out.append(Finding(
            kind="words_digits", block=block.index, anchor=block.anchor, quote=quote, start=m.start(),
            message=(f"The words and the figure disagree in '{quote}': the words say "
                     f"{_said(words, m.group('unit'))} ({_format(said, m)}) but the figure says "
                     f"{_format(figure, m)}; confirm which is meant."),
        ))
    return out


def _fraction_as_percent(said: Decimal, figure: Decimal, m: re.Match[str]) -> bool:
    """ "one-half (50%)": a fraction in words and the same share as a percentage agree."""
    percent_words = re.search(r"per\s?cent", m.group("unit") or "", re.I)
    return bool(m.group("pct")) and not percent_words and said < 1 and said * 100 == figure


def _said(words: str, unit: str | None) -> str:
    return " ".join(f"{words}{unit or ''}".split())


def _format(value: Decimal, m: re.Match[str]) -> str:
    """A value written the way the figure is (currency sign, thousands separators, percent)."""
    number = format(value.normalize(), "f") if value != value.to_integral_value() else str(int(value))
    if "." in number:
        whole, _, decimals = number.partition(".")
        if m.group("cur") and len(decimals) == 1:
            decimals += "0"  # "$10,000.50", as money is written
        number = f"{int(whole):,}.{decimals}"
    elif value >= 10_000 or "," in m.group("num"):
        number = f"{int(value):,}"
    currency = m.group("cur") or ""
    percent = "%" if m.group("pct") or re.search(r"per\s?cent", m.group("unit") or "", re.I) else ""
    return f"{currency}{number}{percent}"
