"""Cross-references that lead nowhere: "section II above" with no section II, an exhibit attached empty.

An unresolved reference is only a *candidate*: outlines read from PDF text miss headings, so a number counts as
present wherever it stands in label position. Never reported: a statute ("Section 409A of the Code"), another
instrument ("6.10 of the Separation Agreement", "Appendix A to the TAA"), the filing's "Exhibit 10.3", what an
amendment amends. Exhibits a filing left out are *one* finding, none when it says they were omitted. A heading
over nothing or "[to be attached]" is empty; "[Intentionally omitted]", "None", "[***]" and pictures are not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from ..graph import ContractGraph
from ..labels import roman_to_int
from ..references import Reference, normalise_number, split_ident
from .attachments import ATTACHMENT_RE, ATTACHMENT_WORDS, empty_attachments
from .finding import Finding
from .numbering import run_of, where

# A number where a clause label could stand ("4.4Taxes." too); _label_position judges what precedes it.
_NUMBER_RE = re.compile(r"(?<![\w.$§/-])(?:(?:SECTION|Section|ARTICLE|Article|CLAUSE|Clause|§)\s*)?"
                        r"(\d{1,3}(?:\.\d{1,3})*|[IVXL]{1,6})(?:\.(?!\d))?(?![a-z\d_-])")
_FOLLOWS_LABEL_RE = re.compile(r"\s*$|\s*[\[A-Z]|\s+[\"“(]|\s+\d{1,3}\.\d")
_CITING_RE = re.compile(r"(?:sections?|articles?|clauses?|paragraphs?|sub-?sections?|sub-?clauses?|subparagraphs?|§§?"
                        r"|schedule|exhibit|annex|appendix|and|or|to|through|under|in|of|with|by|see|than|per|pursuant"
                        r"|from|on|at|for|nor|this|that|such|said|as|hereto|the)", re.IGNORECASE)
_STATUTE_BEFORE_RE = re.compile(
    r"(?:U\.?\s?S\.?\s?C|C\.?\s?F\.?\s?R|CCR|Code|Act|Acts|Regulations?|Rules?|SSA|Stat|ERISA|IRC|Del\.\s*C|Title\s+\w+"
    r"|Law)\.?,?\s*(?:\(S\)|§§?|[Ss]ections?|[Pp]art)?\s*$|(?:C\.?\s?F\.?\s?R|U\.?\s?S\.?\s?C|CCR)\.?\s*"
    r"(?:[\s\d.,()a-z§-]|Sections?)*$|\d\s*$")  # "21 C.F.R. § 312", "41 CFR §60-1.4, 29 CFR", "42 U.S.C. §"
_STATUTE_AFTER_RE = re.compile(r"-\d|\s*(?:CFR|C\.F\.R|U\.S\.C|USC)\b")
_TAIL_RE = re.compile(  # what may stand between a listed reference and "of the Separation Agreement"
    r"^(?:\s*(?:,|and|or|through|to|and/or|-|–|including|\((?:[^()]|\([^()]*\))*\)"
    r"|(?:Sections?|SECTIONS?|§§?|Articles?|Clauses?|Paragraphs?)?\s*\d[\w.()]*))*\s*")
# "of the Separation Agreement", "of the U.S. Bankruptcy Code": a capitalised name ("its end user agreement" is none)
_EXTERNAL_RE = re.compile(
    r"^(?i:(?:(?:and\s+)?elsewhere\s+)?(?:of|under|in|to)\s+(?:the\s+|that\s+|such\s+|said\s+|each\s+|any\s+)?)"
    r"(?!this\b|these\b|This\b|THIS\b)(?:(?:[\w.&'’/,-]+|\([^()]{1,40}\))\s+){0,9}?(?=[A-Z])(?i:agreements?|act"
    r"|code|regulations?|plan|lease|contract|rules?|convention|directive|statute|law|note|indenture|certificate|charter"
    r"|bylaws|amendment|prospectus|statement|trust|policy|order|ordinance|license|form|definitions|confirmation"
    r"|subpart|part|title|U\.S\.C|C\.F\.R)\b|^(?i:thereof)\b")
_OMITTED_RE = re.compile(r"\b(?:omitted|not\s+(?:been\s+)?(?:included|filed|attached)|filed\s+separately"
                         r"|furnished\s+supplementally|separately\s+annexed|available\s+upon)\b", re.IGNORECASE)
_ATTACHMENT_WORD_RE = re.compile(r"\b(?:exhibit|schedule|annex|appendi(?:x|ces)|attachment)", re.IGNORECASE)
_AMENDMENT_TITLE_RE = re.compile(
    r"^\W*(?:exhibit\s+[\d.]+\s+)?(?:(?:first|second|third|fourth|fifth|sixth|\w+\s+and\s+restated|\d+(?:st|nd|rd|th))"
    r"\s+)?amendment\b(?!\s+(?:of|to)\s+(?:the\s+)?(?:registration|articles|certificate))", re.IGNORECASE)
_PART_OF_RE = re.compile(r"(?:supplements?|forms?\s+(?:a\s+)?part\s+of)[^.]{0,160}\b(?:Master\s+Agreement|ISDA)", re.I)
_REDACTED_RE = re.compile(r"\[\s*\*|\*{3}")
_DOT_LETTER_RE = re.compile(r"\.([A-Z])\b(?![.\d])")  # "Section 12.C", which the extractor reads as 12
_PART_WINDOW = 4000  # how far after a label "7" its clause "(d)" may be written


@dataclass(slots=True)
class Inventory:
    """What the contract has: numbers in label position (and where), roman labels, attachment headings."""

    numbers: set[str] = field(default_factory=set)
    where: dict[str, list[int]] = field(default_factory=dict)  # "4.2" -> offsets where it stands as a label
    romans: set[int] = field(default_factory=set)
    headings: dict[tuple[str, str], list[int]] = field(default_factory=dict)  # ("exhibit", "B") -> blocks
    mentioned: set[tuple[str, str]] = field(default_factory=set)  # named as a heading anywhere in a line
    top: int = 0  # the highest top-level clause number

    @classmethod
    def of(cls, graph: ContractGraph) -> Inventory:
        """Read the inventory from the outline, Word's labels and the text."""
        inv = cls()
        for s in graph.sections:
            for key in s.keys:
                inv.add(key.removeprefix("article "))
            key = (s.keys[0].split(" ")[0], (s.number or "").upper()) if s.keys else ("", "")
            if s.kind == "schedule" and s.number and key[0] in ATTACHMENT_WORDS and not _filing_exhibit(*key):
                inv.headings.setdefault(key, []).append(s.first)
        for block in graph.blocks:
            text = block.text
            if block.label:
                inv.add(block.label.strip().rstrip(".").strip("()"))
            for m in _NUMBER_RE.finditer(text):
                if _label_position(text, m) and (parts := inv.add(m.group(1))):
                    inv.where.setdefault(".".join(parts), []).append(block.start + m.start())
            for m in ATTACHMENT_RE.finditer(text):
                key = (m.group(1).lower(), m.group(2).upper())
                if _filing_exhibit(*key):
                    continue
                first = text[m.end():].split(None, 1)[:1]  # "Exhibit A sets forth…" is a sentence, not a heading
                sentence, start = bool(first) and first[0][0].islower() and first[0] not in ("to", "of"), (
                    m.start() == 0 or bool(re.fullmatch(r"\s*(?:Page\s+)?\d{1,3}\s*", text[:m.start()])))  # "9 Annex A"
                if start and not sentence and block.index not in inv.headings.get(key, []):
                    inv.headings.setdefault(key, []).append(block.index)
                cited = (w := text[:m.start()].rstrip(" ,").split()) and _CITING_RE.fullmatch(w[-1])
                alone = len(text) <= 80 or not text[m.end():].strip() or m.group(1).isupper()
                if start or (alone and not cited):
                    inv.mentioned.add(key)  # "… May 3, 2016 EXHIBIT A LICENSE FEES": a heading run into a line
        return inv

    def add(self, token: str) -> tuple[str, ...] | None:
        """Record a label ("4.02", "IV"); returns its normalised parts when it is a number."""
        parsed = _parse_number(token.strip().rstrip("."))
        if isinstance(parsed, int):
            self.romans.add(parsed)
            return None
        if parsed:
            self.numbers.update(".".join(parsed[:n]) for n in range(1, len(parsed) + 1))
            if (len(parsed) > 1 or token.endswith(".")) and int(parsed[0]) < 200:
                self.top = max(self.top, int(parsed[0]))
        return parsed


@lru_cache(maxsize=4096)
def _parse_number(token: str) -> tuple[str, ...] | int | None:
    """"4.02" -> ("4", "2"); "IV" -> 4; anything else None."""
    if re.fullmatch(r"[IVXLivxl]+", token):
        return roman_to_int(token)
    return tuple(normalise_number(token).split(".")) if re.fullmatch(r"\d{1,3}(?:\.\d{1,3})*", token) else None


def _label_position(text: str, m: re.Match[str]) -> bool:
    """Whether a number stands where a clause label does (a line start, after a sentence, a gap, a running
    header or a run-in caption "3. LICENSES 3.1"), not in a citation ("under Section 4.3")."""
    number, before, after = m.group(1), text[:m.start()], text[m.end():]
    stripped = before.rstrip()
    if number.isalpha() and m.group(0).startswith(number):  # a bare roman numeral: "II." opening a line only
        return m.group(0).endswith(".") and stripped[-1:] in ("", ".", ";", ":")
    if re.match(r"\s*[,;]", after):
        return False  # "Section 13.1, Section 14 and …": a list of citations, even at a line start
    if not stripped or stripped[-1] in ".;:" or before.endswith(("  ", "---", "--- ")):
        return "." in number or bool(_FOLLOWS_LABEL_RE.match(after)) or not stripped
    if not _FOLLOWS_LABEL_RE.match(after) or stripped[-1] in ",(":
        return False
    word = stripped.split()[-1]
    if word in ("and", "or") and stripped[:-len(word)].rstrip().endswith(";"):
        return True  # "…any Product; and 12.2.16 Aucta has not…": the last item of a run-in list
    if _CITING_RE.fullmatch(word.strip("\"“”")) and word.lower() not in ("as", "hereto", "the"):
        return False
    return word[:1].isupper() or word[:1].isdigit() or stripped[-1] in ")]\"”"


def check(graph: ContractGraph) -> list[Finding]:
    """Missing cross-reference targets and empty attachments, one finding per target."""
    inv = Inventory.of(graph)
    return sorted(_missing_sections(graph, inv) + _attachments(graph, inv), key=lambda f: f.block)


def _missing_sections(graph: ContractGraph, inv: Inventory) -> list[Finding]:
    candidates, known_external = [], set()
    for ref in graph.references:
        if ref.kind not in ("section", "article", "clause") or (ref.status == "resolved" and not re.fullmatch(
                r"[IVXL]+", ref.ident) and not _DOT_LETTER_RE.match(graph.text, ref.end)):
            continue
        if ref.status == "external" or _outside(graph, ref):
            known_external.add(split_ident(ref.ident)[0])  # "Section 365(n) of the Code", then "Section 365(n)"
        else:
            candidates.append(ref)
    if not candidates or len(inv.numbers) < 3 or _amends_another(graph):  # < 3: the numbering was lost
        return []
    missing: dict[str, list[Reference]] = {}
    for ref in candidates:
        if name := _missing_target(graph, inv, ref, known_external):
            missing.setdefault(name, []).append(ref)
    out = []
    for name, refs in missing.items():  # one finding per missing target, at its first citation
        quote = graph.text[refs[0].start:(end := refs[0].end + (2 if re.search(r"\.[A-Z]$", name) else 0))]
        more = f" (and {len(refs) - 1} other place{'s' if len(refs) > 2 else ''})" if len(refs) > 1 else ""
        said = quote if re.match(r"(?i)(?:sections?|articles?|clauses?|paragraphs?|§)", quote) else name
        out.append(_finding(graph, refs[0], f"{said} is referenced in {where(graph, refs[0].source)}{more} but the "
                                            f"contract has no {name}.", end))
    return out


def _missing_target(graph: ContractGraph, inv: Inventory, ref: Reference, known_external: set[str]) -> str | None:
    """The target's name ("Section 14.9", "clause (q)") when the contract has no trace of it, else None."""
    base, parts = split_ident(ref.ident)
    word = "Article" if ref.kind == "article" else "Section"
    if ref.text.startswith("(") and ref.kind != "clause" and not re.search(
            r"\)\s*(?:,|and|or|through|to|and/or)\s*$", graph.text[max(0, ref.start - 12):ref.start]):
        return None  # "…of this Section 8.01, (ii) information…": the next item of a list, not a reference
    if not base:  # "clause (iii) above", "paragraph (b) of Section 5.4"
        return None if not parts or _token_near(graph, inv, ref, parts[0]) else f"clause ({parts[0]})"
    if re.fullmatch(r"[IVXL]+", base):  # "section II" in a contract numbered 1, 2, 3 has no section II
        return None if roman_to_int(base) in inv.romans else f"{word} {base}"
    if base == "0":  # a Word cross-reference whose bookmark was deleted prints "Section 0"
        return f"{word} 0"
    dot = _DOT_LETTER_RE.match(graph.text, ref.end)
    if dot or ref.status == "partial":  # "Section 12.C", "Section 7(d)": 12 and 7 exist; do C and (d)?
        parts = [dot.group(1)] if dot else parts
        name = f"{word} {base}" + (f".{parts[0]}" if dot else "".join(f"({p})" for p in parts))
        return name if _missing_part(graph, inv, ref, base, parts) else None
    if normalise_number(base) in inv.numbers or base in known_external:
        return None
    if int(normalise_number(base).split(".")[0]) >= 100 and inv.top < 100:
        return None  # "Section 409", "§ 1320": a statute's numbering, not this contract's
    return f"{word} {base}"


def _missing_part(graph: ContractGraph, inv: Inventory, ref: Reference, base: str, parts: list[str]) -> bool:
    """"Section 7(d)" where 7 exists: missing if no "(d)" is written under 7, in the citing section or after a
    label "7", however nested. A clause redacted from a filing ("[***]"): not judged."""
    target = graph.section(ref.target) if ref.target else None
    if target is None or not parts:
        return False
    after = graph.blocks[min(target.own_end + 1, len(graph.blocks) - 1)]  # a redacted tail is often furniture
    if not target.children and _REDACTED_RE.search(graph.text[graph.blocks[target.first].start:after.end]):
        return False
    if len(parts) == 1 and any(re.fullmatch(rf"\(?{re.escape(parts[0])}[.)]", (b.label or "").strip(), re.I)
                               for b in graph.blocks[target.first:target.end + 1]):
        return False  # Word's own label "C." (not in the text) under 12
    spans = [(r.start, r.end) for r in graph.references]
    ranges = [(graph.blocks[target.first].start, graph.blocks[target.end].end)]  # "12.C": under 12 only
    if not _DOT_LETTER_RE.match(graph.text, ref.end):
        ranges += [(at, at + _PART_WINDOW) for at in inv.where.get(normalise_number(base), [])]
        ranges += [_top_range(graph, sid) for sid in (ref.target, ref.source)]
    return not all(any(_written_in(graph.text, part, lo, hi, spans) for lo, hi in ranges) for part in parts)


def _token_near(graph: ContractGraph, inv: Inventory, ref: Reference, token: str) -> bool:
    """Whether "(iii)" is written where the reference sends the reader: in the citing top-level section (from
    the preamble, anywhere) or after a label "5.4" ("(b) of Section 5.4")."""
    spans = [(r.start, r.end) for r in graph.references]
    if _written_in(graph.text, token, *_top_range(graph, ref.source), spans):
        return True
    of = re.match(r"\s+of\s+(?:this\s+)?(?:Section|Article|paragraph|clause)\s+(\d{1,3}(?:\.\d{1,3})*|[IVX]+)\b",
                  graph.text[ref.end:ref.end + 40], re.IGNORECASE)
    at = inv.where.get(normalise_number(of.group(1)), []) if of else []
    return bool(of) and (not at or any(_written_in(graph.text, token, a, a + _PART_WINDOW, spans) for a in at))


def _top_range(graph: ContractGraph, sid: str) -> tuple[int, int]:
    top = ([graph.section(sid), *graph.ancestors(sid)])[-1]
    return (0, len(graph.text)) if top.kind == "preamble" else (
        graph.blocks[top.first].start, graph.blocks[top.end].end)


def _written_in(text: str, token: str, lo: int, hi: int, spans: list[tuple[int, int]]) -> bool:
    """Whether "(d)" (or "d." / "d)") is written between ``lo`` and ``hi`` outside every reference."""
    return any(not any(s <= lo + m.start() < e for s, e in spans)
               for m in re.finditer(rf"(?<![\w])\(?{re.escape(token)}[.)]", text[lo:hi], re.IGNORECASE))


def _outside(graph: ContractGraph, ref: Reference) -> bool:
    """A statute, a filing or another instrument, which the graph's own test did not catch."""
    before, after = graph.text[max(0, ref.start - 40):ref.start], graph.text[ref.end:ref.end + 700]
    if after[:1].isalnum() or _STATUTE_AFTER_RE.match(after) or _STATUTE_BEFORE_RE.search(before):
        return True  # "Section 409A", "§ 1320a-7b", "41 CFR §60-1.4, 29 CFR"
    rest = after[_TAIL_RE.match(after).end():]  # type: ignore[union-attr]  # the pattern matches the empty string
    # "Appendix A to the TAA" (c0268): an instrument known by its initials is another document
    return bool(_EXTERNAL_RE.match(rest) or re.match(r"\s*et\s+seq", rest)
                or re.match(r"\s*(?:of|to|under)\s+the\s+[A-Z]{2,6}\b", after))


def _amends_another(graph: ContractGraph) -> bool:
    """An amendment cites the sections it amends, a swap confirmation its master agreement's: not in here."""
    text = graph.text
    if any(_AMENDMENT_TITLE_RE.match(b.text) for b in graph.blocks[:4]) or (
            ("ISDA" in text or "aster Agreement" in text) and _PART_OF_RE.search(text)):
        return True
    hits = (m for m in re.finditer(r"amended|deleted|replaced|restated", graph.text)
            if re.search(r"\b(?:is|are)\s+(?:hereby\s+)?$", graph.text[max(0, m.start() - 16):m.start()]))
    return sum(1 for _ in zip(range(3), hits, strict=False)) >= 3


def _attachments(graph: ContractGraph, inv: Inventory) -> list[Finding]:
    cited: dict[tuple[str, str], list[Reference]] = {}
    for ref in graph.references:
        if (key := _attachment_key(graph, ref)) is not None:
            cited.setdefault(key, []).append(ref)
    out = empty_attachments(graph, inv.headings, cited)
    attached = {(w, i.split("-")[0]) for w, i in inv.headings} | set(inv.headings) | inv.mentioned  # B-1 is B
    absent: dict[tuple[str, str], list[Reference]] = {}
    for key, refs in cited.items():
        if key in attached:
            continue
        itself = next((r for r in refs if ([graph.section(r.source), *graph.ancestors(r.source)])[-1].kind == "schedule"
                       and graph.text[max(0, r.start - 5):r.start].lower().endswith("this ")), None)
        if itself is not None:  # "In this Exhibit D:" written inside Schedule 6
            out.append(_finding(graph, itself, f"{where(graph, itself.source)} calls itself "
                                               f"{key[0].capitalize()} {key[1]}."))
        else:
            absent[key] = refs
    text = graph.text  # "Schedules have been omitted pursuant to Item 601", "Exhibit A … separately annexed"
    if not absent or any(_ATTACHMENT_WORD_RE.search(text[max(0, m.start() - 100):m.end() + 60])
                         for m in _OMITTED_RE.finditer(text)):
        return out
    # One finding for the set at its first citation: a partner wants to hear once that exhibits were left out.
    first = min((r for refs in absent.values() for r in refs), key=lambda r: r.start)
    one = len(absent) == 1
    at = f" in {where(graph, first.source)} but is" if one else f" (first in {where(graph, first.source)}) but are"
    ident = next(iter(absent))[1]
    if not inv.headings:
        tail = " to the contract"
    elif one and (other := next((w for w, i in inv.headings if i == ident), None)):
        tail = f"; the attachment is headed {other.capitalize()} {ident}"
    else:
        tail = f" (the contract attaches {_join(_group({(w, i.split('-')[0]) for w, i in inv.headings}))})"
    out.append(_finding(graph, first, f"{_join(_group(absent))} {'is' if one else 'are'} referenced{at} "
                                      f"not attached{tail}."))
    return out


def _finding(graph: ContractGraph, r: Reference, message: str, end: int | None = None) -> Finding:
    block = graph.blocks[r.block]
    return Finding("missing_reference", r.block, block.anchor, graph.text[r.start:end or r.end], message,
                   start=r.start - block.start)


def _attachment_key(graph: ContractGraph, ref: Reference) -> tuple[str, str] | None:
    """("exhibit", "B") for a reference to an attachment of this contract, else None."""
    if ref.kind not in ATTACHMENT_WORDS or ref.status == "external" or _outside(graph, ref):
        return None
    text, ident = graph.text, ref.ident.upper()  # the word nearest before it: "Schedule 1 and Exhibit A"
    kind = re.findall(r"(?i)exhibit|schedule|annex|appendi|attachment", text[max(0, ref.start - 30):ref.end])[-1]
    if ref.text != ref.ident and not re.search(r"[\s\"“]" + re.escape(ref.ident) + "[\"”]?$", ref.text):
        return None  # "ATTACHMENTS" read as Attachment S
    if text[ref.start - 1:ref.start] in "-–" or re.match(r"[-–][\w]", text[ref.end:ref.end + 2]):
        return None  # "Annex I-A" read as two references
    if more := re.match(r"\.\d{1,2}(?:\.\d{1,2})*(?![\w])", text[ref.end:ref.end + 8]):
        ident += more.group(0)  # "Schedule 6.1.2", which the extractor stops at 6.1
    after = text[ref.end:ref.end + 200]
    if _filing_exhibit(ref.kind, ident) or (_EXTERNAL_RE.match(after.strip()) and not re.match(
            r"\s*(?:to|of)\s+this\b", after)):
        return None
    return ("appendix" if kind.lower() == "appendi" else kind.lower(), ident)


def _filing_exhibit(word: str, ident: str) -> bool:
    """The filing's own exhibit numbers: "Exhibit 10.3", "Exhibit 21 to the Registration Statement"."""
    return word == "exhibit" and bool(re.fullmatch(r"\d+(?:\.\d+)*", ident)) and ("." in ident or int(ident) >= 10)


def _group(keys: Iterable[tuple[str, str]]) -> list[str]:
    """"Exhibits A–C", "Schedule 1": the idents of each word, named as a run."""
    out = []
    for word in ATTACHMENT_WORDS:
        if idents := sorted({i for w, i in keys if w == word}):
            plural = "" if len(idents) == 1 else "es" if word.endswith("x") else "s"
            out.append(f"{word.capitalize()}{plural} {run_of(idents)}")
    return out


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
