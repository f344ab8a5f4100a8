"""What the hygiene injectors read in a paragraph before they edit it: sentence ends, number words and their
figures, paired brackets; and a seeded shuffle. Our own readers, so the grader does not share the checks'."""

from __future__ import annotations

import random
import re

_SENTENCE_END = re.compile(r"(?<=[a-z)])\.(?=\s+[A-Z(\"“]|\s*$)")
_ABBREVIATION = re.compile(r"\b(?:Inc|Corp|Co|Ltd|No|Nos|Mr|Mrs|Ms|Dr|St|etc|e\.g|i\.e|viz|approx)$")
_PAIR = re.compile(r"(?<![\w-])((?:[A-Za-z]+[\s-]+){0,5}[A-Za-z]+)\s*\(\s*([\"“]?)(\d{1,3}(?:,\d{3})+|\d+)[\"”]?\s*\)")
_UNITS = {w: n for n, w in enumerate(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                                      "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
                                      "seventeen", "eighteen", "nineteen"])}
_TENS = {w: 10 * n for n, w in enumerate(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
                                          "ninety"], start=2)}


def words_value(words: list[str]) -> int | None:
    """The value of number words ("one hundred twenty", "forty-five" split at the hyphen); None if any word
    is not a number word. Our own reader, so the grader does not share the check's."""
    total = current = 0
    if not words or words[0].lower() == "and":
        return None
    for word in (w.lower() for w in words):
        if word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = (current or 1) * 100
        elif word == "thousand":
            total, current = total + (current or 1) * 1000, 0
        elif word != "and":
            return None
    return total + current


def number_pairs(text: str) -> list[tuple[int, int, int, int]]:
    """Every words-and-digits pair that agrees ("thirty (30)", "ninety ("90")"): (start of the words,
    start and end of the digits, end of the pair)."""
    out = []
    for m in _PAIR.finditer(text):
        words = list(re.finditer(r"[A-Za-z]+", m.group(1)))
        for k in range(len(words)):
            value = words_value([w.group(0) for w in words[k:]])
            if value is not None:
                if value and value == int(m.group(3).replace(",", "")):
                    out.append((m.start(1) + words[k].start(), m.start(3), m.end(3), m.end()))
                break
    return out


def sentence_ends(text: str) -> list[int]:
    """Where sentences end (the full stop), abbreviations ("Inc.") and numbers ("4.2") left out."""
    return [m.start() for m in _SENTENCE_END.finditer(text) if not _ABBREVIATION.search(text, 0, m.start())]


def balanced_pairs(text: str) -> list[tuple[int, int]]:
    """The parenthesised pairs of a paragraph whose parentheses all pair up (none otherwise) that neither
    hold nor sit in another: with one dropped from a nest, which "(" was left open is anybody's guess."""
    stack: list[int] = []
    pairs = []
    for i, c in enumerate(text):
        if c == "(":
            stack.append(i)
        elif c == ")":
            if not stack:
                return []
            opened = stack.pop()
            if not stack and "(" not in text[opened + 1: i]:
                pairs.append((opened, i))
    return [] if stack else pairs


def shuffled(items: list[int], rng: random.Random) -> list[int]:
    items = list(items)
    rng.shuffle(items)
    return items
