"""Small builders shared by the read-side tests (raw OOXML in, paragraph model out)."""

from __future__ import annotations

from redline.ooxml.oxml import parse_xml
from redline.ooxml.paragraphs import Paragraph, read_document
from tests.support.docx_builder import DEFAULT_STYLES, NS_DECL, build_docx

W_DECL = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
R_DECL = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'


def p_el(inner: str):
    """A parsed ``w:p`` element from its inner XML."""
    return parse_xml(f"<w:p {W_DECL} {R_DECL}>{inner}</w:p>".encode())


def read(body: str, **kw) -> list[Paragraph]:
    """The paragraph model of a document built from ``body`` (not anchored)."""
    return read_document(build_docx(body, **kw), anchor=False).paragraphs


def texts(body: str, **kw) -> list[str]:
    return [p.text for p in read(body, **kw)]


def lvl(i: int, fmt: str, text: str, *, start: int = 1, extra: str = "", font: str | None = None) -> str:
    rpr = f'<w:rPr><w:rFonts w:ascii="{font}" w:hAnsi="{font}"/></w:rPr>' if font else ""
    return (f'<w:lvl w:ilvl="{i}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
            f'<w:lvlText w:val="{text}"/>{extra}<w:pPr><w:ind w:left="{720 * (i + 1)}" w:hanging="360"/></w:pPr>{rpr}</w:lvl>')


def numbering(*items: str) -> str:
    return f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:numbering {NS_DECL}>{"".join(items)}</w:numbering>'


def abstract(aid: int, *levels: str, extra: str = "") -> str:
    return f'<w:abstractNum w:abstractNumId="{aid}">{extra}{"".join(levels)}</w:abstractNum>'


def num(nid: int, aid: int, overrides: str = "") -> str:
    return f'<w:num w:numId="{nid}"><w:abstractNumId w:val="{aid}"/>{overrides}</w:num>'


def start_override(ilvl: int, start: int) -> str:
    return f'<w:lvlOverride w:ilvl="{ilvl}"><w:startOverride w:val="{start}"/></w:lvlOverride>'


def np(text: str, num_id: int | None, ilvl: int | None = 0, style: str | None = None) -> str:
    """A paragraph with direct numbering (``num_id`` None: only the style's)."""
    ppr = f'<w:pStyle w:val="{style}"/>' if style else ""
    if num_id is not None:
        ilvl_xml = f'<w:ilvl w:val="{ilvl}"/>' if ilvl is not None else ""
        ppr += f'<w:numPr>{ilvl_xml}<w:numId w:val="{num_id}"/></w:numPr>'
    return f'<w:p><w:pPr>{ppr}</w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>'


def styles(*extra: str) -> str:
    """Default test styles plus extra ``w:style`` elements."""
    return DEFAULT_STYLES.replace("</w:styles>", "".join(extra) + "</w:styles>")
