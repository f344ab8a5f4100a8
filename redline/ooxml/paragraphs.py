"""The paragraph model: every paragraph of the body, in document order.

This is the read side's public entry point. :func:`read_document` opens
untrusted bytes safely, walks the body once (paragraphs, tables, nested
tables, content controls), reads each paragraph's accepted and rejected text,
style, heading level and computed list label, and, when asked, anchors every
non-empty paragraph and stamps the document id, returning the anchored bytes.

The walk visits each paragraph once and does no XPath: styles are resolved
once per style id, the rejected view is only computed for paragraphs that have
revisions, and list labels are counted in the same pass.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from lxml import etree

from .anchors import Anchorer, anchor_of
from .docprops import ensure_doc_id, get_doc_id
from .numbering import ListCounter, Numbering
from .oxml import decimal_number, qn
from .package import DEFAULT_LIMITS, Limits, Package
from .styles import StyleInfo, Styles, outline_heading_level
from .text import has_revisions, paragraph_text

_BODY = qn("w:body")
_P = qn("w:p")
_P_PR = qn("w:pPr")
_R_PR = qn("w:rPr")
_MARK_DELETED = frozenset((qn("w:del"), qn("w:moveFrom")))
_MARK_INSERTED = frozenset((qn("w:ins"), qn("w:moveTo")))
_P_STYLE = qn("w:pStyle")
_NUM_PR = qn("w:numPr")
_NUM_ID = qn("w:numId")
_ILVL = qn("w:ilvl")
_SECT_PR = qn("w:sectPr")
_VAL = qn("w:val")
_TBL = qn("w:tbl")
_TR = qn("w:tr")
_TC = qn("w:tc")
_SDT = qn("w:sdt")
_SDT_CONTENT = qn("w:sdtContent")
_CUSTOM_XML = qn("w:customXml")


@dataclass(frozen=True, slots=True)
class TablePosition:
    """Where a paragraph sits in a table; tables are numbered in document order
    from 0 (nested ones too), rows and cells from 0 within their table."""

    table: int
    row: int
    cell: int
    parent: TablePosition | None = None  # the enclosing cell, for a nested table

    def as_dict(self) -> dict[str, object]:
        """JSON-ready form (``parent`` only for nested tables)."""
        out: dict[str, object] = {"table": self.table, "row": self.row, "cell": self.cell}
        if self.parent is not None:
            out["parent"] = self.parent.as_dict()
        return out


@dataclass(frozen=True, slots=True)
class Paragraph:
    """One paragraph of the body as Word shows it.

    ``text`` reads with every tracked change accepted, ``original_text`` with
    every change rejected (equal when ``has_revisions`` is False). ``list_label``
    is the computed number ("4.2(b)", "•"), not part of ``text``. ``section`` is
    the Word section (``w:sectPr``) the paragraph belongs to, from 0.
    ``paragraph_mark`` says whether the paragraph mark itself is a pending
    insertion or deletion (accepting a deleted mark joins the paragraph to the
    next; rejecting an inserted one does). ``element`` is the ``w:p`` itself,
    for callers that go on to edit.
    """

    index: int
    anchor: str | None
    text: str
    original_text: str
    style_id: str | None
    style_name: str | None
    heading_level: int | None
    list_label: str | None
    num_level: int | None
    has_revisions: bool
    table: TablePosition | None
    in_content_control: bool
    section: int
    paragraph_mark: Literal["inserted", "deleted"] | None
    element: etree._Element = field(repr=False, compare=False)

    @property
    def is_empty(self) -> bool:
        """True when neither view has visible text (such paragraphs get no anchor)."""
        return not (self.text.strip() or self.original_text.strip())


class ReadResult:
    """What :func:`read_document` returns: ``paragraphs`` and ``doc_id``, and ``docx``.

    ``docx`` is the anchored file (anchors and ``RedlineDocID`` added) when
    anchoring was asked for, else None; ``doc_id`` is then always set. The file is
    written when first asked for: writing a package costs about half as much as
    reading it, and most readers (an upload, retrieval, the dashboard) only need
    the paragraphs.
    """

    __slots__ = ("_docx", "_package", "doc_id", "paragraphs")

    def __init__(self, paragraphs: list[Paragraph], doc_id: str | None, package: Package | None = None) -> None:
        self.paragraphs = paragraphs
        self.doc_id = doc_id
        self._package = package
        self._docx: bytes | None = None

    @property
    def docx(self) -> bytes | None:
        if self._docx is None and self._package is not None:
            self._docx, self._package = self._package.save(), None  # (the parse trees are not needed again)
        return self._docx


def read_document(data: bytes, *, anchor: bool = True, limits: Limits = DEFAULT_LIMITS) -> ReadResult:
    """Open untrusted .docx bytes and read its paragraph model.

    With ``anchor`` every non-empty paragraph gets an ``_RL_`` anchor and the
    document a ``RedlineDocID``; both are derived from the input bytes, so the
    same input always gives the same output. Raises
    :class:`~redline.ooxml.errors.DocxError` for input it refuses.
    """
    pkg = Package.open(data, limits)
    if not anchor:
        return ReadResult(read_paragraphs(pkg), get_doc_id(pkg))
    return _anchored(pkg, data)[0]


def _anchored(pkg: Package, data: bytes) -> tuple[ReadResult, Anchorer]:
    seed = hashlib.sha256(data).digest()
    anchorer = Anchorer(pkg.xml(pkg.main_part), seed)
    paragraphs = read_paragraphs(pkg, anchorer=anchorer)
    doc_id = ensure_doc_id(pkg, seed=seed)
    return ReadResult(paragraphs, doc_id, pkg), anchorer


@dataclass(frozen=True, slots=True)
class Scan:
    """What storing an upload needs of it: that it reads, its ``RedlineDocID`` and its anchors in order.

    ``doc_id_found`` says whether the file carried its ``RedlineDocID`` (else
    ``doc_id`` was derived from the bytes); ``carried`` are the anchors the file
    carried before anchoring (sorted), which tie a file that lost its id to its document.
    """

    doc_id: str
    anchors: tuple[str, ...]
    doc_id_found: bool
    carried: tuple[str, ...]


def scan_document(data: bytes, *, limits: Limits = DEFAULT_LIMITS) -> Scan:
    """Read untrusted .docx bytes as :func:`read_document` does, keeping only a small, picklable summary.

    Raises :class:`~redline.ooxml.errors.DocxError` for input it refuses.
    """
    pkg = Package.open(data, limits)
    found = get_doc_id(pkg) is not None
    read, anchorer = _anchored(pkg, data)
    assert read.doc_id is not None  # anchoring always sets it
    return Scan(read.doc_id, tuple(p.anchor for p in read.paragraphs if p.anchor), doc_id_found=found,
                carried=tuple(sorted(anchorer.present)))


def read_paragraphs(pkg: Package, *, anchorer: Anchorer | None = None) -> list[Paragraph]:
    """The paragraph model of an opened package, in document order.

    With an ``anchorer`` (built on ``pkg``'s main part) existing anchors are
    de-duplicated and every non-empty paragraph without one gets one; without
    it the anchors are only read.
    """
    reader = _Reader(pkg, anchorer)
    body = pkg.xml(pkg.main_part).find(_BODY)
    if body is None:
        return []
    for p, table, in_sdt in _walk(body, None, in_sdt=False, tables=_Counter()):
        reader.add(p, table, in_sdt)
    return reader.paragraphs


class _Counter:
    """Numbers tables in document order across the recursive walk."""

    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0

    def next(self) -> int:
        self.n += 1
        return self.n - 1


def _walk(
    container: etree._Element, table: TablePosition | None, *, in_sdt: bool, tables: _Counter
) -> Iterator[tuple[etree._Element, TablePosition | None, bool]]:
    """Yield (paragraph, table position, inside a content control) in document order."""
    for child in container:
        tag = child.tag
        if tag == _P:
            yield child, table, in_sdt
        elif tag == _TBL:
            yield from _walk_table(child, table, in_sdt=in_sdt, tables=tables)
        elif tag == _SDT:
            content = child.find(_SDT_CONTENT)
            if content is not None:
                yield from _walk(content, table, in_sdt=True, tables=tables)
        elif tag == _CUSTOM_XML:
            yield from _walk(child, table, in_sdt=in_sdt, tables=tables)


def _walk_table(
    tbl: etree._Element, parent: TablePosition | None, *, in_sdt: bool, tables: _Counter
) -> Iterator[tuple[etree._Element, TablePosition | None, bool]]:
    number = tables.next()
    for r, (tr, row_sdt) in enumerate(_wrapped(tbl, _TR, in_sdt)):
        for c, (tc, cell_sdt) in enumerate(_wrapped(tr, _TC, row_sdt)):
            yield from _walk(tc, TablePosition(number, r, c, parent), in_sdt=cell_sdt, tables=tables)


def _wrapped(parent: etree._Element, tag: str, in_sdt: bool) -> Iterator[tuple[etree._Element, bool]]:
    """Children with ``tag``, looking through content controls and custom XML
    that wrap rows or cells."""
    for child in parent:
        if child.tag == tag:
            yield child, in_sdt
        elif child.tag == _SDT:
            content = child.find(_SDT_CONTENT)
            if content is not None:
                yield from _wrapped(content, tag, True)
        elif child.tag == _CUSTOM_XML:
            yield from _wrapped(child, tag, in_sdt)


class _Reader:
    """Builds :class:`Paragraph` records, keeping list counters and section number."""

    def __init__(self, pkg: Package, anchorer: Anchorer | None) -> None:
        styles_part = pkg.related_part(pkg.main_part, "styles")
        styles_root = pkg.xml(styles_part) if styles_part and pkg.has(styles_part) else None
        numbering_part = pkg.related_part(pkg.main_part, "numbering")
        numbering_root = pkg.xml(numbering_part) if numbering_part and pkg.has(numbering_part) else None
        self._styles = Styles(styles_root)
        self._numbering = Numbering(numbering_root, self._styles.numbering_styles())
        self._lists = ListCounter(self._numbering)
        self._anchorer = anchorer
        self._section = 0
        self.paragraphs: list[Paragraph] = []

    def add(self, p: etree._Element, table: TablePosition | None, in_sdt: bool) -> None:
        ppr = p[0] if len(p) and p[0].tag == _P_PR else None
        style_id = _val(ppr, _P_STYLE) if ppr is not None else None
        style = self._styles.paragraph(style_id)
        text = paragraph_text(p, "accept")
        revised = has_revisions(p)
        original = paragraph_text(p, "reject") if revised else text

        heading = outline_heading_level(ppr)
        heading = style.heading_level if heading is None else heading or None

        mark = _mark(ppr) if revised else None
        label, level = self._list_label(ppr, style, vanishes=mark == "deleted" and not text)

        if self._anchorer is not None:
            anchor = self._anchorer.claim(p)
            if anchor is None and (text.strip() or original.strip()):
                anchor = self._anchorer.add(p)
        else:
            anchor = anchor_of(p)

        self.paragraphs.append(Paragraph(
            index=len(self.paragraphs), anchor=anchor, text=text, original_text=original,
            style_id=style.style_id, style_name=style.name, heading_level=heading,
            list_label=label, num_level=level, has_revisions=revised, table=table,
            in_content_control=in_sdt, section=self._section, paragraph_mark=mark,
            element=p,
        ))
        if ppr is not None and ppr.find(_SECT_PR) is not None:
            self._section += 1

    def _list_label(
        self, ppr: etree._Element | None, style: StyleInfo, *, vanishes: bool
    ) -> tuple[str | None, int | None]:
        """Count the paragraph in its list and return (label, level), or (None, None).

        Direct ``w:numPr`` wins over the style's. A paragraph that ``vanishes``
        when changes are accepted (deleted mark, no text left) is not counted,
        so the labels are those of the revised document.
        """
        numpr = ppr.find(_NUM_PR) if ppr is not None else None
        num_id = _val(numpr, _NUM_ID) if numpr is not None else None
        direct_ilvl = decimal_number(_val(numpr, _ILVL)) if numpr is not None else None
        from_style = num_id is None
        if from_style:
            num_id = style.num_id
        if num_id is None or num_id == "0":
            return None, None
        if vanishes:
            return None, None
        if direct_ilvl is not None and direct_ilvl >= 0:
            ilvl = direct_ilvl
        elif from_style and style.num_level is not None:
            ilvl = style.num_level
        else:
            ilvl = self._numbering.level_for_style(num_id, style.style_id)
        label = self._lists.label(num_id, ilvl)
        return (label, ilvl) if label is not None else (None, None)


def _mark(ppr: etree._Element | None) -> Literal["inserted", "deleted"] | None:
    """Whether the paragraph mark is a tracked insertion or deletion (``w:pPr/w:rPr``)."""
    rpr = ppr.find(_R_PR) if ppr is not None else None
    if rpr is None:
        return None
    for child in rpr:
        if child.tag in _MARK_DELETED:
            return "deleted"
        if child.tag in _MARK_INSERTED:
            return "inserted"
    return None


def _val(parent: etree._Element, tag: str) -> str | None:
    child = parent.find(tag)
    return None if child is None else child.get(_VAL)
