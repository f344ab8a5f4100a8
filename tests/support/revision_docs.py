"""Documents holding every kind of tracked change, written as raw OOXML.

Tests of accept/reject and of extraction state exactly the markup they mean:
two authors (Alice and Bob), moves with named ranges, property changes with
recorded originals, table rows, paragraph marks, a deleted field instruction,
revisions in a header and a footnote, comments with a threaded, resolved reply,
and bookmarks and comment ranges that start in paragraphs a change removes.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from tests.support.docx_builder import NS_DECL, build_docx

A = 'w:author="Alice" w:date="2024-01-01T00:00:00Z"'
B = 'w:author="Bob" w:date="2024-02-01T00:00:00Z"'
W15 = "http://schemas.microsoft.com/office/word/2012/wordml"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
CT = "application/vnd.openxmlformats-officedocument.wordprocessingml."


def r(text: str, rpr: str = "") -> str:
    props = f"<w:rPr>{rpr}</w:rPr>" if rpr else ""
    return f'<w:r>{props}<w:t xml:space="preserve">{escape(text)}</w:t></w:r>'


def d(text: str) -> str:
    return f'<w:r><w:delText xml:space="preserve">{escape(text)}</w:delText></w:r>'


def ins(rid: int, inner: str, who: str = A) -> str:
    return f'<w:ins w:id="{rid}" {who}>{inner}</w:ins>'


def dele(rid: int, text: str, who: str = A) -> str:
    return f'<w:del w:id="{rid}" {who}>{d(text)}</w:del>'


def p(inner: str, ppr: str = "") -> str:
    return f"<w:p>{'<w:pPr>' + ppr + '</w:pPr>' if ppr else ''}{inner}</w:p>"


def anchor(n: int) -> tuple[str, str]:
    """Start and end of a ``_RL_`` anchor bookmark (id 900+n)."""
    return f'<w:bookmarkStart w:id="{900 + n}" w:name="_RL_{n:012x}"/>', f'<w:bookmarkEnd w:id="{900 + n}"/>'


def anchored(n: int, inner: str, ppr: str = "") -> str:
    start, end = anchor(n)
    return p(start + inner + end, ppr)


def cell(inner: str, tcpr: str = "") -> str:
    return f"<w:tc><w:tcPr><w:tcW w:w=\"3000\" w:type=\"dxa\"/>{tcpr}</w:tcPr>{inner}</w:tc>"


# -- the body: one paragraph (or table) per kind, in document order -------------------------
BODY_PARTS = {
    "runs": anchored(1, r("Keep ") + ins(1, r("added ")) + dele(2, "gone ", B) + r("end.")),
    # Alice inserted "x y ", Bob then deleted "y " inside her insertion (Word's nesting).
    "nested": anchored(2, r("Nested ") + ins(3, r("x ") + f'<w:del w:id="4" {B}>{d("y ")}</w:del>') + r("tail.")),
    "deleted_paragraph": anchored(3, dele(6, "A clause Alice deleted."), f'<w:rPr><w:del w:id="5" {A}/></w:rPr>'),
    "after_deleted": anchored(4, r("After the deleted clause.")),
    "inserted_paragraph": anchored(5, ins(8, r("A clause Bob inserted."), B), f'<w:rPr><w:ins w:id="7" {B}/></w:rPr>'),
    "after_inserted": anchored(6, r("After the inserted clause.")),
    "move_source": anchored(
        7,
        r("Source stays. ")
        + f'<w:moveFromRangeStart w:id="10" w:name="move1" {A}/><w:moveFrom w:id="11" {A}>{r("Moved words.")}'
        "</w:moveFrom><w:moveFromRangeEnd w:id=\"10\"/>",
    ),
    "move_target": anchored(
        8,
        r("Target: ")
        + f'<w:moveToRangeStart w:id="12" w:name="move1" {A}/><w:moveTo w:id="13" {A}>{r("Moved words.")}'
        "</w:moveTo><w:moveToRangeEnd w:id=\"12\"/>",
    ),
    "formatting": anchored(
        9,
        r("Bold now", f'<w:b/><w:rPrChange w:id="14" {B}><w:rPr/></w:rPrChange>')
        + r(" and italic was underlined", f'<w:i/><w:rPrChange w:id="15" {B}><w:rPr><w:u w:val="single"/></w:rPr></w:rPrChange>'),
        f'<w:jc w:val="center"/><w:pPrChange w:id="16" {B}><w:pPr><w:jc w:val="left"/></w:pPr></w:pPrChange>',
    ),
    "new_style": anchored(
        10, r("Heading that was plain."),
        f'<w:pStyle w:val="Heading1"/><w:pPrChange w:id="17" {A}><w:pPr/></w:pPrChange>',
    ),
    "numbering": anchored(
        11, r("Now a list item."),
        f'<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/><w:ins w:id="18" {A}/></w:numPr>',
    ),
    "field": anchored(
        12,
        r("See page ")
        + f'<w:del w:id="19" {B}><w:r><w:fldChar w:fldCharType="begin"/></w:r>'
        '<w:r><w:delInstrText xml:space="preserve"> QUOTE "seven" </w:delInstrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' + d("seven") + '<w:r><w:fldChar w:fldCharType="end"/></w:r></w:del>'
        + r(" of the schedule."),
    ),
    "section_break": anchored(
        13, r("End of the first section."),
        '<w:sectPr><w:pgSz w:w="12240" w:h="15840" w:orient="portrait"/>'
        f'<w:sectPrChange w:id="20" {A}><w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:sectPrChange></w:sectPr>',
    ),
    "table": (
        '<w:tbl><w:tblPr><w:tblW w:w="6000" w:type="dxa"/>'
        f'<w:tblPrChange w:id="21" {B}><w:tblPr><w:tblW w:w="5000" w:type="dxa"/></w:tblPr></w:tblPrChange></w:tblPr>'
        '<w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/>'
        '<w:tblGridChange w:id="22"><w:tblGrid><w:gridCol w:w="2500"/><w:gridCol w:w="2500"/></w:tblGrid>'
        "</w:tblGridChange></w:tblGrid>"
        + "<w:tr>" + cell(anchored(14, r("Fee"))) + cell(anchored(15, r("Amount"))) + "</w:tr>"
        + f'<w:tr><w:trPr><w:ins w:id="23" {B}/></w:trPr>'
        + cell(anchored(16, ins(24, r("Row Bob added"), B))) + cell(anchored(17, ins(25, r("100"), B))) + "</w:tr>"
        + f'<w:tr><w:trPr><w:del w:id="26" {A}/></w:trPr>'
        + cell(p('<w:bookmarkStart w:id="50" w:name="RowClause"/>' + dele(27, "Row Alice removed")))
        + cell(p(dele(28, "200"))) + "</w:tr>"
        + f'<w:tr><w:trPr><w:cantSplit/><w:trPrChange w:id="29" {A}><w:trPr/></w:trPrChange></w:trPr>'
        + cell(anchored(18, r("Total")), f'<w:shd w:val="clear" w:fill="FFFF00"/><w:tcPrChange w:id="30" {A}>'
               '<w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr></w:tcPrChange>')
        + cell(anchored(19, r("300"))) + "</w:tr></w:tbl>"
    ),
    "bookmark_end": anchored(20, r("The clause bookmark ends here.") + '<w:bookmarkEnd w:id="50"/>'),
    "commented": anchored(
        21,
        '<w:commentRangeStart w:id="0"/>' + r("Payment is due in thirty days.") + '<w:commentRangeEnd w:id="0"/>'
        '<w:r><w:commentReference w:id="0"/></w:r>'
        '<w:commentRangeStart w:id="1"/><w:commentRangeEnd w:id="1"/><w:r><w:commentReference w:id="1"/></w:r>',
    ),
    "footnote_ref": anchored(22, r("See the note.") + '<w:r><w:footnoteReference w:id="1"/></w:r>'),
    "plain": p(r("A paragraph nobody changed.")),
    "last": anchored(23, r("The end.")),
}

FINAL_SECT_PR = (
    f'<w:sectPr><w:headerReference w:type="default" r:id="rIdHdr"/><w:pgSz w:w="12240" w:h="15840"/>'
    f'<w:sectPrChange w:id="40" {B}><w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:sectPrChange></w:sectPr>'
)

NUMBERING = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:numbering {NS_DECL}>'
    '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
    '<w:lvlText w:val="%1."/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>'
)
COMMENTS = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:comments {NS_DECL}>'
    f'<w:comment w:id="0" {A} w:initials="A"><w:p w14:paraId="0A000001">{r("Too short; ask for sixty.")}</w:p></w:comment>'
    f'<w:comment w:id="1" {B} w:initials="B"><w:p w14:paraId="0A000002">{r("Agreed")}'
    f'<w:ins w:id="41" {B}>{r(", sixty")}</w:ins></w:p></w:comment>'
    "</w:comments>"
)
COMMENTS_EXTENDED = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w15:commentsEx xmlns:w15="{W15}" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">'
    '<w15:commentEx w15:paraId="0A000001" w15:done="1"/>'
    '<w15:commentEx w15:paraId="0A000002" w15:paraIdParent="0A000001" w15:done="0"/></w15:commentsEx>'
)
HEADER = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr {NS_DECL}>'
    + p(r("Draft ") + ins(42, r("v2 "), B) + dele(43, "v1 ") + r("confidential"))
    + "</w:hdr>"
)
FOOTNOTES = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes {NS_DECL}>'
    '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
    '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>'
    '<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r>'
    + r(" Interest accrues ") + ins(44, r("daily"), B) + dele(45, "monthly") + "</w:p></w:footnote></w:footnotes>"
)


def every_kind_docx(parts: dict[str, str] | None = None) -> bytes:
    """A .docx with every part of :data:`BODY_PARTS` (or the given ones), a
    header and a footnote with revisions, numbering and threaded comments."""
    body = "".join((parts or BODY_PARTS).values())
    data = build_docx(
        body,
        numbering=NUMBERING,
        comments=COMMENTS,
        extra_parts={
            "word/header1.xml": (HEADER, CT + "header+xml", REL + "header"),
            "word/footnotes.xml": (FOOTNOTES, CT + "footnotes+xml", REL + "footnotes"),
            "word/commentsExtended.xml": (COMMENTS_EXTENDED, CT + "commentsExtended+xml",
                                          "http://schemas.microsoft.com/office/2011/relationships/commentsExtended"),
        },
    )
    return _with_final_sect_pr(data)


def _with_final_sect_pr(data: bytes) -> bytes:
    """Swap the builder's plain final ``w:sectPr`` for one with a header
    reference and a tracked change, and give the header relationship the id it uses."""
    import io
    import re
    import zipfile

    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in src.namelist():
            blob = src.read(name).decode("utf-8")
            if name == "word/document.xml":
                blob = re.sub(r"<w:sectPr><w:pgSz[^>]*/><w:pgMar[^>]*/></w:sectPr></w:body>",
                              FINAL_SECT_PR + "</w:body>", blob)
            elif name == "word/_rels/document.xml.rels":
                blob = re.sub(r'Id="rId(\d+)"(\s+Type="[^"]*/header")', r'Id="rIdHdr"\2', blob)
            zf.writestr(name, blob)
    return out.getvalue()
