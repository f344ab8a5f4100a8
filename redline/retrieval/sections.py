"""The outline: sections with their hierarchy (Article → Section → clause → sub-clause).

A number at the start of a block only opens a section when it fits the
outline: the next sibling of an open section, the first child of the current
one, or a dotted number whose parent is open ("4.2.1" under "4.2"). Layout
(a Word list label, a heading style, a line of its own) relaxes the check;
a number found mid-line must continue the sequence exactly. This is what keeps
"2. " in a sentence, a page number or a figure from becoming a section, and
lets clauses run together on one line (as in text from EDGAR) still be found.
How one heading reads (caption, label, keys) is :mod:`redline.retrieval.headings`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .blocks import Block
from .headings import after_page_number, caps_heading, caption, kind_name, naming, norm_title, schedule_heading
from .labels import SCHEDULE_WORDS, Label, parse_label
from .layout import Role

_MAX_GAP_STRONG = 6
_MAX_GAP_WEAK = 2
_MAX_PREAMBLE_NUMBERS = 3
_OPERATIVE_RE = re.compile(r"\b(?:NOW,?\s+THEREFORE|agree[sd]?\s+as\s+follows)", re.IGNORECASE)


@dataclass(slots=True)
class Section:
    """A node of the outline.

    ``number`` is the full reference form ("4.2(b)", "IV" for an article,
    "B" for Exhibit B) and ``label`` how it reads ("Section 4.2(b)",
    "Article IV", "Exhibit B", or the heading text). Blocks ``first..own_end``
    are the section's own text (heading and body up to its first child);
    ``first..end`` is the whole subtree.
    """

    id: str
    kind: str
    number: str | None
    title: str | None
    label: str
    level: int
    parent: str | None
    first: int
    own_end: int
    end: int
    keys: list[str] = field(default_factory=list)
    children: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "id": self.id, "kind": self.kind, "number": self.number, "title": self.title, "label": self.label,
            "level": self.level, "parent": self.parent, "first": self.first, "own_end": self.own_end,
            "end": self.end, "keys": self.keys, "children": self.children,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Section:
        """Inverse of :meth:`to_dict`."""
        return cls(**data)


@dataclass(slots=True)
class _Open:
    """An open section on the outline stack, with the label that opened it."""

    section: Section
    label: Label | None
    heading_level: int | None = None
    last_child: dict[str, int] = field(default_factory=dict)  # kind -> ordinal of the latest child


def build_sections(blocks: list[Block], roles: list[Role]) -> tuple[list[Section], list[str | None]]:
    """The outline of the document and, for every block, the id of its innermost section.

    Blocks before the first section form a "preamble" section (title, parties,
    recitals); furniture and contents blocks belong to no section.
    """
    builder = _Builder(blocks, roles)
    for i in range(len(blocks)):
        builder.visit(i)
    return builder.finish()


class _Builder:
    def __init__(self, blocks: list[Block], roles: list[Role]) -> None:
        self.blocks = blocks
        self.roles = roles
        self.sections: list[Section] = []
        self.stack: list[_Open] = []
        self.owner: list[str | None] = [None] * len(blocks)
        self.top_last: dict[str, int] = {}  # kind -> ordinal of the latest top-level section
        self.pending_caption: int | None = None
        self.last_dotted: tuple[int, ...] = ()
        self.title_only: str | None = None  # a heading section that so far holds only capitalised lines

    # -- walking ---------------------------------------------------------------
    def visit(self, i: int) -> None:
        if self.roles[i] is not Role.BODY:
            return
        block = self.blocks[i]
        if _OPERATIVE_RE.search(block.text) and self._candidate(block) is None and self._numbered_preamble():
            self._body(i)
            self._restart()
            return
        label = self._candidate(block)
        if label is not None and self._place(i, label):
            return
        inner = after_page_number(block)
        if inner is not None and self._place(i, inner):
            return
        if self._heading(i):
            return
        self._body(i)

    def _numbered_preamble(self) -> bool:
        """Whether what is numbered so far looks like parties and recitals ("1. Acme", "(a) Whereas"),
        not an outline: no article, no "1.1", at most a few top-level numbers. "You agree as
        follows:" in the middle of clause 4.2 must not restart anything."""
        numbered = [s for s in self.sections if s.kind in ("section", "clause", "article")]
        top = [s for s in numbered if s.parent is None]
        outline = any(s.kind == "article" or "." in (s.number or "") for s in numbered)
        return bool(numbered) and len(top) <= _MAX_PREAMBLE_NUMBERS and not outline

    def _restart(self) -> None:
        """"NOW, THEREFORE, the parties agree as follows:" ends the recitals; what was numbered
        before (the parties "1." and "2.", recitals "(a)"…) is preamble, and the agreement's own
        numbering starts again at 1 (references to "Section 1" mean the new one)."""
        for section in self.sections:
            section.keys = []
        self.stack.clear()
        self.top_last.clear()
        self.last_dotted = ()
        self.pending_caption = None

    def _candidate(self, block: Block) -> Label | None:
        source = block.label if block.label is not None else block.text
        parsed = parse_label(source.strip())
        if parsed is None:
            return None
        label, _ = parsed
        if label.kind == "schedule" and not schedule_heading(self.blocks, block, block.label is None):
            return None
        return label

    def _body_started(self) -> bool:
        """Whether the agreement's own numbering has begun (a schedule can only come after it)."""
        return any(s.kind in ("section", "article") for s in self.sections)

    def _strong(self, block: Block) -> bool:
        return block.label is not None or block.heading_level is not None or block.line_start

    # -- numbered sections ----------------------------------------------------------
    def _place(self, i: int, label: Label) -> bool:
        """Open a section for ``label`` if it fits; an ambiguous "(i)" prefers continuing a list."""
        strong = self._strong(self.blocks[i])
        fits = []
        for candidate in (label, label.alt):
            if candidate is not None:
                depth = self._fit(candidate, strong)
                if depth is not None:
                    fits.append((depth >= len(self.stack), candidate, depth))
        if not fits:
            return False
        _, candidate, depth = min(fits, key=lambda f: f[0])
        self._open(i, candidate, depth)
        return True

    def _fit(self, label: Label, strong: bool) -> int | None:
        """The stack depth the section opens at (its parent is ``stack[depth-1]``), or None."""
        gap = _MAX_GAP_STRONG if strong else _MAX_GAP_WEAK
        if label.kind == "schedule":
            # Schedules follow the body: "Exhibit 10.1" above it (on the first line, or after a filing
            # note) is the filing's exhibit number.
            filing = "." in label.key and not self._body_started()
            return 0 if self.sections and not filing else None
        if label.kind == "article":
            prev = self.top_last.get("article", 0)
            return 0 if (strong and label.ordinal > prev - 1) or label.ordinal == prev + 1 else None
        if label.kind.startswith("num"):
            return self._fit_dotted(label, strong, gap)
        return self._fit_list(label, strong, gap)

    def _fit_dotted(self, label: Label, strong: bool, gap: int) -> int | None:
        """Dotted numbers must move the outline forward: the next number at some level.

        Parents may be missing (a heading lost in conversion, "2." run into the
        previous paragraph), so "2.2" after "1.4.2" is accepted and hangs at the
        top; what is refused is going backwards or jumping far ahead, which is
        what numbers in sentences and tables do.
        """
        parts = tuple(int(p) for p in label.parts)
        if not strong and len(parts) == 1:
            gap = 1  # "3. The second…" inside a paragraph must be the very next number
        if not _successor(self.last_dotted, parts, gap, 2) and not self._under_article(parts):
            return None
        for depth in range(len(self.stack) - 1, -1, -1):
            own = self.stack[depth].label
            if own is None:
                continue
            if own.kind.startswith("num") and len(own.parts) < len(parts) and own.parts == label.parts[: len(own.parts)]:
                return depth + 1
            if own.kind == "article" and own.ordinal == parts[0] and len(parts) > 1:
                return depth + 1
        return self._top_depth()

    def _under_article(self, parts: tuple[int, ...]) -> bool:
        """"4.1" right under "ARTICLE IV" (articles and sections numbered together)."""
        top = self.stack[0].label if self.stack else None
        return (
            top is not None and top.kind == "article" and len(parts) >= 2 and parts[0] == top.ordinal
            and self.last_dotted[:1] != (parts[0],) and all(p <= 1 for p in parts[1:])
        )

    def _top_depth(self) -> int:
        """Where a top-level number opens: under an open article or schedule, else at the root."""
        for depth, item in enumerate(self.stack):
            if item.label is not None and item.label.kind in ("article", "schedule"):
                continue
            return depth
        return len(self.stack)

    def _fit_list(self, label: Label, strong: bool, gap: int) -> int | None:
        """Lettered and bracketed lists: a sibling of the open list of that kind, or a new list."""
        for depth in range(len(self.stack) - 1, -1, -1):
            own = self.stack[depth].label
            if own is not None and own.kind == label.kind:
                if _next(own.ordinal, label.ordinal, gap):
                    return depth
                break
        if label.ordinal == 1 and self.stack:
            return len(self.stack)
        return None

    def _open(self, i: int, label: Label, depth: int) -> None:
        del self.stack[depth:]
        parent = self.stack[-1] if self.stack else None
        if parent is not None:
            parent.last_child[label.kind] = label.ordinal
        elif label.kind in ("article", "schedule", "num1"):
            self.top_last[label.kind] = label.ordinal
        if label.kind == "schedule":
            self.top_last.clear()
            self.last_dotted = ()
        elif label.kind.startswith("num"):
            self.last_dotted = tuple(int(p) for p in label.parts)
        first = i
        if self.pending_caption is not None and self.pending_caption == i - 1:
            first = self.pending_caption
        section = self._new_section(label, parent.section if parent else None, first, i)
        self.stack.append(_Open(section, label))
        self.pending_caption = None

    def _new_section(self, label: Label, parent: Section | None, first: int, i: int) -> Section:
        block = self.blocks[i]
        rest = block.text if block.label is not None else block.text[parse_label(block.text)[1]:]  # type: ignore[index]
        title = caption(rest)
        if title is None and first != i:
            title = self.blocks[first].text.strip()
        kind, number = (parent.kind, parent.number) if parent else (None, None)
        number, display, keys = naming(label, kind, number, title)
        section = Section(
            id=f"s{len(self.sections) + 1}", kind=kind_name(label), number=number, title=title, label=display,
            level=(parent.level + 1) if parent else 1, parent=parent.id if parent else None,
            first=first, own_end=i, end=i, keys=keys,
        )
        self._register(section, first, i)
        return section

    def _register(self, section: Section, first: int, i: int) -> None:
        if section.parent is not None:
            self._by_id(section.parent).children.append(section.id)
        self.sections.append(section)
        for j in range(first, i + 1):
            self.owner[j] = section.id

    def _by_id(self, sid: str) -> Section:
        return self.sections[int(sid[1:]) - 1]

    # -- unnumbered headings --------------------------------------------------------
    def _heading(self, i: int) -> bool:
        """Headings without a number: Word heading styles, or an all-caps line of its own.

        Inside a numbered outline such a line is a caption (it titles the
        section that follows, or the label-only heading before it); it only
        opens a section of its own before the outline starts, in schedules,
        or when it names a schedule ("SITE SELECTION ADDENDUM").
        """
        block = self.blocks[i]
        level = block.heading_level
        if level is None and not caps_heading(block, self.blocks, i):
            return False
        last = self._current()
        if last is not None and last.title is None and last.own_end == i - 1 and last.first == i - 1:
            last.title = block.text.strip()
            last.label = f"{last.label} {last.title}" if last.number else last.title
            self._own(i, last)
            return True
        if level is None and last is not None and last.id == self.title_only and last.own_end == i - 1:
            self._own(i, last)  # the title page: "AGREEMENT" / "BY AND BETWEEN" / "ACME INC." is one unit
            last.keys.append(norm_title(block.text))  # each of its lines still names it
            return True
        names_schedule = self._body_started() and any(w in block.text.lower().split() for w in SCHEDULE_WORDS)
        numbered_open = any(o.label is not None for o in self.stack)
        if level is None and numbered_open and not names_schedule:
            self.pending_caption = i
            return False
        depth = 0
        if level is not None:
            for item in self.stack:
                if item.heading_level is None or item.heading_level >= level:
                    break
                depth += 1
        del self.stack[depth:]
        parent = self.stack[-1].section if self.stack else None
        title = block.text.strip()
        kind = "schedule" if names_schedule else "heading"
        section = Section(
            id=f"s{len(self.sections) + 1}", kind=kind, number=None, title=title, label=title,
            level=(parent.level + 1) if parent else 1, parent=parent.id if parent else None,
            first=i, own_end=i, end=i, keys=[norm_title(title)],
        )
        self._register(section, i, i)
        self.stack.append(_Open(section, None, heading_level=level or 0))
        self.title_only = section.id if level is None and kind == "heading" and not self._body_started() else None
        if names_schedule:
            self.top_last.clear()
            self.last_dotted = ()
        return True

    def _current(self) -> Section | None:
        return self.stack[-1].section if self.stack else None

    # -- body text --------------------------------------------------------------------
    def _body(self, i: int) -> None:
        text = self.blocks[i].text
        if text.upper() != text or len(text.split()) > 3:  # "AND" between party names stays on the title page
            self.title_only = None
        current = self._current()
        if current is None:
            current = self._preamble(i)
        self._own(i, current)

    def _own(self, i: int, section: Section) -> None:
        self.owner[i] = section.id
        if not section.children:
            section.own_end = i
        section.end = i

    def _preamble(self, i: int) -> Section:
        section = Section(
            id=f"s{len(self.sections) + 1}", kind="preamble", number=None, title=None, label="Preamble",
            level=1, parent=None, first=i, own_end=i, end=i, keys=["preamble"],
        )
        self._register(section, i, i)
        self.stack.append(_Open(section, None))
        return section

    def finish(self) -> tuple[list[Section], list[str | None]]:
        by_id = {s.id: s for s in self.sections}
        for s in reversed(self.sections):
            if s.parent is not None:
                parent = by_id[s.parent]
                parent.end = max(parent.end, s.end)
        for s in self.sections:
            if s.children:
                s.own_end = by_id[s.children[0]].first - 1
                s.own_end = max(s.own_end, s.first)
        return self.sections, self.owner


def _next(prev: int, ordinal: int, gap: int) -> bool:
    return prev < ordinal <= prev + gap


def _successor(last: tuple[int, ...], parts: tuple[int, ...], gap: int, first_max: int) -> bool:
    """Whether ``parts`` can follow ``last`` in an outline.

    It keeps a common prefix, then either steps forward by at most ``gap`` at
    one level, or opens children of ``last``; every deeper component must be
    a first number (at most ``first_max``, allowing one lost sibling).
    """
    for p in range(min(len(last), len(parts)) + 1):
        if parts[:p] != last[:p]:
            break
        if p == len(last):
            if p < len(parts) and all(1 <= x <= first_max for x in parts[p:]) and (p > 0 or parts[0] <= first_max):
                return True
            continue
        if p < len(parts) and last[p] < parts[p] <= last[p] + gap and all(x <= first_max for x in parts[p + 1:]):
            return True
    return False


