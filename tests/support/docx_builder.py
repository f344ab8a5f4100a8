"""Build small .docx files from raw OOXML snippets for tests.

Tests state exactly the XML they mean (runs split mid-word, tracked changes by
another author, content controls…) instead of relying on a generator's habits.
"""

from __future__ import annotations

import io
import zipfile

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NS_DECL = (
    f'xmlns:w="{W}" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'mc:Ignorable="w14"'
)

DEFAULT_STYLES = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles {NS_DECL}>
<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/></w:style>
<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/></w:style>
</w:styles>"""


def para(text: str, style: str | None = None, rpr: str = "") -> str:
    """A one-run paragraph (text is XML-escaped)."""
    from xml.sax.saxutils import escape

    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f'<w:p>{ppr}<w:r>{"<w:rPr>" + rpr + "</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{escape(text)}</w:t></w:r></w:p>'


def build_docx(
    body: str,
    *,
    styles: str | None = DEFAULT_STYLES,
    numbering: str | None = None,
    comments: str | None = None,
    custom_props: str | None = None,
    extra_parts: dict[str, tuple[str, str, str | None]] | None = None,
) -> bytes:
    """Return .docx bytes whose body is ``body`` (a string of ``w:p``/``w:tbl`` XML).

    ``numbering``/``comments`` are full part XML; ``custom_props`` is a full
    docProps/custom.xml. ``extra_parts`` maps part name → (xml, content type,
    relationship type from word/document.xml or None).
    """
    doc = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document {NS_DECL}><w:body>{body}'
        '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" '
        'w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr></w:body></w:document>'
    )
    overrides = [("/word/document.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml")]
    doc_rels: list[tuple[str, str]] = []
    parts: dict[str, str] = {"word/document.xml": doc}
    base = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
    if styles is not None:
        parts["word/styles.xml"] = styles
        overrides.append(("/word/styles.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"))
        doc_rels.append((base + "styles", "styles.xml"))
    if numbering is not None:
        parts["word/numbering.xml"] = numbering
        overrides.append(("/word/numbering.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"))
        doc_rels.append((base + "numbering", "numbering.xml"))
    if comments is not None:
        parts["word/comments.xml"] = comments
        overrides.append(("/word/comments.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"))
        doc_rels.append((base + "comments", "comments.xml"))
    pkg_rels = [(base + "officeDocument", "word/document.xml")]
    if custom_props is not None:
        parts["docProps/custom.xml"] = custom_props
        overrides.append(("/docProps/custom.xml", "application/vnd.openxmlformats-officedocument.custom-properties+xml"))
        pkg_rels.append((base + "custom-properties", "docProps/custom.xml"))
    for name, (xml, ctype, rtype) in (extra_parts or {}).items():
        parts[name] = xml
        overrides.append(("/" + name, ctype))
        if rtype:
            doc_rels.append((rtype, name.removeprefix("word/")))
    ct = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        + "".join(f'<Override PartName="{p}" ContentType="{c}"/>' for p, c in overrides)
        + "</Types>"
    )

    def rels(items: list[tuple[str, str]]) -> str:
        body = "".join(f'<Relationship Id="rId{i}" Type="{t}" Target="{g}"/>' for i, (t, g) in enumerate(items, 1))
        return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{body}</Relationships>')

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", ct)
        zf.writestr("_rels/.rels", rels(pkg_rels))
        zf.writestr("word/_rels/document.xml.rels", rels(doc_rels))
        for name, xml in parts.items():
            zf.writestr(name, xml)
    return buf.getvalue()
