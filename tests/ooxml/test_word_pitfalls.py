"""Known ways to make Word report unreadable content, each held off by a test:
no literal line break inside ``w:t``; relationship ids never hard-coded; every
``w:abstractNum`` we hand out complete; children in schema order in every part
we touch (judged by the Open XML validator, which reads the schema's order)."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

from redline.ooxml.oxml import qn
from redline.ooxml.package import Package
from tests.ooxml.test_mirror_parts import EFFECTS, EXTENSIBLE
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
from tests.support.validator import assert_no_new_findings

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
