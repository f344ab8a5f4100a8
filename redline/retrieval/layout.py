"""Page furniture and tables of contents: text that is in the document but is not a section.

Text pasted from PDFs and EDGAR filings keeps each page's number and running
header ("Source: ACME CORP, 10-K, 2/27/2020", "CONFIDENTIAL"); a bare "33" on
its own line looks exactly like a section number, and a table of contents
lists every heading once before the real ones. Both would corrupt the outline
and every reference resolved against it, so they are classified first and
kept out of the outline (they stay in the document text, and the contents can
still be searched).
"""

from __future__ import annotations

import re
from collections import Counter
from enum import StrEnum

from .blocks import PAGE_NUMBER_RE, Block
from .labels import parse_label


class Role(StrEnum):
    """What a block is, for the outline builder."""

    BODY = "body"
    FURNITURE = "furniture"  # page numbers, running headers and footers
    CONTENTS = "contents"  # table of contents


_CONTENTS_RE = re.compile(r"^(?:table\s+of\s+contents|contents|index)\b", re.IGNORECASE)
_ENTRY_PAGE_RE = re.compile(r"(?:\s|(?<=[A-Z\]]))(?:\d{1,3}|[ivx]{1,5})$")
_MAX_HEADER_CHARS = 400
_MIN_REPEATS = 3


def classify(blocks: list[Block]) -> list[Role]:
    """The role of every block: body, page furniture or table of contents."""
    roles = [Role.BODY] * len(blocks)
    whole = _whole_lines(blocks)
    repeated = _repeated_lines(blocks, whole)
    for i, block in enumerate(blocks):
        if i in whole and block.text in repeated:
            roles[i] = Role.FURNITURE
    for i, block in enumerate(blocks):
        if PAGE_NUMBER_RE.match(block.text) and not (i in whole and _opens_heading(blocks, roles, i)):
            roles[i] = Role.FURNITURE
    for i in _contents(blocks, roles):
        roles[i] = Role.CONTENTS
    return roles


def _whole_lines(blocks: list[Block]) -> set[int]:
    """Blocks that are a whole line of their own (only those can be page furniture)."""
    out = set()
    for i, block in enumerate(blocks):
        nxt = blocks[i + 1] if i + 1 < len(blocks) else None
        if block.line_start and (nxt is None or nxt.line_start):
            out.add(i)
    return out


def _repeated_lines(blocks: list[Block], whole: set[int]) -> set[str]:
    """Short lines that recur on many pages: running headers and footers."""
    counts = Counter(blocks[i].text for i in whole if len(blocks[i].text) <= _MAX_HEADER_CHARS)
    return {
        text for text, n in counts.items()
        if n >= _MIN_REPEATS and parse_label(text) is None and not PAGE_NUMBER_RE.match(text) and len(text) > 2
    }


def _opens_heading(blocks: list[Block], roles: list[Role], i: int) -> bool:
    """A bare number is a heading ("7." then "TERMINATION" on the next line) only when a title follows it.

    Right after a running header, or before a line that carries its own label
    ("ARTICLE II"), it is the page's number.
    """
    if blocks[i].label or blocks[i].heading_level:
        return True
    if i > 0 and roles[i - 1] is Role.FURNITURE:
        return False
    for j in range(i + 1, min(len(blocks), i + 4)):
        if roles[j] is Role.FURNITURE:
            return False
        return _looks_like_title(blocks[j].text) and parse_label(blocks[j].text) is None
    return False


def _looks_like_title(text: str) -> bool:
    words = text.split()
    return 0 < len(words) <= 10 and text.upper() == text and any(c.isalpha() for c in text)


def _contents(blocks: list[Block], roles: list[Role]) -> list[int]:
    """Blocks of tables of contents: after a "TABLE OF CONTENTS" line, or runs of page-numbered entries.

    A contents run goes on over short entries and page furniture, and ends at
    the first block that reads like prose or at a label already listed (the
    real outline starting again).
    """
    out: list[int] = []
    i = 0
    while i < len(blocks):
        starts = _is_contents_title(blocks[i].text) or (roles[i] is Role.BODY and _entry_run(blocks, roles, i))
        if starts:
            end = _contents_end(blocks, roles, i)
            out.extend(j for j in range(i, end) if roles[j] is Role.BODY)
            i = end
        else:
            i += 1
    return out


def _is_contents_title(text: str) -> bool:
    return bool(_CONTENTS_RE.match(text)) and (len(text) <= 60 or text[:17].isupper())


def _is_entry(text: str) -> bool:
    """A contents entry: a caption ending in a page number, or with dot leaders."""
    if len(text) > 150:
        return False
    return "...." in text or (bool(_ENTRY_PAGE_RE.search(text)) and not text.rstrip().endswith("."))


def _entry_run(blocks: list[Block], roles: list[Role], i: int, need: int = 4) -> bool:
    seen = 0
    for j in range(i, len(blocks)):
        if roles[j] is not Role.BODY:
            continue
        if not (_is_entry(blocks[j].text) and parse_label(blocks[j].text)):
            return False
        seen += 1
        if seen >= need:
            return True
    return False


def _contents_end(blocks: list[Block], roles: list[Role], i: int) -> int:
    body = [j for j in range(i + 1, len(blocks)) if roles[j] is Role.BODY]
    listed: set[str] = set()
    for n, j in enumerate(body):
        text = blocks[j].text
        if _is_contents_title(text):
            continue
        if _reads_like_prose(text):
            return j
        parsed = parse_label(text)
        if parsed is None:
            continue
        key = parsed[0].kind + ":" + parsed[0].key
        following = blocks[body[n + 1]].text if n + 1 < len(body) else ""
        if key in listed and not _is_entry(text) and _reads_like_prose(following):
            return j
        listed.add(key)
    return len(blocks)


def _reads_like_prose(text: str) -> bool:
    """Sentences have many lower-case words; contents entries are captions and numbers."""
    words = text.split()
    if len(words) < 8:
        return False
    lower = sum(w[:1].islower() for w in words) / len(words)
    return lower >= 0.3 and (len(text) > 150 or text.rstrip()[-1:] in ".;:,")
