"""The structure the review needs from a flat list of clauses.

A paragraph is read in its context: the heading it sits under tells what kind
of clause it is, the parties block tells who "the Supplier" is, and the
signature block tells where a missing clause should go. This module derives
all of that once per review, deterministically and without a model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from redline.clauses import ClauseReport, analyse
from redline.clauses.scan import Corpus

from .categories import Category, classify_heading, classify_texts
from .clauses import Clause
from .signature_block import signature_start

# Role nouns that name a contracting party in most commercial contracts.
ROLE_NOUNS: tuple[str, ...] = (
    "Service Provider", "Supplier", "Vendor", "Provider", "Contractor", "Consultant", "Licensor", "Licensee",
    "Customer", "Client", "Buyer", "Purchaser", "Seller", "Company", "Distributor", "Reseller",
)

_INFERRED_HEADING = re.compile(r"^(?:ARTICLE|SECTION|CLAUSE|SCHEDULE)\s+[\dIVXLC]+\b|^\d+(?:\.\d+)*\.?\s+[A-Z][A-Z &,/-]{2,}$")
_MODAL = re.compile(r"\b(?:shall|must|will|may|agrees?)\b", re.IGNORECASE)
_PARTY_DEF = re.compile(
    r"\(\s*(?:the\s+|hereinafter\s+(?:referred\s+to\s+as\s+)?(?:the\s+)?)?[\"“]([A-Z][\w&.' -]{1,40}?)[\"”]\s*\)"
)
_PARTY_BLOCK = re.compile(
    r"\b(?:company|corporation|incorporated|organi[sz]ed|registered|limited|ltd|llc|llp|inc|gmbh|plc|s\.a\.|b\.v\.|having its)\b",
    re.IGNORECASE,
)
# Between the last clause and the signatures: page numbers ("9", "- 35 -", "Page 3 of 10"), a filing's "Source:"
# line and its redaction legend ("[***] INDICATES MATERIAL THAT HAS BEEN OMITTED …").
_NOT_BODY = re.compile(r"^\W*(?:page\s+)?\d{1,3}(?:\s+of\s+\d{1,3})?\W*$|^\s*source:|^\W*\[\s*\*[\s*]*\]\s*(?:indicates|certain)\b"
                       r"|^\W*certain (?:confidential )?(?:information|portions|material)\b.{0,160}\bomitted\b", re.IGNORECASE)
_SIGNATURE_NOTE = re.compile(r"\bsignature pages?\s+(?:follows?|to follow|is attached)|\bsignatures?\s+(?:follow|on the "
                             r"(?:next|following) page)|\b(?:remainder|rest) of (?:this )?page\b.{0,40}\bblank\b", re.IGNORECASE)
_NOTE_MAX = 160  # a note this short is the whole paragraph; in a longer one it must end it
_NOT_PARTY = {"agreement", "effective date", "party", "parties", "services", "contract"}
_PARTY_SCAN = 60  # parties are defined at the top of a contract


@dataclass(frozen=True, slots=True)
class Document:
    """Clauses plus what is derived from their order and wording.

    ``lowered[i]`` is clause *i*'s text in lower case and ``lowered_all`` the whole
    document's, for the regex prefilter (one ``in`` test can rule a pattern out
    everywhere);
    ``categories[i]`` comes from clause *i*'s own text; ``section_categories[i]``
    from the headings above it; ``found`` is the clause engine's report
    (CUAD and playbook categories, indexed like ``clauses``); ``corpus`` finds the clauses a pattern
    matches without searching each one. ``headings[i]`` lists the indices of the
    headings enclosing clause *i*, outermost first.
    """

    clauses: tuple[Clause, ...]
    lowered: tuple[str, ...]
    lowered_all: str
    is_heading: tuple[bool, ...]
    headings: tuple[tuple[int, ...], ...]
    categories: tuple[frozenset[Category], ...]
    section_categories: tuple[frozenset[Category], ...]
    parties: tuple[str, ...]
    body_end: int
    signatures: int  # where the signature block begins (len(clauses): none found)
    found: ClauseReport
    corpus: Corpus
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)  # derived once, when first needed

    def context(self, i: int) -> str:
        """The heading path of clause *i* ("ARTICLE 4 CHARGES > 4.2 Payment"), for prompts."""
        return " > ".join(self.clauses[h].text.strip() for h in self.headings[i])

    def section_end(self, heading: int) -> int:
        """Index of the last clause under ``heading`` (before a heading of the same or a higher level)."""
        level = self.level(heading)
        end = heading
        for j in range(heading + 1, len(self.clauses)):
            if self.is_heading[j] and self.level(j) <= level:
                break
            end = j
        return end

    def level(self, i: int) -> int:
        """Heading level of clause *i* (1 for headings recognised by their wording)."""
        return self.clauses[i].heading_level or 1


def build_document(clauses: Sequence[Clause]) -> Document:
    """Derive headings, categories, parties and the end of the body in one pass."""
    clauses = tuple(clauses)
    corpus = Corpus([c.text for c in clauses])
    own_categories = classify_texts(corpus)
    is_heading = tuple(_is_heading(c) for c in clauses)
    headings: list[tuple[int, ...]] = []
    section_cats: list[frozenset[Category]] = []
    stack: list[tuple[int, int, frozenset[Category]]] = []  # (level, index, categories)
    categories: list[frozenset[Category]] = []
    for i, clause in enumerate(clauses):
        if is_heading[i]:
            level = clause.heading_level or 1
            if _is_title(clause):
                headings.append(())
                section_cats.append(frozenset())
                categories.append(frozenset())
                continue
            while stack and stack[-1][0] >= level:
                stack.pop()
            headings.append(tuple(s[1] for s in stack))
            section_cats.append(frozenset().union(*(s[2] for s in stack)))
            cats = classify_heading(clause.text)
            categories.append(cats)
            stack.append((level, i, cats))
        else:
            headings.append(tuple(s[1] for s in stack))
            section_cats.append(frozenset().union(*(s[2] for s in stack)))
            categories.append(own_categories[i])
    lowered = tuple(c.text.lower() for c in clauses)
    signatures = signature_start(clauses, is_heading)
    return Document(
        clauses=clauses,
        lowered=lowered,
        lowered_all="\n".join(lowered),
        is_heading=is_heading,
        headings=tuple(headings),
        categories=tuple(categories),
        section_categories=tuple(section_cats),
        parties=_parties(clauses),
        body_end=_body_end(clauses, is_heading, signatures),
        signatures=signatures,
        found=analyse(clauses),
        corpus=corpus,
    )


def _is_heading(clause: Clause) -> bool:
    if clause.heading_level is not None or _is_title(clause):
        return True
    text = clause.text.strip()
    if clause.in_table or len(text) > 80 or _MODAL.search(text):
        return False
    return bool(_INFERRED_HEADING.match(text)) or (text.isupper() and len(text.split()) <= 8)


def _is_title(clause: Clause) -> bool:
    return (clause.style or "").strip().lower() in {"title", "subtitle"} or clause.heading_level == 0


def _parties(clauses: Sequence[Clause]) -> tuple[str, ...]:
    """Party names defined in the parties block, e.g. '(the "Supplier")'."""
    found: list[str] = []
    for clause in clauses[:_PARTY_SCAN]:
        if not _PARTY_BLOCK.search(clause.text):
            continue
        for m in _PARTY_DEF.finditer(clause.text):
            name = m.group(1).strip()
            if name.lower() not in _NOT_PARTY and name not in found:
                found.append(name)
    return tuple(found)


def _body_end(clauses: Sequence[Clause], is_heading: Sequence[bool], stop: int) -> int:
    """Index of the last body paragraph before the signature block at ``stop`` (where a missing clause goes).

    What a filing puts between the last clause and the signatures is not body: page numbers, "Source:" lines,
    a redaction legend, and the note that the signature page follows, alone or at the end of the last clause
    (a clause inserted after "… restates the Production Contract. [SIGNATURE PAGE FOLLOWS]" would follow it).
    """
    for i in range(stop - 1, -1, -1):
        text = clauses[i].text
        introduces_table = i + 1 < len(clauses) and clauses[i + 1].in_table
        if is_heading[i] or clauses[i].in_table or introduces_table or _NOT_BODY.match(text):
            continue
        note = _SIGNATURE_NOTE.search(text)
        if note and (len(text) <= _NOTE_MAX or note.end() >= len(text.rstrip()) - 5):
            continue
        return i
    return max(stop - 1, 0)
