"""What the defined-term checks share: every name a contract gives a meaning to, its headings and its names.

:mod:`.undefined` (terms used as if defined) and :mod:`.terms` (unused, twice defined, miscased) read one
:class:`Doc`, built once per contract by :func:`prepare`: a contract gives terms their meaning in many ways
(quoted, bracketed, "hereinafter called", "X means", "as defined in the Credit Agreement", a glossary's "X. The
…"), and a check that knew only the graph's definitions would call half of them undefined."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..definitions import term_key
from ..graph import ContractGraph
from ..layout import Role
from .finding import Finding


def vocabulary(text: str) -> frozenset[str]:
    """A vocabulary written as one string of words."""
    return frozenset(text.split())


DOCUMENT_WORDS = vocabulary("agreement amendment contract addendum letter certificate exhibit schedule annex appendix")
_PHRASE = r"[A-Z][\w&'’-]*(?:\s+(?:(?:of|for|and|&|to|on|in|the)\s+)?[A-Z][\w&'’-]*){0,6}"
_NAMED_RE = re.compile(_PHRASE)
CAPTION_RE = re.compile(r"(?:[\W\d]|\([ivxlc]{1,6}\)|\([a-z]\)|[a-z]\.(?=\s))*([A-Z][\w'’-]*(?:\s+(?:[A-Z(]"
                         r"[\w'’()-]*|[\d.()]+|of|and|or|the|to|for|in|on|a|an|with|by|under|upon))*)\s*[.:](?=\s|$)")
_CAPS_RUN_RE = re.compile(r"[A-Z]{2}[A-Z&'’-]*(?:\s+[A-Z]{2,}[A-Z&'’-]*)+")
_COMPANY_RE = re.compile(r"(?<!\ba )(?<!\ban )(?<!\d )\b([A-Z][A-Za-z0-9&-]{2,})(?:[\s,]+[A-Z][\w&.'’-]*){0,4}?,?\s+"
                         r"(?:Inc|Corp|Corporation|LLC|L\.L\.C|Ltd|Limited|Co|GmbH|AG|S\.A|SA|N\.V|B\.V|plc|PLC|LP|"
                         r"L\.P|LLP|Holdings|INC|CORP|LTD)\b")
_QUOTED_RE = re.compile(r"[\"“”'‘`](?:(?<=[\"“”])([^\"“”\n]{1,80})(?:[\"“”]|'(?=\)))|(?<=')'([^'\n]{1,80})''|"
                        r"(?<=[‘`])([^'’‘\n]{1,80}?)’|(?<=[\s(]')([A-Z][^'\n]{0,60}?)'(?!\w))")  # a quote mark first
# '"Products" (as defined below)' promises a definition and 'references to "Term"' mentions one: neither defines
_MENTION_RE = re.compile(r"\b(?:to|in|of|for|under|with|from|by|on|at)\s*$")
_FORWARD_RE = re.compile(r"\s*\(?\s*(?:as\s+)?(?:hereinafter|herein|below)\s+defined", re.IGNORECASE)
_PAREN_NAME_RE = re.compile(rf"\(\s*(?:the\s+|a\s+|an\s+)?({_PHRASE})\s*\)")
_HEREINAFTER_RE = re.compile(rf"\b(?:hereinafter|hereafter)\s+(?:referred\s+to\s+as|called)\s+(?:the\s+)?({_PHRASE})")
# "X means …" without quotes, or "X (as defined in the Credit Agreement)": X has its meaning. "(as defined below)"
# or "as defined in Section 5" does not: when that definition is missing, the pointer is the defect.
_INTERNAL = r"(?i:this\s+\w+|(?:section|article|clause|paragraph|schedule|exhibit)s?|annex|appendix|below|above|here)"
_EXTERNAL = rf"(?:in|under|by)\s+(?:the\s+)?(?!{_INTERNAL})"  # not "in Section 5", "below", "herein"
_EXPLAINED_RE = re.compile(
    rf"({_PHRASE})(?:['’]s)?[\"”]?(?:\((?:s|es|ies)\))?[\s,:]*\(?\s*(?:(?:as\s+(?:such\s+terms?\s+(?:is|are)\s+)?|"
    rf"(?:is|are)\s+)(?:defined|described)\s+{_EXTERNAL}|(?:has|have|shall\s+have)\s+the\s+(?:same\s+)?meanings?\s+"
    rf"(?:\w+\s+){{0,3}}{_EXTERNAL}|within\s+the\s+meaning|means\b|shall\s+mean|refers?\s+to|is\s+defined\s+as)")
_EXPLAIN_WORD_RE = re.compile(r"mean|defined|described|refer")
# More ways a contract gives a term its meaning, each from a dev contract a reviewer read (round 3):
_INCLUDES_RE = re.compile(rf"^\s*(?:\(\w{{1,3}}\)|\d{{1,2}}(?:\.\d{{1,2}})*\.?)?\s*({_PHRASE})\s+(?:includes?|shall\s+include)\b")
# ("(g) Person includes an individual, corporation, …", an entry opening its paragraph)
_GIVEN_RE = re.compile(  # "Term has the meaning set out in Clause 3.1" (an index entry), 'Schedule "A": Fee Schedule',
    rf"({_PHRASE})\s+(?:has|have|shall\s+have)\s+the\s+meanings?\s+(?:set\s+(?:out|forth)|given|ascribed|assigned|"
    rf"specified)\s+(?:to\s+it\s+)?in\s+(?:Clause|Section|Article|paragraph)|(?:Schedule|Exhibit|Annex|Appendix|"
    rf"Attachment)\s+[\"“]?[A-Z0-9]{{1,3}}[\"”]?\s*[:–—-]\s*({_PHRASE})|\b(?:form|establish|constitute|create|set\s+up)\s+"
    rf"(?:a|an)\s+({_PHRASE})|\b[Tt]he\s+({_PHRASE})\s+of\s+this\s+Agreement\s+(?:shall\s+be|is|will\s+be)\b|"
    rf"(?:^|[.;]\s+|{_PHRASE}\s+)The\s+([A-Z][\w'’-]*\s+{_PHRASE})\s+(?:is|are)\s+(?:a|an)\s|({_PHRASE})\s+(?:is|are)\s+defined\s+(?:on|in)\s+"
    rf"(?:Exhibit|Schedule|Annex|Appendix|Attachment)|\b(?:the|an?)\s+({_PHRASE})\b[^.]{{0,60}}?\bshall\s+be\s+defined\s+as\b|"
    rf"({_PHRASE})\s+(?:specified|named|identified)\s+in\s+(?:paragraph|section|clause)\s")  # round 4: "Net Revenue is
# defined on Exhibit A" (c0045), "The amount of the Exit Fee … shall be defined as" (c0391), "the Third Party specified
# in paragraph 2 below" (c0395)
_LOWER_MEANS_RE = re.compile(r"\b([a-z][a-z]+(?:\s+[a-z]+){0,3}?)\s+(?:hereof\s+|herein\s+)?(?:shall\s+mean|means)\b")  # "form a Steering Committee", "The
# Term of this Agreement shall be …", "The Message Manager is a tool used to …" (c0244, c0215, c0125, c0156, c0292)
# A sentence that points to an attachment for what its capitalised words are: "the Trademarks of the Franchisor (the
# details of which are morefully set out in Exhibit A)", "computers, as identified in Exhibit E, may be used as the
# Development Computer" (c0221, c0094)
_IN_ATTACHMENT_RE = re.compile(r"\b(?:set\s+(?:out|forth)|described|identified|listed|specified)\s+in\s+(?:the\s+)?"
                               r"(?:attached\s+)?(?:Exhibit|Schedule|Annex|Appendix|Attachment)\s+[A-Z0-9]", re.IGNORECASE)
_NAMED_THING_RE = re.compile(r"\b(?:[Tt]he|such|all|any)\s+([A-Z][\w'’-]*(?:\s+(?!The\b)[A-Z][\w'’-]*)*)")
_ISE_RE = re.compile(r"is(e|ed|es|ing|ation|ations)\b")
_GLOSSARY_RE = re.compile(rf"(?:^|[.;]\s+)({_PHRASE})(?:\((?:s|es|ies)\))?\s*[.:]\s+[A-Z(\"“]")
_DEFINITIONS_TITLE_RE = re.compile(r"\b(?:definitions|defined\s+terms|interpretation)\b", re.IGNORECASE)
PLURAL_MARK_RE = re.compile(r"\((?:s|es|ies)\)", re.IGNORECASE)
ARTICLE_RE = re.compile(r"^(?:the|this|a|an)\s+", re.IGNORECASE)


class Known(set[str]):
    """The keys of the terms a contract gives a meaning to, each spelled one way: a hyphen is a space and "-ise" is
    "-ize", so "Technical Know How" is the defined "Technical Know-How" (c0268) and "Commercialised" the defined
    "Commercialized" (c0011). Keys go in and are looked up through :meth:`spelling`."""

    @staticmethod
    def spelling(key: str) -> str:
        return _ISE_RE.sub(r"iz\1", " ".join(key.replace("-", " ").split()))

    def add(self, key: str) -> None:
        super().add(self.spelling(key))

    def update(self, *groups: Iterable[str]) -> None:
        for group in groups:
            for key in group:
                self.add(key)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and super().__contains__(self.spelling(key))


@dataclass(slots=True)
class Doc:
    """What the checks share: the graph, its body blocks, and every name the contract gives a meaning to."""
    graph: ContractGraph
    body: list[int]
    lowered: str  # the text in lower case, for quick counts before a costly search
    opening: int  # the first numbered section's block: the parties are named before it
    known: Known = field(default_factory=Known)  # keys defined, quoted, bracketed or explained anywhere
    headings: set[str] = field(default_factory=set)  # keys of captions and of phrases in capitals
    lower_words: set[str] = field(default_factory=set)  # words the contract also writes in lower case
    solo: set[str] = field(default_factory=set)  # capitalised words that stand alone mid-sentence (names)
    parties: set[str] = field(default_factory=set)  # first words of the companies named in the opening blocks
    names: set[str] = field(default_factory=set)  # "federal trade" [Commission], the title's "strategic alliance"
    name_heads: set[tuple[str, ...]] = field(default_factory=set)  # "johns hopkins" of "Johns Hopkins University"
    bags: set[frozenset[str]] = field(default_factory=set)  # the words of each multi-word known term, in any order


def where(graph: ContractGraph, block: int) -> str:
    """How a lawyer points at a block: "§3.2", "Article IV", "Exhibit B", "the preamble"."""
    s, sid = None, graph.owner[block]
    while sid and not ((s := graph.section(sid)).kind in ("article", "schedule", "preamble")
                       or (s.number and s.kind != "heading")):
        sid = s.parent
    return ("the opening paragraphs" if not sid else "the preamble" if s.kind == "preamble"
            else s.label if s.kind in ("article", "schedule") else f"§{s.number}")


def bare(word: str) -> str:
    """A word without its possessive: "Licensee's" is "Licensee" (a regex here costs a tenth of the check)."""
    return word[:-2] if word.endswith(("'s", "’s")) else word[:-1] if word.endswith(("'", "’")) else word


@functools.lru_cache(maxsize=8192)
def key_of(term: str) -> str:
    """A term's key without article, plural mark or stray punctuation: ("the Product(s).") is "product"."""
    term = ARTICLE_RE.sub("", PLURAL_MARK_RE.sub("", term).strip(" .,;:"))
    return term_key(bare(term) or term) if term else ""


def caps(word: str) -> bool:
    return len(word) > 1 and word.isupper()


def finding(doc: Doc, kind: str, block: int, start: int, end: int, message: str) -> Finding:
    """A finding quoting the document text ``[start, end)``, which lies in the block."""
    b = doc.graph.blocks[block]
    return Finding(kind, block, b.anchor, doc.graph.text[start:end], message, start=start - b.start)


def prepare(graph: ContractGraph) -> Doc:
    """Everything the contract gives a meaning to, in any of the ways contracts do; and its headings and names."""
    opening = min((s.first for s in graph.sections if s.number), default=len(graph.blocks))
    lowered = graph.text.lower()
    if len(lowered) != len(graph.text):  # "İ" lowers to two characters: offsets in the copy must be the text's
        lowered = "".join(c if len(c.lower()) != 1 else c.lower() for c in graph.text)
    doc = Doc(graph, [i for i, r in enumerate(graph.roles) if r is Role.BODY], lowered, opening)
    doc.known.update(d.key for d in graph.definitions)
    glossary = {i for s in graph.sections for i in range(s.first, s.own_end + 1)  # "Due Period. The monthly …"
                if _DEFINITIONS_TITLE_RE.search(f"{s.title} {graph.blocks[s.first].text[:80]}")}
    for block in graph.blocks:  # every block: the layout sometimes takes the parties' block for contents
        text = block.text
        doc.known.update(key_of(q) for m in _QUOTED_RE.finditer(text) if (q := next(g for g in m.groups() if g))
                         and q.count(" ") < 8  # a quoted sentence ("… of the Licence Agreement") defines no term
                         and not _FORWARD_RE.match(text, m.end()) and not _MENTION_RE.search(text, 0, m.start()))
        for regex in (_PAREN_NAME_RE, *[_HEREINAFTER_RE][:"ereinafter" in text or "ereafter" in text],
                      *[_GLOSSARY_RE][:block.index in glossary], _INCLUDES_RE, _GIVEN_RE):
            doc.known.update(key_of(next(g for g in m.groups() if g)) for m in regex.finditer(text))
        if "mean" in text:  # "the business day hereof shall mean the work day other than …" (c0351)
            doc.known.update(key_of(m.group(1)) for m in _LOWER_MEANS_RE.finditer(text))
        for m in _IN_ATTACHMENT_RE.finditer(text):  # "The Products offered … are set out in Annex I" (c0062)
            begin = max(text.rfind(". ", 0, m.start()) + 1, m.start() - 80, 0)  # the words near the pointer, in
            end = min((text.find(". ", m.end()) + 1 or len(text) + 1) - 1, m.end() + 60)  # its sentence
            # the things it sets out, named with an article ("the Trademarks", "The Products"): not a party near
            # it ("Developer's current Prices", "Snap and Sponsor will …") nor the document it belongs to ("Exhibit
            # A of the NTL Transfer Agreement")
            doc.known.update(key_of(n.group(1)) for n in _NAMED_THING_RE.finditer(text, begin, end)
                             if not re.search(r"\bof\s*$", text[max(0, n.start() - 4):n.start()]))
        for k in _EXPLAIN_WORD_RE.finditer(text):  # the costly pattern, only just before "means", "defined" …
            start = text.rfind(" ", 0, max(0, k.start() - 120)) + 1
            doc.known.update(key_of(m[1]) for m in _EXPLAINED_RE.finditer(text, start, k.end() + 60))
        if graph.roles[block.index] is Role.BODY:
            caption = CAPTION_RE.match(text)
            doc.headings.update([key_of(caption.group(1))] if caption else [], map(key_of, _CAPS_RUN_RE.findall(text)))
    doc.bags = {frozenset(k.split()) for k in doc.known if " " in k}
    doc.lower_words = {w.strip(".,;:()[]\"'“”’") for w in set(graph.text.split()) if w[:1].islower()}
    doc.parties = {m.group(1) for i in doc.body[:8] if i < opening for m in _COMPANY_RE.finditer(graph.blocks[i].text)}
    for words in (m.group(0).split() for i in doc.body[:3] for m in _NAMED_RE.finditer(graph.blocks[i].text)):
        if bare(words[-1]).lower() in DOCUMENT_WORDS:  # the title: "this Strategic Alliance" is the agreement
            doc.names.update(key_of(" ".join(words[:k])) for k in range(2, len(words) + 1))
    return doc
