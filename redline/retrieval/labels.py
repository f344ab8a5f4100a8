"""Numbering labels: what "4.2", "(b)", "ARTICLE IV" or "Exhibit B" say about a section.

A contract's outline is carried by its labels. Each label has a *kind* (the
family of numbering it belongs to: dotted numbers of a given depth, "(a)"
letters, "(i)" roman numerals, articles, schedules…) and an *ordinal* (its
position among its siblings), so the outline builder can tell a next sibling
from a first child or from a number that merely appears in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_ROMAN_RE = re.compile(r"^(?=[ivxlcdm]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$", re.IGNORECASE)

SCHEDULE_WORDS = ("schedule", "exhibit", "annex", "appendix", "attachment", "addendum")


def roman_to_int(token: str) -> int | None:
    """The value of a roman numeral ("iv" -> 4), or None when it is not one."""
    if not token or not _ROMAN_RE.match(token):
        return None
    total = prev = 0
    for ch in reversed(token.lower()):
        value = _ROMAN_VALUES[ch]
        total = total - value if value < prev else total + value
        prev = max(prev, value)
    return total


def letter_ordinal(token: str) -> int | None:
    """"a" -> 1 … "z" -> 26, "aa" -> 27 (the usual doubling after z)."""
    if not token.isalpha():
        return None
    low = token.lower()
    if len(set(low)) != 1:
        return None
    return (ord(low[0]) - ord("a") + 1) + 26 * (len(low) - 1)


@dataclass(frozen=True, slots=True)
class Label:
    """A parsed numbering label.

    ``kind`` groups labels that are siblings of each other ("num2" for 4.2,
    "alpha" for (b), "roman" for (iv), "article", "schedule"…); ``ordinal`` is
    the label's position among those siblings; ``parts`` holds the dotted
    components ("4", "2") so "4.2.1" can find its parent "4.2"; ``key`` is the
    normalised form used to resolve references ("4.2", "b", "iv", "exhibit b").
    ``alt`` is the other reading of an ambiguous letter ("(i)" is the ninth
    letter or roman one).
    """

    kind: str
    ordinal: int
    key: str
    text: str
    parts: tuple[str, ...] = ()
    alt: Label | None = None


_DOTTED = r"\d{1,3}(?:\.\d{1,3})*"
_ARTICLE_RE = re.compile(r"^(ARTICLE|Article)\s+([IVXLC]+|\d{1,3})\b\.?")
_SECTION_RE = re.compile(rf"^(?:SECTION|Section|§)\s*({_DOTTED})\.?(?=\s|$|\()")
_SCHEDULE_RE = re.compile(
    r"^(SCHEDULE|Schedule|EXHIBIT|Exhibit|ANNEX|Annex|APPENDIX|Appendix|ATTACHMENT|Attachment|ADDENDUM|Addendum)"
    r"\s+([A-Z](?:-\d{1,2})?|\d{1,2}(?:\.\d{1,2})?|[IVX]{1,4})(?![\w'’])\.?"
)
_NUMBER_RE = re.compile(rf"^({_DOTTED})(\.?)(?=\s|$|(?<=\.)[A-Z]{{2}})")
_PAREN_RE = re.compile(r"^\(([a-z]{1,2}|[A-Z]{1,2}|\d{1,2}|[ivxlc]{1,6}|[IVXLC]{1,6})\)(?=\s|$)")
_LETTER_DOT_RE = re.compile(r"^([A-Z]|[a-z])[.)](?=\s)")


def parse_label(text: str) -> tuple[Label, int] | None:
    """Parse the label at the start of ``text``; returns it and where the rest begins.

    Only the shapes lawyers number with are accepted; the caller decides from
    layout and sequence whether a match really opens a section.
    """
    for parse in (_article, _section_word, _schedule, _number, _paren, _letter_dot):
        found = parse(text)
        if found is not None:
            return found
    return None


def _article(text: str) -> tuple[Label, int] | None:
    m = _ARTICLE_RE.match(text)
    if not m:
        return None
    token = m.group(2)
    value = int(token) if token.isdigit() else roman_to_int(token)
    if not value:
        return None
    return Label("article", value, str(value), m.group(0).rstrip(".")), m.end()


def _section_word(text: str) -> tuple[Label, int] | None:
    m = _SECTION_RE.match(text)
    if not m:
        return None
    return _dotted(m.group(1), m.group(0)), m.end()


def _schedule(text: str) -> tuple[Label, int] | None:
    m = _SCHEDULE_RE.match(text)
    if not m:
        return None
    word, token = m.group(1).lower(), m.group(2).upper()
    ordinal = int(token.split(".")[0]) if token[0].isdigit() else (letter_ordinal(token[0]) or 1)
    return Label("schedule", ordinal, f"{word} {token.lower()}", m.group(0).rstrip(".")), m.end()


def _number(text: str) -> tuple[Label, int] | None:
    m = _NUMBER_RE.match(text)
    if not m:
        return None
    token = m.group(1)
    rest = text[m.end():].strip()
    # A bare integer without its dot is a label only alone or before a capital
    # ("7 TERM"); "5 business days" is a quantity.
    if "." not in token and not m.group(2) and rest and not rest[:1].isupper():
        return None
    return _dotted(token, m.group(0)), m.end()


def _dotted(token: str, text: str) -> Label:
    parts = tuple(str(int(p)) for p in token.split("."))
    while len(parts) > 1 and parts[-1] == "0":  # "1.0 DEFINITIONS" is article 1
        parts = parts[:-1]
    return Label(f"num{len(parts)}", int(parts[-1]), ".".join(parts), text.rstrip(".") or text, parts)


def _paren(text: str) -> tuple[Label, int] | None:
    m = _PAREN_RE.match(text)
    if not m:
        return None
    return _letter_label(m.group(1), m.group(0), paren=True), m.end()


def _letter_dot(text: str) -> tuple[Label, int] | None:
    m = _LETTER_DOT_RE.match(text)
    if not m:
        return None
    return _letter_label(m.group(1), m.group(0), paren=False), m.end()


def _letter_label(token: str, text: str, *, paren: bool) -> Label:
    """Letters, roman numerals and numbers in brackets; "(i)"/"(v)"/"(x)" keep both readings."""
    suffix = "" if paren else "."
    if token.isdigit():
        return Label("pnum" + suffix, int(token), token, text)
    upper = token.isupper()
    letters = Label(("ALPHA" if upper else "alpha") + suffix, letter_ordinal(token) or 0, token.lower(), text)
    roman_value = roman_to_int(token)
    if roman_value is None:
        return letters
    roman = Label(("ROMAN" if upper else "roman") + suffix, roman_value, token.lower(), text)
    if letters.ordinal == 0 or (len(token) > 1 and len(set(token.lower())) > 1):
        return roman
    # A single letter that is also a numeral: prefer roman for i, letters otherwise;
    # the outline builder swaps to ``alt`` when the sequence says so.
    if token.lower() == "i" or len(token) > 1:
        return Label(roman.kind, roman.ordinal, roman.key, text, alt=letters)
    return Label(letters.kind, letters.ordinal, letters.key, text, alt=roman)
