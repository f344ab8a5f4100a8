"""A contract as the clause engine reads it: sentence units with their place in the document.

The engine is trained on CUAD's plain texts and run on .docx paragraphs, so
everything it knows about a unit's surroundings is computed here from the
paragraph texts alone (a Word heading style only confirms what the text
shows): the heading of the section a sentence sits in, the caption that opens
its clause ("12. Governing Law."), and how far into the contract it is. One
code path for training and for use keeps the two from drifting apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .units import sentence_spans

_HEADING_START = re.compile(r"^\s*(?:article|section|exhibit|schedule|appendix|annex|part)\b", re.IGNORECASE)
_CAPTION = re.compile(
    r"^\s*(?:(?:section|article)\s+)?(?:\(?[0-9]+(?:\.[0-9]+)*[.)]?|\(?[a-zA-Z][.)]|[ivxlc]+[.)])?\s*"
    r"(?P<cap>[A-Z][A-Za-z'’&/,\- ]{2,70}?)\s*[.:\u2014\u2013-]\s+(?=[A-Z\x22“(])"
)
# "ARTICLE 7 TERM AND TERMINATION The term of ..." : a heading run into its first paragraph.
_LEAD_HEADING = re.compile(
    r"^\s*(?P<head>(?:ARTICLE|Article|SECTION|Section)\s+[0-9IVXLC]+[.:]?\s+[A-Z][A-Z0-9 ,;&/'’()-]{2,80}?)"
    r"(?=\s+(?:[A-Z][a-z]|\d+\.\d|\(|$))"
)
_TITLE = re.compile(r"\bAGREEMENT\b|\b[A-Z][A-Za-z-]+ Agreement\b")
_SMALL = frozenset(["a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with", "upon", "under"])


@dataclass(frozen=True, slots=True)
class Unit:
    """One sentence-complete span of one paragraph, with its context.

    ``start``/``end`` index ``paragraph``'s text; ``heading`` is the last
    heading paragraph above it and ``caption`` the title of the clause it
    belongs to, both "" when there is none; ``position`` is the share of
    the document's units before this one; ``title`` the contract's name
    (what kind of contract it is tells which clauses to expect).
    """

    paragraph: int
    start: int
    end: int
    text: str
    heading: str
    caption: str
    position: float
    is_heading: bool
    first_in_paragraph: bool
    title: str = ""


def is_heading_text(text: str, level: int | None = None) -> bool:
    """Whether a paragraph reads as a heading: styled as one, or short with no sentence end."""
    stripped = " ".join(text.split())
    if level is not None and len(stripped) <= 200:
        return True
    if not stripped or len(stripped) > 120:
        return False
    words = stripped.split()
    if _HEADING_START.match(stripped) and len(stripped) <= 100 and sum(w[:1].islower() for w in words) <= 3:
        return True
    return (len(words) <= 12 and not stripped.endswith((".", ";", ","))) or (stripped.isupper() and len(words) <= 15)


def caption_of(text: str) -> str:
    """The title a clause opens with ("Governing Law" of "12. Governing Law. This ..."), or ""."""
    m = _CAPTION.match(text)
    if not m:
        return ""
    cap = m.group("cap").strip()
    words = cap.split()
    if not words or len(words) > 8:
        return ""
    titled = sum(1 for w in words if w[:1].isupper() or w.lower() in _SMALL)
    return cap if titled == len(words) else ""


def title_of(paragraphs: Sequence[str]) -> str:
    """The contract's name: the first heading-like paragraph of the first ten that names an agreement, or ""."""
    seen = 0
    for text in paragraphs:
        flat = " ".join(text.split())
        if not flat:
            continue
        if _TITLE.search(flat) and len(flat) <= 200 and not flat.startswith("(") and not flat.endswith((".", ";", ",")):
            return flat
        seen += 1
        if seen >= 10:
            break
    return ""


def units_of(paragraphs: Sequence[str], levels: Sequence[int | None] | None = None) -> list[Unit]:
    """Every sentence unit of a document given as paragraph texts (and optional heading levels)."""
    raw: list[tuple[int, int, int, str, str, str, bool, bool]] = []
    heading = caption = ""
    for i, text in enumerate(paragraphs):
        level = levels[i] if levels is not None else None
        flat = " ".join(text.split())
        if not flat:
            continue
        head = is_heading_text(text, level)
        if head:
            heading, caption = flat[:120], ""
        elif lead := _LEAD_HEADING.match(flat):
            heading, caption = lead.group("head").strip(), ""
        else:
            own = caption_of(flat)
            if own:
                caption = own
        for n, span in enumerate(sentence_spans(text)):
            piece = " ".join(text[span.start: span.end].split())
            raw.append((i, span.start, span.end, piece, heading if not head else "", caption, head, n == 0))
    total = max(1, len(raw))
    title = title_of(paragraphs)
    return [Unit(p, s, e, t, h, c, k / total, hd, first, title)
            for k, (p, s, e, t, h, c, hd, first) in enumerate(raw)]
