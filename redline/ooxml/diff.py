"""Word-level diff: the smallest set of span replacements that turns old text into new.

A lawyer reads a redline word by word, so the unit of change is a *token* — a
word, a number, a run of whitespace or one punctuation mark — never a
character: "thirty" → "forty-five" is one replacement, not a scatter of
letters. The edit script comes from :class:`difflib.SequenceMatcher` over
tokens (``autojunk`` off, so common words are never ignored), followed by a
semantic clean-up in the spirit of diff-match-patch: a short equality wedged
between two changes ("Supplier[ ]shall" → "Customer[ ]must") is folded into one
change, because a redline alternating deleted and kept single spaces is
unreadable.

Hunks are expressed in *old-text* character offsets, which is what the writer
maps onto runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

# A number written in words and figures ("ninety (90)", "fifty percent (50%)") is one token: a lawyer strikes
# and replaces the whole phrase ("~~ninety (90)~~ thirty (30) days"), never "~~ninety~~thirty (~~90~~30)".
_NUMBER_WORD = (r"(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
                r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|"
                r"hundred|thousand|million|billion)")
_WORDS_AND_FIGURES = (rf"\b{_NUMBER_WORD}(?:(?:\s+and\s+|[\s-]+){_NUMBER_WORD})*(?:\s+per\s?cent)?"
                      r"\s*\(\s*[$€£]?\d+(?:[.,]\d+)*\s*%?\s*\)")
# Numbers keep their separators ("1,000,000", "4.2"), words keep apostrophes
# ("Supplier's"); every other non-space character is a token of its own.
_TOKEN = re.compile(rf"{_WORDS_AND_FIGURES}|\d+(?:[.,]\d+)*|\w+(?:['’]\w+)*|\s+|[^\w\s]", re.UNICODE | re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Hunk:
    """Replace ``old[start:end]`` by ``text`` (a pure insertion when start == end)."""

    start: int
    end: int
    text: str


def tokenize(text: str) -> list[str]:
    """Split text into words, numbers, whitespace runs and single punctuation marks.

    Joining the tokens gives back ``text`` exactly.
    """
    return _TOKEN.findall(text)


def diff_text(old: str, new: str) -> list[Hunk]:
    """The minimal token-level hunks turning ``old`` into ``new``, in old offsets.

    Hunks are sorted, non-overlapping and never adjacent (adjacent changes are
    one hunk). ``apply_hunks(old, diff_text(old, new)) == new`` always holds.
    """
    if old == new:
        return []
    a, b = tokenize(old), tokenize(new)
    ops = _opcodes(a, b)
    ops = _fold_short_equalities(ops)
    hunks: list[Hunk] = []
    a_pos = _offsets(a)
    b_pos = _offsets(b)
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        hunks.append(Hunk(a_pos[i1], a_pos[i2], new[b_pos[j1]:b_pos[j2]]))
    return _words_then_space(old, hunks)


def _words_then_space(old: str, hunks: list[Hunk]) -> list[Hunk]:
    """Shift a pure insertion or deletion that starts with whitespace past the
    same whitespace, so it reads "[promptly ]" (a word and its space, as Word
    deletes a double-clicked word) rather than "[ promptly]"; same text either way."""
    out: list[Hunk] = []
    for k, h in enumerate(hunks):
        changed = old[h.start:h.end] if h.end > h.start else h.text
        pure = h.start == h.end or not h.text
        ws = changed[: len(changed) - len(changed.lstrip())]
        limit = hunks[k + 1].start if k + 1 < len(hunks) else len(old) + 1
        after = old[h.end:]
        # The same whitespace, as a whole token, follows: shifting then still cuts at token edges.
        if pure and ws and ws != changed and after[: len(after) - len(after.lstrip())] == ws \
                and h.end + len(ws) < limit:
            shift = len(ws)
            if h.text:
                h = Hunk(h.start + shift, h.end + shift, h.text[shift:] + ws)
            else:
                h = Hunk(h.start + shift, h.end + shift, "")
        out.append(h)
    return out


def apply_hunks(old: str, hunks: list[Hunk]) -> str:
    """Apply sorted, non-overlapping hunks to ``old``."""
    out: list[str] = []
    pos = 0
    for h in hunks:
        out.append(old[pos:h.start])
        out.append(h.text)
        pos = h.end
    out.append(old[pos:])
    return "".join(out)


def _offsets(tokens: list[str]) -> list[int]:
    """Character offset of each token boundary (len(tokens) + 1 entries)."""
    pos = [0]
    for t in tokens:
        pos.append(pos[-1] + len(t))
    return pos


Opcode = tuple[str, int, int, int, int]


def _opcodes(a: list[str], b: list[str]) -> list[Opcode]:
    """Opcodes with adjacent non-equal operations merged into one ``replace``."""
    merged: list[list] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal" and merged and merged[-1][0] != "equal":
            merged[-1][2], merged[-1][4] = i2, j2
            merged[-1][0] = "replace"
        else:
            merged.append([tag, i1, i2, j1, j2])
    return [tuple(op) for op in merged]  # type: ignore[misc]


def _fold_short_equalities(ops: list[Opcode]) -> list[Opcode]:
    """Fold an equality between two changes into them when it is no longer than
    the change on either side (counted in tokens): a lone space or comma between
    two changed words is never kept on its own.

    Repeated until stable, so "A B C" → "X Y Z" becomes one change instead of
    three changes separated by kept spaces.
    """
    changed = True
    while changed:
        changed = False
        for k in range(1, len(ops) - 1):
            tag, i1, i2, _j1, _j2 = ops[k]
            if tag != "equal" or ops[k - 1][0] == "equal" or ops[k + 1][0] == "equal":
                continue
            eq_len = i2 - i1
            left = max(ops[k - 1][2] - ops[k - 1][1], ops[k - 1][4] - ops[k - 1][3])
            right = max(ops[k + 1][2] - ops[k + 1][1], ops[k + 1][4] - ops[k + 1][3])
            if eq_len <= min(left, right):
                before, after = ops[k - 1], ops[k + 1]
                ops[k - 1: k + 2] = [("replace", before[1], after[2], before[3], after[4])]
                changed = True
                break
    return ops
