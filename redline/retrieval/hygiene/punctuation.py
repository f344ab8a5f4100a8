"""Brackets and quotation marks left open, and a word typed twice.

A parenthesis opened and never closed leaves the reader unsure where an
exception ends; a quotation mark left open does the same to a defined term.
Both are checked clause by clause (one block), because that is where a reader
expects the pair and where Word anchors the comment. What looks unpaired but
is not, and is therefore left alone:

* list labels: "a)", "ii)", "1)" close a parenthesis nobody opened, and "(i "
  at the head of a clause opens one nobody closes (but "Exhibit A)" is no
  label, nor is "iii)" right after "(ii)": that one lost its parenthesis);
* inch marks ("3.5\" disk") and the apostrophes of possessives (single quotes
  are not checked, only the opening ‘ that never meets a ’);
* a quotation or parenthetical that runs over several paragraphs: a block left
  open is paired with a later block (within a few) left closed by the same
  mark, a parenthetical only while no paragraph on the way ends a sentence,
  and the convention of opening every quoted paragraph and closing only the
  last is respected;
* a parenthesis a redaction ("[***]") may have swallowed, a mark standing
  alone (the ")" column of an English signature block), and text tables run
  into one block (their cells pair across rows).

A repeated word ("the the") is reported with its one certain fix, the single
word. "that that" and "had had" are grammatical and left alone; so are
capitalised pairs ("Walla Walla", a heading run into its first line, "BONUS
BONUS" in a table) unless the word is a small function word ("OF OF", "The The").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..blocks import Block
from ..graph import ContractGraph
from ..layout import Role
from .finding import Finding

_PAIRS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {v: k for k, v in _PAIRS.items()}
_NAMES = {"(": "parenthesis", "[": "square bracket", "{": "brace", '"': "quotation mark", "‘": "quotation mark"}
_BRACKET_RE = re.compile(r"[()\[\]{}]")
_QUOTE_CHARS = ('"', "“", "”", "``", "''")
# "a)", "iv)", "12)", "1.2)" as a label, read up to the ")": at the start of the block or after a space, ";", ":" …
_LABEL_CLOSE_RE = re.compile(r"(?:^|(?<=[\s;:,(\[]))([a-zA-Z]{1,2}|[ivxlcIVXLC]{1,6}|\d{1,3}(?:\.\d{1,3})*[a-z]?)\.?$")
_FULL_LABEL_RE = re.compile(r"\(([a-zA-Z]{1,2}|[ivxlcIVXLC]{1,6}|\d{1,2})\)")
_REFERENCE_WORD_RE = re.compile(
    r"\b(?:Exhibit|Schedule|Section|Article|Annex|Appendix|Clause|Part|paragraph|Item|Attachment|Class|Series)\s+$",
    re.IGNORECASE)
# "(i " / "(a " / "(1 " opening a clause: a label whose closing parenthesis the typist left out
_LABEL_OPEN_RE = re.compile(r"(?:^|(?<=[;:]\s))\((?:[a-zA-Z]{1,2}|[ivxlcIVXLC]{1,6}|\d{1,3})(?=\s)")
_INCH_RE = re.compile(r"(?<=\d)\"(?=[\sx×,.;)]|$)")
_REDACTION_RE = re.compile(r"\[\s*[*∗](?:\s*[*∗])*\s*\]?|\*{3}")
_CLAUSE_END_RE = re.compile(r"\s*(?:[.;]|$)")
_REDACTION_REACH = 100  # characters after an opening parenthesis within which a redaction may have taken its close
# the rules of a table flattened into text (one may underline a heading; EDGAR underlines terms with shorter ones)
_RULE_RE = re.compile(r"-{40,}|\|")
_DQ_RE = re.compile("``|''|[\"“”]")
_SENTENCE_ENDS = (".", '."', ".”")
_ABBREVIATION_RE = re.compile(r"(?:^|[\s(])(?:[A-Z][a-z]{0,3}|[A-Za-z]|No|Nos|etc|seq)\.$")
_SPAN_BLOCKS = 8  # how far a parenthetical or quotation may run over paragraphs before it counts as unclosed
_REPEAT_RE = re.compile(r"\b([A-Za-z]+)([ \t\u00a0]+)(\1)\b", re.IGNORECASE)
_GRAMMATICAL = {"that", "had"}  # "that that", "had had": legitimate English
_SUFFIXES = {"st", "nd", "rd", "th"}  # "4th 5th" with the digits lost in conversion: "th th" is debris, not a typo
_FUNCTION = {"the", "a", "an", "of", "to", "and", "or", "in", "for", "by", "with", "shall", "be", "is", "on",
             "any", "such", "this", "its", "as", "at", "from", "will", "may", "not", "which"}
_QUOTE_WORDS = 6  # words of context a quote carries beside the stray mark
_AFTER_RE = re.compile(rf"\S+(?:\s+\S+){{0,{_QUOTE_WORDS - 1}}}")
_BEFORE_RE = re.compile(rf"(?<!\S)(?:\S+\s+){{0,{_QUOTE_WORDS - 1}}}\S*$")
_HYPHENS = "-‐‑–"


@dataclass(frozen=True, slots=True)
class _Stray:
    block: int
    pos: int
    mark: str  # the opening form: "(", "[", "{", '"', "‘"
    opening: bool
    excused: bool = False  # pairs with a mark in another block, but is never reported itself


def check(graph: ContractGraph) -> list[Finding]:
    """Brackets, parentheses and quotation marks left unpaired in a clause, and words typed twice."""
    findings: list[Finding] = []
    body = [b for b in graph.blocks if graph.roles[b.index] is Role.BODY]
    strays = [s for b in body for s in _strays(b)]
    reported: set[tuple[int, str, bool]] = set()
    for stray in _unresolved(strays, graph.blocks, {b.index for b in body}):
        key = (stray.block, stray.mark, stray.opening)
        if key not in reported:  # "Product)s)": one comment for the clause, not one per mark
            reported.add(key)
            findings.append(_unpaired_finding(graph.blocks[stray.block], stray))
    for block in body:
        findings.extend(_repeats(block))
    return findings


def _strays(block: Block) -> list[_Stray]:
    """Marks in the block without a partner in the same block."""
    text, out = block.text, []
    stacks: dict[str, list[int]] = {k: [] for k in _PAIRS}
    balanced = all(text.count(o) == text.count(c) for o, c in _PAIRS.items())  # the cheap test first
    for m in () if balanced else _BRACKET_RE.finditer(text):
        i, ch = m.start(), m.group()
        if ch in _PAIRS:
            stacks[ch].append(i)
        elif stacks[_CLOSERS[ch]]:
            stacks[_CLOSERS[ch]].pop()
        elif not _label_close(text, i):
            out.append(_Stray(block.index, i, _CLOSERS[ch], False, _isolated(text, i)))
    left = [(opener, i) for opener, stack in stacks.items() for i in stack]
    if left:
        label_opens = {m.start() for m in _LABEL_OPEN_RE.finditer(text)}
        # a redaction that runs to the end of the clause, close after the opening: "(as of the Effective Date,
        # this facility will [***]." may have taken the closing mark with it
        redacted = [m.start() for m in _REDACTION_RE.finditer(text) if _CLAUSE_END_RE.match(text, m.end())]
        for opener, i in left:
            excused = i in label_opens or _isolated(text, i) or any(i < r < i + _REDACTION_REACH for r in redacted)
            out.append(_Stray(block.index, i, opener, True, excused))
    if sum(text.count(q) for q in _QUOTE_CHARS) % 2:
        out.extend(_double_quotes(block))
    if "‘" in text:
        out.extend(_Stray(block.index, m.start(), "‘", True) for m in re.finditer("‘", text)
                   if "’" not in text[m.end():])
    if out and _tabular(block):  # cells of one row run together: pairs span cells
        out = [_Stray(s.block, s.pos, s.mark, s.opening, True) for s in out]
    return sorted(out, key=lambda s: s.pos)


def _label_close(text: str, i: int) -> bool:
    """ "a)", "iii)", "2)" numbering a list, rather than "Exhibit A)" or a "iii)" that follows "(ii)" and so lost
    its opening parenthesis."""
    m = _LABEL_CLOSE_RE.search(text, max(0, i - 12), i)
    if not m:
        return False
    if _REFERENCE_WORD_RE.search(text, max(0, m.start() - 14), m.start()):
        return False
    label = m.group(1)
    previous = [f.group(1) for f in _FULL_LABEL_RE.finditer(text, 0, m.start())]
    return not any(_follows(label, p) for p in previous[-1:])


def _follows(label: str, previous: str) -> bool:
    """Whether ``label`` is the next number after ``previous`` in the same style ("iii" after "ii", "c" after "b")."""
    for value in (_roman, _letter, _number):
        a, b = value(label), value(previous)
        if a is not None and b is not None and a == b + 1:
            return True
    return False


def _roman(label: str) -> int | None:
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
    low = label.lower()
    if not low or any(c not in values for c in low):
        return None
    total = 0
    for n, c in enumerate(low):
        v = values[c]
        total += -v if n + 1 < len(low) and values[low[n + 1]] > v else v
    return total


def _letter(label: str) -> int | None:
    return ord(label.lower()) - 96 if len(label) == 1 and label.isalpha() else None


def _number(label: str) -> int | None:
    return int(label) if label.isdigit() else None


def _isolated(text: str, i: int) -> bool:
    """A mark standing alone, "Rogers ) /s/": the column of ")" beside an English signature block."""
    return (i == 0 or text[i - 1].isspace()) and (i + 1 == len(text) or text[i + 1].isspace())


def _double_quotes(block: Block) -> list[_Stray]:
    """The double quotation mark (straight, curly, or EDGAR's `` and '') left over when the block's marks are
    paired, found by reading each mark's direction from its neighbours; nothing when that reading is unsure."""
    text = block.text
    marks = [(m.start(), m.group()) for m in _DQ_RE.finditer(text)]
    if len(marks) % 2 == 0:
        return []  # an even count pairs up, whatever a converter did to the curls
    inches = {m.start() for m in _INCH_RE.finditer(text)}
    if inches:
        if len(inches) % 2 == 1:
            return []  # 'a 3.5" disk': the odd mark is an inch mark
        marks = [(i, q) for i, q in marks if i not in inches]
    open_pos: int | None = None
    strays: list[_Stray] = []
    for i, q in marks:
        direction = _direction(text, i, q)
        if direction == "open":
            if open_pos is not None:
                strays.append(_Stray(block.index, open_pos, '"', True))
            open_pos = i
        elif open_pos is not None:
            open_pos = None
        elif direction == "close":
            strays.append(_Stray(block.index, i, '"', False))
        else:
            open_pos = i
    if open_pos is not None:
        strays.append(_Stray(block.index, open_pos, '"', True))
    return strays if len(strays) == 1 else []


def _direction(text: str, i: int, mark: str) -> str:
    """ "open", "close" or "either", from the mark itself (“ ” `` '') or from the characters around it."""
    if mark in ("“", "``"):
        return "open"
    if mark == "”":
        return "close"
    before = text[i - 1] if i else " "
    after = text[i + 1] if i + 1 < len(text) else " "
    space_before = before.isspace() or before in "([{—–/"
    space_after = after.isspace() or after in ".,;:)]}?!—–"
    if space_before and not space_after:
        return "open"
    if space_after and not space_before:
        return "close"
    return "either"


def _unresolved(strays: list[_Stray], blocks: list[Block], body: set[int]) -> list[_Stray]:
    """Strays left after pairing an opener with the next closer of the same mark a few blocks on
    (a parenthetical or quotation that runs over paragraphs: a parenthetical only while no paragraph on the
    way ends a sentence, "(including:" … "(b) the support fee) within"), and after respecting the convention
    of opening every quoted paragraph and closing only the last."""
    done: set[int] = set()
    for a, first in enumerate(strays):
        if id(first) in done or not first.opening:
            continue
        for second in strays[a + 1:]:
            if second.block > first.block + _SPAN_BLOCKS or (first.mark != '"' and any(
                    k in body and _ends_sentence(blocks[k].text) for k in range(first.block, second.block))):
                break
            if second.block != first.block and second.mark == first.mark and id(second) not in done:
                if not second.opening:
                    done.update((id(first), id(second)))
                    break
                if first.mark == '"' and _starts_with_quote(blocks[second.block]):
                    continue  # the next quoted paragraph of the same quotation
                break
    out = []
    for s in strays:
        if id(s) in done or s.excused:
            continue
        if s.mark == '"' and s.opening and _starts_with_quote(blocks[s.block]) and s.block + 1 < len(blocks) \
                and _starts_with_quote(blocks[s.block + 1]):
            continue
        out.append(s)
    return out


def _ends_sentence(text: str) -> bool:
    """ "… in writing." ends a sentence; "… Affordable Care Act (Pub." is a paragraph cut at an abbreviation."""
    text = text.rstrip()
    return text.endswith(_SENTENCE_ENDS) and not _ABBREVIATION_RE.search(text)


def _starts_with_quote(block: Block) -> bool:
    return block.text.lstrip()[:1] in ("\"", "“")


def _unpaired_finding(block: Block, stray: _Stray) -> Finding:
    text, name = block.text, _NAMES[stray.mark]
    if stray.opening:
        words = _AFTER_RE.match(text, stray.pos)
        what = "An opening {name} in '{quote}' is never closed in this clause"
    else:
        words = _BEFORE_RE.search(text, max(0, stray.pos - 200), stray.pos + 1)
        what = "A closing {name} in '{quote}' has no opening one in this clause"
    start, end = words.span() if words else (stray.pos, stray.pos + 1)
    quote = text[start:end]
    what = what.format(name=name, quote=quote)
    return Finding(kind="unpaired", block=block.index, anchor=block.anchor, quote=quote,
                   message=f"{what}; check where it should begin or end.", start=start)


def _tabular(block: Block) -> bool:
    """A text table whose rows and rules were run into one block (a Word table's cells are blocks of their own,
    checked like any clause)."""
    return len(_RULE_RE.findall(block.text)) >= 2


def _repeats(block: Block) -> list[Finding]:
    text, out = block.text, []
    words = text.lower().split()
    if not any(map(str.__eq__, words, words[1:])) or _tabular(block):
        return out  # the cheap test first: no two whitespace-separated words alike ("in in." is let go)
    for m in _REPEAT_RE.finditer(text):
        first, second = m.group(1), m.group(3)
        word = first.lower()
        if word in _GRAMMATICAL or word in _SUFFIXES or (len(word) == 1 and word != "a"):
            continue
        before, after = text[m.start() - 1: m.start()], text[m.end(): m.end() + 1]
        if (before and before in _HYPHENS) or (after and after in _HYPHENS):
            continue  # "Double-talk talk-off": halves of compounds
        if re.match(rf"\s+{re.escape(first)}\b", text[m.end():], re.IGNORECASE):
            continue  # "accept accept accept": a row of cells
        if not second.islower() and not (word in _FUNCTION and len(word) > 1):
            continue  # names, a heading run into its first line, table captions
        out.append(Finding(
            kind="repeated_word", block=block.index, anchor=block.anchor, quote=m.group(0),
            message=f"The word '{first}' is typed twice in '{m.group(0)}'; delete one.", fix=first, start=m.start(),
        ))
    return out
