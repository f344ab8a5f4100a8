"""Known ways to make Word report unreadable content, each held off by a test:
no literal line break inside ``w:t``; relationship ids never hard-coded; every
``w:abstractNum`` we hand out complete; children in schema order in every part
we touch (judged by the Open XML validator, which reads the schema's order)."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

from redline.ooxml.ops import op_from_json
from redline.ooxml.oxml import qn
from redline.ooxml.package import Package
from redline.ooxml.patch import PatchBuilder
from tests.ooxml.test_mirror_parts import EFFECTS, EXTENSIBLE, LINKED_NUMBERING, LIST_STYLE
from tests.ooxml.write_helpers import (
    COMMENT_PARTS,
    COMMENTS,
    NUMBERING,
    REF_STYLE,
    anchor,
    anchored,
    numbered,
    p,
    part,
    r,
    redline,
    statuses,
)
from tests.support.validator import assert_no_new_findings, flat_opc_to_docx

ENGINE = Path(__file__).resolve().parents[2] / "redline" / "ooxml"
TEXT_TAGS = (qn("w:t"), qn("w:delText"), qn("w:instrText"), qn("w:delInstrText"))
BODY = (p('<w:commentRangeStart w:id="0"/>', r("Carol commented here."), '<w:commentRangeEnd w:id="0"/>',
          f'<w:r>{REF_STYLE}<w:commentReference w:id="0"/></w:r>')
        + p(r("The Supplier shall deliver the Goods."))
        + numbered("The Customer pays monthly.", 1)
        + p(r("Notices go to the address above."))
        + p(r("Last clause.")))


def _every_part_and_op():
    docx, paragraphs = anchored(BODY, numbering=NUMBERING, comments=COMMENTS,
                                extra_parts={**COMMENT_PARTS, **EXTENSIBLE, **EFFECTS})
    ops = [
        {"Id": anchor(paragraphs, "The Supplier"), "Type": "REPLACE_TEXT", "Quote": "shall deliver",
         "Replacement": "must deliver\nwithout delay\r\nand\tin full", "Comment": "Two lines\nof comment."},
        {"Id": anchor(paragraphs, "The Customer"), "Type": "INSERT", "Position": "after",
         "Text": "The Customer pays on time.\nLate sums bear interest."},
        {"Id": anchor(paragraphs, "Notices"), "Type": "REWRITE_PARAGRAPH",
         "NewText": "Notices go to the\naddress above.", "Comment": "Line break."},
        {"Id": anchor(paragraphs, "Last"), "Type": "DELETE_PARAGRAPH", "Comment": "Not needed."},
        {"Id": anchor(paragraphs, "Carol"), "Type": "COMMENT", "Comment": "Agreed."},
    ]
    out = redline(docx, ops)
    assert statuses(out) == ["applied"] * len(ops)
    return docx, out.docx


def test_no_text_element_holds_a_literal_line_break():
    _docx, out = _every_part_and_op()
    with zipfile.ZipFile(io.BytesIO(out)) as z:
        names = [n for n in z.namelist() if n.endswith(".xml")]
    for name in names:
        for t in part(out, name).iter(*TEXT_TAGS):
            assert not re.search(r"[\r\n]", t.text or ""), f"line break inside {t.tag} in {name}: {t.text!r}"
    body = part(out, "word/document.xml")
    assert len(list(body.iter(qn("w:br")))) == 3 and len(list(body.iter(qn("w:tab")))) == 1
    comments = part(out, "word/comments.xml")
    assert any(len(c.findall(qn("w:p"))) == 2 for c in comments.iterchildren(qn("w:comment")))


def test_every_part_we_touch_is_in_schema_order():
    """Document, styles, stylesWithEffects, numbering, comments and all four comment
    mirrors (anchoring's custom properties are judged by the spy on every test): the validator checks each against the schema."""
    docx, out = _every_part_and_op()
    before, after = Package.open(docx), Package.open(out)
    changed = {n for n in after.names() if not before.has(n) or before.blob(n) != after.blob(n)}
    assert {"word/document.xml", "word/comments.xml", "word/commentsExtended.xml", "word/commentsIds.xml",
            "word/commentsExtensible.xml", "word/people.xml", "word/styles.xml", "word/stylesWithEffects.xml",
            } <= changed
    assert_no_new_findings(docx, out)


def test_relationship_ids_are_never_hard_coded():
    """The engine names no ``rId`` literal: every id comes from the part's own
    relationships, so a file whose ids are taken or unusual keeps working."""
    for source in ENGINE.glob("*.py"):
        code = re.sub(r'"""[\s\S]*?"""', "", source.read_text())
        assert not re.search(r"""["']rId\d+["']""", code), f"hard-coded relationship id in {source.name}"


def test_new_relationships_take_free_ids_next_to_unusual_ones():
    docx, paragraphs = anchored(p(r("One clause.")))
    pkg = Package.open(docx)
    rels = pkg.xml(Package.rels_name(pkg.main_part))
    for rel in rels:  # Word and other tools use ids like these; a new one must not collide
        rel.set("Id", {"1": "rId2"}.get(rel.get("Id")[-1], "R7f3a"))
    renamed = pkg.save()
    out = redline(renamed, [{"Id": paragraphs[0].anchor, "Type": "COMMENT", "Comment": "Check."}]).docx
    ids = [rel.get("Id") for rel in part(out, "word/_rels/document.xml.rels")]
    assert len(ids) == len(set(ids)) == 5 and "rId2" in ids
    assert_no_new_findings(renamed, out)


def assert_lists_complete(docx: bytes) -> None:
    """Every list a paragraph or style uses is defined: its ``w:num``, that num's
    ``w:abstractNum`` (with at least one level), the numbering style a
    ``w:numStyleLink`` names, and the picture bullets its levels use."""
    body, styles = part(docx, "word/document.xml"), part(docx, "word/styles.xml")
    numbering = part(docx, "word/numbering.xml")
    nums = {n.get(qn("w:numId")): n for n in numbering.iterchildren(qn("w:num"))}
    abstracts = {a.get(qn("w:abstractNumId")): a for a in numbering.iterchildren(qn("w:abstractNum"))}
    style_ids = {s.get(qn("w:styleId")) for s in styles.iterchildren(qn("w:style"))}
    used = {el.get(qn("w:val")) for tree in (body, styles) for el in tree.iter(qn("w:numId"))} - {"0"}
    assert used and used <= set(nums)
    for num_id in used:
        abstract = abstracts[nums[num_id].find(qn("w:abstractNumId")).get(qn("w:val"))]
        linked = abstract.find(qn("w:numStyleLink"))
        assert linked is not None or abstract.findall(qn("w:lvl")), f"list {num_id} has no levels"
        if linked is not None:
            assert linked.get(qn("w:val")) in style_ids
    pictures = {b.get(qn("w:numPicBulletId")) for b in numbering.iterchildren(qn("w:numPicBullet"))}
    assert {el.get(qn("w:val")) for el in numbering.iter(qn("w:lvlPicBulletId"))} <= pictures


def test_list_definitions_stay_complete_in_documents_and_patches():
    _docx, out = _every_part_and_op()
    assert_lists_complete(out)
    docx, paragraphs = anchored(numbered("First clause.", 2) + p(r("After.")), styles=LIST_STYLE,
                                numbering=LINKED_NUMBERING)
    op = op_from_json(0, {"Id": anchor(paragraphs, "First"), "Type": "INSERT", "Position": "after",
                          "Text": "Second clause."})
    assert_lists_complete(flat_opc_to_docx(PatchBuilder(Package.open(docx)).build(op).xml))
