"""The contract's outline as the placement of a missing clause sees it: a tree of clauses.

Split from :mod:`.place`, which decides where a missing
clause goes; this module finds the operative part (past the parties, recitals
and table of contents, before the signature block and schedules), builds its
clause tree from headings and numbers, and tells which sections are the
definitions and which the general provisions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..categories import Category, classify_heading
from ..clauses import Clause
from ..document import Document
from .numbers import ITEM, NUMBER, Number, after_number, parse_number

C = Category

# The general provisions: a trailing run of sections of these kinds is the boilerplate that a new
# substantive clause goes before, and where a missing clause of these kinds belongs.
BOILERPLATE: frozenset[Category] = frozenset({
    C.GENERAL, C.NOTICES, C.GOVERNING_LAW, C.DISPUTE_RESOLUTION, C.FORCE_MAJEURE, C.ASSIGNMENT})

_BOILERPLATE_TITLE = re.compile(
    r"\b(?:general|miscellaneous|boilerplate|entire agreement|severab\w*|waivers?|counterparts|notices?|governing law"
    r"|jurisdiction|law and jurisdiction|amendments?|variations?|third[- ]party rights|no partnership|relationship of"
    r" the parties|further assurances?|announcements|costs and expenses|survival|assignment|force majeure"
    r"|disputes?|headings|captions|construction|language|integration|independent contractors?|successors|assignability"
    r"|binding effect|expenses|attorneys'? fees|publicity|cumulative remedies|no third[- ]party beneficiar\w*)\b",
    re.IGNORECASE,
)
_DEFINITIONS_TITLE = re.compile(r"\b(?:definitions?|interpretation|defined terms)\b", re.IGNORECASE)

# Front matter: the parties, recitals and table of contents that come before the operative clauses.
_AGREED = re.compile(
    r"\b(?:now,?\s+therefore|it is (?:hereby )?agreed|agreed?s?\s+as follows)\b",
    re.IGNORECASE,
)
_FRONT_HEADING = re.compile(
    r"^\W*(?:recitals?|background|preamble|whereas|parties|between|table of contents|contents)\W*$", re.IGNORECASE)
_FRONT_TEXT = re.compile(
    r"^\W*(?:whereas\b|\(?[A-H]\)\s|\(?\d\)\s|between\b|by and between\b|dated?\b|this\b.{0,120}\b(?:is made|is entered"
    r"|is dated|dated)\b)|\((?:the\s+)?[\"“][^\"”]{1,40}[\"”]\)|\beach a [\"“]part",
    re.IGNORECASE,
)
# The filing's exhibit label on a line of its own at the top ("Exhibit 10.1", "EX-10.2"): not a section.
_FILING_LABEL = re.compile(r"^\W*ex(?:hibit)?[\s.-]*\d+(?:\.\d+)*[a-z]?\W*$", re.IGNORECASE)
_FILING_TOP = 3
_GROUP_HEADING = re.compile(r"^\W*(?:part|chapter|title|division|schedule)\b|\b(?:general|miscellaneous"
                            r"|provisions|terms|conditions|boilerplate)\b", re.IGNORECASE)
# A page number run in from the page above may come first ("14 Appendix 1 SLINGER ...").
_SCHEDULE = re.compile(r"^\W*(?:\d{1,3}\s+(?=\S+\s+\S+(?:\s+(?-i:[A-Z]{2,})|\s*$)))?(?:schedule|annex|annexure|appendix|exhibit"
                       r"|attachment)\s+(?:\d+|[A-Z]|[IVX]+)\b", re.IGNORECASE)
_ENTERED_INTO = re.compile(r"^\W*this (?:agreement|deed) has been (?:entered into|executed)", re.IGNORECASE)
_TOC_ENTRY = re.compile(r"(?:\t|\.{3,}|…)\s*\d{1,4}\s*$")
_TOC_TAIL = 40
_OBLIGATION = re.compile(r"\b(?:shall|must|agrees?|hereby)\b", re.IGNORECASE)
_CONTENTS_TITLE = re.compile(r"^\W*(?:table of contents\b|contents\W*$)", re.IGNORECASE)
# A table of contents flattened into one paragraph: "Section 1.02 Accounting Terms 4 ARTICLE II ... 5".
# ... or without the keywords: "8.9 Material Intellectual Property Agreements 11 8.10 Royalties 11 ..."
_CONTENTS_NUMBERED = re.compile(r"\b\d+(?:\.\d+)+\s+[A-Z][^;:.]{2,60}?\s\d{1,3}(?=\s|$)")
_CONTENTS_RUN = re.compile(r"\b(?:section|article)\s+[\dIVX]+(?:\.\d+)*\.?\s+[A-Z][^;:]{2,80}?\s\d{1,3}(?=\s|$)",
                           re.IGNORECASE)
_FRONT_SCAN = 80  # front matter is at the top of a contract
_RUN_IN = re.compile(r"^([A-Z][\w'’&,;/ -]{1,60}?)[.:]\s+\S")
# A title run into its first sub-clause without a full stop: "9. Miscellaneous 9.1 Notices ...".
_SUB_RUN_IN = re.compile(r"^([A-Z][\w'’&,;/ -]{1,60}?)\s+(\d+(?:\.\d+)+)\.?\s")
# A capitals title run into its clause by a conversion: "MISCELLANEOUS 15.1 Governing Law ...",
# "TRANSFER TAXES All transfer ...".
_CAPS_RUN_IN = re.compile(r"^((?:[A-Z][A-Z'’&,;/-]*\s+){0,6}[A-Z][A-Z'’&;/-]{2,})\s+(?=\d+(?:\.\d+)+\s|[A-Z][a-z])")
_VERB = re.compile(r"\b(?:shall|must|will|may|is|are|agrees?|means)\b", re.IGNORECASE)  # a sentence, not a title


@dataclass(frozen=True, slots=True)
class Unit:
    """A clause and the clauses it contains: ``start`` opens it (a heading or a numbered paragraph),
    ``end`` is its last paragraph, ``rank`` how high it sits (None: a loose paragraph)."""

    start: int
    end: int
    rank: tuple[int, int] | None
    number: Number | None
    children: tuple[Unit, ...]


class Outline:
    """The operative part of a contract as a tree of clauses, and which of them are the
    definitions and the general provisions."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self._kinds: dict[int, frozenset[Category]] = {}
        self.first = _operative_start(doc)
        self.last = _operative_end(doc, self.first)
        self.numbers = [_number_of(doc, i) for i in range(len(doc.clauses))]
        self.roots = _build(doc, self.numbers, self.first, self.last)
        self.index = {id(r): n for n, r in enumerate(self.roots)}
        self.root_of: dict[int, Unit] = {i: r for r in self.roots for i in range(r.start, r.end + 1)}
        # Numbers taken: the operative part's, and, when it runs to the signatures, those of the paragraphs up
        # to the block's first line (a trailing heading, or the last clause a witness line was run into).
        upto = min(doc.signatures, len(doc.clauses) - 1) if self.last == doc.body_end else self.last
        self.typed = {n.key() for n in self.numbers[self.first: upto + 1] if n is not None and n.typed}
        self._definitions = {id(r) for r in self.roots if self._defines(r)}
        self.titled = sum(bool(self.title(r)) for r in self.roots) * 2 > len(self.roots)  # sections have titles
        n = len(self.roots)
        while n > 0 and self._is_general(self.roots[n - 1]):
            n -= 1
        self.general_from = n  # index into roots of the trailing run of general provisions

    def title(self, unit: Unit) -> str:
        """A clause's title: its heading's words, or those its text opens with ("Counterparts")."""
        text = after_number(self.doc.clauses[unit.start].text, self.numbers[unit.start]).strip()
        if self.doc.is_heading[unit.start]:
            return text
        m = _RUN_IN.match(text) or _caps_title(text) or _sub_title(text, self.numbers[unit.start])
        return m.group(1) if m and len(m.group(1).split()) <= 6 and not _VERB.search(m.group(1)) else ""

    def kinds(self, unit: Unit) -> frozenset[Category]:
        """The categories a clause's title announces (memoised: every rule asks about every title)."""
        kinds = self._kinds.get(unit.start)
        if kinds is None:
            kinds = self._kinds[unit.start] = classify_heading(self.title(unit))
        return kinds

    def is_definitions(self, root: Unit) -> bool:
        return id(root) in self._definitions

    def _defines(self, unit: Unit) -> bool:
        if _DEFINITIONS_TITLE.search(self.title(unit)):
            return True
        body = range(unit.start, unit.end + 1)
        return sum(C.DEFINITIONS in self.doc.categories[i] for i in body) * 2 > len(body)

    def _is_general(self, unit: Unit) -> bool:
        title = self.title(unit)
        if title:
            return bool(_BOILERPLATE_TITLE.search(title) or self.kinds(unit) & BOILERPLATE)
        kinds = set().union(*(self.doc.categories[i] for i in range(unit.start, unit.end + 1)))
        return bool(kinds) and kinds <= BOILERPLATE

    def allowed(self, i: int, *, general: bool) -> bool:
        """Whether paragraph *i* is in a section a new clause may join: operative, not the definitions,
        and not the general provisions unless the clause is one of them."""
        root = self.root_of.get(i)
        if root is None or self.is_definitions(root) or C.DEFINITIONS in self.doc.categories[i]:
            return False
        return general or self.index[id(root)] < self.general_from

    def end(self, unit: Unit) -> int:
        """The last paragraph of ``unit`` that text can follow: not a table cell or a table's caption."""
        clauses = self.doc.clauses
        end = unit.end
        while end > unit.start and (clauses[end].in_table or (end + 1 < len(clauses) and clauses[end + 1].in_table)):
            end -= 1
        return end


def _operative_start(doc: Document) -> int:
    """Index of the first operative paragraph: after "NOW, THEREFORE ... agree as follows" when the
    contract says it, and past a leading title, parties block, recitals and table of contents."""
    clauses = doc.clauses
    scan = range(min(len(clauses), _FRONT_SCAN, doc.body_end + 1))
    start = next((i + 1 for i in scan if _AGREED.search(clauses[i].text) and not NUMBER.match(clauses[i].text)
                  and len(clauses[i].text) < 400), 0)
    start = max(start, _contents_end(clauses, scan))
    while start < doc.body_end and _front_matter(doc, start):
        start += 1
    return start


def _operative_end(doc: Document, first: int) -> int:
    """Index of the last operative paragraph: before the signature block (``doc.body_end`` already stops
    there, :mod:`.signature_block`) and before schedules, annexes and exhibits, which some contracts put
    ahead of their signatures (their clauses are not the contract's). An exhibit title run into its first
    paragraph counts in the second half of the document (CUAD's filings often render them so)."""
    half = len(doc.clauses) // 2
    for i in range(first + 1, doc.body_end + 1):
        text = doc.clauses[i].text
        schedule = _SCHEDULE.match(text) and (doc.is_heading[i] or i >= half)  # "Exhibit A Revenue ..." run in
        if schedule or _ENTERED_INTO.match(text):
            return i - 1
    return doc.body_end


def _sub_title(text: str, number: Number | None) -> re.Match[str] | None:
    """A title run into the clause's own first sub-clause ("Miscellaneous 9.1 Notices ..." under "9.")."""
    m = _SUB_RUN_IN.match(text)
    if m and number is not None and m.group(2).startswith(".".join(number.parts) + "."):
        return m
    return None


def _caps_title(text: str) -> re.Match[str] | None:
    """A capitals title run into its clause: two words or more, or one that names a kind of clause
    ("MISCELLANEOUS 15.1 ..."); "ACME Corporation shall ..." or "LICENSEE Agrees ..." is a sentence."""
    m = _CAPS_RUN_IN.match(text)
    if m and (len(m.group(1).split()) >= 2 or classify_heading(m.group(1)) or _BOILERPLATE_TITLE.search(m.group(1))):
        return m
    return None


def _contents_end(clauses: Sequence[Clause], scan: range) -> int:
    """One past the last paragraph of a table of contents at the top (0: none), found even after a cover
    line the front-matter test does not know; the search ends where the operative part begins."""
    end = 0
    for i in scan:
        text = clauses[i].text
        if _contents(text):
            end = i + 1
        elif _AGREED.search(text) or (NUMBER.match(text) and _OBLIGATION.search(text)):
            break
    return end


def _contents(text: str) -> bool:
    """Whether a paragraph is (part of) a table of contents: no obligations, entries with page numbers."""
    if _OBLIGATION.search(text):
        return False
    return bool(_CONTENTS_TITLE.match(text) or _toc_entry(text) or len(_CONTENTS_RUN.findall(text)) >= 2
                or len(_CONTENTS_NUMBERED.findall(text)) >= 3)


def _toc_entry(text: str) -> bool:
    """A contents line: a title, a tab or dot leader and a page number. Only the end is searched, so a
    paragraph of 20,000 dots costs nothing."""
    return bool(_TOC_ENTRY.search(text[-_TOC_TAIL:]))


def _front_matter(doc: Document, i: int) -> bool:
    clause = doc.clauses[i]
    text = clause.text.strip()
    style = (clause.style or "").strip().lower()
    if clause.heading_level == 0 or style in {"title", "subtitle"} or style.startswith("toc"):
        return True
    if _toc_entry(clause.text) or _FRONT_HEADING.match(text) or (i < _FILING_TOP and _FILING_LABEL.match(text)):
        return True
    if NUMBER.match(text) or doc.is_heading[i]:
        return False
    title = _caps_title(text)  # "SUPPLY AGREEMENT This Supply Agreement is made ...": the title run in
    return bool(_FRONT_TEXT.search(text) or (title and _FRONT_TEXT.search(text[title.end():])))


def _build(doc: Document, numbers: Sequence[Number | None], first: int, last: int) -> list[Unit]:
    """The clause tree of paragraphs ``first``..``last``.

    A paragraph that opens a clause closes every open clause that does not
    rank above it and opens its own inside the rest; a paragraph that opens
    none continues the innermost open clause, or stands alone at the top.
    """
    roots: list[Unit] = []
    stack: list[tuple[int, tuple[int, int], Number | None, list[Unit]]] = []

    def close(end: int) -> None:
        start, rank, number, children = stack.pop()
        (stack[-1][3] if stack else roots).append(Unit(start, end, rank, number, tuple(children)))

    for i in range(first, last + 1):
        clause = doc.clauses[i]
        if clause.heading_level == 0 or (clause.style or "").strip().lower() in {"title", "subtitle"}:
            continue
        rank = None if clause.in_table or _toc_entry(clause.text) else _rank(doc, i, numbers[i])
        if rank is None:
            if not stack:
                roots.append(Unit(i, i, None, None, ()))
            continue
        while stack and (stack[-1][1] >= rank or _holds_a_peer(doc, stack[-1], rank)):
            close(i - 1)
        stack.append((i, rank, numbers[i], []))
    while stack:
        close(last)
    while len(roots) > 1 and roots[-1].rank is None and not doc.categories[roots[-1].start]:
        roots.pop()  # "[Signature page follows]": a trailing loose line is no section to follow
    return roots


def _holds_a_peer(doc: Document, entry: tuple[int, tuple[int, int], Number | None, list[Unit]],
                  rank: tuple[int, int]) -> bool:
    """Whether an open heading already holds a top-level numbered clause and ``rank`` opens another: a
    heading over one numbered clause is that clause's title ("Termination" over "10."), not a section
    holding "11.", "12." and the rest of the contract (converted filings style such lines as headings). An
    unnumbered heading that groups clauses ("PART B - GENERAL", "MISCELLANEOUS PROVISIONS") holds them all;
    a numbered one ("ARTICLE 3") never holds "4" and "7" besides its own."""
    return (entry[1][0] == 0 and rank == (1, 1) and any(child.rank == (1, 1) for child in entry[3])
            and (entry[2] is not None or not _GROUP_HEADING.search(doc.clauses[entry[0]].text)))


def _rank(doc: Document, i: int, number: Number | None) -> tuple[int, int] | None:
    """How high paragraph *i* opens a clause: headings above numbered paragraphs, each by depth (or
    heading level), sub-items lowest; None for a paragraph that continues the clause above it."""
    if doc.is_heading[i]:
        return (0, number.depth if number is not None else doc.level(i))
    if number is not None:
        return (1, number.depth)
    return (1, 9) if ITEM.match(doc.clauses[i].text) or doc.clauses[i].list_label else None


def _number_of(doc: Document, i: int) -> Number | None:
    """The number paragraph *i* carries: Word's list label, else a typed one (None for sub-items)."""
    clause = doc.clauses[i]
    if clause.list_label:
        return parse_number(clause.list_label, typed=False)
    if clause.in_table or _toc_entry(clause.text):
        return None
    return parse_number(clause.text, typed=True)


def walk(units: Iterable[Unit]) -> Iterable[Unit]:
    for unit in units:
        yield unit
        yield from walk(unit.children)
