"""Capitalised phrases used as defined terms are, that nothing in the contract defines.

The graph links every definition to its uses (:mod:`redline.retrieval.definitions`); what it cannot see is a term
that reads like a defined term but has none. That is the hard part for precision: contracts are full of capitalised
words that are not defined terms (headings, names, statutes, institutions, months, the title, sentence openers,
passages in capitals). So a phrase is reported only on strong signals: it is *used as defined terms are* (after
"the" or "such", more than once), it is several words, an acronym, a party's name or a noun contracts define
("Territory"), and nothing in the contract defines, quotes, brackets or explains it."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from importlib.resources import files

from ..definitions import term_key
from .finding import Finding
from .termdoc import CAPTION_RE, DOCUMENT_WORDS, Doc, Known, bare, caps, finding, key_of, vocabulary, where

_DETERMINERS = vocabulary("the such said any each all this that these those no either neither every its their his her "
                          "our your other another same")
_FUNCTION = vocabulary("the a an this that these those such each any all no not in if upon for of to by with on at as and "
                       "or it its his her their we our you your he she they where when whereas whether now notwithstanding "
                       "subject provided shall will must should would could can")
# (capitalised, those open a sentence or glue a heading: never part of a term)
# A phrase with one of these anywhere is a company, place, date or institution; ending in one, a statute or an
# office; opening with one, a reference ("Section 4", "State of Delaware").
_NAME_ANY = vocabulary("inc incorporated corp corporation co llc ltd limited lp llp plc gmbh ag sa nv bv pty pte holdings "
                       "bank university college hospital borough commerce street avenue road drive suite floor boulevard "
                       "county city district province kingdom republic nations america american january february march "
                       "april may june july august september october november december monday tuesday wednesday thursday "
                       "friday saturday sunday mr mrs ms dr esq commission court courts department office administration "
                       "agency bureau exchange authority association council institute society foundation organization "
                       "organisation union government congress parliament senate ministry registrar chamber board secretary")
_NAME_LAST = vocabulary("act code rules regulation regulations law laws statute treaty convention directive president "
                        "standards practices amendments protocol injury "
                        "director directors officer chairman accountant attorney insurance liability compensation internet "
                        "web state")
_NAME_FIRST = vocabulary("rules international commonwealth "
                         "section sections article articles exhibit schedule annex appendix attachment clause paragraph part "
                         "item form page table chapter title recital recitals whereas witnesseth state federal national "
                         "united")
_KNOWN_ACRONYMS = vocabulary(  # countries, regulators, standards, measures: used everywhere without a definition
    "US USA UK EU EEA PRC UAE FDA SEC FTC FCC IRS EPA DOJ NIH CMS EMA FCA ISO GAAP IFRS EBITDA NYSE NASDAQ OTC FY SKU "
    "EIA TIA ANSI IEEE IEC ITU CCITT LIBOR SOFR CEO CFO COO CTO VAT GST IP IT PC TV URL HTTP HTTPS WWW VISA CFR FOB "
    "CIF EXW DDP DAP ICC AAA JAMS UCC ERISA HIPAA COBRA OSHA NASD FINRA PCT USPTO WIPO OECD UN NFL NBA NHL MLB PDF API")
_ROLE_WORDS = vocabulary(  # a party's role, used as its name without an article: "Recipient shall …"
    "distributor reseller dealer licensor licensee supplier vendor seller manufacturer customer buyer purchaser client "
    "contractor consultant franchisor franchisee provider developer publisher sponsor company corporation partner "
    "lender borrower landlord tenant lessor lessee recipient discloser guarantor depositor assignee assignor associate "
    "indemnitee indemnitor sublicensee subcontractor executive employee shareholder investor member owner "
    "counterparty")
# Nouns contracts define as one-word terms (each defined in three or more of CUAD's training contracts; names and
# institutions left out): "the Territory" mid-sentence reads as a defined term, "the Board" does not.
_TERM_NOUNS = _ROLE_WORDS | vocabulary(
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
_ROLE_GROUPS = tuple(map(vocabulary, ("distributor reseller dealer", "supplier vendor seller manufacturer", "tenant lessee",
                                     "customer buyer purchaser client", "contractor consultant", "company corporation",
                                     "landlord lessor")))
_NOUN_FOLLOWERS = vocabulary("shall will may must is are was were has have had and or of to in for by with as at on from "
                             "under that which who hereunder pursuant")  # after an acronym used as a noun ("the SSS shall")
# A numbered block's opening words in capitals (and "of", "to", "as", "&"): a caption, even without its full stop
_HEAD_RE = re.compile(r"[(\s]*(?:\d{1,3}(?:\.\d{1,3})*\.?|[A-Za-z]\.|\([a-z0-9]{1,4}\))\s+(?:(?:[A-Z][\w'’&/-]*|of|to|as|"
                      r"and|or|for|in|on|the|a|an|by|with)[,;.]?\s+)+(?=[A-Z][\w'’-]*\s+(?:[a-z]|[A-Z][a-z]*\s+[a-z]))")
# Multi-word terms contracts commonly define ("Effective Date", "Business Day"), counted on CUAD's training contracts
# by ``redline hygiene-terms``: one use of one of those, defined nowhere, is the defect a lawyer expects flagged.
_COMMON = frozenset(json.loads(files(__package__).joinpath("common_terms.json").read_text(encoding="utf-8"))["terms"])
_REDACTED_AFTER_RE = re.compile(r"\s*\[\s*\*")
_GENERIC_HEADS = ("event", "period", "date", "notice", "transaction", "country")  # a term's last word a shorter use may drop
_QUANTIFIERS = vocabulary("any all each such said no every these those")
_RUN_RE = re.compile(r"(?<![\w'’&-])[A-Z][\w&'’-]*(?:(?:\s+(?:of|for|and|&))?\s+[A-Z][\w&'’-]*)*")
_AFTER_RE = re.compile(r"\s*(\w[\w'’-]*|[^\s\w])")
_GLUED_RE = re.compile(r"\s+(?:in|to|on)\s+[A-Z]")  # "Change in Control": one word of a longer name
_QUOTE_SPAN_RE = re.compile(r"[\"“][^\"“”]{0,200}[\"”]")
_INCORPORATES_RE = re.compile(  # "Capitalized terms used but not defined herein have the meanings in the Credit …"
    r"(?:capitali[sz]ed|defined)\s+terms?\s+(?:(?:which|that)\s+are\s+)?(?:used\s+)?(?:herein|in\s+this\s+\w+)?"
    r"\s*(?:and|but)?\s*(?:(?:which|that)\s+are\s+)?not\s+(?:otherwise\s+)?defined|(?:capitali[sz]ed|defined)\s+"
    r"terms?\s+used\s+(?:herein|in\s+this\s+\w+)\s+(?:shall\s+)?have\s+the\s+(?:same\s+)?meaning|definitions\s+"
    r"(?:and\s+provisions\s+)?contained\s+in\b.{0,160}?\bincorporated"
    # "all capitalized terms shall have the meaning ascribed to them as set forth in the Asset Purchase Agreement"
    # (c0060), "Each term used and not otherwise defined herein shall have the meaning assigned to such term in the
    # Offer" (c0440): another instrument, not "Section 1" or "this Agreement"
    r"|(?:capitali[sz]ed\s+terms?|each\s+term)\b[^.]{0,80}?\bha(?:ve|s)\s+the\s+(?:same\s+)?meanings?\s+(?:ascribed|"
    r"assigned|given|set\s+forth|provided)\b[^.]{0,60}?\b(?:in|under)\s+(?:the\s+)?(?!(?:this|section|article|clause|"
    r"schedule|exhibit|annex|appendix|attachment|paragraph|definitions?|following|below)\b)[A-Z]", re.IGNORECASE)


def check(doc: Doc) -> list[Finding]:
    """Capitalised phrases used like defined terms that nothing in the contract defines."""
    graph, uses, out = doc.graph, defaultdict(list), []
    # A contract that takes its undefined terms from another document ("Capitalized terms used but not defined
    # herein have the meanings in the Credit Agreement") defines only its parties itself: those are still checked.
    incorporates = any(_INCORPORATES_RE.search(t) for t in (graph.blocks[i].text for i in doc.body)
                       if "efin" in t or "rpor" in t or "eaning" in t)
    opening = " ".join(graph.blocks[i].text for i in range(min(doc.opening, len(graph.blocks))))
    for use in (use for i in doc.body for use in _phrases(graph.blocks[i].text, i, doc)):
        uses[key_of(use[1])].append(use)
    for key, found in uses.items():
        g = next((g for g in _ROLE_GROUPS if key in g), frozenset())  # "Distributor" defined, "Reseller" used
        party = next((d for d in graph.definitions if d.key in g - {key} and d.sites[0].block < doc.opening), None)
        if incorporates and party is None and not (key in _ROLE_WORDS and len(found) >= 4 and re.search(
                rf"\b{re.escape(found[0][1])}\b", opening)):
            continue  # not a party of this instrument, named in its opening: perhaps the other document's term
        if _looks_defined(key, found, doc):
            block, text, _, start = next((u for u in found if u[2]), found[0])
            at, start = where(graph, block), graph.blocks[block].start + start
            out.append(finding(doc, "undefined_term", block, start, start + len(text), f"'{text}' is used in {at} "
                                "but never defined") if party is None else finding(
                doc, "party_names", block, start, start + len(text), f"'{text}' in {at} seems to name the party "
                f"defined as '{party.term}' in {where(graph, party.sites[0].block)}: one party, two names"))
    return out


def _phrases(text: str, block: int, doc: Doc) -> list[tuple[int, str, str, int]]:
    """The uses (block, text, determiner, start) of the capitalised phrases of a block, leaving out sentence openers,
    captions, quoted titles and names; the determiner is the word before ("the", "such", "its" for "Acme's")."""
    runs, words = list(_RUN_RE.finditer(text)), text.count(" ") + 1
    if words < 6 or sum(m.group(0).count(" ") + 1 for m in runs) > 0.5 * words:
        return []  # a heading, a form, a list of names, or a passage in capitals
    caption = CAPTION_RE.match(text)  # "14.5 Termination of the Agreement Due to Discontinuation.", quoted titles
    skip = [m.span() for m in _QUOTE_SPAN_RE.finditer(text)] + ([(0, caption.end())] if caption else [])
    if head := _HEAD_RE.match(text):  # "17.6 Cooperation as to Adverse Events, Product Inquiries and Recalls Each …"
        end = head.end()
        while (last := re.search(r"([A-Z][a-z]*)\s+$", text[:end])) and last.group(1).lower() in _FUNCTION:
            end = last.start()  # but not the sentence's opening "The" or "Each"
        skip.append((0, end))
    pieces: list[list[tuple[str, int, int]]] = []  # runs cut after a possessive ("Party's | Intellectual") and at "The"
    for m in (m for m in runs if not any(a <= m.start() < b for a, b in skip)):
        tokens = ([(w.group(0), m.start() + w.start(), m.start() + w.end()) for w in re.finditer(r"\S+", m.group(0))]
                  if " " in m.group(0) else [(m.group(0), m.start(), m.end())])  # most runs are one word
        low = [bare(t[0]).lower() for t in tokens] if len(tokens) > 2 else []  # "Federal Trade" [Commission]
        doc.names.update(term_key(" ".join(low[:k])) for k in range(2, len(low))
                         if low[k] in _NAME_LAST or low[k] in _NAME_ANY or low[k] in DOCUMENT_WORDS)
        run: list[tuple[str, int, int]] = []
        for tok in [*tokens, ("The", 0, 0)]:
            cut = tok[0][0].isupper() and tok[0].lower() in _FUNCTION and tok[0] != "A"  # "Party A" is a name
            run += [] if cut else [tok]
            if cut or bare(tok[0]) != tok[0]:
                while run and run[-1][0] in ("of", "for", "and", "&"):  # "Board of | The Company"
                    run.pop()
                while run and run[0][0] in ("of", "for", "and", "&"):  # "Party's | of GSK"
                    run.pop(0)
                pieces, run = pieces + ([run] if run else []), []
    out: list[tuple[int, str, str, int]] = []
    for run in pieces:
        tail, word = text[max(0, run[0][1] - 40):run[0][1]].split() or ["."], bare(run[0][0])  # the word before
        prev = tail[-1] if tail[-1][-1].isalnum() or tail[-1][-1] in "'’" else tail[-1][-1]  # or the mark: ".", "("
        prev, whole = prev.lstrip("(\"“[") or prev, [bare(t[0]).lower() for t in run]
        if (len(run) == 1 and not caps(word) and key_of(word) not in _TERM_NOUNS and word not in doc.parties
                and prev.lower() not in _DETERMINERS):
            doc.solo.update([whole[0]] if prev.islower() else [])  # a capitalised word mid-sentence: a name
            continue
        after = m.group(1) if (m := _AFTER_RE.match(text, run[-1][2])) else "."
        if _initials(whole) in doc.known or key_of(f"{' '.join(whole)} {after}") in doc.known:
            continue  # '"CTA" means a Clinical Trial Application': the words of an acronym the contract defines;
            # "the Force Majeure event", "the Warranty period": a defined term with its last word in lower case
        if len(whole) > 2 and _is_name(whole):
            doc.name_heads.add(tuple(whole[:2]))  # "Johns Hopkins" [University]: its other names are names too
        if bare(prev) != prev and frozenset(key_of(f"{bare(prev)} {' '.join(whole)}").split()) in doc.bags:
            continue  # "Client's Sponsor Graphics", the defined "Sponsor Client Graphic" in other order (c0154)
        if (_is_name(whole) or key_of(" ".join(whole)) in doc.known or after[0].isdigit() or after == "#"
                or prev in "\"“”‘'" or text[run[0][1] - 1:run[0][1]] in ("/", ".", "@")
                or (len(run) == 1 and _GLUED_RE.match(text, run[0][2]))):
            continue  # an act, a known term, "Network 1", "Document #9100", a quoted title, a URL, "Change in Control"
        # "Company's Marketing Plan" reads as a term; "Contractor's Right to Terminate" is a caption
        determiner = "its" if len(run) > 1 and prev[0].isupper() and bare(prev) != prev else (
            prev.lower() if prev.lower() in _DETERMINERS else "")
        if determiner == "its" and len(tail) > 1 and tail[-2].lower() == "this":
            determiner = "this"  # "this LICENSEE's Customer Agreement": a document naming itself (c0094)
        if _REDACTED_AFTER_RE.match(text, run[-1][2]):
            continue  # "VS Preferred Pricing [***]": what would say what it is was cut from the filing (c0125)
        opener = prev[-1] in ".:;!?●•·" or (run[0][1] < 12 and not prev[0].isalpha())
        role = len(run) == 1 and (key_of(word) in _ROLE_WORDS or word in doc.parties)  # "Recipient shall", "Acme will"
        acronyms = sum(caps(t[0]) for t in run)
        if (not determiner and ((opener and not role) or caps(prev) or caps(after))) or (acronyms == len(run) and (
                acronyms > 1 or (after.isalpha() and after.islower() and after not in _NOUN_FOLLOWERS))):
            continue  # opens a sentence, sits among capitals ("URL HTTP"), or qualifies a noun ("the DTMF digits")
        doc.solo.update([whole[0]] if len(run) == 1 and prev.islower() else [])
        parts: list[list[tuple[str, int, int]]] = [[]]  # cut at "and"; at "of" after a known term or before capitals
        for tok in run:
            if tok[0] in ("and", "&") or (tok[0] in ("of", "for") and (
                    key_of(" ".join(t[0] for t in parts[-1])) in doc.known or caps(run[-1][0]))):
                parts.append([])
            else:
                parts[-1].append(tok)
        out += [(block, bare(text[p[0][1]:p[-1][2]]), determiner if p[0] is run[0] else "", p[0][1])
                for p in parts if p and not _is_name([bare(t[0]).lower() for t in p])]
    return out


def _initials(low: list[str]) -> str:
    """The acronym a phrase's words make ("clinical trial application" is "cta")."""
    return "".join(w[0] for w in low if w not in ("of", "for", "and", "&", "the", "to", "on", "in")) if len(low) > 1 else ""


def _is_name(low: list[str]) -> bool:
    """A company, place, date, institution, statute, office or reference, from its lower-cased words."""
    return ((low[-1] in _NAME_LAST and low[-2:] not in (["source", "code"], ["object", "code"]))  # a term
            or low[0] in _NAME_FIRST or any(w in _NAME_ANY for w in low))


def _looks_defined(key: str, uses: list[tuple[int, str, str, int]], doc: Doc) -> bool:
    """Strong signals only: used as defined terms are, often enough, and neither defined nor a name."""
    words = uses[0][1].split()
    low, determined, n = [w.lower() for w in words], [u for u in uses if u[2]], len(words)
    tail = (n > 1 or len(determined) < 6) and any(k.endswith(" " + Known.spelling(key)) for k in doc.known)
    ends = {0}  # where the words split into known terms ("Licensee" + "Affiliates"); update() adds as it goes
    ends.update(e for e in range(1, n + 1) if any(a in ends and key_of(" ".join(low[a:e])) in doc.known
                                                  for a in range(e)))
    prefix = n > 1 and any(f"{Known.spelling(key)} {w}" in doc.known for w in _GENERIC_HEADS)
    prefix = prefix or any(" ".join(low[a:]) in doc.known and all(w in doc.lower_words for w in low[:a])
                           for a in range(1, n - 1))  # "Proposed Sale Transaction": a defined term with an ordinary
    # word before it, capitalised (c0045)  # "Change of Control"
    # for the defined "Change of Control Event" (c0124); not "Gross Margin" for "Gross Margin Per Tablet" (c0149)
    if (key in doc.known or key in doc.names or tail or prefix or tuple(low[:2]) in doc.name_heads
            or any(sum(c.isalpha() for c in w) < 2 for w in words)
            or (n > 1 and (n in ends or words[0] in _KNOWN_ACRONYMS))):
        return False  # defined, the tail of one ("such Patent Rights" after "GSK Patent Rights"), or two side by side
    if (n > 1 and not caps(words[0]) and low[0] not in doc.lower_words and key_of(low[0]) not in _TERM_NOUNS
            and (low[0] in doc.solo or key_of(low[0]) in doc.known) and key_of(low[-1]) not in _TERM_NOUNS):
        return False  # led by a name: "Excite Shopping Channel" is a brand, "Entrust Products" a term
    if {low[0], low[-1]} & DOCUMENT_WORDS and (key in doc.headings or any(u[2] == "this" for u in uses)
                                               or len(determined) < 3):
        return False  # an attached document's title, or a document calling itself "this Letter of Authorization"
    party = n == 1 and (key in _ROLE_WORDS or words[0] in doc.parties)
    acronym = n == 1 and caps(words[0]) and not party
    if acronym and (low[0] in doc.lower_words or words[0].rstrip("s") in _KNOWN_ACRONYMS or not words[0].isalpha()):
        return False  # a word in capitals ("WARRANTY"), a well-known acronym, a model number
    strong = any(u[2] in ("such", "said") for u in uses)
    enough = (len(uses) >= 4 or (acronym and (strong or len(determined) >= 2)) if party or acronym  # "Acme shall"
              else (len(determined) >= 3 or (strong and len(determined) >= 2)) if n == 1 and key in _TERM_NOUNS
              else len(determined) >= 5 and (low[0] in doc.lower_words or key in doc.lower_words
                                             or sum(u[2] in _QUANTIFIERS for u in uses) > 1)
              if n == 1 else strong or len(determined) >= 2 or (key in _COMMON and (determined or len(uses) > 1)))
    # ("all Ingredients", "each Dossier": common nouns; "the Effective Date" once: a term contracts define)
    if not enough or (key in doc.headings and len(determined) < 3):
        return False  # too little evidence, or a caption ("2.1 Annual Earned Royalty.") read as a term
    # no word ever in lower case and no noun contracts define at its head: a proper name ("Indianapolis Colts")
    return n == 1 or key in _COMMON or key_of(low[-1]) in _TERM_NOUNS or any(w in doc.lower_words for w in low)
