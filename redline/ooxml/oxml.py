"""Namespaces, the one hardened XML parser, and small element helpers.

Every module of the OOXML engine spells tags through :func:`qn` (``qn("w:p")``)
and parses through :func:`parse_xml`, so there is exactly one place that decides
how untrusted XML is read: no entity expansion, no DTD loading, no network.
"""

from __future__ import annotations

from lxml import etree

NSMAP: dict[str, str] = {
    "w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "wp": "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
    "w14": "http://schemas.microsoft.com/office/word/2010/wordml",
    "w15": "http://schemas.microsoft.com/office/word/2012/wordml",
    "w16cid": "http://schemas.microsoft.com/office/word/2016/wordml/cid",
    "w16cex": "http://schemas.microsoft.com/office/word/2018/wordml/cex",
    "ct": "http://schemas.openxmlformats.org/package/2006/content-types",
    "pr": "http://schemas.openxmlformats.org/package/2006/relationships",
    "cp": "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties",
    "vt": "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes",
    "pkg": "http://schemas.microsoft.com/office/2006/xmlPackage",
}

# ``xml:space`` (the XML namespace is implicit, so it is not in NSMAP): w:t and
# w:delText need ``preserve`` to keep leading, trailing or repeated spaces.
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"

# Namespace URIs used by Strict OOXML (ISO/IEC 29500 strict); we detect and refuse them.
STRICT_W_NS = "http://purl.oclc.org/ooxml/wordprocessingml/main"

REL_TYPE: dict[str, str] = {
    "officeDocument": "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument",
    "styles": "http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles",
    "stylesWithEffects": "http://schemas.microsoft.com/office/2007/relationships/stylesWithEffects",
    "numbering": "http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering",
    "comments": "http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments",
    "commentsExtended": "http://schemas.microsoft.com/office/2011/relationships/commentsExtended",
    "commentsIds": "http://schemas.microsoft.com/office/2016/09/relationships/commentsIds",
    "people": "http://schemas.microsoft.com/office/2011/relationships/people",
    "custom-properties": "http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties",
    "hyperlink": "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink",
}


def qn(tag: str) -> str:
    """Return the Clark name for a prefixed tag: ``qn("w:p")`` → ``{…main}p``."""
    prefix, local = tag.split(":", 1)
    return f"{{{NSMAP[prefix]}}}{local}"


def _make_parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_blank_text=False,
    )


_PARSER = _make_parser()


def parse_xml(data: bytes) -> etree._Element:
    """Parse untrusted XML bytes with the hardened parser.

    A document type declaration is refused outright: OOXML never needs one, and
    refusing it is the simplest defence against entity expansion attacks.
    Raises ``etree.XMLSyntaxError`` (callers turn it into ``malformed_xml``).
    """
    root = etree.fromstring(data, parser=_PARSER)
    docinfo = root.getroottree().docinfo
    if docinfo.doctype or docinfo.internalDTD is not None:
        raise etree.XMLSyntaxError("DOCTYPE is not allowed in OOXML", None, 0, 0)  # type: ignore[call-arg]
    return root


def serialize(element: etree._Element) -> bytes:
    """Serialise a part root as Word writes it: UTF-8, standalone declaration."""
    return etree.tostring(element, xml_declaration=True, encoding="UTF-8", standalone=True)


_INT32 = 2**31


def decimal_number(value: str | None) -> int | None:
    """An ``ST_DecimalNumber`` attribute as an int, or None when it is not one.

    Untrusted numbers reach ``int()`` only through here: ``str.isdigit`` accepts
    digits ``int`` refuses ("²"), and an unbounded value would let a tiny file
    ask for a gigantic list counter. Word itself stores these as 32-bit integers.
    """
    if value is None:
        return None
    text = value.strip()
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 10:
        return None
    number = int(text)
    return number if -_INT32 <= number < _INT32 else None


def w_attr(element: etree._Element, name: str) -> str | None:
    """Read a ``w:``-namespaced attribute (``w_attr(el, "val")``)."""
    return element.get(qn(f"w:{name}"))
