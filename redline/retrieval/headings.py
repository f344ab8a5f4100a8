"""How a section heading reads: is a line a heading, what is its title, number, label and keys.

Split from :mod:`redline.retrieval.sections`, which decides *where* a numbered
line fits the outline; this module answers the questions about one heading's
wording that need no outline state (so they can be read and tested on their
own): a caption after the number, an all-caps line of its own, "Exhibit B" as
a heading rather than in a sentence, and the display label and resolution keys
references are matched against.
"""

from __future__ import annotations

import re

from .blocks import Block
from .labels import Label, parse_label

TITLE_MAX_WORDS = 12
# Words a sentence cannot end on: a line ending with one continues on the next.
_DANGLING = frozenset(["in", "to", "of", "and", "or", "the", "a", "an", "with", "under", "per", "by", "for", "from",
                       "at", "on", "as", "see", "hereto", "attached"])
_TITLE_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_MINOR_WORDS = frozenset(["a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with", "upon", "under", "our", "your", "its", "their"])


def after_page_number(block: Block) -> Label | None:
    """"15   EXHIBIT A": a page number run into the heading that starts the next page."""
    text = block.text
    if block.label is not None or not text[:1].isdigit():
        return None
    head, _, rest = text.partition(" ")
    parsed = parse_label(rest.strip()) if head.isdigit() else None
    if parsed is None or parsed[0].kind not in ("schedule", "article"):
        return None
    return parsed[0]


def schedule_heading(blocks: list[Block], block: Block, from_text: bool) -> bool:
    """"Exhibit B" opens a schedule only as a heading of its own, not in a sentence (nor on the
    line a sentence wrapped onto: "… is included in" / "EXHIBIT G.")."""
    if not from_text:
        return block.line_start
    previous = blocks[block.index - 1].text.rstrip() if block.index else ""
    if previous.endswith(",") or previous.rsplit(" ", 1)[-1] in _DANGLING:
        return False
    parsed = parse_label(block.text)
    if parsed and block.line_start and parsed[0].text.split()[0].isupper():
        return True  # "EXHIBIT A THE PRODUCTS Each unit…": a capitalised heading run into its text
    rest = block.text[parsed[1]:].strip(" .:-–—") if parsed else block.text
    if len(rest.split()) > TITLE_MAX_WORDS or rest.endswith((".", ";", ",")):
        return False
    return block.line_start or not rest or title_case(rest)


def kind_name(label: Label) -> str:
    """The section kind a label opens: "section" (dotted), "article", "schedule", else "clause"."""
    if label.kind.startswith("num"):
        return "section"
    if label.kind in ("article", "schedule"):
        return label.kind
    return "clause"


def naming(label: Label, parent_kind: str | None, parent_number: str | None,
           title: str | None) -> tuple[str, str, list[str]]:
    """The section's number, display label and resolution keys (a lettered clause is numbered under
    its parent: "4.2(b)", but "(b)" directly under an article)."""
    if label.kind == "article":
        word, _, token = label.text.partition(" ")
        number = token.strip().rstrip(".")
        display = f"Article {number}" + (f" {title}" if title else "")
        return number, display, [f"article {label.ordinal}", f"article {number.lower()}"]
    if label.kind == "schedule":
        word, token = label.key.split(" ", 1)
        display = f"{word.capitalize()} {token.upper()}" + (f" {title}" if title else "")
        return token.upper(), display, [label.key]
    if label.kind.startswith("num"):
        number = label.key
        display = f"Section {number}" + (f" {title}" if title else "")
        return number, display, [number]
    base = parent_number or ""
    if parent_kind == "article":
        base = ""
    number = f"{base}({label.key})"
    return number, f"{'Section ' if base else ''}{number}".strip(), [number]


def caption(rest: str) -> str | None:
    """The caption after a label: the whole rest when it is short, else a leading "Term." phrase."""
    rest = rest.strip().lstrip(".:-–— ").strip()
    if not rest:
        return None
    words = rest.split()
    if len(words) <= TITLE_MAX_WORDS and len(rest) <= 100 and not rest.endswith((",", ";", ":")) and title_case(rest):
        return rest.rstrip(".").strip()
    m = re.match(r"^([A-Z][^.;:]{1,80}?)[.:]\s", rest)
    if m and len(m.group(1).split()) <= 8 and title_case(m.group(1)):
        return m.group(1).strip()
    return None


def title_case(text: str) -> bool:
    """Whether most words that are not minor words start with a capital ("Term and Termination")."""
    words = [w for w in _TITLE_WORD_RE.findall(text) if w.lower() not in _MINOR_WORDS]
    return bool(words) and sum(w[0].isupper() for w in words) >= 0.8 * len(words)


def caps_heading(block: Block, blocks: list[Block], i: int) -> bool:
    """A plain-text heading: an all-caps line of its own, a few words, no sentence punctuation."""
    text = block.text.strip()
    nxt = blocks[i + 1] if i + 1 < len(blocks) else None
    if not block.line_start or (nxt is not None and not nxt.line_start):
        return False
    words = text.split()
    letters = [c for c in text if c.isalpha()]
    return (
        1 <= len(words) <= 10 and len(letters) >= 4 and text.upper() == text
        and not text.endswith((",", ";")) and not re.search(r"\d{3,}", text)
    )


def norm_title(title: str) -> str:
    """A heading as a resolution key: lower case, single spaces."""
    return " ".join(title.lower().split())
