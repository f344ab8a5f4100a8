"""Sentence units: the spans the clause engine scores and cites.

A citation a lawyer can trust starts and ends where a sentence does, inside
one paragraph. Contracts make that harder than prose: "Inc.", "U.S." and
"Section 2.1." are not sentence ends, a numbered caption ("12. Governing Law.")
is not a sentence of its own, and some "sentences" run for a page of
semicolons. So a paragraph is split at sentence ends that are not
abbreviations, fragments shorter than :data:`MIN_CHARS` are joined to their
neighbour, and a sentence longer than :data:`MAX_CHARS` is split again at
its semicolons (each piece still ends at a clause boundary), which keeps five
passages well under the 4,000 characters a reader can take in.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

MIN_CHARS = 30
MAX_CHARS = 900

# A candidate end: terminal punctuation (closing quotes/brackets allowed), then space.
_END = re.compile(r"[.!?][\"'”’)\]]*(?=\s+\S)")
_ABBREV = frozenset(
    ["inc", "corp", "co", "ltd", "llc", "l.l.c", "plc", "l.p", "lp", "n.a", "s.a", "s.a.r.l", "b.v", "n.v", "ag", "gmbh", "pty", "no", "nos", "sec", "secs", "art", "arts", "e.g", "i.e", "etc", "vs", "v", "mr", "mrs", "ms", "dr", "st", "jr", "sr", "u.s", "u.k", "u.s.a", "approx", "dept", "est", "fig", "para", "paras", "ch", "cl", "sch", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mt", "ave", "blvd", "rd", 'ste",']
)
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_ENUM_ONLY = re.compile(r"^\s*(?:\(?[0-9ivxlcA-Za-z]{1,4}[.)]|[0-9]+(?:\.[0-9]+)*\.?|section\s+[0-9.]+|article\s+\w+)\s*$",
                        re.IGNORECASE)
# "12.3 Termination for Convenience." : a clause title, not a sentence of its own.
_CAPTION = re.compile(
    r"^\s*(?:(?:section|article)\s+)?(?:\(?[0-9]+(?:\.[0-9]+)*[.)]?|\(?[a-zA-Z][.)])?\s*"
    r"[A-Z][\w'’&/,-]*(?:\s+(?:[A-Z][\w'’&/,-]*|of|and|or|the|to|for|in|on|a|an|by|with)){0,9}\s*[.:]$",
)
_SEMI = re.compile(r";(?:\s+(?:and|or)\b)?(?=\s+\S)")


@dataclass(frozen=True, slots=True)
class Span:
    """``[start, end)`` in the paragraph's text; the text itself with whitespace as written."""

    start: int
    end: int


def sentence_spans(text: str) -> list[Span]:
    """The sentence-complete spans of one paragraph, in order, covering all its words."""
    pieces = _split_sentences(text)
    pieces = _join_fragments(text, pieces)
    out: list[Span] = []
    for start, end in pieces:
        out.extend(_split_long(text, start, end))
    return out


def _split_sentences(text: str) -> list[tuple[int, int]]:
    cuts = [0]
    for m in _END.finditer(text):
        end = m.end()
        if text[m.start()] == "." and _is_abbreviation(text, m.start()):
            continue
        if _next_is_lower(text, end):
            continue
        cuts.append(end)
    cuts.append(len(text))
    spans = []
    for a, b in itertools.pairwise(cuts):
        a, b = _strip(text, a, b)
        if b > a:
            spans.append((a, b))
    return spans


def _is_abbreviation(text: str, dot: int) -> bool:
    m = _WORD_BEFORE.search(text, max(0, dot - 12), dot)
    if not m:
        return text[dot - 1: dot].isdigit() and _number_continues(text, dot)
    word = m.group(1).lower().rstrip(".")
    if len(word) == 1:  # "A." an initial or an enumerator, never a sentence of its own
        return True
    return word in _ABBREV or ("." in word and len(word) <= 6)  # "U.S.", "N.V."


def _number_continues(text: str, dot: int) -> bool:
    """'Section 2.' followed by a number or a lower-case word is a reference, not an end."""
    nxt = text[dot + 1: dot + 3].lstrip()
    return bool(nxt) and (nxt[0].isdigit() or nxt[0].islower())


def _next_is_lower(text: str, pos: int) -> bool:
    rest = text[pos: pos + 4].lstrip()
    return bool(rest) and rest[0].islower()


def _strip(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def _join_fragments(text: str, pieces: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Join enumerators and captions ("1.", "12. Governing Law.") to the sentence they open."""
    out: list[tuple[int, int]] = []
    carry: int | None = None
    last = len(pieces) - 1
    for i, (a, b) in enumerate(pieces):
        if carry is not None:
            a, carry = carry, None
        piece = text[a:b]
        if (b - a < MIN_CHARS or _ENUM_ONLY.match(piece) or _CAPTION.match(piece)) and i != last:
            carry = a
            continue
        if out and b - a < MIN_CHARS // 2:
            out[-1] = (out[-1][0], b)
            continue
        out.append((a, b))
    if carry is not None:
        if out:
            out[-1] = (out[-1][0], len(text.rstrip()))
        else:
            out.append(_strip(text, carry, len(text)))
    return out


def _split_long(text: str, start: int, end: int) -> list[Span]:
    if end - start <= MAX_CHARS:
        return [Span(start, end)]
    out: list[Span] = []
    a = start
    for m in _SEMI.finditer(text, start, end):
        if m.end() - a >= MAX_CHARS // 3 and end - m.end() >= MIN_CHARS:
            s, e = _strip(text, a, m.end())
            out.append(Span(s, e))
            a = m.end()
    s, e = _strip(text, a, end)
    if e > s:
        out.append(Span(s, e))
    return out
