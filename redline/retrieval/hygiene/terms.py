"""Defined terms a careful associate checks: undefined, unused, defined twice, miscased, one party with two names.

The graph links every definition to its uses (:mod:`redline.retrieval.definitions`); what it cannot see is a term
that reads like a defined term but has none. That is the hard part for precision: contracts are full of capitalised
words that are not defined terms (headings, names, statutes, institutions, months, the title, sentence openers,
passages in capitals). So a phrase is reported only on strong signals: it is *used as defined terms are* (after
"the" or "such", more than once), it is several words, an acronym, a party's name or a noun contracts define
("Territory"), and nothing in the contract defines, quotes, brackets or explains it. A contract that takes its
undefined terms from another document gets none reported: the other half is not in the file."""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ..definitions import DefinitionSite, term_key
from ..graph import ContractGraph
from ..layout import Role
from .finding import Finding


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_DETERMINERS = _set("the such said any each all this that these those no either neither every its their his her "
                    "our your other another same")
_FUNCTION = _set("the a an this that these those such each any all no not in if upon for of to by with on at as and "
                 "or it its his her their we our you your he she they where when whereas whether now notwithstanding "
                 "subject provided")  # capitalised, they open a sentence or glue a heading: never part of a term
# A phrase with one of these anywhere is a company, place, date or institution; ending in one, a statute or an
# office; opening with one, a reference ("Section 4", "State of Delaware").
_NAME_ANY = _set("inc incorporated corp corporation co llc ltd limited lp llp plc gmbh ag sa nv bv pty pte holdings "
                 "bank university college hospital borough commerce street avenue road drive suite floor boulevard "
                 "county city district province kingdom republic nations america american january february march "
                 "april may june july august september october november december monday tuesday wednesday thursday "
                 "friday saturday sunday mr mrs ms dr esq commission court courts department office administration "
                 "agency bureau exchange authority association council institute society foundation organization "
                 "organisation union government congress parliament senate ministry registrar chamber board secretary")
_NAME_LAST = _set("act code rules regulation regulations law laws statute treaty convention directive president "
                  "director directors officer chairman accountant attorney insurance liability compensation internet "
                  "web state")
_NAME_FIRST = _set("section sections article articles exhibit schedule annex appendix attachment clause paragraph part "
                   "item form page table chapter title recital recitals whereas witnesseth state federal national "
                   "united")
_DOCUMENT_WORDS = _set("agreement amendment contract addendum letter certificate exhibit schedule annex appendix")
_KNOWN_ACRONYMS = _set(  # countries, regulators, standards, measures: used everywhere without a definition
    "US USA UK EU EEA PRC UAE FDA SEC FTC FCC IRS EPA DOJ NIH CMS EMA FCA ISO GAAP IFRS EBITDA NYSE NASDAQ OTC FY SKU "
    "EIA TIA ANSI IEEE IEC ITU CCITT LIBOR SOFR CEO CFO COO CTO VAT GST IP IT PC TV URL HTTP HTTPS WWW VISA CFR FOB "
    "CIF EXW DDP DAP ICC AAA JAMS UCC ERISA HIPAA COBRA OSHA NASD FINRA PCT USPTO WIPO OECD UN NFL NBA NHL MLB PDF API")
_ROLE_WORDS = _set(  # a party's role, used as its name without an article: "Recipient shall …"
    "distributor reseller dealer licensor licensee supplier vendor seller manufacturer customer buyer purchaser client "
    "contractor consultant franchisor franchisee provider developer publisher sponsor company corporation partner "
    "lender borrower landlord tenant lessor lessee recipient discloser guarantor depositor assignee assignor associate "
    "indemnitee indemnitor sublicensee subcontractor executive employee shareholder investor member owner")
# Nouns contracts define as one-word terms (each defined in three or more of CUAD's training contracts; names and
# institutions left out): "the Territory" mid-sentence reads as a defined term, "the Board" does not.
_TERM_NOUNS = _ROLE_WORDS | _set(
    "acceptance account acquisition action advertisement adviser affiliate agent antibody assignment auditor batch "
    "business carrier change claim claimant closing commercialization competitor content contract control copyright "
    "correspondence cost damage data default deliverable delivery detail development dispute documentation equipment "
    "event expense facility fee field forecast franchise fund hardware impression improvement index indication "
    "information infringement initiation invention issuer knowledge laboratory lease liability license lien link loss "
    "manual manufacture manufacturing mark market material network nomination note notice offering option order party "
    "patent payment person plan policy premise price principal proceeding product professional program project "
    "promotion property prospectus publication recall record report representative respondent right royalty sample "
    "service share shipper site software specification stock subscriber subsidiary system tax team technology term "
    "territory trademark transfer transporter unit update user warrant website work")
# Role nouns for one kind of party: one defined for a party and another used for it is one party with two names.
_ROLE_GROUPS = tuple(map(_set, ("distributor reseller dealer", "supplier vendor seller manufacturer", "tenant lessee",
                                "customer buyer purchaser client", "contractor consultant", "company corporation",
                                "landlord lessor")))
_NOUN_FOLLOWERS = _set("shall will may must is are was were has have had and or of to in for by with as at on from "
                       "under that which who hereunder pursuant")  # after an acronym used as a noun ("the SSS shall")
_QUANTIFIERS = _set("any all each such said no every these those")
_MINOR = _set("of per and the for to in on a an or by with")  # a case slip in these is not worth a comment

_PHRASE = r"[A-Z][\w&'’-]*(?:\s+(?:(?:of|for|and|&|to|on|in|the)\s+)?[A-Z][\w&'’-]*){0,6}"
_NAMED_RE = re.compile(_PHRASE)
_RUN_RE = re.compile(r"(?<![\w'’&-])[A-Z][\w&'’-]*(?:(?:\s+(?:of|for|and|&))?\s+[A-Z][\w&'’-]*)*")
_AFTER_RE = re.compile(r"\s*(\w[\w'’-]*|[^\s\w])")
_GLUED_RE = re.compile(r"\s+(?:in|to|on)\s+[A-Z]")  # "Change in Control": one word of a longer name
_CAPTION_RE = re.compile(r"(?:[\W\d]|\([ivxlc]{1,6}\)|\([a-z]\)|[a-z]\.(?=\s))*([A-Z][\w'’-]*(?:\s+(?:[A-Z(]"
                         r"[\w'’()-]*|[\d.()]+|of|and|or|the|to|for|in|on|a|an|with|by|under|upon))*)\s*[.:](?=\s|$)")
_CAPS_RUN_RE = re.compile(r"[A-Z]{2}[A-Z&'’-]*(?:\s+[A-Z]{2,}[A-Z&'’-]*)+")
_COMPANY_RE = re.compile(r"(?<!\ba )(?<!\ban )(?<!\d )\b([A-Z][A-Za-z0-9&-]{2,})(?:[\s,]+[A-Z][\w&.'’-]*){0,4}?,?\s+"
                         r"(?:Inc|Corp|Corporation|LLC|L\.L\.C|Ltd|Limited|Co|GmbH|AG|S\.A|SA|N\.V|B\.V|plc|PLC|LP|"
                         r"L\.P|LLP|Holdings|INC|CORP|LTD)\b")
_QUOTE_SPAN_RE = re.compile(r"[\"“][^\"“”]{0,200}[\"”]")
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
_GLOSSARY_RE = re.compile(rf"(?:^|[.;]\s+)({_PHRASE})(?:\((?:s|es|ies)\))?\s*[.:]\s+[A-Z(\"“]")
_DEFINITIONS_TITLE_RE = re.compile(r"\b(?:definitions|defined\s+terms|interpretation)\b", re.IGNORECASE)
_INCORPORATES_RE = re.compile(  # "Capitalized terms used but not defined herein have the meanings in the Credit …"
    r"(?:capitali[sz]ed|defined)\s+terms?\s+(?:(?:which|that)\s+are\s+)?(?:used\s+)?(?:herein|in\s+this\s+\w+)?"
    r"\s*(?:and|but)?\s*(?:(?:which|that)\s+are\s+)?not\s+(?:otherwise\s+)?defined|(?:capitali[sz]ed|defined)\s+"
    r"terms?\s+used\s+(?:herein|in\s+this\s+\w+)\s+(?:shall\s+)?have\s+the\s+(?:same\s+)?meaning|definitions\s+"
    r"(?:and\s+provisions\s+)?contained\s+in\b.{0,160}?\bincorporated", re.IGNORECASE)
_POINTER_RE = re.compile(r"[\"”]?[\s,]*(?:(?:has|have|shall\s+have)\s+the\s+(?:same\s+)?meanings?|(?:shall\s+)?"
                         r"(?:also\s+)?(?:not\s+)?(?:includes?|be\s+deemed)|:\s|$)", re.IGNORECASE)  # or a gloss
_ENTITY_TAIL_RE = re.compile(r",?\s+an?\s+[A-Z][\w\s]{0,40}?(?:corporation|company|partnership|limited|bank)[\s,]*$")
_PLURAL_MARK_RE = re.compile(r"\((?:s|es|ies)\)", re.IGNORECASE)
_ARTICLE_RE = re.compile(r"^(?:the|this|a|an)\s+", re.IGNORECASE)


@dataclass(slots=True)
class _Doc:
    """What the checks share: the graph, its body blocks, and every name the contract gives a meaning to."""
    graph: ContractGraph
    body: list[int]
    lowered: str  # the text in lower case, for quick counts before a costly search
    opening: int  # the first numbered section's block: the parties are named before it
    known: set[str] = field(default_factory=set)  # keys defined, quoted, bracketed or explained anywhere
    headings: set[str] = field(default_factory=set)  # keys of captions and of phrases in capitals
    lower_words: set[str] = field(default_factory=set)  # words the contract also writes in lower case
    solo: set[str] = field(default_factory=set)  # capitalised words that stand alone mid-sentence (names)
    parties: set[str] = field(default_factory=set)  # first words of the companies named in the opening blocks
    names: set[str] = field(default_factory=set)  # "federal trade" [Commission], the title's "strategic alliance"


def check(graph: ContractGraph) -> list[Finding]:
    """Every defined-term defect in the contract, in document order."""
    doc = _prepare(graph)
    return sorted([*_undefined(doc), *_unused(doc), *_conflicting(doc), *_miscased(doc)], key=lambda f: f.block)


def where(graph: ContractGraph, block: int) -> str:
    """How a lawyer points at a block: "§3.2", "Article IV", "Exhibit B", "the preamble"."""
    s, sid = None, graph.owner[block]
    while sid and not ((s := graph.section(sid)).kind in ("article", "schedule", "preamble")
                       or (s.number and s.kind != "heading")):
        sid = s.parent
    return ("the opening paragraphs" if not sid else "the preamble" if s.kind == "preamble"
            else s.label if s.kind in ("article", "schedule") else f"§{s.number}")


def _bare(word: str) -> str:
    """A word without its possessive: "Licensee's" is "Licensee" (a regex here costs a tenth of the check)."""
    return word[:-2] if word.endswith(("'s", "’s")) else word[:-1] if word.endswith(("'", "’")) else word


@functools.lru_cache(maxsize=8192)
def _key(term: str) -> str:
    """A term's key without article, plural mark or stray punctuation: ("the Product(s).") is "product"."""
    term = _ARTICLE_RE.sub("", _PLURAL_MARK_RE.sub("", term).strip(" .,;:"))
    return term_key(_bare(term) or term) if term else ""


def _caps(word: str) -> bool:
    return len(word) > 1 and word.isupper()


def _finding(doc: _Doc, kind: str, block: int, start: int, end: int, message: str) -> Finding:
    """A finding quoting the document text ``[start, end)``, which lies in the block."""
    b = doc.graph.blocks[block]
    return Finding(kind, block, b.anchor, doc.graph.text[start:end], message, start=start - b.start)


def _prepare(graph: ContractGraph) -> _Doc:
    """Everything the contract gives a meaning to, in any of the ways contracts do; and its headings and names."""
    opening = min((s.first for s in graph.sections if s.number), default=len(graph.blocks))
    doc = _Doc(graph, [i for i, r in enumerate(graph.roles) if r is Role.BODY], graph.text.lower(), opening)
    doc.known = {d.key for d in graph.definitions}
    glossary = {i for s in graph.sections for i in range(s.first, s.own_end + 1)  # "Due Period. The monthly …"
                if _DEFINITIONS_TITLE_RE.search(f"{s.title} {graph.blocks[s.first].text[:80]}")}
    for block in graph.blocks:  # every block: the layout sometimes takes the parties' block for contents
        text = block.text
        doc.known.update(_key(next(g for g in m.groups() if g)) for m in _QUOTED_RE.finditer(text)
                         if not _FORWARD_RE.match(text, m.end()) and not _MENTION_RE.search(text, 0, m.start()))
        for regex in (_PAREN_NAME_RE, *[_HEREINAFTER_RE][:"ereinafter" in text or "ereafter" in text],
                      *[_GLOSSARY_RE][:block.index in glossary]):
            doc.known.update(_key(m.group(1)) for m in regex.finditer(text))
        for k in _EXPLAIN_WORD_RE.finditer(text):  # the costly pattern, only just before "means", "defined" …
            start = text.rfind(" ", 0, max(0, k.start() - 120)) + 1
            doc.known.update(_key(m[1]) for m in _EXPLAINED_RE.finditer(text, start, k.end() + 60))
        if graph.roles[block.index] is Role.BODY:
            caption = _CAPTION_RE.match(text)
            doc.headings.update([_key(caption.group(1))] if caption else [], map(_key, _CAPS_RUN_RE.findall(text)))
    doc.lower_words = {w.strip(".,;:()[]\"'“”’") for w in set(graph.text.split()) if w[:1].islower()}
    doc.parties = {m.group(1) for i in doc.body[:8] if i < opening for m in _COMPANY_RE.finditer(graph.blocks[i].text)}
    for words in (m.group(0).split() for i in doc.body[:3] for m in _NAMED_RE.finditer(graph.blocks[i].text)):
        if _bare(words[-1]).lower() in _DOCUMENT_WORDS:  # the title: "this Strategic Alliance" is the agreement
            doc.names.update(_key(" ".join(words[:k])) for k in range(2, len(words) + 1))
    return doc


def _undefined(doc: _Doc) -> list[Finding]:
    """Capitalised phrases used like defined terms that nothing in the contract defines."""
    graph, uses, out = doc.graph, defaultdict(list), []
    if any(_INCORPORATES_RE.search(t) for t in (graph.blocks[i].text for i in doc.body) if "efin" in t or "rpor" in t):
        return []  # the contract takes its undefined terms from another document
    for use in (use for i in doc.body for use in _phrases(graph.blocks[i].text, i, doc)):
        uses[_key(use[1])].append(use)
    for key, found in uses.items():
        if _looks_defined(key, found, doc):
            block, text, _, start = next((u for u in found if u[2]), found[0])
            at, start = where(graph, block), graph.blocks[block].start + start
            g = next((g for g in _ROLE_GROUPS if key in g), frozenset())  # "Distributor" defined, "Reseller" used
            party = next((d for d in graph.definitions if d.key in g - {key} and d.sites[0].block < doc.opening), None)
            out.append(_finding(doc, "undefined_term", block, start, start + len(text), f"'{text}' is used in {at} "
                                "but never defined") if party is None else _finding(
                doc, "party_names", block, start, start + len(text), f"'{text}' in {at} seems to name the party "
                f"defined as '{party.term}' in {where(graph, party.sites[0].block)}: one party, two names"))
    return out


def _phrases(text: str, block: int, doc: _Doc) -> list[tuple[int, str, str, int]]:
    """The uses (block, text, determiner, start) of the capitalised phrases of a block, leaving out sentence openers,
    captions, quoted titles and names; the determiner is the word before ("the", "such", "its" for "Acme's")."""
    runs, words = list(_RUN_RE.finditer(text)), text.count(" ") + 1
    if words < 6 or sum(m.group(0).count(" ") + 1 for m in runs) > 0.5 * words:
        return []  # a heading, a form, a list of names, or a passage in capitals
    caption = _CAPTION_RE.match(text)  # "14.5 Termination of the Agreement Due to Discontinuation.", quoted titles
    skip = [m.span() for m in _QUOTE_SPAN_RE.finditer(text)] + ([(0, caption.end())] if caption else [])
    pieces: list[list[tuple[str, int, int]]] = []  # runs cut after a possessive ("Party's | Intellectual") and at "The"
    for m in (m for m in runs if not any(a <= m.start() < b for a, b in skip)):
        tokens = ([(w.group(0), m.start() + w.start(), m.start() + w.end()) for w in re.finditer(r"\S+", m.group(0))]
                  if " " in m.group(0) else [(m.group(0), m.start(), m.end())])  # most runs are one word
        low = [_bare(t[0]).lower() for t in tokens] if len(tokens) > 2 else []  # "Federal Trade" [Commission]
        doc.names.update(term_key(" ".join(low[:k])) for k in range(2, len(low))
                         if low[k] in _NAME_LAST or low[k] in _NAME_ANY or low[k] in _DOCUMENT_WORDS)
        run: list[tuple[str, int, int]] = []
        for tok in [*tokens, ("The", 0, 0)]:
            cut = tok[0][0].isupper() and tok[0].lower() in _FUNCTION and tok[0] != "A"  # "Party A" is a name
            run += [] if cut else [tok]
            if cut or _bare(tok[0]) != tok[0]:
                while run and run[-1][0] in ("of", "for", "and", "&"):  # "Board of | The Company"
                    run.pop()
                while run and run[0][0] in ("of", "for", "and", "&"):  # "Party's | of GSK"
                    run.pop(0)
                pieces, run = pieces + ([run] if run else []), []
    out: list[tuple[int, str, str, int]] = []
    for run in pieces:
        tail, word = text[max(0, run[0][1] - 40):run[0][1]].split() or ["."], _bare(run[0][0])  # the word before
        prev = tail[-1] if tail[-1][-1].isalnum() or tail[-1][-1] in "'’" else tail[-1][-1]  # or the mark: ".", "("
        prev, whole = prev.lstrip("(\"“[") or prev, [_bare(t[0]).lower() for t in run]
        if (len(run) == 1 and not _caps(word) and _key(word) not in _TERM_NOUNS and word not in doc.parties
                and prev.lower() not in _DETERMINERS):
            doc.solo.update([whole[0]] if prev.islower() else [])  # a capitalised word mid-sentence: a name
            continue
        after = m.group(1) if (m := _AFTER_RE.match(text, run[-1][2])) else "."
        if (_is_name(whole) or _key(" ".join(whole)) in doc.known or after[0].isdigit() or after == "#"
                or prev in "\"“”‘'" or text[run[0][1] - 1:run[0][1]] in ("/", ".", "@")
                or (len(run) == 1 and _GLUED_RE.match(text, run[0][2]))):
            continue  # an act, a known term, "Network 1", "Document #9100", a quoted title, a URL, "Change in Control"
        # "Company's Marketing Plan" reads as a term; "Contractor's Right to Terminate" is a caption
        determiner = "its" if len(run) > 1 and prev[0].isupper() and _bare(prev) != prev else (
            prev.lower() if prev.lower() in _DETERMINERS else "")
        opener = prev[-1] in ".:;!?●•·" or (run[0][1] < 12 and not prev[0].isalpha())
        role = len(run) == 1 and (_key(word) in _ROLE_WORDS or word in doc.parties)  # "Recipient shall", "Acme will"
        acronyms = sum(_caps(t[0]) for t in run)
        if (not determiner and ((opener and not role) or _caps(prev) or _caps(after))) or (acronyms == len(run) and (
                acronyms > 1 or (after.isalpha() and after.islower() and after not in _NOUN_FOLLOWERS))):
            continue  # opens a sentence, sits among capitals ("URL HTTP"), or qualifies a noun ("the DTMF digits")
        doc.solo.update([whole[0]] if len(run) == 1 and prev.islower() else [])
        parts: list[list[tuple[str, int, int]]] = [[]]  # cut at "and"; at "of" after a known term or before capitals
        for tok in run:
            if tok[0] in ("and", "&") or (tok[0] in ("of", "for") and (
                    _key(" ".join(t[0] for t in parts[-1])) in doc.known or _caps(run[-1][0]))):
                parts.append([])
            else:
                parts[-1].append(tok)
        out += [(block, _bare(text[p[0][1]:p[-1][2]]), determiner if p[0] is run[0] else "", p[0][1])
                for p in parts if p and not _is_name([_bare(t[0]).lower() for t in p])]
    return out


def _is_name(low: list[str]) -> bool:
    """A company, place, date, institution, statute, office or reference, from its lower-cased words."""
    return ((low[-1] in _NAME_LAST and low[-2:] not in (["source", "code"], ["object", "code"]))  # a term
            or low[0] in _NAME_FIRST or any(w in _NAME_ANY for w in low))


def _looks_defined(key: str, uses: list[tuple[int, str, str, int]], doc: _Doc) -> bool:
    """Strong signals only: used as defined terms are, often enough, and neither defined nor a name."""
    words = uses[0][1].split()
    low, determined, n = [w.lower() for w in words], [u for u in uses if u[2]], len(words)
    tail = (n > 1 or len(determined) < 6) and any(k.endswith(" " + key) for k in doc.known)
    ends = {0}  # where the words split into known terms ("Licensee" + "Affiliates"); update() adds as it goes
    ends.update(e for e in range(1, n + 1) if any(a in ends and _key(" ".join(low[a:e])) in doc.known
                                                  for a in range(e)))
    if (key in doc.known or key in doc.names or tail or any(sum(c.isalpha() for c in w) < 2 for w in words)
            or (n > 1 and (n in ends or words[0] in _KNOWN_ACRONYMS))):
        return False  # defined, the tail of one ("such Patent Rights" after "GSK Patent Rights"), or two side by side
    if (n > 1 and not _caps(words[0]) and low[0] not in doc.lower_words and _key(low[0]) not in _TERM_NOUNS
            and (low[0] in doc.solo or _key(low[0]) in doc.known) and _key(low[-1]) not in _TERM_NOUNS):
        return False  # led by a name: "Excite Shopping Channel" is a brand, "Entrust Products" a term
    if {low[0], low[-1]} & _DOCUMENT_WORDS and (key in doc.headings or any(u[2] == "this" for u in uses)):
        return False  # an attached document's title, or a document calling itself "this Letter of Authorization"
    party = n == 1 and (key in _ROLE_WORDS or words[0] in doc.parties)
    acronym = n == 1 and _caps(words[0]) and not party
    if acronym and (low[0] in doc.lower_words or words[0].rstrip("s") in _KNOWN_ACRONYMS or not words[0].isalpha()):
        return False  # a word in capitals ("WARRANTY"), a well-known acronym, a model number
    strong = any(u[2] in ("such", "said") for u in uses)
    enough = (len(uses) >= 4 or (acronym and (strong or len(determined) >= 2)) if party or acronym  # "Acme shall"
              else (len(determined) >= 3 or (strong and len(determined) >= 2)) if n == 1 and key in _TERM_NOUNS
              else len(determined) >= 5 and (low[0] in doc.lower_words or sum(u[2] in _QUANTIFIERS for u in uses) > 1)
              if n == 1 else strong or len(determined) >= 2)  # "all Ingredients", "each Dossier": common nouns
    if not enough or (key in doc.headings and len(determined) < 3):
        return False  # too little evidence, or a caption ("2.1 Annual Earned Royalty.") read as a term
    # no word ever in lower case and no noun contracts define at its head: a proper name ("Indianapolis Colts")
    return n == 1 or _key(low[-1]) in _TERM_NOUNS or any(w in doc.lower_words for w in low)


def _unused(doc: _Doc) -> list[Finding]:
    """Definitions whose term never appears again outside its definition (or the sentence of an alias used)."""
    graph, out = doc.graph, []
    spans = {d.id: [(s.start, s.end) if s.pattern in ("means", "list") else (s.term_start - 1, s.term_end + 1)
                    for s in d.sites] for d in graph.definitions}  # a "means" entry is all definition, "(the X)" not
    used = {u.definition for u in graph.usages if not any(a <= u.start < b for a, b in spans[u.definition])}
    means = {(s.block, s.start) for d in graph.definitions if d.id in used for s in d.sites if s.pattern == "means"}
    for d in graph.definitions:
        term, site = _PLURAL_MARK_RE.sub("", d.term).strip(" .,;:"), d.sites[0]
        if (d.id in used or not re.fullmatch(r"[A-Z][\w&'’/-]*(?: [\w&'’/-]+){0,7}", term)
                or any((s.block, s.start) in means for s in d.sites if s.pattern == "means")  # '"API" or "…" means'
                or graph.text[max(0, site.term_start - 12):site.term_start].rstrip(' "“').endswith("words")):
            continue  # used, an alias is, or not a term ("and/or companies in the group", 'the words "Violin Plaza"')
        last = re.escape(term.split()[-1])  # singular or plural, hyphenated or possessive: "Studies", "Licensee-owned"
        last = re.sub(r"(?:ies|y|s)$", "", last) + ("(?:y|ies)" if re.search("(?:ies|y)$", last) else "(?:s|es)?")
        pattern = re.compile(r"(?<!\w)" + r"\s+".join([*map(re.escape, term.split()[:-1]), last]) + r"(?!\w)", re.I)
        stem, pos = term.lower()[:len(term) - 3 if len(term) > 5 else None], -1
        while (pos := doc.lowered.find(stem, pos + 1)) >= 0:  # a use the graph missed
            if (m := pattern.match(graph.text, pos)) and not any(a <= pos < b for a, b in spans[d.id]) and (
                    m.group(0).isupper() or term.isupper()  # "EBIX MARKS" is defined in capitals, used in any case
                    or all(g[0] == w[0] or w in _MINOR for g, w in zip(m[0].split(), term.split(), strict=False))):
                break
        else:
            out.append(_finding(doc, "unused_definition", site.block, site.term_start, site.term_end,
                                f"'{term}' is defined in {where(graph, site.block)} but never used"))
    return out


def _conflicting(doc: _Doc) -> list[Finding]:
    """A term defined at two places in the body of the contract with different words."""
    graph, out = doc.graph, []
    for d in graph.definitions:
        meanings: dict[int, tuple[set[str], DefinitionSite]] = {}
        for s in d.sites if d.key != "agreement" else ():  # "this Agreement" defined twice is no conflict
            sid = graph.owner[s.block]  # an exhibit is an instrument of its own, with its own definitions
            while sid and graph.section(sid).kind != "schedule":
                sid = graph.section(sid).parent
            if s.block in meanings or sid or _POINTER_RE.match(graph.text, s.term_end, s.term_end + 60):
                continue  # an exhibit, a pointer or a gloss ('"X" has the meaning …'), "X" or "Xs" in one sentence
            if s.pattern in ("means", "list", "the_term"):  # a "means" entry's body
                text = graph.text[s.term_end:s.end]
            else:  # the name ("Redwater LLC ("Contractor")") or the five words before the bracket
                before = _PLURAL_MARK_RE.sub("", graph.text[max(s.start, s.term_start - 200):s.term_start])
                before = _ENTITY_TAIL_RE.sub("", before.rsplit("(", 1)[0])
                name = re.search(r"(?:[A-Z][\w&.'’®-]*,?\s+)*[A-Z][\w&.'’®-]*[\s,]*$", before)
                text = name.group(0) if name else " ".join(before.split()[-5:])
            meanings[s.block] = ({w.rstrip("s") for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _MINOR}, s)
        pairs = itertools.pairwise([(m, s) for m, s in meanings.values() if m])
        if clash := next(((s1, s2) for (m1, s1), (m2, s2) in pairs if not (m1 <= m2 or m2 <= m1)), None):
            out.append(_finding(doc, "conflicting_definition", clash[1].block, clash[1].term_start, clash[1].term_end,
                                f"'{d.term}' is defined in {where(graph, clash[0].block)} and again, differently, "
                                f"in {where(graph, clash[1].block)}"))
    return out


def _miscased(doc: _Doc) -> list[Finding]:
    """A multi-word defined term with some words in the other case ("Confidential information"), once per term.
    str.find over the lower-cased text: one regex of every term would be ten times slower."""
    graph, text, out, uses = doc.graph, doc.graph.text, [], Counter(u.definition for u in doc.graph.usages)
    terms = {t.lower(): (t, d) for d in graph.definitions if (t := _ARTICLE_RE.sub("", " ".join(d.term.split())))}
    starts = [b.start for b in graph.blocks]
    for low, (term, d) in terms.items():
        if " " not in term or term.islower() or term.isupper() or doc.lowered.count(low) <= uses[d.id] + len(d.sites):
            continue  # one word, or no more copies than uses
        for pos in (m.start() for m in re.finditer(re.escape(low), doc.lowered)):
            found, end = text[pos:pos + len(low)], pos + len(low)
            pairs = [(g, w) for g, w in zip(found.split(), term.split(), strict=True) if g.lower() not in _MINOR]
            if not (any(g == w for g, w in pairs) and any(g != w for g, w in pairs)) or any(
                    _caps(g) for g, w in pairs if g != w):
                continue  # as defined, all lower case, in capitals, or a slip in "of" or "per"
            i = bisect.bisect_right(starts, pos) - 1
            if not (re.match(r"[\w-]", text[pos - 1:pos]) or re.match(r"[\w-]|\s+[A-Z]", text[end:end + 2])
                    or graph.roles[i] is not Role.BODY or any(s.start <= pos < s.end for s in d.sites)):
                out.append(_finding(doc, "term_case", i, pos, end, f"'{found}' in {where(graph, i)} should read "
                                    f"'{term}', as defined in {where(graph, d.sites[0].block)}"))
                break  # once per term; not inside a longer word or name ("other IP Action"), nor the definition
    return out
