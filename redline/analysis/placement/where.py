"""Where a missing clause goes, in the words a lawyer uses: "New §12A Governing law, after §12 Confidentiality".

An insertion is anchored to the paragraph it follows, and that paragraph is unrelated to the clause by design
(the data-return clause that ends the confidentiality section is where governing law goes). A card that shows
it without saying so reads as "this paragraph is the problem"; the card names the new clause and its place.
"""

from __future__ import annotations

import re

from ..document import Document
from .numbers import Number
from .outline import Outline, Unit, walk
from .place import Placement

_SNIPPET_WORDS = 8
_TITLE_WORDS = 6
_TITLE_END = re.compile(r"\s+\(?\d+(?:\.\d+)+\b.*$|[\s.:;,\-–—_=*]+$")  # a sub-clause run into it, trailing marks


def describe(doc: Document, placement: Placement) -> str:
    """"New §14A Governing law, after §14 Confidentiality" (or "New clause “Governing law”, after …")."""
    title = placement.title or "clause"
    head = f"New {_label(placement.number)} {title}" if placement.number is not None else f"New clause “{title}”"
    return f"{head}, after {after_phrase(doc, placement.after)}"


def after_phrase(doc: Document, i: int) -> str:
    """Paragraph ``i`` as the place a clause goes after: its own number and title when it has one ("§7.3
    Indemnity"; "§10.1, at the end of §10 General" when it ends its section), else the numbered section it
    ends ("§12 Confidentiality"), else its opening words and the section they are in ("“(iv) rightfully
    received …”, in §12 Confidentiality")."""
    outline = doc.memo.get("outline")
    if outline is None:  # the placement built it for this document; built here only when called alone
        outline = doc.memo["outline"] = Outline(doc)
    root = outline.root_of.get(i)
    units = list(walk((root,))) if root is not None else []
    containing = [u for u in units if u.start <= i <= u.end and u.number is not None]
    ending = [u for u in containing if i in (u.end, outline.end(u))]
    if outline.numbers[i] is not None:
        own = next((u for u in units if u.start == i), None)
        name = (_named(outline, own) if own is not None else "") or _label(outline.numbers[i])
        outer = ending[0] if ending and ending[0] is not own else None
        return f"{name}, at the end of {_named(outline, outer)}" if outer is not None else name
    if ending:
        return _named(outline, ending[0])
    snippet = _snippet(doc.clauses[i].text)
    return f"{snippet}, in {_named(outline, containing[-1])}" if containing else snippet


def _named(outline: Outline, unit: Unit) -> str:
    """"§12 Confidentiality", "§12", "Confidentiality" or "" for a unit without number or title."""
    title = _TITLE_END.sub("", outline.title(unit)).strip()
    if len(title.split()) > _TITLE_WORDS:
        title = " ".join(title.split()[:_TITLE_WORDS]) + "…"
    number = _label(unit.number) if unit.number is not None else ""
    return " ".join(p for p in (number, title) if p)


def _label(number: Number) -> str:
    """"§14A" for a bare number, "Section 9A" for one written with its keyword (no trailing dot)."""
    text = number.render().rstrip(".")
    return text if number.keyword else f"§{text}"


def _snippet(text: str) -> str:
    words = text.split()
    return "“" + " ".join(words[:_SNIPPET_WORDS]) + ("…" if len(words) > _SNIPPET_WORDS else "") + "”"
