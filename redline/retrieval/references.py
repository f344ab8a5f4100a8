"""Cross-references: "subject to Section 8.2", "Sections 3 and 4", "paragraph (c)", "Exhibit B".

Each reference is extracted with the words that make it one, then resolved
against the outline: numbers to the section that carries them, "(c)" relative
to where it is written (the nearest enclosing section with such a clause),
"Section 8.1(b)" down to the clause when it exists and to 8.1 when only that
does. References to other instruments ("Section 4.2 of the Separation
Agreement", "Section 351(k) of the Act") are recognised and never resolved
into this document. Nothing is dropped: unresolved references are kept and
reported, because a broken cross-reference is exactly what a reviewer wants
to hear about.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .blocks import Block
from .labels import roman_to_int

_NUM = r"\d{1,3}(?:\.\d{1,3})*(?:\([a-zA-Z0-9]{1,4}\))*"
_PAREN = r"(?:\([a-zA-Z0-9]{1,4}\))+"
_ROMAN_OR_NUM = r"(?:[IVXLC]{1,7}|\d{1,3})(?![\w])"
_SCHED_ID = r"(?:[A-Z](?:-\d{1,2})?|\d{1,2}(?:\.\d{1,2})?)(?![\w'’])"
_JOIN = r"\s*(?:,\s*(?:and|or)?|and|or|through|to|and/or|-|–)\s*"

_FORMS: list[tuple[str, str, str]] = [
    # (kind, keyword pattern, identifier pattern)
    ("section", r"(?:[Ss]ections?|SECTIONS?|§§?)", rf"(?:{_NUM}|[IVXLC]{{1,7}}(?![\w]))"),  # "Section XIII" too
    ("article", r"(?:[Aa]rticles?|ARTICLES?)", _ROMAN_OR_NUM),
    ("clause", r"(?:[Cc]lauses?|[Pp]aragraphs?|[Ss]ub-?sections?|[Ss]ub-?paragraphs?|[Ss]ub-?clauses?)",
     rf"(?:{_NUM}|{_PAREN})"),
    ("schedule", r"(?:[Ss]chedules?|SCHEDULES?|[Ee]xhibits?|EXHIBITS?|[Aa]nnex(?:es)?|ANNEX(?:ES)?|[Aa]ppendix|"
                 r"[Aa]ppendices|APPENDIX|[Aa]ttachments?|ATTACHMENTS?)", _SCHED_ID),
]
_EXTERNAL_RE = re.compile(
    r"^\s*(?:of|under|in)\s+(?:the\s+)?(?!this\b|these\b|such\b)(?:[A-Z][\w.&'’-]*\s+){0,6}"
    r"(?:Agreement|Act|Code|Regulations?|Plan|Lease|Contract|Rules?|Convention|Directive|U\.S\.C\.|C\.F\.R\.)\b"
)
_BARE_RE = re.compile(r"(?<![\w.§])(\d{1,3}\.\d{1,3}(?:\.\d{1,3})*(?:\([a-zA-Z0-9]{1,4}\))+)")
_SCHEDULE_WORDS = {"schedule": "schedule", "exhibit": "exhibit", "annex": "annex", "appendix": "appendix",
                   "appendice": "appendix", "attachment": "attachment"}


@dataclass(slots=True)
class Reference:
    """One cross-reference as written, and where it leads.

    ``status`` is "resolved" (to ``target``), "partial" (to the nearest
    existing ancestor, e.g. 8.1 for a missing 8.1(b)), "unresolved" or
    "external" (to another document). Offsets are into the document text.
    """

    source: str
    block: int
    start: int
    end: int
    text: str
    kind: str
    ident: str
    target: str | None = None
    status: str = "unresolved"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"source": self.source, "block": self.block, "start": self.start, "end": self.end, "text": self.text,
                "kind": self.kind, "ident": self.ident, "target": self.target, "status": self.status}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Reference:
        """Inverse of :meth:`to_dict`."""
        return cls(**data)


def _compile() -> list[tuple[str, re.Pattern[str], re.Pattern[str]]]:
    out = []
    for kind, keyword, ident in _FORMS:
        whole = re.compile(rf"(?<![\w])({keyword})\s*({ident}(?:{_JOIN}(?:{keyword}\s*)?(?:{ident}|{_PAREN}))*)")
        item = re.compile(rf"{ident}|{_PAREN}")
        out.append((kind, whole, item))
    return out


_COMPILED = _compile()
_KEYWORD_RES = {kind: re.compile(keyword) for kind, keyword, _ in _FORMS}


@dataclass(frozen=True, slots=True)
class RawRef:
    """A reference found in text, before resolution."""

    kind: str
    ident: str
    start: int
    end: int
    text: str
    word: str
    external: bool


def extract(text: str) -> list[RawRef]:
    """Every reference in a piece of text, lists expanded ("Sections 3 and 4" gives two)."""
    out: list[RawRef] = []
    taken: list[tuple[int, int]] = []
    for kind, whole, item in _COMPILED:
        for m in whole.finditer(text):
            if any(s <= m.start() < e for s, e in taken):
                continue
            taken.append((m.start(), m.end()))
            external = bool(_EXTERNAL_RE.match(text[m.end():m.end() + 120]))
            # "Section 9.9 and Section 4.2 of the MSA": only what follows the last keyword is external.
            repeats = [r.end() for r in re.finditer(_KEYWORD_RES[kind], m.group(2))]
            external_from = repeats[-1] if repeats else 0
            word = m.group(1).lower().rstrip("s") if kind == "schedule" else kind
            previous = ""
            items = list(item.finditer(m.group(2)))
            for n, it in enumerate(items):
                ident = it.group(0)
                if ident.startswith("(") and previous and kind != "clause":
                    ident = re.sub(r"(\([^()]*\))+$", "", previous) + ident  # "8.1(a) and (b)"
                elif not ident.startswith("("):
                    previous = ident
                s = m.start(2) + it.start()
                e = m.start(2) + it.end()
                start = m.start() if n == 0 else s
                out.append(RawRef(kind, ident, start, e, text[start:e], _SCHEDULE_WORDS.get(word, word),
                                  external and it.start() >= external_from))
    for m in _BARE_RE.finditer(text):
        if not any(s <= m.start() < e for s, e in taken):
            out.append(RawRef("section", m.group(1), m.start(), m.end(), m.group(1), "section", False))
    return sorted(out, key=lambda r: r.start)


Resolver = Callable[[RawRef, str], tuple[str | None, str]]


def find_references(blocks: list[Block], owner: list[str | None], resolve: Resolver, skip: set[int],
                    headings: set[int]) -> list[Reference]:
    """References in every body block, resolved with ``resolve(raw, source_section_id)``.

    A heading's own label ("ARTICLE 2 SERVICES", "EXHIBIT B") is not a reference to itself.
    """
    out: list[Reference] = []
    for block in blocks:
        source = owner[block.index]
        if block.index in skip or source is None:
            continue
        for raw in extract(block.text):
            if raw.start == 0 and block.index in headings:
                continue
            if raw.external:
                target, status = None, "external"
            else:
                target, status = resolve(raw, source)
            out.append(Reference(
                source=source, block=block.index, start=block.start + raw.start, end=block.start + raw.end,
                text=raw.text, kind=raw.kind if raw.kind != "schedule" else raw.word, ident=raw.ident,
                target=target, status=status,
            ))
    return out


def split_ident(ident: str) -> tuple[str, list[str]]:
    """"8.1(b)(ii)" -> ("8.1", ["b", "ii"]); "(c)" -> ("", ["c"])."""
    base = re.sub(r"(\([^()]*\))+$", "", ident)
    return base.rstrip("."), [p.lower() for p in re.findall(r"\(([^()]*)\)", ident[len(base):])]


def normalise_number(number: str) -> str:
    """"4.01" -> "4.1", "IV" -> "4" (how section numbers are compared)."""
    if re.fullmatch(r"[IVXLCivxlc]+", number):
        value = roman_to_int(number)
        return str(value) if value else number.lower()
    parts = [str(int(p)) if p.isdigit() else p.lower() for p in number.split(".") if p]
    while len(parts) > 1 and parts[-1] == "0":
        parts.pop()
    return ".".join(parts)
