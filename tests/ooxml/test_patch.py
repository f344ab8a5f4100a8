"""Flat-OPC patches for the add-in: what they hold, and that they read right as .docx."""

from __future__ import annotations

import pytest
from lxml import etree

from redline.ooxml.ops import op_from_json
from redline.ooxml.oxml import NSMAP, parse_xml, qn
from redline.ooxml.package import Package
from redline.ooxml.patch import PatchBuilder, patch_to_docx
from tests.ooxml.write_helpers import (
    COMMENT_PARTS,
    COMMENTS,
    DATE,
    NUMBERING,
    REF_STYLE,
    anchor,
    anchored,
    check_structure,
    numbered,
    p,
    r,
)
from tests.support import oracles
from tests.support.docx_builder import DEFAULT_STYLES

R_NS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
STYLES = DEFAULT_STYLES.replace("</w:styles>", (
    '<w:style w:type="character" w:styleId="Term"><w:name w:val="Defined Term"/><w:rPr><w:b/></w:rPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="Unused"><w:name w:val="Unused Style"/></w:style></w:styles>'))
BODY = "".join([
    p(r("ARTICLE 2 FEES"), ppr='<w:pStyle w:val="Heading1"/>'),
    p(r("Fees", '<w:rStyle w:val="Term"/>'), r(" means the charges in Schedule 2.")),
    numbered("The Customer pays monthly.", 1),
    p(r("See "), f'<w:hyperlink r:id="rId9" {R_NS}>{r("the portal")}</w:hyperlink>', r(" for invoices.")),
    p('<w:commentRangeStart w:id="0"/>', r("Carol commented here."), '<w:commentRangeEnd w:id="0"/>',
      f'<w:r>{REF_STYLE}<w:commentReference w:id="0"/></w:r>'),
    p(r("Last paragraph.")),
])


@pytest.fixture(scope="module")
def source():
    docx, paragraphs = anchored(BODY, styles=STYLES, numbering=NUMBERING, comments=COMMENTS, extra_parts=COMMENT_PARTS)
    pkg = Package.open(docx)
    rels = pkg.xml(Package.rels_name(pkg.main_part))
    etree.SubElement(rels, qn("pr:Relationship"), Id="rId9", TargetMode="External", Target="https://portal.example",
                     Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink")
    return Package.open(pkg.save()), paragraphs


def build(source, start: str, kind: str, **fields):
    pkg, paragraphs = source
    op = op_from_json(0, {"Id": anchor(paragraphs, start), "Type": kind, **fields})
    return PatchBuilder(pkg, date=DATE).build(op)


def parts(xml: bytes) -> dict[str, etree._Element]:
    root = parse_xml(xml)
    assert root.tag == qn("pkg:package")
    out = {}
    for part in root.iterchildren(qn("pkg:part")):
        data = part.find(qn("pkg:xmlData"))
        out[part.get(qn("pkg:name"))] = data[0] if data is not None else part
    return out


def style_ids(styles: etree._Element) -> set[str]:
    return {s.get(qn("w:styleId")) for s in styles.iter(qn("w:style"))}


def test_a_rewrite_patch_holds_the_paragraph_its_comment_and_the_styles_it_uses(source, tmp_path):
    patch = build(source, "ARTICLE 2", "REWRITE_PARAGRAPH", NewText="ARTICLE 2 FEES AND TAXES", Comment="Broader.")
    assert patch.result.status == "applied" and patch.xml is not None
    assert patch.xml.startswith(b'<?xml version="1.0" standalone="yes"?>\n<?mso-application progid="Word.Document"?>')
    got = parts(patch.xml)
    assert set(got) == {"/_rels/.rels", "/word/document.xml", "/word/_rels/document.xml.rels", "/word/styles.xml",
                        "/word/comments.xml", "/word/commentsExtended.xml", "/word/commentsIds.xml", "/word/people.xml"}
    body = got["/word/document.xml"].find(qn("w:body"))
    assert len(body) == 1 and body[0].find(qn("w:bookmarkStart")).get(qn("w:name")) == anchor(source[1], "ARTICLE 2")
    ids = style_ids(got["/word/styles.xml"])
    assert {"Heading1", "Normal", "CommentReference", "CommentText"} <= ids and "Unused" not in ids
    assert got["/word/styles.xml"].find(qn("w:docDefaults")) is not None
    path = tmp_path / "rewrite.docx"
    path.write_bytes(patch_to_docx(patch.xml))
    assert oracles.pandoc_text(path, "accept") == ["ARTICLE 2 FEES AND TAXES"]
    assert oracles.pandoc_text(path, "reject") == ["ARTICLE 2 FEES"]
    stats = oracles.stats(path)
    assert (stats["comments"], stats["commentsIds"], stats["ins"]) == (1, 1, 1)
    check_structure(path.read_bytes())
    assert oracles.opens(path)


def test_an_insert_patch_carries_the_list_definition(source, tmp_path):
    patch = build(source, "The Customer pays", "INSERT", Text="The Customer pays late fees.", Position="after")
    got = parts(patch.xml)
    body = got["/word/document.xml"].find(qn("w:body"))
    assert len(body) == 2  # the anchor paragraph and the new one; the follower was context only
    numbering = got["/word/numbering.xml"]
    assert [n.get(qn("w:numId")) for n in numbering.iter(qn("w:num"))] == ["1"]
    assert [a.get(qn("w:abstractNumId")) for a in numbering.iter(qn("w:abstractNum"))] == ["0"]
    assert "ListParagraph" in style_ids(got["/word/styles.xml"])
    path = tmp_path / "insert.docx"
    path.write_bytes(patch_to_docx(patch.xml))
    assert oracles.pandoc_text(path, "accept") == ["The Customer pays monthly.", "The Customer pays late fees."]
    assert oracles.pandoc_text(path, "reject") == ["The Customer pays monthly."]
    assert oracles.opens(path)


def test_character_styles_and_hyperlinks_travel_with_the_paragraph(source, tmp_path):
    term = build(source, "Fees means", "REPLACE_TEXT", Quote="Schedule 2", Replacement="Schedule 3")
    assert "Term" in style_ids(parts(term.xml)["/word/styles.xml"])
    link = build(source, "See the portal", "REWRITE_PARAGRAPH", NewText="See the portal for all invoices.")
    rels = parts(link.xml)["/word/_rels/document.xml.rels"]
    (rel,) = [x for x in rels if x.get("Id") == "rId9"]
    assert rel.get("TargetMode") == "External" and rel.get("Target") == "https://portal.example"
    path = tmp_path / "link.docx"
    path.write_bytes(patch_to_docx(link.xml))
    assert oracles.pandoc_text(path, "accept") == ["See the portal for all invoices."]


def test_comments_already_on_the_paragraph_travel_with_it(source, tmp_path):
    patch = build(source, "Carol commented", "COMMENT", Comment="Me too.")
    comments = parts(patch.xml)["/word/comments.xml"]
    assert [(c.get(qn("w:id")), c.get(qn("w:author"))) for c in comments] == [("0", "Carol"), ("1", "Redline AI")]
    ids = parts(patch.xml)["/word/commentsIds.xml"]
    assert next(e.get(qn("w16cid:durableId")) for e in ids) == "11111111"
    path = tmp_path / "comment.docx"
    path.write_bytes(patch_to_docx(patch.xml))
    assert oracles.stats(path)["comments"] == 2
    check_structure(path.read_bytes())


def test_a_delete_patch_and_a_skipped_op(source, tmp_path):
    patch = build(source, "The Customer pays", "DELETE_PARAGRAPH")
    path = tmp_path / "delete.docx"
    path.write_bytes(patch_to_docx(patch.xml))
    assert oracles.pandoc_text(path, "accept") == [] and oracles.pandoc_text(path, "reject") == ["The Customer pays monthly."]
    skipped = build(source, "Last paragraph", "REPLACE_TEXT", Quote="absent", Replacement="x")
    assert skipped.xml is None and skipped.result.reason == "quote_not_found"
    pkg, _paragraphs = source
    missing = PatchBuilder(pkg).build(op_from_json(0, {"Id": "_RL_0123456789ab", "Type": "DELETE_PARAGRAPH"}))
    assert missing.xml is None and missing.result.reason == "anchor_not_found"


def test_building_patches_leaves_the_document_alone(source):
    pkg, _paragraphs = source
    before = pkg.blob(pkg.main_part)
    build(source, "ARTICLE 2", "REWRITE_PARAGRAPH", NewText="Changed", Comment="x")
    assert pkg.blob(pkg.main_part) == before
    assert not any(n.endswith("people.xml") and b"Redline" in pkg.blob(n) for n in pkg.names())
    assert NSMAP["pkg"] == "http://schemas.microsoft.com/office/2006/xmlPackage"
