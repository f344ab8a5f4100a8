"""Defined terms a careful associate checks: undefined, unused, defined twice, miscased, one party with two names.

The graph links every definition to its uses (:mod:`redline.retrieval.definitions`): a definition no use points
to, a term defined twice with different words, or a use whose case differs from the definition's, is read off it
here. A term used but never defined has no link to follow; :mod:`.undefined` finds those."""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter

from ..definitions import DefinitionSite
from ..graph import ContractGraph
from ..layout import Role
from . import undefined
from .finding import Finding
from .termdoc import ARTICLE_RE, PLURAL_MARK_RE, Doc, caps, finding, prepare, vocabulary, where

_MINOR = vocabulary("of per and the for to in on a an or by with")  # a case slip in these is not worth a comment
_ATTACHED_RE = re.compile(r"\s*(?:EXHIBIT|Exhibit|SCHEDULE|Schedule|ANNEX|Annex|APPENDIX|Appendix|ATTACHMENT|Attachment)"
                          r"\s+[A-Z0-9][\w.-]{0,5}(?:\s*[-–—:]|\s+(?:TO|to)\s|\s*$)")
_REDACTED_RE = re.compile(r"\[\s*\*+\s*\]|\[\s*(?:\*\s*){2,}\]|\[redacted", re.IGNORECASE)
# Words quoted, not defined: 'the words "Violin Plaza"', 'followed by the term "Independent Franchise Owner"'
# (c0322), 'the FDA Orange Book publication ("Approved Drug Products with …")' (c0308)
_QUOTING_RE = re.compile(r"(?:\bwords|\b(?:followed\s+by|display\w*|bear\w*|stat\w*|with)\s+the\s+(?:term|phrase|legend)|"
                         r"\bpublication|\bentitled|\btitled)[\s(\"“]*$", re.IGNORECASE)
_POINTER_RE = re.compile(r"[\"”]?[\s,]*(?:(?:has|have|shall\s+have)\s+the\s+(?:same\s+)?meanings?|(?:shall\s+)?"
                         r"(?:also\s+)?(?:not\s+)?(?:includes?|be\s+deemed)|:\s|$)", re.IGNORECASE)  # or a gloss
_ENTITY_TAIL_RE = re.compile(r",?\s+an?\s+[A-Z][\w\s]{0,40}?(?:corporation|company|partnership|limited|bank)[\s,]*$")


def check(graph: ContractGraph) -> list[Finding]:
    """Every defined-term defect in the contract, in document order."""
    doc = prepare(graph)
    return sorted([*undefined.check(doc), *_unused(doc), *_conflicting(doc), *_miscased(doc)], key=lambda f: f.block)



def _unused(doc: Doc) -> list[Finding]:
    """Definitions whose term never appears again outside its definition (or the sentence of an alias used)."""
    graph, out = doc.graph, []
    spans = {d.id: [(s.start, s.end) if s.pattern in ("means", "list") else (s.term_start - 1, s.term_end + 1)
                    for s in d.sites] for d in graph.definitions}  # a "means" entry is all definition, "(the X)" not
    used = {u.definition for u in graph.usages if not any(a <= u.start < b for a, b in spans[u.definition])}
    means = {(s.block, s.start) for d in graph.definitions if d.id in used for s in d.sites if s.pattern == "means"}
    redacted = bool(_REDACTED_RE.search(graph.text))
    for d in graph.definitions:
        term, site = PLURAL_MARK_RE.sub("", d.term).strip(" .,;:"), d.sites[0]
        if (d.id in used or len(d.sites) > 1 or not re.fullmatch(r"[A-Z][\w&'’/-]*(?: [\w&'’/-]+){0,7}", term)
                or any((s.block, s.start) in means for s in d.sites if s.pattern == "means")  # '"API" or "…" means'
                or _QUOTING_RE.search(graph.text, max(0, site.term_start - 40), site.term_start)
                or (redacted and _POINTER_RE.match(graph.text, site.term_end, site.term_end + 60))
                or (term.isupper() and _initials(graph.text[max(0, site.term_start - 120):site.term_start]).endswith(term))):
            # (or an acronym naming what it follows, "Trust Preferred Income Equity Redeemable Securities ("PIERS")",
            # a service mark rather than a term, c0035)
            continue  # used (a second site is a use: 'does an "Ownership Change Event"', c0016), an alias is, not a
            # term ("and/or companies in the group"), words quoted ('followed by
            # the term "Independent Franchise Owner"', a publication's title), or pointing to a section a redacted
            # filing may have cut (c0308's '"Supply Failure Remedy Option" has the meaning specified in Section 3.5(b)')
        words = term.split()
        last = _word(words[-1])  # singular or plural, hyphenated or possessive: "Studies", "Licensee-owned"
        last = re.sub(r"(?:ies|y|s)$", "", last) + ("(?:y|ies)" if re.search("(?:ies|y)$", last) else "(?:s|es)?")
        head = [_word(w.rstrip("sS")) + "[sS]?" if len(w) > 3 else _word(w) for w in words[:-1]]  # "Auto Channel
        full = r"\s+".join([*head, last])  # Home Page" for the "AUTOS CHANNEL HOME PAGE" (c0053)
        short = r"\s+".join(head) if len(words) > 2 else ""  # "a Full Verification" (c0130)
        pattern = re.compile(rf"(?<!\w)(?:{full}{'|' + short if short else ''})(?!\w)", re.I)
        stem, pos = (words[0].lower().rstrip("s") if len(words) > 1 else term.lower()[:len(term) - 3 if len(term) > 5 else None]), -1
        stem = stem.split("-")[0] or stem  # "non-" finds "Non- Recourse" too
        while (pos := doc.lowered.find(stem, pos + 1)) >= 0:  # a use the graph missed
            if (m := pattern.match(graph.text, pos)) and not any(a <= pos < b for a, b in spans[d.id]) and (
                    m.group(0).isupper() or term.isupper()  # "EBIX MARKS" is defined in capitals, used in any case
                    or all(g[0] == w[0] or w in _MINOR for g, w in zip(re.sub(r"-\s+", "-", m[0]).split(), term.split(),
                                                                         strict=False))):
                break
        else:
            out.append(finding(doc, "unused_definition", site.block, site.term_start, site.term_end,
                                f"'{term}' is defined in {where(graph, site.block)} but never used"))
    return out


def _initials(text: str) -> str:
    """The capitals that start the words of ``text`` ("Trust Preferred Income … Securities (" is "TPIES")."""
    return "".join(w[0] for w in re.findall(r"[A-Za-z][\w'’-]*", text) if w[0].isupper())


def _word(word: str) -> str:
    """A word of a term as a pattern, a hyphen in it allowed a line break after ("Non- Recourse", c0440)."""
    return re.escape(word).replace(r"\-", r"-\s*")


def _conflicting(doc: Doc) -> list[Finding]:
    """A term defined at two places in the body of the contract with different words."""
    graph, out = doc.graph, []
    # from the first attachment heading on ("EXHIBIT G" over a form of confidentiality agreement, c0322), even one
    # the layout did not read as a schedule
    attached = next((b.index for b in graph.blocks[doc.opening + 1:] if len(b.text) <= 80 and _ATTACHED_RE.match(b.text)),
                    len(graph.blocks))  # (after the contract's opening: not an EDGAR filing's "EXHIBIT 10.3" label)
    for d in graph.definitions:
        meanings: dict[int, tuple[set[str], DefinitionSite]] = {}
        for s in d.sites if d.key != "agreement" else ():  # "this Agreement" defined twice is no conflict
            sid = graph.owner[s.block]  # an exhibit is an instrument of its own, with its own definitions
            while sid and graph.section(sid).kind != "schedule":
                sid = graph.section(sid).parent
            if s.block in meanings or sid or s.block >= attached or _POINTER_RE.match(graph.text, s.term_end,
                                                                                     s.term_end + 60):
                continue  # an exhibit, a pointer or a gloss ('"X" has the meaning …'), "X" or "Xs" in one sentence
            if s.pattern in ("means", "list", "the_term"):  # a "means" entry's body
                text = graph.text[s.term_end:s.end]
            else:  # the name ("Redwater LLC ("Contractor")") or the five words before the bracket
                before = PLURAL_MARK_RE.sub("", graph.text[max(s.start, s.term_start - 200):s.term_start])
                before = _ENTITY_TAIL_RE.sub("", before.rsplit("(", 1)[0])
                name = re.search(r"(?:[A-Z][\w&.'’®-]*,?\s+)*[A-Z][\w&.'’®-]*[\s,]*$", before)
                text = name.group(0) if name else " ".join(before.split()[-5:])
            meanings[s.block] = ({w.rstrip("s") for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _MINOR}, s)
        pairs = itertools.pairwise([(m, s) for m, s in meanings.values() if m])
        if clash := next(((s1, s2) for (m1, s1), (m2, s2) in pairs if not (m1 <= m2 or m2 <= m1)), None):
            out.append(finding(doc, "conflicting_definition", clash[1].block, clash[1].term_start, clash[1].term_end,
                                f"'{d.term}' is defined in {where(graph, clash[0].block)} and again, differently, "
                                f"in {where(graph, clash[1].block)}"))
    return out


def _miscased(doc: Doc) -> list[Finding]:
    """A multi-word defined term with some words in the other case ("Confidential information"), once per term.
    str.find over the lower-cased text: one regex of every term would be ten times slower."""
    graph, text, out, uses = doc.graph, doc.graph.text, [], Counter(u.definition for u in doc.graph.usages)
    terms = {t.lower(): (t, d) for d in graph.definitions if (t := ARTICLE_RE.sub("", " ".join(d.term.split())))}
    starts = [b.start for b in graph.blocks]
    for low, (term, d) in terms.items():
        if " " not in term or term.islower() or term.isupper() or doc.lowered.count(low) <= uses[d.id] + len(d.sites):
            continue  # one word, or no more copies than uses
        for pos in (m.start() for m in re.finditer(re.escape(low), doc.lowered)):
            found, end = text[pos:pos + len(low)], pos + len(low)
            pairs = [(g, w) for g, w in zip(found.split(), term.split(), strict=True) if g.lower() not in _MINOR]
            if not (any(g == w and not caps(g) for g, w in pairs) and any(g != w for g, w in pairs)) or any(
                    caps(g) for g, w in pairs if g != w):  # ("third party IP infringement": only the acronym as
                # defined, the rest ordinary words, is a description, not the defined "Third Party IP", c0395)
                continue  # as defined, all lower case, in capitals, or a slip in "of" or "per"
            i = bisect.bisect_right(starts, pos) - 1
            if not (re.match(r"[\w-]", text[pos - 1:pos]) or re.match(r"[\w-]|\s+[A-Z]", text[end:end + 2])
                    or graph.roles[i] is not Role.BODY or any(s.start <= pos < s.end for s in d.sites)):
                out.append(finding(doc, "term_case", i, pos, end, f"'{found}' in {where(graph, i)} should read "
                                    f"'{term}', as defined in {where(graph, d.sites[0].block)}"))
                break  # once per term; not inside a longer word or name ("other IP Action"), nor the definition
    return out
