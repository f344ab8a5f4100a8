"""An opened .docx that the hygiene injectors edit: its paragraphs, its graph, and safe text edits.

The injectors (:mod:`.hygiene_inject`) plant the defects a careless draft has, in real contracts, so the
review's hygiene checks can be graded on defects whose place is known. They edit the document model, not a
text rendering: the text of a paragraph's ``w:t`` elements (runs, their formatting and every other element
stay as they were), or whole body paragraphs. This module holds what they share: the paragraphs as the
product reads them (:func:`~redline.ooxml.paragraphs.read_paragraphs`, no anchors added, so the review later
anchors the edited file exactly as it would anchor an upload), the contract graph used to *choose* places (a
resolved reference, a defined term, a numbered sibling), and the bookkeeping that keeps several injections in
one file apart: each paragraph is touched by one injection at most, and a paragraph another injection relies
on (a use of a term whose definition was removed, a citation of an emptied exhibit) is never deleted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from redline.ooxml.oxml import qn
from redline.ooxml.package import Package
from redline.ooxml.paragraphs import Paragraph, read_paragraphs
from redline.ooxml.text import has_revisions, text_segments
from redline.retrieval.graph import ContractGraph
from redline.retrieval.layout import Role

_T = qn("w:t")
_R = qn("w:r")
_P = qn("w:p")
_BODY = qn("w:body")
_PPR = qn("w:pPr")
_SECT_PR = qn("w:sectPr")
_FIELDS = (qn("w:fldChar"), qn("w:fldSimple"), qn("w:instrText"))
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_TESTIMONIUM = re.compile(r"\s*(?:IN\s+WITNESS\s+WHEREOF|IN\s+TESTIMONY\s+WHEREOF)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Injection:
    """One planted defect and where the review must report it.

    ``paragraphs`` index the injected document's paragraphs (as ``read_document`` lists them) where a finding
    of ``kind`` is expected; ``span`` is the ``[start, end)`` of the planted words in the text of
    ``paragraphs[0]`` that the finding's quote must overlap (None: anywhere in those paragraphs); ``name`` is a
    term or an attachment that a finding elsewhere in the contract may quote instead (the defect's other
    half). ``change`` says what was done, for the report; ``path`` tells the ways of one kind apart
    (``words_digits``: ``changed`` an existing pair, or ``inserted`` one).
    """

    kind: str
    paragraphs: tuple[int, ...]
    span: tuple[int, int] | None
    name: str | None
    change: str
    path: str = ""

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"kind": self.kind, "paragraphs": list(self.paragraphs), "span": list(self.span) if self.span else None,
                "name": self.name, "change": self.change, "path": self.path}


@dataclass(slots=True)
class Planned:
    """An injection before the file is re-read: its expected paragraphs held as elements, since deleting
    paragraphs elsewhere shifts every index after them."""

    kind: str
    elements: tuple[etree._Element, ...]
    span: tuple[int, int] | None
    name: str | None
    change: str
    path: str = ""


class Draft:
    """An opened .docx being injected: ``paragraphs`` and ``graph`` describe it as it was opened."""

    def __init__(self, data: bytes) -> None:
        self.package = Package.open(data)
        self.paragraphs: list[Paragraph] = read_paragraphs(self.package)
        self.graph = ContractGraph.from_paragraphs(self.paragraphs)
        by_anchor = {p.anchor or f"p{p.index}": p.index for p in self.paragraphs}
        self.block_paragraph = [by_anchor[b.anchor] for b in self.graph.blocks]
        self.texts = [p.text for p in self.paragraphs]
        self.used: set[int] = set()  # paragraphs an injection edited, deleted or expects a finding at
        self.keep: set[int] = set()  # paragraphs another injection relies on: never deleted
        self.deleted: set[int] = set()

    # -- reading ----------------------------------------------------------------------
    def paragraph_of(self, block: int) -> int:
        """The paragraph index of a graph block."""
        return self.block_paragraph[block]

    def offset(self, block: int, doc_offset: int) -> int:
        """A graph offset (into the document text) as an offset into the block's paragraph text."""
        text = self.texts[self.paragraph_of(block)]
        return doc_offset - self.graph.blocks[block].start + len(text) - len(text.lstrip())

    def editable(self, i: int) -> bool:
        """A paragraph whose text may be edited: no tracked changes and no fields (a field's result is
        rewritten by Word, and its instruction is not text)."""
        p = self.paragraphs[i].element
        return (i not in self.used and not has_revisions(p)
                and next(p.iter(*_FIELDS), None) is None)

    def operative_end(self) -> int:
        """The first block after the operative text: the testimonium ("IN WITNESS WHEREOF") or the first
        attachment heading after the opening fifth (an EDGAR "Exhibit 10.1" over the whole filing is not one).
        Signature pages and attachments (often forms, filled in at signing) are not where a reviewer reads
        for a forgotten blank, and the checks rightly leave their fill-in lines alone."""
        blocks = self.graph.blocks
        ends = [b.index for b in blocks if _TESTIMONIUM.match(b.text)]
        ends += [s.first for s in self.graph.sections if s.kind == "schedule" and s.first > len(blocks) / 5]
        return min(ends, default=len(blocks))

    def body_blocks(self, min_chars: int = 60) -> list[int]:
        """Blocks of operative running text that may be edited: body role, no heading style, not in a table."""
        out = []
        for b in self.graph.blocks[: self.operative_end()]:
            i = self.paragraph_of(b.index)
            if (self.graph.roles[b.index] is Role.BODY and b.heading_level is None and not b.in_table
                    and len(b.text) >= min_chars and self.editable(i)):
                out.append(b.index)
        return out

    def deletable(self, i: int) -> bool:
        """A paragraph that can go: directly in the body (a table cell must keep one), not relied on."""
        p = self.paragraphs[i].element
        parent = p.getparent()
        return (parent is not None and parent.tag == _BODY and i not in self.used and i not in self.keep
                and not has_revisions(p))

    # -- editing ----------------------------------------------------------------------
    def splice(self, i: int, start: int, end: int, new: str) -> bool:
        """Replace ``[start, end)`` of paragraph ``i``'s text with ``new``, in its ``w:t`` elements only.

        The new text joins the ``w:t`` where the range starts (an insertion: the one it follows), so it takes
        that run's formatting. Refused (False, nothing changed) when the range touches anything but ``w:t``
        text (a tab, a break, a symbol) or the paragraph is not editable."""
        if not self.editable(i):
            return False
        pieces, pos = [], 0
        for el, s in text_segments(self.paragraphs[i].element):
            pieces.append((el, pos, pos + len(s)))
            pos += len(s)
        if start == end:
            hosts = [x for x in pieces if x[1] < start <= x[2] and x[0].tag == _T] or \
                    [x for x in pieces if x[1] <= start < x[2] and x[0].tag == _T]
            touched = hosts[:1]
        else:
            touched = [x for x in pieces if x[1] < end and x[2] > start]
        if not touched or any(el.tag != _T or el.getparent() is None or el.getparent().tag != _R
                              for el, _, _ in touched):
            return False
        for n, (el, a, _) in enumerate(touched):
            old = el.text or ""
            el.text = old[: max(start - a, 0)] + (new if n == 0 else "") + old[max(end - a, 0):]
            el.set(_XML_SPACE, "preserve")
        self.texts[i] = self.texts[i][:start] + new + self.texts[i][end:]
        self.used.add(i)
        return True

    def delete(self, indices: list[int]) -> bool:
        """Delete whole body paragraphs; refused (False, nothing changed) unless every one is deletable.

        A paragraph that carries the section's properties (``w:pPr/w:sectPr``: page size, margins) is
        emptied instead, keeping them."""
        if not indices or not all(self.deletable(i) for i in indices):
            return False
        for i in indices:
            p = self.paragraphs[i].element
            ppr = p.find(_PPR)
            if ppr is not None and ppr.find(_SECT_PR) is not None:
                for child in list(p):
                    if child is not ppr:
                        p.remove(child)
            else:
                p.getparent().remove(p)
            self.deleted.add(i)
            self.used.add(i)
        return True

    def plan(self, kind: str, expected: list[int], span: tuple[int, int] | None = None, name: str | None = None,
             change: str = "", path: str = "") -> Planned:
        """Record an injection expected at paragraphs ``expected`` (original indices), which no later
        injection may touch."""
        self.used.update(expected)
        self.keep.update(expected)
        return Planned(kind, tuple(self.paragraphs[i].element for i in expected), span, name, change, path)

    def finish(self, planned: list[Planned]) -> tuple[bytes, list[Injection]]:
        """The injected file and the injections with their paragraphs indexed in it."""
        index = {p.element: p.index for p in read_paragraphs(self.package)}
        out = [Injection(x.kind, tuple(index[e] for e in x.elements if e in index), x.span, x.name, x.change,
                         x.path) for x in planned]
        return self.package.save(), out
