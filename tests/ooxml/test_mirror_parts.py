"""Parts that mirror each other stay consistent when we add to one of them:
``stylesWithEffects.xml`` with ``styles.xml``; commentsExtended, commentsIds,
commentsExtensible and people with ``comments.xml``; a patch's numbering with
the lists its paragraphs use. Each case is also held to the validator rule."""

from __future__ import annotations

from lxml import etree

from redline.ooxml.ops import op_from_json
from redline.ooxml.oxml import qn
from redline.ooxml.package import Package
from redline.ooxml.patch import PatchBuilder
from tests.ooxml.write_helpers import (
    COMMENT_PARTS,
    COMMENTS,
    DATE,
    NUMBERING,
    REF_STYLE,
    anchor,
    anchored,
    numbered,
    p,
    part,
    r,
    redline,
)
from tests.support.docx_builder import DEFAULT_STYLES, NS_DECL
from tests.support.validator import assert_no_new_findings, flat_opc_to_docx

EFFECTS = {"word/stylesWithEffects.xml": (DEFAULT_STYLES, "application/vnd.ms-word.stylesWithEffects+xml",
                                          "http://schemas.microsoft.com/office/2007/relationships/stylesWithEffects")}
W16CEX = 'xmlns:w16cex="http://schemas.microsoft.com/office/word/2018/wordml/cex"'
EXTENSIBLE = {"word/commentsExtensible.xml": (
    f'<w16cex:commentsExtensible {NS_DECL} {W16CEX}>'
    '<w16cex:commentExtensible w16cex:durableId="11111111" w16cex:dateUtc="2024-03-02T00:00:00Z"/>'
    '<w16cex:commentExtensible w16cex:durableId="22222222" w16cex:dateUtc="2024-03-02T00:00:00Z"/>'
    "</w16cex:commentsExtensible>",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtensible+xml",
    "http://schemas.microsoft.com/office/2018/08/relationships/commentsExtensible")}
CAROL_COMMENTED = p('<w:commentRangeStart w:id="0"/>', r("Carol commented here."), '<w:commentRangeEnd w:id="0"/>',
                    f'<w:r>{REF_STYLE}<w:commentReference w:id="0"/></w:r>')
PLAIN = p(r("The Supplier shall deliver the Goods.")) + p(r("Last."))
BODY = CAROL_COMMENTED + PLAIN


def _styles(root: etree._Element) -> dict[str, bytes]:
    return {st.get(qn("w:styleId")): etree.tostring(st) for st in root.iterchildren(qn("w:style"))}


def _tree(el: etree._Element) -> list[tuple]:
    return [(x.tag, dict(x.attrib), x.text) for x in el.iter()]


def _vals(root: etree._Element, attr: str) -> list[str]:
    return [el.get(qn(attr)) for el in root.iter() if el.get(qn(attr)) is not None]


def _comment_op(paragraphs, **extra) -> list[dict]:
    return [{"Id": anchor(paragraphs, "The Supplier"), "Type": "REPLACE_TEXT", "Quote": "shall",
             "Replacement": "must", "Comment": "Stronger.", **extra}]


def test_comment_styles_added_to_styles_are_added_to_styles_with_effects():
    docx, paragraphs = anchored(PLAIN, extra_parts=EFFECTS)
    out = redline(docx, _comment_op(paragraphs)).docx
    styles, effects = _styles(part(out, "word/styles.xml")), _styles(part(out, "word/stylesWithEffects.xml"))
    added = set(styles) - set(_styles(part(docx, "word/styles.xml")))
    assert {"CommentReference", "CommentText"} <= added
    assert {k: styles[k] for k in added} == {k: effects[k] for k in added}  # the same definitions
    assert set(styles) == set(effects)
    assert_no_new_findings(docx, out)


def test_a_document_without_styles_with_effects_does_not_get_one():
    docx, paragraphs = anchored(PLAIN)
    out = redline(docx, _comment_op(paragraphs)).docx
    assert "word/stylesWithEffects.xml" not in Package.open(out).names()


def test_every_comment_part_covers_every_comment_and_author():
    """Word's full set (commentsExtensible too): ours joins every part, Carol's entries stay."""
    docx, paragraphs = anchored(BODY, comments=COMMENTS, extra_parts={**COMMENT_PARTS, **EXTENSIBLE})
    out = redline(docx, _comment_op(paragraphs)).docx
    _assert_consistent(out, extensible=True)
    ids = part(out, "word/commentsIds.xml")
    assert _vals(ids, "w16cid:durableId")[:2] == ["11111111", "22222222"]
    assert _vals(part(out, "word/commentsExtended.xml"), "w15:done")[:2] == ["0", "1"]  # Carol's resolved one kept
    assert_no_new_findings(docx, out)


def test_mirror_parts_made_for_a_file_that_had_only_comments_xml_cover_the_old_comments():
    """LibreOffice keeps only comments.xml: the parts we create list Carol's comments and Carol too."""
    docx, paragraphs = anchored(BODY, comments=COMMENTS)
    out = redline(docx, _comment_op(paragraphs)).docx
    _assert_consistent(out, extensible=False)
    assert set(_vals(part(out, "word/people.xml"), "w15:author")) == {"Carol", "Redline AI"}
    assert_no_new_findings(docx, out)


def _assert_consistent(docx: bytes, *, extensible: bool) -> None:
    comments = list(part(docx, "word/comments.xml").iterchildren(qn("w:comment")))
    last_paras = [c.findall(qn("w:p"))[-1].get(qn("w14:paraId")) for c in comments]
    assert len(comments) == 3 and all(last_paras)
    assert _vals(part(docx, "word/commentsExtended.xml"), "w15:paraId") == last_paras
    ids = part(docx, "word/commentsIds.xml")
    assert _vals(ids, "w16cid:paraId") == last_paras
    durable = _vals(ids, "w16cid:durableId")
    assert len(set(durable)) == 3
    if extensible:
        assert _vals(part(docx, "word/commentsExtensible.xml"), "w16cex:durableId") == durable
    people = set(_vals(part(docx, "word/people.xml"), "w15:author"))
    assert {c.get(qn("w:author")) for c in comments} <= people


LINKED_NUMBERING = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:numbering {NS_DECL}>'
    '<w:numPicBullet w:numPicBulletId="0"><w:pict/></w:numPicBullet>'
    '<w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="multilevel"/><w:styleLink w:val="ClauseList"/>'
    '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>'
    '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="o"/>'
    '<w:lvlPicBulletId w:val="0"/></w:lvl></w:abstractNum>'
    '<w:abstractNum w:abstractNumId="1"><w:multiLevelType w:val="multilevel"/><w:numStyleLink w:val="ClauseList"/>'
    '</w:abstractNum>'
    '<w:abstractNum w:abstractNumId="2"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/>'
    '<w:lvlText w:val="-"/></w:lvl></w:abstractNum>'
    '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>'
    '<w:num w:numId="3"><w:abstractNumId w:val="2"/></w:num></w:numbering>'
)
LIST_STYLE = DEFAULT_STYLES.replace("</w:styles>", (
    '<w:style w:type="numbering" w:styleId="ClauseList"><w:name w:val="Clause List"/>'
    '<w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style></w:styles>'))


def test_a_patch_carries_complete_list_definitions():
    """A list that follows a list style (numStyleLink) needs the style's own list,
    its abstractNum (styleLink) and the picture bullets its levels use."""
    docx, paragraphs = anchored(numbered("First clause.", 2) + p(r("After.")), styles=LIST_STYLE,
                                numbering=LINKED_NUMBERING)
    op = op_from_json(0, {"Id": anchor(paragraphs, "First"), "Type": "REWRITE_PARAGRAPH", "NewText": "First term."})
    patch = PatchBuilder(Package.open(docx), date=DATE).build(op).xml
    unpacked = flat_opc_to_docx(patch)
    numbering = part(unpacked, "word/numbering.xml")
    assert sorted(_vals(numbering, "w:numId")) == ["1", "2"]
    assert [a.get(qn("w:abstractNumId")) for a in numbering.iterchildren(qn("w:abstractNum"))] == ["0", "1"]
    assert len(numbering.findall(qn("w:numPicBullet"))) == 1
    source = {a.get(qn("w:abstractNumId")): _tree(a)
              for a in part(docx, "word/numbering.xml").iterchildren(qn("w:abstractNum"))}
    for a in numbering.iterchildren(qn("w:abstractNum")):  # copied whole, never trimmed
        assert _tree(a) == source[a.get(qn("w:abstractNumId"))]
    assert "ClauseList" in _styles(part(unpacked, "word/styles.xml"))
    assert_no_new_findings(docx, patch)


def test_an_inserted_list_item_uses_the_existing_definition():
    docx, paragraphs = anchored(numbered("First item.", 1) + p(r("After.")), numbering=NUMBERING)
    out = redline(docx, [{"Id": anchor(paragraphs, "First"), "Type": "INSERT", "Position": "after",
                          "Text": "Second item."}]).docx
    assert etree.tostring(part(out, "word/numbering.xml")) == etree.tostring(part(docx, "word/numbering.xml"))
    assert_no_new_findings(docx, out)
