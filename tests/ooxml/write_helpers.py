"""Shared helpers for the write-side tests: anchor, apply ops, judge the result.

Inputs go through the real pipeline (``read_document`` anchors them, then the
writer applies ops); outputs are judged by the outside readers (pandoc and
LibreOffice) and by structural invariants Word relies on.
"""

from __future__ import annotations

import io
import zipfile
from collections import Counter
from pathlib import Path

from lxml import etree

from redline.ooxml.ops import op_from_json
from redline.ooxml.oxml import XML_SPACE, parse_xml, qn
from redline.ooxml.package import Package
from redline.ooxml.paragraphs import Paragraph, read_document
from redline.ooxml.revisions import REVISION_ID_TAGS, accept, reject
from redline.ooxml.text import paragraph_text
from redline.ooxml.writer import RedlineOutput, redline_document
from tests.support import oracles
from tests.support.docx_builder import NS_DECL, build_docx

DATE = "2025-01-02T03:04:05Z"


def r(text: str, rpr: str = "") -> str:
    """A run showing ``text`` (``rpr``: inner XML of its w:rPr)."""
    props = f"<w:rPr>{rpr}</w:rPr>" if rpr else ""
    return f'<w:r>{props}<w:t xml:space="preserve">{text}</w:t></w:r>'


def d(text: str) -> str:
    """A deleted run's content (``w:delText``); wrap it in a ``w:del``."""
    return f'<w:r><w:delText xml:space="preserve">{text}</w:delText></w:r>'


def p(*runs: str, ppr: str = "") -> str:
    props = f"<w:pPr>{ppr}</w:pPr>" if ppr else ""
    return f"<w:p>{props}{''.join(runs)}</w:p>"


def ref_field(bookmark: str, shown: str) -> str:
    """A complex REF field as Word's cross-reference dialog writes it."""
    return ('<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            f'<w:r><w:instrText xml:space="preserve"> REF {bookmark} \\h </w:instrText></w:r>'
            f'<w:r><w:fldChar w:fldCharType="separate"/></w:r>{r(shown)}'
            '<w:r><w:fldChar w:fldCharType="end"/></w:r>')


def anchored(body: str, **kw) -> tuple[bytes, list[Paragraph]]:
    """Build a .docx from body XML and anchor it as ``redline read`` does."""
    result = read_document(build_docx(body, **kw), anchor=True)
    assert result.docx is not None
    return result.docx, result.paragraphs


def anchor(paragraphs: list[Paragraph], starts: str) -> str:
    """The anchor of the one paragraph whose text starts with ``starts``."""
    (hit,) = [x for x in paragraphs if x.text.startswith(starts)]
    assert hit.anchor
    return hit.anchor


def redline(docx: bytes, ops: list[dict], author: str = "Redline AI") -> RedlineOutput:
    return redline_document(docx, [op_from_json(i, o) for i, o in enumerate(ops)], author=author, date=DATE)


def statuses(out: RedlineOutput) -> list[str]:
    return [x.status if x.status == "applied" else f"skipped:{x.reason}" for x in out.results]


def engine_view(docx: bytes, view: str) -> list[str]:
    """Our own accept-all/reject-all of the body, in the oracles' text model."""
    pkg = Package.open(docx)
    body = pkg.xml(pkg.main_part)
    (accept if view == "accept" else reject)(body)
    return oracles.oracle.normalise([paragraph_text(x) for x in _body_paragraphs(body)])


def _body_paragraphs(root: etree._Element) -> list[etree._Element]:
    out = []
    for el in root.iter(qn("w:p")):
        if not any(a.tag == qn("w:txbxContent") for a in el.iterancestors()):
            out.append(el)
    return out


def judge(path: Path, accepted: list[str], original: list[str], *, lo: bool = True) -> None:
    """The outside readers agree: pandoc accept/reject texts, LibreOffice opens it,
    and our own accept/reject reads the same."""
    data = path.read_bytes()
    want_accept, want_reject = oracles.oracle.normalise(accepted), oracles.oracle.normalise(original)
    assert oracles.pandoc_text(path, "accept") == want_accept
    assert oracles.pandoc_text(path, "reject") == want_reject
    assert engine_view(data, "accept") == want_accept
    assert engine_view(data, "reject") == want_reject
    check_structure(data)
    if lo:
        assert oracles.opens(path)


def check_structure(docx: bytes) -> None:
    """Invariants Word relies on that neither reader checks strictly."""
    with zipfile.ZipFile(_bytes_io(docx)) as z:
        doc = parse_xml(z.read("word/document.xml"))
        comments = parse_xml(z.read("word/comments.xml")) if "word/comments.xml" in z.namelist() else None
    ids = Counter(el.get(qn("w:id")) for el in doc.iter(*REVISION_ID_TAGS))
    assert not [i for i, n in ids.items() if n > 1], f"duplicate revision ids {ids.most_common(3)}"
    for el in doc.iter(qn("w:ins"), qn("w:del")):
        assert el.get(qn("w:author")) and el.get(qn("w:date")), "revision without author or date"
    for ins in doc.iter(qn("w:ins")):
        assert ins.getparent().tag != qn("w:ins"), "insertion nested in an insertion"
    for t in doc.iter(qn("w:t"), qn("w:delText"), qn("w:instrText"), qn("w:delInstrText")):
        in_del = any(a.tag in (qn("w:del"), qn("w:moveFrom")) for a in t.iterancestors())
        if t.getparent().tag == qn("w:r"):
            assert in_del == (t.tag in (qn("w:delText"), qn("w:delInstrText"))), f"{t.tag} misplaced"
        text = t.text or ""
        if text != text.strip():
            assert t.get(XML_SPACE) == "preserve", f"unpreserved spaces in {text!r}"
    starts = Counter(el.get(qn("w:id")) for el in doc.iter(qn("w:bookmarkStart")))
    ends = Counter(el.get(qn("w:id")) for el in doc.iter(qn("w:bookmarkEnd")))
    assert starts == ends and max(starts.values(), default=1) == 1, "bookmark ids broken"
    names = Counter(el.get(qn("w:name")) for el in doc.iter(qn("w:bookmarkStart")))
    assert max(names.values(), default=1) == 1, "bookmark names not unique"
    known = {c.get(qn("w:id")) for c in comments.iterchildren(qn("w:comment"))} if comments is not None else set()
    for tag in ("w:commentRangeStart", "w:commentRangeEnd", "w:commentReference"):
        found = Counter(el.get(qn("w:id")) for el in doc.iter(qn(tag)))
        assert set(found) <= known and max(found.values(), default=1) == 1, f"{tag} ids broken"


def _bytes_io(data: bytes) -> io.BytesIO:
    return io.BytesIO(data)


def part(docx: bytes, name: str) -> etree._Element:
    with zipfile.ZipFile(_bytes_io(docx)) as z:
        return parse_xml(z.read(name))


def paragraph_xml(docx: bytes, anchor_name: str) -> etree._Element:
    """The ``w:p`` of the output that holds anchor ``anchor_name``."""
    doc = part(docx, "word/document.xml")
    for start in doc.iter(qn("w:bookmarkStart")):
        if start.get(qn("w:name")) == anchor_name:
            return next(start.iterancestors(qn("w:p")))
    raise AssertionError(f"anchor {anchor_name} not in output")


# -- shared inputs ---------------------------------------------------------------
NUMBERING = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:numbering {NS_DECL}>'
    '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
    '<w:lvlText w:val="%1."/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>'
    '<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/>'
    '<w:lvlText w:val="\u2022"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>'
    '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>'
    "</w:numbering>"
)


def numbered(text: str, num_id: int) -> str:
    """A List Paragraph numbered by list ``num_id`` (1: decimal, 2: bullets)."""
    return p(r(text), ppr=f'<w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="{num_id}"/></w:numPr>')


W15 = 'xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml"'
W16CID = 'xmlns:w16cid="http://schemas.microsoft.com/office/word/2016/wordml/cid"'
REF_STYLE = '<w:rPr><w:rStyle w:val="CommentReference"/></w:rPr>'


def _carol(cid: int, para: str, text: str) -> str:
    return (f'<w:comment w:id="{cid}" w:author="Carol" w:date="2024-03-02T00:00:00Z" w:initials="C">'
            f'<w:p w14:paraId="{para}" w14:textId="77777777"><w:r><w:t>{text}</w:t></w:r></w:p></w:comment>')


# Two comments by Carol (ids 0 and 1, the second resolved), with every comment part Word writes.
COMMENTS = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:comments {NS_DECL}>'
            + _carol(0, "1A2B3C4D", "Who agreed to this?") + _carol(1, "0000ABCD", "Check the cap.") + "</w:comments>")
_MS = "http://schemas.microsoft.com/office/"
COMMENT_PARTS = {
    "word/commentsExtended.xml": (
        f'<w15:commentsEx {NS_DECL} {W15}><w15:commentEx w15:paraId="1A2B3C4D" w15:done="0"/>'
        '<w15:commentEx w15:paraId="0000ABCD" w15:done="1"/></w15:commentsEx>',
        "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml",
        _MS + "2011/relationships/commentsExtended"),
    "word/commentsIds.xml": (
        f'<w16cid:commentsIds {NS_DECL} {W16CID}><w16cid:commentId w16cid:paraId="1A2B3C4D" w16cid:durableId="11111111"/>'
        '<w16cid:commentId w16cid:paraId="0000ABCD" w16cid:durableId="22222222"/></w16cid:commentsIds>',
        "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsIds+xml",
        _MS + "2016/09/relationships/commentsIds"),
    "word/people.xml": (
        f'<w15:people {NS_DECL} {W15}><w15:person w15:author="Carol"/></w15:people>',
        "application/vnd.openxmlformats-officedocument.wordprocessingml.people+xml",
        _MS + "2011/relationships/people"),
}
