"""Where a missing clause goes, and the number it carries.

A required clause the contract lacks is proposed as an insertion after some
paragraph. A lawyer who finds a data-protection clause proposed after a
trademark licence, or a liability cap after "Counterparts", stops trusting the
review, so the place is chosen the way a drafter chooses it:

1. A section headed for the rule's own category that lacks the clause (a
   "Notices and Governing Law" section holding only notices): at its end.
2. Else next to the most closely related clause the contract has
   (:data:`RELATED`: a liability cap beside the indemnities, data protection
   beside confidentiality), as the next sub-clause of that clause's section
   when its sub-clauses are numbered, else as a new section right after it.
3. Else as a new section after the last substantive one, before the general
   provisions (entire agreement, notices, governing law, counterparts...); a
   clause that is itself one of them (governing law, notices) goes at their end.

Never inside the parties block, the recitals, a table of contents, the
definitions, a table, a schedule or the signature block, and never before the
first operative clause: the place is always the end of a whole section of the
operative part, never the middle of a list of sub-items.

The inserted clause's number continues its neighbours'. Typed numbers ("14.",
"14.3", "Section 9") are text, so the clause gets the next one at its level
("15.", "14.4"). Typed numbers cannot shift, so when that number is taken the
clause is numbered as drafters number an inserted clause ("14A."), rather than
duplicating "15." or renumbering the rest of the contract. Word list numbering
is not text: the writer gives an inserted paragraph its anchor's paragraph
properties, ``w:numPr`` included (:mod:`redline.ooxml.writer`), so Word
numbers it as the next item of the anchor's list, and a typed number would be
a second one. Neighbours that open with a heading paragraph get a heading line
("15. LIMITATION OF LIABILITY") in their case and style.

The place and number are decided here, by code, for every provider: the
provider drafts the clause, and :meth:`Placement.apply` numbers it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ..categories import Category
from ..document import Document
from ..playbook.model import Rule
from .numbers import NUMBER, Number, parse_number
from .outline import BOILERPLATE, Outline, Unit, walk

C = Category

# Which clauses a missing one belongs beside, closest first. Read it as "a drafter adding X puts it next to...".
# A category missing from the table has no natural neighbour and goes before the general provisions.
RELATED: dict[Category, tuple[Category, ...]] = {
    C.LIMITATION_OF_LIABILITY: (C.INDEMNIFICATION, C.WARRANTIES, C.INSURANCE),  # the risk-allocation block
    C.INDEMNIFICATION: (C.LIMITATION_OF_LIABILITY, C.WARRANTIES, C.INSURANCE, C.INTELLECTUAL_PROPERTY),
    C.WARRANTIES: (C.LIMITATION_OF_LIABILITY, C.INDEMNIFICATION, C.SERVICE_LEVELS, C.SCOPE_OF_WORK),
    C.INSURANCE: (C.INDEMNIFICATION, C.LIMITATION_OF_LIABILITY),  # insurance backs the indemnities and the cap
    C.DATA_PROTECTION: (C.CONFIDENTIALITY, C.COMPLIANCE, C.AUDIT_RIGHTS),  # information-handling obligations
    C.CONFIDENTIALITY: (C.DATA_PROTECTION, C.INTELLECTUAL_PROPERTY, C.NON_SOLICITATION),
    C.INTELLECTUAL_PROPERTY: (C.LICENSE_GRANT, C.CONFIDENTIALITY, C.INDEMNIFICATION),
    C.LICENSE_GRANT: (C.INTELLECTUAL_PROPERTY, C.EXCLUSIVITY),
    C.NON_SOLICITATION: (C.EXCLUSIVITY, C.CONFIDENTIALITY),  # restrictive covenants sit together
    C.EXCLUSIVITY: (C.LICENSE_GRANT, C.SCOPE_OF_WORK, C.NON_SOLICITATION),
    C.AUDIT_RIGHTS: (C.PAYMENT_TERMS, C.PRICING_AND_FEES, C.COMPLIANCE, C.DATA_PROTECTION),  # audits check charges
    C.PAYMENT_TERMS: (C.PRICING_AND_FEES, C.TAXES),
    C.PRICING_AND_FEES: (C.PAYMENT_TERMS, C.TAXES),
    C.TAXES: (C.PAYMENT_TERMS, C.PRICING_AND_FEES),
    C.SERVICE_LEVELS: (C.SCOPE_OF_WORK, C.WARRANTIES),
    C.SCOPE_OF_WORK: (C.SERVICE_LEVELS, C.WARRANTIES),
    C.COMPLIANCE: (C.DATA_PROTECTION, C.AUDIT_RIGHTS, C.CONFIDENTIALITY),
    C.TERM_AND_RENEWAL: (C.TERMINATION,),
    C.TERMINATION: (C.TERM_AND_RENEWAL,),
    C.FORCE_MAJEURE: (C.GENERAL,),
    C.GOVERNING_LAW: (C.DISPUTE_RESOLUTION, C.GENERAL),
    C.DISPUTE_RESOLUTION: (C.GOVERNING_LAW, C.GENERAL),
    C.NOTICES: (C.GENERAL,),
    C.ASSIGNMENT: (C.GENERAL,),
    C.GENERAL: (C.NOTICES, C.GOVERNING_LAW, C.DISPUTE_RESOLUTION),
}

_SMALL_WORDS = frozenset(["a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with"])
@dataclass(frozen=True, slots=True)
class Placement:
    """Where a missing clause goes and how it is numbered.

    ``after`` is the index (into ``doc.clauses``) of the paragraph the clause
    is inserted after. ``number`` is the typed number it carries (None when
    Word numbers it or its neighbours are unnumbered). ``heading`` is the
    heading line that opens it when its neighbours open with a heading
    paragraph, ``run_in`` the title its text opens with when theirs does
    ("14. Counterparts. This ..."), and ``sub`` the number of the text under a
    numbered heading line ("15.1"). ``title`` is the rule's title, which a
    provider may have put in front of the clause. ``reason`` says which rule
    chose the place (own_section, related:<category>, before_general,
    end_of_general, end_of_body), for tests and logs.
    """

    after: int
    number: Number | None = None
    heading: str = ""
    run_in: str = ""
    sub: Number | None = None
    title: str = ""
    reason: str = ""

    def apply(self, text: str) -> str:
        """The drafted clause ``text`` as it is inserted: heading line, number, clause.

        A number, or the title this placement adds, that the provider put in
        front of the clause itself is dropped first (the prompt asks for the
        bare clause; a model may still number it), so the clause never carries
        two, and never a typed number beside Word's.
        """
        body = _bare(text, (_strip_punct(self.heading), self.run_in, self.title))
        if self.heading:
            head = f"{self.number.render()} {self.heading}" if self.number else self.heading
            return f"{head}\n{self.sub.render() + ' ' if self.sub else ''}{body}"
        lead = f"{self.number.render()} " if self.number else ""
        if self.run_in:
            lead += f"{self.run_in}. "
        return lead + body

    def shifted(self, step: int) -> Placement:
        """The same place, numbered ``step`` clauses on (several clauses inserted after one paragraph)."""
        if step == 0 or self.number is None:
            return self
        number = self.number.following(step)
        sub = replace(self.sub, parts=(*number.parts, *self.sub.parts[number.depth:])) if self.sub else None
        return replace(self, number=number, sub=sub)


def stagger(placements: Sequence[Placement]) -> list[Placement]:
    """Distinct numbers for missing clauses inserted after the same paragraph, given in review order.

    The writer puts each insertion directly after its anchor, so of two
    insertions at one paragraph the later ends up first in the document: the
    first in order gets the highest number, and the document reads 14A, 14B.
    """
    groups: dict[tuple[int, tuple[str, ...]], list[int]] = {}
    for n, p in enumerate(placements):
        if p.number is not None:
            groups.setdefault((p.after, p.number.key()), []).append(n)
    out = list(placements)
    for members in groups.values():
        for rank, n in enumerate(members):
            out[n] = placements[n].shifted(len(members) - 1 - rank)
    return out


def place_missing(doc: Document, rule: Rule) -> Placement:
    """Where the clause ``rule`` requires and ``doc`` lacks goes, and its number (see the module docstring)."""
    return replace(_place(doc, rule), title=rule.title.strip())


def _place(doc: Document, rule: Rule) -> Placement:
    outline = doc.memo.get("outline")
    if outline is None:  # built once for all the rules a review places
        outline = doc.memo["outline"] = Outline(doc)
    category = rule.category
    general = category in BOILERPLATE  # a clause that is itself one of the general provisions
    title = rule.title.strip()
    if not outline.roots:
        return Placement(after=doc.body_end, reason="end_of_body")
    own = _own_section(outline, category, general=general)
    if own is not None:
        return _inside(outline, own, title, "own_section")
    for related in RELATED.get(category, ()):
        root = _related_section(outline, related, general=general)
        if root is not None:
            # the general provisions are one family: a clause joining them goes into their section
            join = _inside if related is C.GENERAL else _beside
            return join(outline, root, title, f"related:{related.value}")
    substantive = [r for r in outline.roots[: outline.general_from] if not outline.is_definitions(r)]
    if general or not substantive:
        reason = "end_of_general" if outline.general_from < len(outline.roots) else "end_of_body"
        return _after(outline, outline.roots[-1], title, reason)
    return _after(outline, substantive[-1], title, "before_general")


# ----------------------------------------------------------------------------- finding the section
def _own_section(outline: Outline, category: Category, *, general: bool) -> Unit | None:
    """The first top-level section headed for ``category`` (by its heading or run-in title), if any.

    Only top-level titles count: a sub-heading "Notice" inside a termination
    clause is about notice of termination, not the notices clause.
    """
    for root in outline.roots:
        if outline.allowed(root.start, general=general) and category in outline.kinds(root):
            return root
    return None


def _related_section(outline: Outline, category: Category, *, general: bool) -> Unit | None:
    """The top-level section holding the contract's ``category`` clause, if it has one.

    In a contract whose sections have titles, the clause is a section or
    sub-section titled for the category (a sentence about insurance in
    "Supplier Obligations" is not the insurance clause a liability cap
    belongs beside); the clause engine's best passage picks among several.
    In one without titles, the section of the engine's best passage, else
    the section with the most paragraphs of the category by the keyword
    classifier. The first of equals, except the last for the general
    provisions (often one short section each, and a clause joining them goes
    after the last).
    """
    doc = outline.doc
    roots = [r for r in outline.roots if outline.allowed(r.start, general=general)]
    if category is C.GENERAL:
        roots.reverse()
    finding = doc.found.playbook.get(category.value)
    passages = [p.paragraph for p in finding.passages] if finding is not None and finding.present else []
    titled = [r for r in roots if _titled(outline, r, category)]
    if titled:
        ids = {id(r) for r in titled}
        return next((outline.root_of[p] for p in passages if id(outline.root_of.get(p)) in ids), titled[0])
    if outline.titled:
        return None
    for p in passages:
        if outline.allowed(p, general=general):
            return outline.root_of[p]
    if finding is not None and doc.found.confidently_absent(category.value):
        return None
    best, best_score = None, 0
    for root in roots:
        score = sum(category in doc.categories[i] and outline.allowed(i, general=general)
                    for i in range(root.start, root.end + 1) if not doc.is_heading[i])
        if score > best_score:
            best, best_score = root, score
    return best


def _titled(outline: Outline, root: Unit, category: Category) -> bool:
    """Whether ``root`` or one of its sub-clauses is titled for ``category``; only a top-level title
    makes the general provisions (a sub-heading "General" opens many a clause)."""
    units = (root,) if category is C.GENERAL else walk((root,))
    return any(category in outline.kinds(u) for u in units)


# ----------------------------------------------------------------------------- the place and its number
def _beside(outline: Outline, root: Unit, title: str, reason: str) -> Placement:
    """Next to the related clause's section: its next sub-clause when they are numbered, else a new
    section right after it."""
    if _numbered_children(root):
        return _inside(outline, root, title, reason)
    return _after(outline, root, title, reason)


def _inside(outline: Outline, unit: Unit, title: str, reason: str) -> Placement:
    """At the end of ``unit`` as its next sub-clause; as a new clause after it when it is numbered and
    its sub-clauses are not (a numbered lead-in with (a), (b) items governs only those)."""
    after = outline.end(unit)
    if _word_numbered(outline.doc, after, unit):
        return Placement(after=after, reason=reason)
    siblings = _numbered_children(unit)
    if not siblings:
        if unit.number is not None and unit.number.typed:
            return _after(outline, unit, title, reason)
        return Placement(after=after, reason=reason)  # unnumbered clauses: the new one joins them unnumbered
    before = [c for c in siblings if c.start <= after]
    if not before:
        return Placement(after=after, reason=reason)
    last = before[-1]
    number = _free(outline, last.number)  # before a trailing table the next number may be taken: "14.2A"
    titles = [outline.title(u) for u in siblings]
    if outline.doc.is_heading[last.start]:
        return Placement(after=after, number=number, heading=_headed(title, titles), reason=reason)
    return Placement(after=after, number=number, run_in=_cased(title, titles) if titles[-1] else "", reason=reason)


def _after(outline: Outline, unit: Unit, title: str, reason: str) -> Placement:
    """As a new clause right after ``unit``, at its level, numbered and headed like it.

    A section that ends with a table cannot be followed (the text would go
    into the last cell): the new clause then follows the section before it.
    """
    doc = outline.doc
    after = outline.end(unit)
    n = outline.index.get(id(unit))
    if after < unit.end and n and not outline.is_definitions(outline.roots[n - 1]):
        return _after(outline, outline.roots[n - 1], title, reason)
    if _word_numbered(doc, after, unit):
        return Placement(after=after, reason=reason)
    previous = unit.number if unit.number is not None and unit.number.typed else None
    if previous is None and id(unit) in outline.index:  # a loose or unnumbered section: the last numbered one
        previous = next((r.number for r in reversed(outline.roots[: outline.index[id(unit)] + 1])
                         if r.number is not None and r.number.typed), None)
    number = _free(outline, previous) if previous is not None else None
    titles = [outline.title(r) for r in outline.roots] if id(unit) in outline.index else []
    titles.append(outline.title(unit))  # the neighbour last: its closing full stop is copied
    if doc.is_heading[unit.start]:
        child = next((c.number for c in _numbered_children(unit) if previous and c.number.depth == previous.depth + 1),
                     None)
        sub = number.child(child) if number is not None and child is not None else None
        return Placement(after=after, number=number, heading=_headed(title, titles), sub=sub, reason=reason)
    if number is None:
        return Placement(after=after, reason=reason)
    return Placement(after=after, number=number, run_in=_cased(title, titles) if titles[-1] else "", reason=reason)


def _numbered_children(unit: Unit) -> list[Unit]:
    """``unit``'s sub-clauses at its highest sub-level, when they carry typed numbers."""
    ranks = [c.rank for c in unit.children if c.rank is not None]
    if not ranks:
        return []
    top = min(ranks)
    level = [c for c in unit.children if c.rank == top]
    return level if all(c.number is not None and c.number.typed for c in level) else []


def _free(outline: Outline, previous: Number) -> Number:
    """The number after ``previous``; when the contract already uses it, the inserted-clause form ("14A")."""
    nxt = previous.following()
    if nxt.key() not in outline.typed:
        return nxt
    candidate = previous.inserted_after()
    while candidate.key() in outline.typed:
        candidate = candidate.following()
    return candidate


def _word_numbered(doc: Document, after: int, unit: Unit) -> bool:
    """Whether Word numbers the inserted clause: the anchor, whose numbering the insertion copies, or
    the clauses around it carry a list label, so a typed number would be a second one."""
    if doc.clauses[after].list_label:
        return True
    return any(u.number is not None and not u.number.typed for u in (unit, *unit.children))


# ----------------------------------------------------------------------------- text helpers
def _headed(title: str, likes: Sequence[str]) -> str:
    """``title`` as a heading written like its neighbours ``likes`` (case; the closing full stop of the last)."""
    return _cased(title, likes) + ("." if likes and likes[-1].rstrip().endswith(".") else "")


def _cased(title: str, likes: Sequence[str]) -> str:
    """``title`` in the case its neighbours' titles ``likes`` share: UPPER, Title Case, else Sentence case.

    Titles of one word ("Fees") show no case convention and are not counted.
    """
    shown = [t for t in likes if len(re.findall(r"[A-Za-z]+", t)) > 1]
    if shown and all(t.upper() == t for t in shown):
        return title.upper()
    if shown and all(w[0].isupper() for t in shown for w in re.findall(r"[A-Za-z][\w'’-]*", t)
                     if w.lower() not in _SMALL_WORDS):
        return " ".join(w if n and w.lower() in _SMALL_WORDS else w[:1].upper() + w[1:]
                        for n, w in enumerate(title.split()))
    return title[:1].upper() + title[1:]


def _strip_punct(text: str) -> str:
    return text.rstrip(".: ")


def _bare(text: str, titles: Iterable[str]) -> str:
    """``text`` without a leading clause number or a leading copy of one of ``titles``."""
    text = text.strip()
    m = NUMBER.match(text)
    if m and not m.group("roman") and parse_number(text, typed=True) is not None:  # "I. ..." may be a sentence
        text = text[m.end():].lstrip()
    for title in filter(None, titles):
        head = re.match(re.escape(title) + r"[ \t]*(?:[.:][ \t]*|\n)", text, re.IGNORECASE)
        if head:
            return text[head.end():].lstrip()
    return text


