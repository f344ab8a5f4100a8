"""Whole phrases: a model's edit must replace whole words and whole quantities, or it garbles the contract.

A model quotes what it means to change, and quotes too little: "ninety" out of "ninety (90) days" replaced by
"sixty" leaves "sixty (90) days"; "(90)" alone replaced by "(60)" leaves "ninety (60) days"; "erminate" out
of "terminate" puts the edit in the middle of a word. The offline engine always replaces a whole quantity
(its threshold hits are quantities), so this is a model's problem only. :func:`whole_phrase` widens such a
quote to the whole quantity or the whole words and rewrites the new text to match, when that is certain
(the new text is itself one quantity of the same kind, written then as the contract writes it; or it repeats
the cut word's piece of the quote); otherwise the edit is withheld ("partial_phrase", "partial_word").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..quantities import Quantity, find_quantities, format_like, words_to_number

PARTIAL_PHRASE = "partial_phrase"
PARTIAL_WORD = "partial_word"
_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_FIGURES = re.compile(rf"\(?\s*({_DIGITS})\s*%?\s*\)?")
_WORDS_FIGURES = re.compile(rf"([A-Za-z][A-Za-z\s-]*?)\s*(?:per\s?cent|percent)?\s*\(\s*({_DIGITS})\s*%?\s*\)",
                            re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Phrase:
    """A finding's span and new text after the repair: ``repaired`` names the repair made ("" : none needed),
    ``withheld`` why the edit cannot be made whole with certainty ("" : it can)."""

    start: int
    end: int
    new_text: str
    repaired: str = ""
    withheld: str = ""


def whole_phrase(text: str, kind: str, start: int, end: int, new_text: str) -> Phrase:
    """The finding on ``text[start:end]`` made to act on whole quantities and words; see the module docstring."""
    phrase = Phrase(start, end, new_text)
    if kind == "replace":
        phrase = _whole_quantity(text, start, end, new_text)
        if phrase.withheld:
            return phrase
    if kind in ("replace", "delete", "comment"):
        words = _whole_words(text, kind, phrase.start, phrase.end, phrase.new_text)
        return words if words.withheld or not phrase.repaired else replace(words, repaired=phrase.repaired)
    return phrase


def _whole_quantity(text: str, start: int, end: int, new: str) -> Phrase:
    # A quote that takes in only a quantity's unit ("days written notice") edits the words, not the number.
    cut = [q for q in find_quantities(text) if q.start < end and start < q.end and not (start <= q.start and q.end <= end)
           and _has_number(text[max(start, q.start) : min(end, q.end)])]
    if not cut:
        return _figures_and_words(text, start, end, new)
    if len(cut) > 1:
        return Phrase(start, end, new, withheld=PARTIAL_PHRASE)
    q = cut[0]
    pre = text[start : q.start] if start < q.start else ""
    post = text[q.end : end] if end > q.end else ""
    quoted = text[max(start, q.start) : min(end, q.end)]
    stated = _stated(quoted, q)
    if stated is None or stated[1] != q.unit or not _is_value_of(stated[0], q):
        return Phrase(start, end, new, withheld=PARTIAL_PHRASE)  # "1,000" of "$1,000,000": not the number
    if len(new) < len(pre) + len(post) or not new.startswith(pre) or not new.endswith(post):
        return Phrase(start, end, new, withheld=PARTIAL_PHRASE)
    wanted = _stated(new[len(pre) : len(new) - len(post)], q)
    if wanted is None:
        return Phrase(start, end, new, withheld=PARTIAL_PHRASE)
    written = format_like(q, wanted[0], wanted[1])
    return Phrase(min(start, q.start), max(end, q.end), pre + written + post, repaired=PARTIAL_PHRASE)


def _figures_and_words(text: str, start: int, end: int, new: str) -> Phrase:
    """A quote widened by grounding ("(90)" occurs twice, so "within ninety (90) days" is quoted) whose new text
    changed only the figures or only the words ("within ninety (60) days"): the changed half is meant."""
    old_quantities = [q for q in find_quantities(text) if start <= q.start and q.end <= end]
    new_quantities = find_quantities(new)
    if len(old_quantities) != len(new_quantities) or any(_disagrees(q) for q in old_quantities):
        return Phrase(start, end, new)
    out, repaired = new, False
    for old, q in reversed(list(zip(old_quantities, new_quantities, strict=True))):
        if not _disagrees(q):
            continue
        assert q.words_value is not None
        if old.kind != q.kind or old.unit != q.unit:
            return Phrase(start, end, new)
        if abs(q.value - old.value) <= 1e-9:
            meant = q.words_value  # the figures are the quote's: the words are the edit
        elif old.words_value is not None and abs(q.words_value - old.words_value) <= 1e-9:
            meant = q.value
        else:
            return Phrase(start, end, new)
        out = out[: q.start] + format_like(old, meant) + out[q.end :]
        repaired = True
    return Phrase(start, end, out, repaired=PARTIAL_PHRASE if repaired else "")


def _whole_words(text: str, kind: str, start: int, end: int, new: str) -> Phrase:
    cut_start = 0 < start < len(text) and text[start - 1].isalnum() and text[start].isalnum()
    cut_end = 0 < end < len(text) and text[end - 1].isalnum() and text[end].isalnum()
    if not cut_start and not cut_end:
        return Phrase(start, end, new)
    word_start, word_end = start, end
    while cut_start and word_start > 0 and text[word_start - 1].isalnum():
        word_start -= 1
    while cut_end and word_end < len(text) and text[word_end].isalnum():
        word_end += 1
    if kind != "replace":  # a comment or a deletion of part of a word means the whole word
        return Phrase(word_start, word_end, new, repaired=PARTIAL_WORD)
    if cut_start:
        piece = text[start : _end_of_word(text, start, end)]
        if new.startswith(text[word_start:start] + piece):
            pass  # the new text already has the whole word
        elif piece and new.startswith(piece):
            new = text[word_start:start] + new
        else:
            return Phrase(start, end, new, withheld=PARTIAL_WORD)
    if cut_end:
        piece = text[_start_of_word(text, start, end) : end]
        if new.endswith(piece + text[end:word_end]):
            pass
        elif piece and new.endswith(piece):
            new = new + text[end:word_end]
        else:
            return Phrase(start, end, new, withheld=PARTIAL_WORD)
    return Phrase(word_start, word_end, new, repaired=PARTIAL_WORD)


def _end_of_word(text: str, at: int, limit: int) -> int:
    while at < limit and text[at].isalnum():
        at += 1
    return at


def _start_of_word(text: str, limit: int, at: int) -> int:
    while at > limit and text[at - 1].isalnum():
        at -= 1
    return at


def _stated(written: str, like: Quantity) -> tuple[float, str] | None:
    """The number (and unit) ``written`` states when read as a quantity of ``like``'s kind: a whole quantity
    ("sixty (60) days"), or a number alone ("sixty", "(60)", "sixty (60)", "60%") in ``like``'s unit."""
    written = " ".join(written.split())
    found = find_quantities(written)
    if len(found) == 1 and not written.replace(found[0].text, "").strip(" ()"):
        q = found[0]
        same_kind = q.kind == like.kind and (q.kind == "duration" or (q.unit == like.unit and q.per == like.per))
        return (q.value, q.unit) if same_kind else None
    if found:
        return None
    bare = written
    if like.unit_text and bare.lower().endswith(like.unit_text.lower()):
        bare = bare[: -len(like.unit_text)].strip()
    value = _number(bare)
    return (value, like.unit) if value is not None else None


def _number(written: str) -> float | None:
    """"sixty", "60", "(60)", "60%", "sixty (60)": the number; None when words and figures disagree or it is no
    number."""
    written = written.strip()
    if not written:
        return None
    if m := _FIGURES.fullmatch(written):
        return float(m.group(1).replace(",", ""))
    if m := _WORDS_FIGURES.fullmatch(written):
        words, figures = words_to_number(m.group(1)), float(m.group(2).replace(",", ""))
        return figures if words is not None and abs(words - figures) <= 1e-9 else None
    words = words_to_number(written)
    return float(words) if words is not None else None


def _has_number(written: str) -> bool:
    return any(ch.isdigit() for ch in written) or any(words_to_number(w) is not None for w in re.findall(r"[A-Za-z]+", written))


def _is_value_of(value: float, q: Quantity) -> bool:
    """Whether ``value`` is the number ``q`` states (in figures, or in its words)."""
    return abs(value - q.value) <= 1e-9 or (q.words_value is not None and abs(value - q.words_value) <= 1e-9)


def _disagrees(q: Quantity) -> bool:
    return q.words_value is not None and abs(q.words_value - q.value) > 1e-9
