"""A .docx made from plain paragraphs (the add-in's JSON path).

When the Word add-in sends paragraph texts instead of the whole file, the writer
and the patch builder still need a package to work on. This builds the smallest
honest one: one ``w:p`` per paragraph with its style id, its ``_RL_`` anchor
bookmark around the text, default styles, and the document's ``RedlineDocID``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from .anchors import is_anchor_name
from .comments import template
from .docprops import ensure_doc_id
from .errors import DocxError
from .oxml import NSMAP, qn, serialize
from .package import MAIN_CT, Package

STYLES_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"
_HEADING = re.compile(r"^Heading([1-9])$")


@dataclass(frozen=True, slots=True)
class PlainParagraph:
    """A paragraph as the add-in reports it: anchor, visible text, optional style id."""

    anchor: str
    text: str
    style_id: str | None = None


def docx_from_paragraphs(paragraphs: Sequence[PlainParagraph], *, doc_id: str) -> bytes:
    """A valid .docx holding ``paragraphs`` in order, each wrapped in its anchor bookmark."""
    if not paragraphs:
        raise DocxError("empty_document", "There are no paragraphs to review.")
    document = etree.Element(qn("w:document"), nsmap={"w": NSMAP["w"], "r": NSMAP["r"]})
    body = etree.SubElement(document, qn("w:body"))
    for i, para in enumerate(paragraphs):
        if not is_anchor_name(para.anchor):
            raise DocxError("invalid_anchor", f"paragraph {i}: {para.anchor!r} is not a _RL_ anchor")
        p = etree.SubElement(body, qn("w:p"))
        if para.style_id:
            ppr = etree.SubElement(p, qn("w:pPr"))
            etree.SubElement(ppr, qn("w:pStyle")).set(qn("w:val"), para.style_id)
        start = etree.SubElement(p, qn("w:bookmarkStart"))
        start.set(qn("w:id"), str(i))
        start.set(qn("w:name"), para.anchor)
        run = etree.SubElement(p, qn("w:r"))
        t = etree.SubElement(run, qn("w:t"))
        t.text = para.text
        t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
        etree.SubElement(p, qn("w:bookmarkEnd")).set(qn("w:id"), str(i))
    etree.SubElement(body, qn("w:sectPr"))
    parts = {
        "[Content_Types].xml": serialize(template("content-types.xml")),
        "_rels/.rels": serialize(template("package-rels.xml")),
        "word/document.xml": serialize(document),
        "word/styles.xml": serialize(_styles({p.style_id for p in paragraphs if p.style_id})),
    }
    pkg = Package(parts, main_part="word/document.xml")
    pkg.set_content_type("word/document.xml", MAIN_CT)
    pkg.set_content_type("word/styles.xml", STYLES_CT)
    pkg.add_rel("word/document.xml", "styles", "word/styles.xml")
    ensure_doc_id(pkg, seed=b"", value=doc_id)
    return pkg.save()


def _styles(style_ids: set[str]) -> etree._Element:
    """Default styles plus a plain definition for each style the paragraphs name.

    ``HeadingN`` gets Word's name ("heading N") and outline level, so headings
    stay headings for every reader.
    """
    root = template("styles.xml")
    known = {s.get(qn("w:styleId")) for s in root.iterchildren(qn("w:style"))}
    for style_id in sorted(style_ids - known):
        style = etree.SubElement(root, qn("w:style"))
        style.set(qn("w:type"), "paragraph")
        style.set(qn("w:styleId"), style_id)
        heading = _HEADING.match(style_id)
        etree.SubElement(style, qn("w:name")).set(qn("w:val"), f"heading {heading.group(1)}" if heading else style_id)
        etree.SubElement(style, qn("w:basedOn")).set(qn("w:val"), "Normal")
        if heading:
            ppr = etree.SubElement(style, qn("w:pPr"))
            etree.SubElement(ppr, qn("w:outlineLvl")).set(qn("w:val"), str(int(heading.group(1)) - 1))
    return root
