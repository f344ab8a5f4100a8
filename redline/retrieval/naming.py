"""What a question names: sections (by number or by title) and defined terms.

A lawyer who names "Section 8.2" or "Confidential Information" wants exactly
that, so named nodes become anchors of the search directly. Each mention of
the question is read once, longest and most explicit first, and the words it
covers are claimed:

1. references ("Section 8.2", "Article IV", "Exhibit B");
2. quoted terms ("How is "Software User" defined …");
3. section titles ("the Site Selection Addendum");
4. capitalised uses of defined terms ("the Licensed Products").

A later reading never reuses claimed words. Without that, the "Section" of
"Section 13" reads as a defined term "Section", the "Software" inside
"Software User" as a second term and as an exhibit titled "Software", and the
verb in "Section 3 references Section 1" as a clause titled "References"; each
such false anchor takes a share of the budget from what was asked. A one-word
title names its section only when the question writes it capitalised, as a
name: "what obligations does it create" does not name "8.2 Obligations".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .references import RawRef, extract

if TYPE_CHECKING:
    from .graph import ContractGraph

_QUOTED_RE = re.compile(r"[\"“]([^\"”]{1,80})[\"”]")
_MIN_TITLE_CHARS = 6
# Words that say nothing about which section is meant: function words and the words of any contract.
_GENERIC = frozenset(["this", "that", "these", "those", "what", "which", "when", "where", "whether", "does", "each",
                      "other", "under", "with", "from", "into", "about", "between", "such", "only", "also", "than",
                      "then", "upon", "within", "without", "after", "before", "there", "their", "have", "shall", "will",
                      "would", "could", "should", "agreement", "contract", "section", "sections", "article", "articles",
                      "clause", "clauses", "paragraph", "provision", "provisions", "party", "parties", "hereunder",
                      "herein", "thereof"])
# Words that introduce a reference; a contract may "define" one ("references to a Section …") but a
# question that writes "Section" is pointing at a section, not asking about that term.
_REFERENCE_WORDS = frozenset(["section", "article", "clause", "paragraph", "exhibit", "schedule", "annex", "appendix",
                              "attachment", "addendum"])


@dataclass(slots=True)
class Named:
    """The sections and defined terms a question names, in the order it names them."""

    sections: list[str] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)


class _Claims:
    """Character ranges of the question already read as a name."""

    def __init__(self) -> None:
        self.spans: list[tuple[int, int]] = []

    def free(self, start: int, end: int) -> bool:
        return all(end <= s or e <= start for s, e in self.spans)

    def take(self, start: int, end: int) -> None:
        self.spans.append((start, end))


def named_in(graph: ContractGraph, query: str) -> Named:
    """The sections and terms ``query`` names (see the module docstring)."""
    out = Named()
    claims = _Claims()
    raws = extract(query)
    for raw in raws:
        claims.take(raw.start, raw.end)
    words = _topic_words(query, claims)
    for sid in (_reading(graph, raw, words) for raw in raws):
        if sid and sid not in out.sections:
            out.sections.append(sid)
    for m in _QUOTED_RE.finditer(query):
        d = graph.definition(m.group(1))
        if d is None:
            continue
        claims.take(m.start(1), m.end(1))
        if d.id not in out.terms:
            out.terms.append(d.id)
    for start, end, sid in sorted(_title_mentions(graph, query), key=lambda t: (t[0] - t[1], t[0])):
        if claims.free(start, end):
            claims.take(start, end)
            if sid not in out.sections:
                out.sections.append(sid)
    for start, end, did in sorted(_term_mentions(graph, query), key=lambda t: (t[0] - t[1], t[0])):
        if claims.free(start, end):
            claims.take(start, end)
            if did not in out.terms:
                out.terms.append(did)
    return out


def _reading(graph: ContractGraph, raw: RawRef, words: set[str]) -> str | None:
    """The section a named number means: the default reading, unless the number is ambiguous (a schedule
    or a second agreement has its own "Section 8") and another reading's heading shares more of the
    question's words ("termination rights under Section 8" → "8. Term and Termination")."""
    readings = graph.readings(raw)
    if len(readings) < 2:
        return readings[0] if readings else None

    def fit(sid: str) -> int:
        return len(words & _stems(graph.section(sid).title or ""))

    best = max(readings, key=fit)
    return best if fit(best) > fit(readings[0]) else readings[0]


def _stems(text: str) -> set[str]:
    """Content words cut to a stem ("termination", "terminate" → "termin")."""
    return {w[:6] for w in re.findall(r"[a-z]{4,}", text.lower()) if w not in _GENERIC}


def _topic_words(query: str, claims: _Claims) -> set[str]:
    """The stems of the question's words outside the references it names."""
    kept = "".join(ch if claims.free(i, i + 1) else " " for i, ch in enumerate(query))
    return _stems(kept)


def _title_mentions(graph: ContractGraph, query: str) -> list[tuple[int, int, str]]:
    """Where the question writes a section's title (or a named key such as "exhibit b")."""
    found = []
    for s in graph.sections:
        names = {" ".join((s.title or "").split()), *(k for k in s.keys if not k[:1].isdigit())}
        for name in names:
            if len(name) < _MIN_TITLE_CHARS:
                continue
            pattern = r"\s+".join(re.escape(w) for w in name.split())
            for m in re.finditer(rf"(?<![\w]){pattern}(?![\w])", query, re.IGNORECASE):
                if " " in name or m.group(0)[:1].isupper():
                    found.append((m.start(), m.end(), s.id))
    return found


def _term_mentions(graph: ContractGraph, query: str) -> list[tuple[int, int, str]]:
    """Capitalised uses of defined terms (singular or plural) in the question."""
    found = []
    for d in graph.definitions:
        if len(d.term) < 3 or d.term.lower() == d.term or d.term.lower().rstrip("s") in _REFERENCE_WORDS:
            continue
        for m in re.finditer(rf"(?<![\w-]){re.escape(d.term)}(?:s|es)?(?![\w-])", query):
            found.append((m.start(), m.end(), d.id))
    return found
