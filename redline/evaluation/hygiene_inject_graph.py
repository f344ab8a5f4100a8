"""The injectors that choose their place with the contract graph: a resolved cross-reference broken, a used
definition removed, a numbered clause deleted, a cited attachment emptied (see :mod:`.hygiene_inject`)."""

from __future__ import annotations

import random
import re
from collections import defaultdict

from redline.retrieval.blocks import Block
from redline.retrieval.labels import parse_label
from redline.retrieval.layout import Role
from redline.retrieval.sections import Section

from .hygiene_draft import Draft, Planned
from .hygiene_places import sentence_ends, shuffled

_REF_WORDS = r"(?:[Ss]ections?|SECTIONS?|§§?|[Pp]aragraphs?|[Cc]lauses?)\s*"
_FOOTER = re.compile(r"\bPage\s+\d+\s+of\s+\d+\s*$", re.IGNORECASE)  # a running footer: not what an attachment holds
_HEADED = re.compile(r"\s*(?:EXHIBIT|Exhibit|SCHEDULE|Schedule|ANNEX|Annex|APPENDIX|Appendix|ATTACHMENT|Attachment)\s+"
                     r"[A-Z0-9]{1,4}\b")  # a paragraph that opens an attachment
_LATER = re.compile(r"\bto\s+be\s+(?:furnished|attached|provided|supplied|agreed|completed|determined|added)\b", re.I)
_GENERIC_TERMS = frozenset({"agreement", "this agreement", "party", "parties"})


def missing_reference(d: Draft, rng: random.Random) -> Planned | None:
    """A resolved "Section 4.2" changed to a number the contract does not have: the first after the last of
    its siblings that is written nowhere in the text ("Section 4.6" where 4.5 is the last)."""
    g = d.graph
    keys = {k.lower().removeprefix("article ") for s in g.sections for k in s.keys}
    everything = "\n".join(d.texts)
    refs = [n for n, r in enumerate(g.references) if r.status == "resolved" and r.kind in ("section", "clause")
            and re.fullmatch(r"\d{1,3}(?:\.\d{1,3})*", r.ident)
            and re.fullmatch(_REF_WORDS + re.escape(r.ident), r.text)]
    for n in shuffled(refs, rng):
        ref = g.references[n]
        i = d.paragraph_of(ref.block)
        if g.roles[ref.block] is not Role.BODY or g.blocks[ref.block].heading_level is not None:
            continue
        *prefix, _ = ref.ident.split(".")
        head = ".".join(prefix) + "." if prefix else ""
        siblings = [int(k[len(head):]) for k in keys if k.startswith(head) and k[len(head):].isdigit()]
        number = max(siblings, default=0) + 1
        while f"{head}{number}" in keys or re.search(rf"(?<![\w.]){re.escape(f'{head}{number}')}(?!\w)", everything):
            number += 1  # a number written nowhere ("11.1" writes 11): one anywhere could be the target
        a, z = d.offset(ref.block, ref.start), d.offset(ref.block, ref.end)
        new = ref.text[: len(ref.text) - len(ref.ident)] + f"{head}{number}"
        if re.match(r"\.\w|\(", d.texts[i][z: z + 2]):
            continue  # "paragraph 6.d", "Section 4(b)": the reference goes on past what was read as it
        listed = re.findall(r"\d{1,3}(?:\.\d{1,3})*", m.group(0)) if (
            m := re.match(r"(?:\s*(?:,|or|and|and/or)\s*\d{1,3}(?:\.\d{1,3})*)+", d.texts[i][z:z + 60])) else []
        if any(x not in keys for x in listed):
            continue  # "Section 2, 5, 6 or 13" with no 5 here: the list cites another instrument's sections
        if d.texts[i][a:z] == ref.text and d.splice(i, a, z, new):
            return d.plan("missing_reference", [i], (a, a + len(new)), change=f"{ref.text} → {new}")
    return None


def undefined_term(d: Draft, rng: random.Random) -> Planned | None:
    """The definition of a term used elsewhere removed: its parenthetical ("(the "Licensed Products")") or
    its "means" sentence (the whole paragraph when that is all it holds). Only capitalised terms (a lower-case
    "third" reads as a word wherever it is used); terms that shorten a name written just before them
    (``Acme Corp. ("Acme")``) and "Agreement"/"Party" are left alone: no lawyer misses those."""
    g = d.graph
    everything = "\n".join(d.texts).lower()
    for n in shuffled(list(range(len(g.definitions))), rng):
        term_def = g.definitions[n]
        term = term_def.term
        if (len(term_def.sites) != 1 or term_def.key in _GENERIC_TERMS or not term[:1].isupper() or len(term) < 2
                or "(" in term):
            continue
        site = term_def.sites[0]
        i = d.paragraph_of(site.block)
        uses = [d.paragraph_of(u.block) for u in g.usages if u.definition == term_def.id and u.block != site.block
                and g.roles[u.block] is Role.BODY and _as_defined(g.text[u.start:u.end], term)]
        uses = [u for u in uses if u not in d.deleted]
        text = d.texts[i]
        ts = d.offset(site.block, site.term_start)
        if (not uses or g.roles[site.block] is not Role.BODY or not d.editable(i)
                or sum(everything.count(f"{q}{term.lower()}{c}") for q, c in ('""', "“”", "“\"", "\"”")) != 1
                or _shortens(term, text[: max(ts - 1, 0)]) or _public_body(term, text[: max(ts - 1, 0)])):
            continue
        opened, closed = text.rfind("(", 0, ts), text.find(")", ts)
        if opened >= 0 and closed >= 0 and ")" not in text[opened:ts] and "(" not in text[ts:closed]:
            if len(re.findall(r"[\"“][^\"“”]+[\"”]", text[opened:closed])) != 1:
                continue  # ("Emerald" or the "Company"): removing it would undefine two terms
            a = len(text[:opened].rstrip())
            done = d.splice(i, a, closed + 1, "")
        else:
            a, z = d.offset(site.block, site.start), d.offset(site.block, site.end)
            prefix = text[:a].strip()
            label = parse_label(prefix) if prefix else None
            if (not prefix or (label and label[1] >= len(prefix))) and not text[z:].strip():
                done = d.delete([i])  # the paragraph held the definition and nothing else
            elif prefix:
                done = d.splice(i, len(text[:a].rstrip()), z, "")
            else:
                done = d.splice(i, a, len(text) - len(text[z:].lstrip()), "")
        if done:
            d.keep.add(uses[0])
            return d.plan("undefined_term", [], name=term,
                          change=f"definition of “{term}” removed ({len(uses)} uses in other paragraphs)")
    return None


def _as_defined(used: str, term: str) -> bool:
    """Whether a use is written with the term's capitals: once the definition is gone, "freight" in lower case
    is an ordinary word and "Term" in a heading a heading; only a use that still looks defined is a defect."""
    return [w[:1].isupper() for w in used.split()] == [w[:1].isupper() for w in term.split()][:len(used.split())]


def _public_body(term: str, before: str) -> bool:
    """Whether ``term`` is the acronym of a regulator or other public body ("FINRA", "SEC"): every reader knows
    it, so the expansion taken away is no defect."""
    return term.isupper() and bool(re.search(r"\b(?:Authority|Commission|Administration|Association|Agency|"
                                             r"Exchange|Institute|Organi[sz]ation|Bureau|Department|Board)\W*$",
                                             before[-120:].rstrip(" (")))


def _shortens(term: str, before: str) -> bool:
    """Whether ``term`` is the short form of a name written just before it: the name itself ("Acme Corp.
    ("Acme")") or its initials ("Johns Hopkins University ("JHU")")."""
    if re.search(rf"(?<!\w){re.escape(term)}(?!\w)", before, re.IGNORECASE):
        return True
    initials = "".join(w[0] for w in re.findall(r"[A-Za-z][\w'’-]*", before)[-8:] if w[0].isupper())
    return term.isupper() and term.isalpha() and term in initials


def numbering_gap(d: Draft, rng: random.Random) -> Planned | None:
    """A numbered clause deleted, heading and body, between two siblings, so the typed numbering skips
    ("4.1, 4.3"); the finding is expected at the clause after the gap (or the one before it)."""
    g = d.graph
    families: dict[str | None, list[Section]] = defaultdict(list)
    for s in g.sections:
        if s.kind in ("section", "clause", "article"):
            families[s.parent].append(s)
    triples = [t for f in families.values() for t in zip(f, f[1:], f[2:], strict=False)]
    for n in shuffled(list(range(len(triples))), rng):
        prev, mid, nxt = triples[n]
        readings = [_readings(g.blocks[s.first]) for s in (prev, mid, nxt)]
        if not any((k, o - 1) in readings[0] and (k, o + 1) in readings[2] for k, o in readings[1]):
            continue
        first, after = d.paragraph_of(prev.first), d.paragraph_of(nxt.first)
        doomed = list(range(d.paragraph_of(mid.first), d.paragraph_of(mid.end) + 1))
        if first in d.used or after in d.used or not d.delete(doomed):
            continue
        label = g.blocks[mid.first].text[:40]
        return d.plan("numbering_gap", [after, first], change=f"deleted “{label}…” ({len(doomed)} paragraphs)")
    return None


def _readings(block: Block) -> set[tuple[str, int]]:
    """(kind, ordinal) of a typed label at the start of a block, both readings of "(i)"; none for Word's own
    list numbers (deleting such a paragraph renumbers the rest: no gap)."""
    if block.label:
        return set()
    parsed = parse_label(block.text)
    if parsed is None:
        return set()
    label = parsed[0]
    return {(label.kind, label.ordinal)} | ({(label.alt.kind, label.alt.ordinal)} if label.alt else set())


def empty_attachment(d: Draft, rng: random.Random) -> Planned | None:
    """A referenced exhibit or schedule emptied: its heading kept, everything up to the next attachment gone.
    Only an attachment headed once, by a heading and not a paragraph that starts with its name (emptying
    what follows "SCHEDULE 2.1 Distribution Agreements 1. McKesson …" leaves it full)."""
    g = d.graph
    cited: dict[str, list[int]] = defaultdict(list)
    for r in g.references:
        if r.status == "resolved" and r.target:  # (the kind is the word cited: "exhibit", "schedule", …)
            for s in g.ancestors(r.target, include_self=True):
                cited[s.id].append(d.paragraph_of(r.block))
    attachments = [s for s in g.sections if s.kind == "schedule"]
    keys = [k for s in attachments for k in s.keys[:1]]
    def headed(s: Section) -> int:  # paragraphs that start with the attachment's name
        name = re.escape(g.blocks[s.first].text.split()[0]) + r"\s+" + re.escape(s.number or "?") + r"(?![\w.])"
        return sum(1 for t in d.texts if re.match(rf"\s*{name}", t, re.IGNORECASE))

    candidates = [n for n, s in enumerate(attachments) if s.keys and keys.count(s.keys[0]) == 1
                  and len(g.blocks[s.first].text) <= 150 and not sentence_ends(g.blocks[s.first].text)
                  and headed(s) == 1]
    for n in shuffled(candidates, rng):
        s = attachments[n]
        head = d.paragraph_of(s.first)
        # up to the next attachment's heading ("EXHIBIT B TO …"): a heading inside this one ("PAYMENTS", "FEES FOR
        # THE SERVICES IN EXHIBIT A") is part of it
        end = next((i for i in range(head + 1, len(d.paragraphs)) if _HEADED.match(d.texts[i])), len(d.paragraphs))
        body = list(range(head + 1, end))
        # cited from the contract before it (an EDGAR "Exhibit 10.1" heading over the whole filing is no
        # attachment), with something in it (not a footer, not "List to be furnished by CCA": that one is empty
        # already), and not half the document
        citing = [i for i in cited.get(s.id, []) if i not in d.deleted and i < head]
        held = [d.texts[i] for i in body if not _FOOTER.search(d.texts[i])]
        if (not citing or head in d.used or sum(len(t.strip()) for t in held) < 40 or any(map(_LATER.search, held))
                or len(body) > len(d.paragraphs) / 2 or not d.delete(body)):
            continue
        d.keep.add(citing[0])
        parsed = parse_label(g.blocks[s.first].text)
        name = parsed[0].text if parsed else s.label  # "Exhibit B", without the title after it
        return d.plan("empty_attachment", [head], name=name, change=f"emptied {name} ({len(body)} paragraphs)")
    return None
