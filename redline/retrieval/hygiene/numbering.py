"""Clause numbering that skips or repeats: "§12 jumps from B to D", "4.1, 4.2, 4.2, 4.4".

The outline (:mod:`redline.retrieval.sections`) has already decided which
numbers open clauses, from Word's own list label (``Block.label``) where the
numbering is automatic and from the typed text where it is typed. Siblings
are compared in order, family by family ("4.1"/"4.2", "(a)"/"(b)", "A."/"B.",
articles), and a jump of one to three numbers is a gap.

What makes this hard is not finding jumps but not crying wolf, so a jump is
*not* reported when something between the two items explains it:

* a "[Reserved]" / "Intentionally omitted" / "[Deleted]" entry, or a filing's
  "[***]" (a section redacted from a public filing is not a drafting gap);
* the missing number written in between (the outline failed to split a line,
  which happens in text pasted from PDFs, not in the contract);
* a table (tables number their rows however they like), or an item of a
  schedule's own numbering that restarts at 1 (never a gap: restarts are
  simply new runs).

A duplicate ("4.2" twice) is never opened as a section by the outline, so it
is found as a clause-shaped line between two siblings that repeats the first
one's label; "4.2, 4.2, 4.4" is then one duplicate, not also a gap.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..blocks import Block
from ..graph import ContractGraph
from ..headings import after_page_number, caption
from ..labels import Label, letter_ordinal, parse_label, roman_to_int
from ..layout import Role
from ..sections import Section
from .finding import Finding

_MAX_MISSING = 3  # a jump further than this is a number the outline misread, not a clause left out
# What explains a jump: an entry kept for a deleted clause ("[Reserved]", "Intentionally omitted"), or a
# clause redacted from the filing ("[***]" standing alone, or closing the text just before the next item).
_EXPLAINED_RE = re.compile(
    r"\[\s*(?:reserved|deleted|omitted|intentionally[^\]]*)\s*\.?\s*\]|\bintentionally\s+(?:omitted|left\s+blank|deleted)"
    r"|(?:^|\n|[.:;]\s+)(?:reserved|deleted|omitted)\s*[.\n]",
    re.IGNORECASE,
)
_REDACTION_RE = re.compile(r"(?:^|\n)[\s\[\]*.•]*\*[\s\[\]*.•]*(?:\n|$)|(?:\*\s*\]|\*{2,})[\s.;,)]*$")
_NOT_TEXT = tuple("%$€£")
_CITED_RE = re.compile(  # "Section 4.3", "Sections 8, 9, 10 and": a citation, not a label
    r"(?:\b(?:sections?|clauses?|paragraphs?|sub-?sections?|articles?)|§)\s*(?:[\w.()]+\s*(?:,|and|or|through|to)\s*)*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Item:
    """One numbered clause as a sibling: its family, position among siblings and the label as written."""

    sid: str
    block: int
    family: str  # "num2", "article", "(a)", "A." …: items of one family are compared with each other
    token: str  # the label without brackets or trailing dot: "4.2", "C", "iv"
    written: str  # the label as it stands in the text ("(c)", "C.", "4.2"), or Word's label
    ordinal: int


def check(graph: ContractGraph) -> list[Finding]:
    """Gaps and duplicates among sibling clauses, each anchored at the item after the gap (or the repeat)."""
    findings: list[Finding] = []
    children: dict[str | None, list[Section]] = {}
    for s in graph.sections:
        children.setdefault(s.parent, []).append(s)
    opening = {it.block for s in graph.sections if (it := label_item(graph, s)) is not None}
    runs = [(parent, [it for it in (label_item(graph, s) for s in kids) if it is not None])
            for parent, kids in children.items()]
    for parent, items in runs + _word_runs(graph, opening):
        for family in dict.fromkeys(it.family for it in items):
            run = _ordinals([it for it in items if it.family == family])
            for prev, cur in itertools.pairwise(run):
                findings.extend(_compare(graph, parent, prev, cur, opening))
    return sorted(findings, key=lambda f: f.block)


def _word_runs(graph: ContractGraph, opening: set[int]) -> list[tuple[str | None, list[Item]]]:
    """Word's own list labels that opened no section (the outline misses some of them, "A." among them):
    those in one section's own text are siblings of each other."""
    runs: list[tuple[str | None, list[Item]]] = []
    for s in graph.sections:
        items = [_item(s.id, i, label, graph.blocks[i].label) for i in range(s.first, s.own_end + 1)
                 if graph.blocks[i].label and i not in opening and (label := _label(graph.blocks[i])) is not None]
        if len(items) > 1:
            runs.append((s.id, items))
    return runs


def label_item(graph: ContractGraph, section: Section) -> Item | None:
    """The numbering label that opened ``section`` (its block, family and token), or None if unnumbered."""
    if section.kind not in ("section", "clause", "article"):
        return None
    for i in range(section.first, min(section.own_end, section.first + 1) + 1):
        block = graph.blocks[i]
        label = _label(block)
        if label is None:
            continue
        return _item(section.id, i, label, block.label)
    return None


def _label(block: Block) -> Label | None:
    """The clause label a paragraph opens with; "6.5 % of Net Sales" (a table row) is not one."""
    source = block.label.strip() + " " if block.label else block.text.strip()  # Word's "A." alone reads as text
    parsed = parse_label(source)
    if parsed is None:
        label = after_page_number(block)
        return label if label is not None and label.kind == "article" else None
    label, end = parsed
    if label.kind == "schedule" or (block.label is None and source[end:].lstrip()[:1] in _NOT_TEXT):
        return None
    return label


def _item(sid: str, block: int, label: Label, word_label: str | None) -> Item:
    text = label.text.strip()
    if label.kind.startswith("num"):
        token = re.sub(r"^(?:SECTION|Section|§)\s*", "", text).rstrip(".")  # "6.04" stays as written
        token = label.key if token.endswith(".0") else token  # "9.0" is article 9
        return Item(sid, block, label.kind, token, word_label or text, label.ordinal)
    if label.kind == "article":
        return Item(sid, block, "article", text.split()[-1], word_label or text, label.ordinal)
    token = text.strip("().")
    shape = "()" if text.startswith("(") else "."
    case = "upper" if token.isupper() else "lower"
    if label.kind.startswith("pnum"):
        return Item(sid, block, f"{shape}num", token, word_label or text, label.ordinal)
    return Item(sid, block, f"{shape}{case}", token, word_label or text, 0)  # ordinal settled per run


def _ordinals(items: list[Item]) -> list[Item]:
    """Letters read as letters or roman numerals, whichever makes the run more regular ("(i)" after "(h)")."""
    if not items or items[0].ordinal:
        return items

    def read(token: str, roman: bool) -> int:
        value = roman_to_int(token) if roman else letter_ordinal(token)
        return value or 0

    def cost(roman: bool) -> int:
        values = [read(it.token, roman) for it in items]
        return sum(abs(b - a - 1) for a, b in itertools.pairwise(values)) + 100 * values.count(0)

    roman = cost(True) < cost(False) or (cost(True) == cost(False) and items[0].token.lower() == "i")
    return [Item(it.sid, it.block, it.family, it.token, it.written, read(it.token, roman)) for it in items]


def _compare(graph: ContractGraph, parent: str | None, prev: Item, cur: Item, opening: set[int]) -> Iterator[Finding]:
    if cur.ordinal <= 1 or prev.ordinal <= 0:
        return  # a restart is a new run, never a gap
    between = graph.text[graph.blocks[prev.block].start:graph.blocks[cur.block].start]
    repeat = _repeat(graph, prev, cur, opening)
    if repeat is not None:
        block = graph.blocks[repeat]
        seq = f"{prev.token}, {prev.token}, {cur.token}"
        yield Finding("numbering_duplicate", repeat, block.anchor, _quote(block, prev.written),
                      f"Two clauses are numbered {_name(graph, parent, prev, prev.token)} (the sequence runs {seq}).",
                      start=0)
        return
    missing = cur.ordinal - prev.ordinal - 1
    if not 1 <= missing <= _MAX_MISSING:
        return
    if graph.blocks[prev.block].in_table or graph.blocks[cur.block].in_table:
        return
    if _EXPLAINED_RE.search(between) or _REDACTION_RE.search(between.rstrip()) or _roman_list(graph, prev, cur):
        return
    names = [_token_for(prev, n) for n in range(prev.ordinal + 1, cur.ordinal)]
    if any(name is None or _written_between(between, prev, name) for name in names):
        return
    lacking = " or ".join(_name(graph, parent, prev, n) for n in names if n)
    block = graph.blocks[cur.block]
    where = cite(graph, parent) if parent else ""
    if _bare(where):
        message = (f"The numbering jumps from {_show(prev, prev.token)} to {_show(prev, cur.token)}: "
                   f"there is no {lacking}.")
    else:
        message = f"{where} jumps from {prev.token} to {cur.token}: there is no {lacking}."
    yield Finding("numbering_gap", cur.block, block.anchor, _quote(block, cur.written), message, start=0)


def _repeat(graph: ContractGraph, prev: Item, cur: Item, opening: set[int]) -> int | None:
    """A clause-shaped line between two siblings that carries the first one's label again.

    Only a true twin counts: nothing of the same family between the two (a list restarting at
    "1." inside the first clause repeats its numbers legitimately), the same shape (two headings,
    or two paragraphs: "6. Each shareholder…" in a nested list is not a twin of "6. PURCHASE AND
    SALE"), and not "3.5 (b)", which is clause (b) of 3.5 written out in full.
    """
    if cur.ordinal not in (prev.ordinal + 1, prev.ordinal + 2):
        return None
    first = graph.blocks[prev.block]
    for i in range(prev.block + 1, cur.block):
        block = graph.blocks[i]
        if i in opening or graph.roles[i] is not Role.BODY or block.in_table or not (block.line_start or block.label):
            continue
        label = _label(block)
        if label is None:
            continue
        item = _item(prev.sid, i, label, block.label)
        if item.family != prev.family:
            continue
        rest = _rest(block)
        if item.token.lower() != prev.token.lower() or rest.startswith("(") or _shape(rest) != _shape(_rest(first)):
            return None
        between = _rest(first) + "\n" + graph.text[first.end:block.start]
        return None if _restart_between(between, prev) else i
    return None


def _rest(block: Block) -> str:
    if block.label:
        return block.text.strip()
    parsed = parse_label(block.text.strip())
    return block.text.strip()[parsed[1]:].strip() if parsed else block.text.strip()


def _shape(rest: str) -> str:
    """"heading" for a caption line ("PURCHASE AND SALE", "Restraint on Claims."), else "text"."""
    title = caption(rest)
    return "heading" if title is not None or (rest.isupper() and len(rest.split()) <= 10) else "text"


def _restart_between(between: str, prev: Item) -> bool:
    """Whether a list of the same family starts again between two items ("a." after "1.0 Definitions")."""
    if prev.family.startswith("num") or prev.family == "article":
        pattern = r"(?:^|\n|[.;:]\s+|-{3,}\s*)\d{1,3}(?:\.0)?\.?\s+[A-Z\"“]"
    elif prev.family.startswith("()"):
        pattern = r"\((?:a|A|1|i|I)\)\s"
    else:
        pattern = r"(?:^|\s)(?:a|A|1|i|I)\.\s"
    return re.search(pattern, between) is not None


def _token_for(prev: Item, ordinal: int) -> str | None:
    """The label a missing sibling would carry ("4.3" after "4.2", "C" after "B", "iii" after "ii")."""
    token = prev.token
    if prev.family.startswith("num"):
        head, _, last = token.rpartition(".")
        number = f"{ordinal:0{len(last)}d}" if last.startswith("0") else str(ordinal)
        return f"{head}.{number}" if head else number
    if prev.family == "article":
        return _roman(ordinal, upper=True) if not token.isdigit() else str(ordinal)
    if prev.family.endswith("num"):
        return str(ordinal)
    upper = token.isupper()
    if roman_to_int(token) == prev.ordinal and (len(token) > 1 or token.lower() == "i" or prev.ordinal > 26):
        return _roman(ordinal, upper=upper)
    if letter_ordinal(token) == prev.ordinal and ordinal <= 26:
        letter = chr(ord("a") + ordinal - 1)
        return letter.upper() if upper else letter
    return None


def _roman(value: int, *, upper: bool) -> str:
    out = ""
    for number, numeral in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"),
                            (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while value >= number:
            out, value = out + numeral, value - number
    return out.upper() if upper else out


def _written_between(between: str, prev: Item, name: str) -> bool:
    """Whether the missing label is written between the two items, run into a line the outline did not
    split ("CONFIDENTIAL 1.3 "GMP" means"), rather than merely cited ("subject to Section 4.3" does not
    fill the gap).

    Text from PDFs also loses an opening bracket ("c)") or reads I and l as the digit 1 ("ARTICLE I1", "(1)").
    """
    if prev.family == "num1":  # a bare "4" is any figure: only "4.", "4.1 Caption", "Section 4 —" or a line start
        n = re.escape(name)
        pattern = (rf"(?<![\d.$])(?:{n}(?:\.\d{{1,3}})+(?![\d])\.?|{n}\.)\s+[\"“(\[A-Z]"
                   rf"|(?:^|\n)\s*(?:Section\s+)?{n}\s+[\"“(\[A-Z]|\b(?:Section|SECTION)\s+{n}\s*[—–-]")
    elif prev.family.startswith("num"):
        forms = "|".join(re.escape(f) for f in {name, ".".join(str(int(p)) for p in name.split("."))})
        pattern = rf"(?<![\d.$])(?:{forms})(?:\.\d{{1,3}})*(?![\d])\.?(?:\s+[\"“(\[A-Z]|\s*$)"  # or a child: 10.1
    elif prev.family == "article":
        pattern = r"\b(?i:article)\s+" + re.sub("[IL]", "[Il1]", re.escape(name.upper())) + r"\b"
    else:
        token = "[l1]" if name.lower() == "l" else re.escape(name)
        pattern = rf"(?<![\w(]){token}[.)]\s" if not prev.family.startswith("()") else rf"(?<![\w(])\(?{token}\)"
    for m in re.finditer(pattern, between, re.IGNORECASE if prev.family.startswith("num") else 0):
        before = between[max(0, m.start() - 60):m.start()]
        if not (_CITED_RE.search(before) or before[-1:].isalnum() or before[-1:] == ")"):  # "4.1(c)": cited
            return True
    return False


def _roman_list(graph: ContractGraph, prev: Item, cur: Item) -> bool:
    """"(i)" after "(h)" that the next line follows with "(ii)": a list of roman numerals starting, not the
    letter after (h). Only asked when the run reads as letters."""
    value = roman_to_int(cur.token)
    if value is None or roman_to_int(prev.token) == prev.ordinal:
        return False
    for block in graph.blocks[cur.block + 1:cur.block + 4]:
        label = _label(block) if block.line_start or block.label else None
        if label is not None:
            numeral = roman_to_int(label.text.strip("(). "))
            return numeral == value + 1 and len(label.text.strip("(). ")) > 1
    return False


def _quote(block: Block, written: str) -> str:
    """The label as typed when it is in the text (typed numbering), else the paragraph's first words."""
    text = block.text
    if written and text.startswith(written.strip()):
        return written.strip()
    words = text[:60].rsplit(" ", 1)[0] if len(text) > 60 else text
    return words or text


def cite(graph: ContractGraph, sid: str) -> str:
    """How a lawyer names a section: "§12.C", "§4.2(b)", "Article IV", "Exhibit B", or "" when unnumbered."""
    section = graph.section(sid)
    if section.kind == "schedule" and section.number:
        return section.label.split(" ")[0] + f" {section.number}"
    item = label_item(graph, section)
    if item is None:
        return ""
    return _name(graph, section.parent, item, item.token)


def _name(graph: ContractGraph, parent: str | None, item: Item, token: str) -> str:
    """Name a clause (or a would-be sibling ``token``) under ``parent``: "§4.3", "§12.C", "Article V", "(c)"."""
    if item.family.startswith("num"):
        return f"§{token}"
    if item.family == "article":
        return f"Article {token}"
    base = cite(graph, parent) if parent else ""
    if _bare(base):
        return _show(item, token)
    if item.family.startswith("()"):
        return f"{base}({token})"
    return f"{base}({token})" if base.startswith(("Article", "Exhibit", "Schedule", "Annex", "Appendix")) else (
        f"{base}.{token}")


def _show(item: Item, token: str) -> str:
    """A label on its own: "(c)", "C", "4.3", "Article V"."""
    if item.family == "article":
        return f"Article {token}"
    return f"({token})" if item.family.startswith("()") else token


def _bare(where: str) -> bool:
    """Whether a citation is too vague to build on (no numbered section above the list)."""
    return not where or not where.startswith(("§", "Article", "Exhibit", "Schedule", "Annex", "Appendix"))


def where(graph: ContractGraph, sid: str) -> str:
    """Where a reference is written: "§18.G", "Exhibit B", "clause (D)", else the heading it sits under."""
    for section in [graph.section(sid), *graph.ancestors(sid)]:
        if name := cite(graph, section.id):
            numbered = name.startswith(("§", "Article", "Exhibit", "Schedule", "Annex", "Appendix", "Attachment"))
            return name if numbered else f"clause {name.rstrip('.')}"
    section = graph.section(sid)
    return "the preamble" if section.kind == "preamble" or not section.title else f'"{section.title[:50]}"'


def run_of(labels: list[str]) -> str:
    """Labels named the way a lawyer lists them: "A–C and E", "1, 2 and 5" (three or more in a row run)."""
    def order(label: str) -> tuple[int, str]:
        head = label.split("-")[0].split(".")[0]
        value = int(head) if head.isdigit() else letter_ordinal(head) if len(head) == 1 else roman_to_int(head)
        return (value or 0) + (0 if head.isdigit() or len(head) == 1 else 1000), label

    runs: list[list[str]] = []
    for label in sorted(labels, key=order):
        if runs and order(label)[0] == order(runs[-1][-1])[0] + 1:
            runs[-1].append(label)
        else:
            runs.append([label])
    names = [n for r in runs for n in ([f"{r[0]}–{r[-1]}"] if len(r) > 2 else r)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
