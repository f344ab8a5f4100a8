"""Blocks: the paragraphs the graph is built from, from a .docx or from plain text.

Everything downstream works on :class:`Block` so the same graph is built
whether the contract came from Word (paragraphs with computed list labels and
heading styles) or from plain text (the benchmark's contracts, text pasted
from PDFs and EDGAR filings, where numbering is part of the text and several
clauses are often run together on one line).

Each block's ``text`` is an exact slice ``[start, end)`` of the document text,
so a passage is just a character span and a quote can always be checked
against the source.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from .labels import parse_label


@dataclass(frozen=True, slots=True)
class Block:
    """One paragraph (or one clause split out of a run-together line).

    ``label`` is Word's computed list number (not part of ``text``); for plain
    text it is None and the label is read from the text itself. ``line_start``
    says whether the block began a line of its own, which is layout evidence
    that a number in front of it is a heading rather than a figure in a sentence.
    """

    index: int
    anchor: str
    text: str
    start: int
    end: int
    label: str | None = None
    heading_level: int | None = None
    style_name: str | None = None
    in_table: bool = False
    line_start: bool = True

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (defaults left out to keep cached graphs small)."""
        out: dict[str, Any] = {"i": self.index, "a": self.anchor, "t": self.text, "s": self.start, "e": self.end}
        for key, value, default in (
            ("label", self.label, None),
            ("h", self.heading_level, None),
            ("style", self.style_name, None),
            ("tbl", self.in_table, False),
            ("ls", self.line_start, True),
        ):
            if value != default:
                out[key] = value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Block:
        """Inverse of :meth:`to_dict`."""
        return cls(
            index=data["i"], anchor=data["a"], text=data["t"], start=data["s"], end=data["e"],
            label=data.get("label"), heading_level=data.get("h"), style_name=data.get("style"),
            in_table=data.get("tbl", False), line_start=data.get("ls", True),
        )


class ParagraphLike(Protocol):
    """The part of :class:`redline.ooxml.paragraphs.Paragraph` the graph reads."""

    anchor: str | None
    index: int
    text: str
    style_name: str | None
    heading_level: int | None
    list_label: str | None
    table: object | None

    @property
    def is_empty(self) -> bool: ...


def blocks_from_paragraphs(paragraphs: Iterable[ParagraphLike]) -> tuple[str, list[Block]]:
    """Blocks for a Word document: one per non-empty paragraph, in order.

    The document text is the paragraphs' accepted text joined by newlines; list
    labels stay out of it (Word draws them, they are not in the runs), so quotes
    taken from it match the paragraph text exactly.
    """
    blocks: list[Block] = []
    pieces: list[str] = []
    pos = 0
    for p in paragraphs:
        if p.is_empty or not p.text.strip():
            continue
        text = p.text
        lead = len(text) - len(text.lstrip())
        body = text.strip()
        start = pos + lead
        blocks.append(Block(
            index=len(blocks), anchor=p.anchor or f"p{p.index}", text=body, start=start, end=start + len(body),
            label=(p.list_label or None) if p.list_label and p.list_label.strip() else None,
            heading_level=p.heading_level, style_name=p.style_name, in_table=p.table is not None,
        ))
        pieces.append(text)
        pos += len(text) + 1
    return "\n".join(pieces), blocks


# Where a line is split into clauses: a run of 2+ spaces (layout) before
# anything, or a sentence end followed by a multi-level number ("... Term. 4.2 The")
# or a labelled heading word ("... as follows: ARTICLE 2").
_GAP_RE = re.compile(r"\s{2,}|\t+")
_INLINE_RE = re.compile(
    r"(?<=[.;:)\]])\s+(?=(?:\d{1,3}\.\d{1,3}(?:\.\d{1,3})*\.?\s+[\"(A-Z\[])"
    r"|(?:\d{1,2}\.\s+[\"A-Z][A-Za-z]+)"
    r"|(?:\d{1,2}\.?\s+[A-Z]{2,}\b)"
    r"|(?:ARTICLE|Article|SECTION)\s+[\dIVXLC]+\b)"
    # a caption in capitals run into its first clause: "2 TERM AND RENEWAL 2.1 Term."
    r"|(?<=[A-Z]{2})\s+(?=\d{1,3}\.\d{1,3}\.?\s+[A-Z])"
)


# A page number left at the start of the next page's first line: "3 2.  GRANT OF RIGHTS."
_LEADING_PAGE_RE = re.compile(r"^\s*\d{1,3}\s+(?=\d{1,3}\.\s|(?:ARTICLE|Article|EXHIBIT|Exhibit|SCHEDULE|Schedule)\s)")


def blocks_from_text(text: str) -> list[Block]:
    """Split plain text into blocks: lines, then clauses run together on a line.

    Lines are split again at wide gaps (two or more spaces, as PDF and EDGAR
    extraction leave between clauses) and where a sentence ends right before a
    clause number. A split in the wrong place only cuts a paragraph in two
    inside the same section; the outline builder still decides what is a
    heading from sequence, not from the split.
    """
    blocks: list[Block] = []
    for m in re.finditer(r"[^\n]+", text):
        line_start = True
        for s, e in _segments(m.group(0)):
            piece = m.group(0)[s:e]
            lead = len(piece) - len(piece.lstrip())
            body = piece.strip()
            if not body:
                continue
            start = m.start() + s + lead
            blocks.append(Block(index=len(blocks), anchor=f"p{len(blocks)}", text=body, start=start,
                                end=start + len(body), line_start=line_start))
            line_start = False
    return _split_running_heads(blocks)


def _segments(line: str) -> list[tuple[int, int]]:
    cuts = {0, len(line)}
    for m in _GAP_RE.finditer(line):
        cuts.add(m.end())
    for m in _INLINE_RE.finditer(line):
        cuts.add(m.end())
    lead = _LEADING_PAGE_RE.match(line)
    if lead:
        cuts.add(lead.end())
    points = sorted(cuts)
    spans = []
    for s, e in itertools.pairwise(points):
        if spans and (not _worth_splitting(line[s:e]) or _label_only(line[spans[-1][0]:spans[-1][1]], line[s:e])):
            spans[-1] = (spans[-1][0], e)
        else:
            spans.append((s, e))
    return spans


def _label_only(piece: str, after: str) -> bool:
    """"1.", "(a)", "ARTICLE IV" with nothing after: the label belongs with the text after the gap.

    A bare integer ("20") only keeps a caption in capitals ("5   TERMINATION."); before
    running text it is far more often a page number.
    """
    piece = piece.strip()
    parsed = parse_label(piece)
    if parsed is None or piece[parsed[1]:].strip():
        return False
    if piece.isdigit():
        words = after.split()
        return 0 < len(words) <= 12 and after.upper() == after and parse_label(after.strip()) is None
    return True


def _worth_splitting(piece: str) -> bool:
    """A gap only starts a new block before a label or a capitalised word.

    Wide gaps also appear inside sentences (justified text); splitting there
    would cut quotes and sentences for nothing.
    """
    stripped = piece.strip()
    if not stripped:
        return False
    if parse_label(stripped) is not None:
        return True
    return stripped[0].isupper() or stripped[0] in "\"“("


PAGE_NUMBER_RE = re.compile(
    r"^(?:page\s+)?[-–—]?\s*(?:\d{1,3}|[ivxlc]{1,7})\s*[-–—]?\.?(?:\s+of\s+\d{1,3})?$", re.IGNORECASE
)
_HEAD_MIN_REPEATS = 3
_HEAD_MAX_WORDS = 6


def _split_running_heads(blocks: list[Block]) -> list[Block]:
    """Cut a running header glued to the first line of a page into a block of its own.

    PDF extraction often joins the header to the page's first paragraph
    ("Confidential Execution Version 1.5 "BLA" means…"). A capitalised phrase
    that starts the first line after three or more page breaks is taken as
    such a header; splitting it off lets the layout pass drop it and the
    outline see the clause number behind it.
    """
    lines: dict[str, int] = {}
    for block in blocks:
        if block.line_start:
            lines[block.text] = lines.get(block.text, 0) + 1
    after_break = [
        i for i in range(1, len(blocks))
        if blocks[i].line_start and (PAGE_NUMBER_RE.match(blocks[i - 1].text) or lines.get(blocks[i - 1].text, 0) >= _HEAD_MIN_REPEATS)
    ]
    counts: dict[str, int] = {}
    for i in after_break:
        for prefix in _prefixes(blocks[i].text):
            counts[prefix] = counts.get(prefix, 0) + 1
    heads = sorted((p for p, n in counts.items() if n >= _HEAD_MIN_REPEATS), key=len, reverse=True)
    if not heads:
        return blocks
    out: list[Block] = []
    for block in blocks:
        head = next((h for h in heads if block.line_start and block.text.startswith(h + " ")), None)
        if head is None:
            out.append(_renumber(block, len(out)))
            continue
        rest = block.text[len(head):]
        lead = len(rest) - len(rest.lstrip())
        out.append(Block(index=len(out), anchor=f"p{len(out)}", text=head, start=block.start,
                         end=block.start + len(head)))
        out.append(Block(index=len(out), anchor=f"p{len(out)}", text=rest.strip(),
                         start=block.start + len(head) + lead, end=block.end))
    return out


def _prefixes(text: str) -> list[str]:
    words = text.split(" ")
    out = []
    for n in range(2, min(_HEAD_MAX_WORDS, len(words) - 1) + 1):
        head = words[:n]
        if not all(w[:1].isupper() for w in head):
            break
        phrase = " ".join(head)
        if len(phrase) >= 10 and parse_label(phrase) is None:
            out.append(phrase)
    return out


def _renumber(block: Block, index: int) -> Block:
    if block.index == index:
        return block
    return Block(index=index, anchor=f"p{index}", text=block.text, start=block.start, end=block.end,
                 line_start=block.line_start)
