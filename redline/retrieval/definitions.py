"""Defined terms: where each is defined, and every place it is used.

A clause that says "Cause" means what the definitions section says it means;
a reviewer (human or model) who sees only the clause is guessing. This module
finds the definitions in all the shapes contracts use — ``"X" means``,
``"X" shall mean``, ``the term "X"``, ``(the "X")``, ``(hereinafter "X")``,
unquoted entries of a definitions list — and links every later use of the
term back to them, matching plurals and capitalisation the way a reader would
(a capitalised term is a defined term; "control" in lower case is not
"Control", unless the term was defined in lower case).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .blocks import Block
from .labels import parse_label

_Q_OPEN = "\"“"
_Q_CLOSE = "\"”"
_TERM = rf"[^{_Q_OPEN}{_Q_CLOSE}\n]{{1,80}}?"
_QUOTED = rf"[{_Q_OPEN}]({_TERM})[{_Q_CLOSE}]"
_VERB = (
    r"(?:shall\s+mean|means|mean|shall\s+have\s+the\s+meanings?|has\s+the\s+meanings?|have\s+the\s+meanings?"
    r"|shall\s+refer\s+to|refers\s+to|is\s+defined\s+as|shall\s+be\s+defined\s+as|shall\s+include|includes)"
)
# "X" means / "X" or "Y" means / "X" (or "Y") shall mean / "X": (definitions lists)
_MEANS_RE = re.compile(
    rf"{_QUOTED}((?:\s*(?:,|or|and|\(|\))\s*[{_Q_OPEN}]{_TERM}[{_Q_CLOSE}]\)?)*)\s*,?\s*(?:{_VERB}\b|:(?=\s))"
)
_EXTRA_QUOTED_RE = re.compile(_QUOTED)
_THE_TERM_RE = re.compile(rf"\bthe\s+(?:terms?|words?|expressions?)\s+{_QUOTED}((?:\s*(?:,|or|and)\s*{_QUOTED})*)")
_HEREINAFTER_RE = re.compile(
    rf"\b(?:hereinafter|hereafter|herein)\s+(?:(?:referred\s+to|called|known)\s+(?:as\s+)?)?(?:the\s+|a\s+|an\s+)?{_QUOTED}",
    re.IGNORECASE,
)
_PAREN_RE = re.compile(r"\(([^()]{1,250})\)")
_PAREN_GLUE = frozenset(
    ["the", "a", "an", "each", "collectively", "individually", "together", "jointly", "hereinafter", "herein", "hereafter", "as", "called", "and", "or", "respectively", "also", "this"]
)
_LIST_TERM_RE = re.compile(r"^((?:[A-Z][\w/&'’-]*|of|and|or|the|for|in|to)(?:\s+(?:[A-Z][\w/&'’-]*|of|and|or|the|for|in|to)){0,7})"
                           r"\s+(?:shall\s+mean|means|shall\s+have\s+the\s+meaning|has\s+the\s+meaning)\b")
_MAX_TERM_WORDS = 8
_POINTER_RE = re.compile(
    r"\b(?:ha(?:s|ve)|shall\s+have)\s+the\s+(?:respective\s+)?meanings?\s+(?:as\s+)?(?:set\s+(?:forth|out)|given|assigned|"
    r"ascribed|specified|provided|attributed|stated|defined)\b|\bas\s+(?:such\s+term\s+is\s+)?defined\s+in\b",
    re.IGNORECASE,
)


@dataclass(slots=True)
class DefinitionSite:
    """One place a term is defined: the block, the span of the definition and how it was written."""

    block: int
    start: int
    end: int
    term_start: int
    term_end: int
    pattern: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"block": self.block, "start": self.start, "end": self.end, "term_start": self.term_start,
                "term_end": self.term_end, "pattern": self.pattern}


def is_pointer(text: str) -> bool:
    """Whether a definition only sends the reader elsewhere ("has the meaning set forth in Section 7.1").

    Such a site says where the term is defined, not what it means: context
    built for a reader (or a model) shows the substantive site first.
    """
    return bool(_POINTER_RE.search(text))


@dataclass(slots=True)
class Definition:
    """A defined term with every site that defines it (a term can be defined twice)."""

    id: str
    term: str
    key: str
    sites: list[DefinitionSite] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"id": self.id, "term": self.term, "key": self.key, "sites": [s.to_dict() for s in self.sites]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Definition:
        """Inverse of :meth:`to_dict`."""
        return cls(data["id"], data["term"], data["key"], [DefinitionSite(**s) for s in data["sites"]])


@dataclass(frozen=True, slots=True)
class Usage:
    """A use of a defined term in a block (character offsets into the document text)."""

    definition: str
    block: int
    start: int
    end: int


def term_key(term: str) -> str:
    """The identity of a term: lower case, single spaces, last word singular ("Products" = "Product")."""
    words = " ".join(term.split()).lower().split(" ")
    words[-1] = _singular(words[-1])
    return " ".join(words)


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _plural(word: str) -> str:
    if word.endswith("y") and len(word) > 1 and word[-2].lower() not in "aeiou":
        return word[:-1] + ("IES" if word.isupper() else "ies")
    if word.endswith(("s", "x", "ch", "sh")):
        return word + ("ES" if word.isupper() else "es")
    return word + ("S" if word.isupper() else "s")


def find_definitions(blocks: list[Block], definition_blocks: set[int]) -> list[Definition]:
    """Every definition in the document, in order of first appearance.

    ``definition_blocks`` are the blocks of sections titled as definitions,
    where unquoted "Affiliate means …" entries are also definitions.
    """
    by_key: dict[str, Definition] = {}
    for block in blocks:
        for term, site in definition_sites(block, block.index in definition_blocks):
            key = term_key(term)
            definition = by_key.get(key)
            if definition is None:
                definition = by_key[key] = Definition(f"d{len(by_key) + 1}", term, key)
            if not any(s.term_start == site.term_start for s in definition.sites):
                definition.sites.append(site)
    return list(by_key.values())


def definition_sites(block: Block, in_definitions: bool) -> list[tuple[str, DefinitionSite]]:
    """Every term a block defines, with where; ``in_definitions``: the block is in a definitions section."""
    text = block.text
    found: list[tuple[str, int, int, str]] = []  # term, term start, term end (block offsets), pattern
    for m in _THE_TERM_RE.finditer(text):
        found.append((m.group(1), m.start(1), m.end(1), "the_term"))
        for extra in _EXTRA_QUOTED_RE.finditer(m.group(2) or ""):
            offset = m.start(2) + extra.start(1)
            found.append((extra.group(1), offset, offset + len(extra.group(1)), "the_term"))
    for m in _MEANS_RE.finditer(text):
        found.append((m.group(1), m.start(1), m.end(1), "means"))
        for extra in _EXTRA_QUOTED_RE.finditer(m.group(2) or ""):
            offset = m.start(2) + extra.start(1)
            found.append((extra.group(1), offset, offset + len(extra.group(1)), "means"))
    for m in _HEREINAFTER_RE.finditer(text):
        found.append((m.group(1), m.start(1), m.end(1), "hereinafter"))
    for m in _PAREN_RE.finditer(text):
        found.extend(_parenthetical(m))
    if in_definitions and not found:
        found.extend(_list_entry(text))
    seen: set[int] = set()
    out = []
    means_starts = sorted(s for _, s, _, p in found if p == "means")
    for term, s, e, pattern in sorted(found, key=lambda f: f[1]):  # stable: "the term" beats "refers to"
        if s in seen:
            continue
        seen.add(s)
        term = term.strip()
        if len(term.split()) > _MAX_TERM_WORDS or not any(c.isalpha() for c in term):
            continue  # a quoted sentence or figure, not a term
        start, end = _definition_span(text, s, pattern, means_starts)
        out.append((term, DefinitionSite(
            block=block.index, start=block.start + start, end=block.start + end,
            term_start=block.start + s, term_end=block.start + e, pattern=pattern,
        )))
    return out


def _parenthetical(m: re.Match[str]) -> list[tuple[str, int, int, str]]:
    """``(the "Company")``, ``(together with Supplier, the "Parties")``: a quote right after a glue word.

    Quotes after other words ("(as described in "Exhibit A")") are citations, not definitions.
    """
    inner = m.group(1)
    out = []
    for q in _EXTRA_QUOTED_RE.finditer(inner):
        before = re.findall(r"[A-Za-z]+", inner[: q.start()])
        if before and before[-1].lower() not in _PAREN_GLUE:
            continue
        pattern = "hereinafter" if "hereinafter" in inner[: q.start()].lower() else "parenthetical"
        out.append((q.group(1), m.start(1) + q.start(1), m.start(1) + q.end(1), pattern))
    return out


def _list_entry(text: str) -> list[tuple[str, int, int, str]]:
    """An unquoted entry of a definitions list: "1.5 Affiliate means …"."""
    parsed = parse_label(text)
    offset = parsed[1] if parsed else 0
    body = text[offset:]
    lead = len(body) - len(body.lstrip())
    m = _LIST_TERM_RE.match(body.lstrip())
    if not m:
        return []
    start = offset + lead
    return [(m.group(1), start, start + len(m.group(1)), "list")]


def _definition_span(text: str, term_start: int, pattern: str, means_starts: list[int]) -> tuple[int, int]:
    """The text that defines the term: a list entry to the next entry, or the sentence around it."""
    if pattern in ("means", "list"):
        start = 0 if term_start < 16 else _sentence_start(text, term_start)
        later = [s for s in means_starts if s > term_start]
        return start, later[0] - 1 if later else len(text)
    return _sentence_start(text, term_start), _sentence_end(text, term_start)


def _sentence_start(text: str, pos: int) -> int:
    cut = max(text.rfind(". ", 0, pos), text.rfind("; ", 0, pos))
    return cut + 2 if cut >= 0 else 0


_SENTENCE_END_RE = re.compile(r"[.;](?=\s+[A-Z(\"“]|\s*$)")
_ABBREVIATIONS = re.compile(r"(?:\b(?:Inc|Corp|Co|Ltd|Lic|No|Nos|Mr|Mrs|Ms|Dr|St|U\.S|S\.A|N\.V|B\.V|L\.P|L\.L\.C|e\.g|i\.e|viz|etc))$")


def _sentence_end(text: str, pos: int) -> int:
    """End of the sentence holding ``pos``; "Acme Corp. (the…" does not end it."""
    for m in _SENTENCE_END_RE.finditer(text, pos):
        if m.group(0) == "." and _ABBREVIATIONS.search(text, 0, m.start()):
            continue
        return m.end()
    return len(text)


# -- usages -------------------------------------------------------------------------------
def find_usages(blocks: list[Block], definitions: list[Definition], skip: set[int]) -> list[Usage]:
    """Every use of every defined term, longest term first ("Confidential Information" is not "Information").

    Blocks in ``skip`` (furniture, contents) are not searched; the quoted term
    at a definition site is not a use.
    """
    if not definitions:
        return []
    variants: dict[str, str] = {}
    insensitive: dict[str, str] = {}
    for d in definitions:
        for v in _variants(d.term):
            if d.term.lower() == d.term:
                insensitive.setdefault(v.lower(), d.id)
            else:
                variants.setdefault(v, d.id)
    pattern = _usage_pattern(variants, insensitive)
    defining = {(s.term_start, s.term_end) for d in definitions for s in d.sites}
    out: list[Usage] = []
    for block in blocks:
        if block.index in skip:
            continue
        for m in pattern.finditer(block.text):
            start, end = block.start + m.start(), block.start + m.end()
            if (start, end) in defining:
                continue
            found = " ".join(m.group(0).split())
            did = variants.get(found) or insensitive.get(found.lower())
            if did is not None:
                out.append(Usage(did, block.index, start, end))
    return out


def _variants(term: str) -> set[str]:
    words = term.split()
    last = words[-1]
    singular = _singular(last.lower())
    forms = {last, _plural(last)}
    if singular != last.lower():
        forms.add(last[: len(singular)] if last[: len(singular)].lower() == singular else singular)
    out = set()
    for form in forms:
        phrase = " ".join([*words[:-1], form])
        out.add(phrase)
        out.add(phrase.upper())
    return {v for v in out if v.strip()}


def _usage_pattern(variants: dict[str, str], insensitive: dict[str, str]) -> re.Pattern[str]:
    def alt(items: list[str]) -> str:
        return "|".join(r"\s+".join(re.escape(w) for w in v.split()) for v in sorted(items, key=len, reverse=True))

    parts = []
    if variants:
        parts.append(alt(list(variants)))
    if insensitive:
        parts.append(f"(?i:{alt(list(insensitive))})")
    return re.compile(rf"(?<![\w-])(?:{'|'.join(parts)})(?![\w-])")
