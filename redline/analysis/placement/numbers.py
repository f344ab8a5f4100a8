"""Clause numbers as contracts write them: "14.", "14.3", "14A.", "Section 9", "ARTICLE IV".

Split from :mod:`.place`: reading a paragraph's number,
and the number that follows it ("14.4", or "14A" when "15." is taken), is
needed both to build the contract's outline
(:mod:`.outline`) and to number an inserted clause.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

# "14.", "14.3", "14.3.", "14A.", "Section 9", "ARTICLE 4", "ARTICLE IV", "Clause 7.2" at the start of a paragraph.
NUMBER = re.compile(
    r"^\s*(?:(?P<kw>article|section|clause|part)\s+)?"
    r"(?:(?P<num>\d{1,3}(?:\.\d{1,3})*)(?P<suffix>(?-i:[A-Z]))?|(?P<roman>(?-i:[IVXLC]{1,7}))(?=[.\s]|$))"
    r"(?P<dot>\.?)(?P<sep>[ \t]+|$)",
    re.IGNORECASE,
)
# "(a)", "a)", "(iv)", "(A)": a sub-item, never the level a clause is inserted at.
ITEM = re.compile(r"^\s*(?:\(\s*(?:[a-z]{1,2}|[ivxlc]{1,6}|\d{1,2})\s*\)|[a-z]\))", re.IGNORECASE)
_ROMAN = (("M", 1000), ("CM", 900), ("D", 500), ("CD", 400), ("C", 100), ("XC", 90), ("L", 50), ("XL", 40),
          ("X", 10), ("IX", 9), ("V", 5), ("IV", 4), ("I", 1))


@dataclass(frozen=True, slots=True)
class Number:
    """A clause number as the contract writes it ("14.", "14.3", "14A.", "Section 9", "ARTICLE IV").

    ``parts`` are its levels as written ("14A", "1"); ``typed`` is False for
    Word's computed list label, which is not text and must never be copied
    into an inserted clause.
    """

    parts: tuple[str, ...]
    keyword: str = ""
    dot: bool = False
    roman: bool = False
    typed: bool = True

    @property
    def depth(self) -> int:
        """1 for "14.", 2 for "14.3"."""
        return len(self.parts)

    def following(self, step: int = 1) -> Number:
        """The number ``step`` places on at the same level ("14.3" → "14.4", "14A" → "14B")."""
        digits, letter = _split(self.parts[-1])
        last = f"{digits}{chr(ord(letter) + step)}" if letter else str(int(digits) + step)
        return replace(self, parts=(*self.parts[:-1], last))

    def inserted_after(self) -> Number:
        """The drafter's number for a clause inserted after this one without renumbering ("14" → "14A")."""
        if _split(self.parts[-1])[1]:
            return self.following()
        return replace(self, parts=(*self.parts[:-1], self.parts[-1] + "A"))

    def child(self, like: Number) -> Number:
        """The first sub-clause of this number ("15." → "15.1", "14A" → "14A.1"), written like ``like``."""
        return replace(like, parts=(*self.parts, "1"), roman=False)

    def key(self) -> tuple[str, ...]:
        """What makes two numbers the same clause number, however they are written."""
        return tuple(p.upper() for p in self.parts)

    def render(self) -> str:
        """As the contract writes it."""
        if self.roman:
            digits, letter = _split(self.parts[0])
            body = _to_roman(int(digits)) + letter
        else:
            body = ".".join(self.parts)
        body += "." if self.dot else ""
        return f"{self.keyword} {body}" if self.keyword else body


def parse_number(text: str, *, typed: bool) -> Number | None:
    if ITEM.match(text):
        return None
    m = NUMBER.match(text)
    if m is None:
        return None
    keyword = m.group("kw") or ""
    if m.group("roman"):
        value = _from_roman(m.group("roman"))
        if (not keyword and not m.group("dot")) or _to_roman(value) != m.group("roman"):
            return None  # "I agree", "CIVIL.": words, not numbers
        return Number((str(value),), keyword, bool(m.group("dot")), True, typed)
    parts = m.group("num").split(".")
    parts[-1] += (m.group("suffix") or "").upper()
    if typed and not keyword and len(parts) == 1 and not m.group("dot") and m.group("sep") != "\t" \
            and not text[m.end():][:1].isupper():
        return None  # "30 days after ...": a quantity, not a clause number
    return Number(tuple(parts), keyword, bool(m.group("dot")), False, typed)


def after_number(text: str, number: Number | None) -> str:
    if number is None or not number.typed:
        return text
    m = NUMBER.match(text)
    return text[m.end():] if m else text


def _split(part: str) -> tuple[str, str]:
    """"14A" → ("14", "A")."""
    return (part[:-1], part[-1]) if part[-1:].isalpha() else (part, "")


def _to_roman(n: int) -> str:
    out = ""
    for letters, value in _ROMAN:
        while n >= value:
            out += letters
            n -= value
    return out


def _from_roman(s: str) -> int:
    values = dict(_ROMAN)
    return sum(-values[c] if n + 1 < len(s) and values[s[n + 1]] > values[c] else values[c] for n, c in enumerate(s))
