"""Rewrites, span replacements and comments inside paragraphs, judged by pandoc,
LibreOffice and the file's structure. One document holds every case, so
LibreOffice is started once."""

from __future__ import annotations

import pytest
from lxml import etree

from redline.ooxml.oxml import qn
from tests.ooxml.write_helpers import anchor, anchored, judge, p, paragraph_xml, r, redline, ref_field, statuses
from tests.support import oracles
from tests.support.docx_builder import NS_DECL

R_NS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
LINK_STYLE = '<w:rStyle w:val="Hyperlink"/>'
LINK_REL = ("http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink", "https://example.com")

BODY = "".join([
    # formatting changes mid-word ("Hel" plain, "lo…" bold)
    p(r("Hel"), r("lo world, the Supplier pays.", "<w:b/>")),
    # the quote spans three runs with different formatting
    p(r("The Sup"), r("plier shall", "<w:i/>"), r(" pay the fee.")),
    # a hyperlink beside the edit
    p(r("Visit "), f'<w:hyperlink r:id="rIdLink" {R_NS}>{r("our website", LINK_STYLE)}</w:hyperlink>',
      r(" today for the terms.")),
    # a REF field beside the edit, and one that is edited
    p(r("Subject to Section "), ref_field("_Ref1", "8.2"), r(", the fees apply.")),
    p(r("See Section "), ref_field("_Ref2", "4.1"), r(" below.")),
    # a simple field that is edited
    p(r("Clause "), f'<w:fldSimple w:instr=" REF _Ref3 \\h ">{r("7.3")}</w:fldSimple>', r(" governs.")),
    # someone else's bookmark around the kept text
    p('<w:bookmarkStart w:id="50" w:name="_Ref999"/>', r("Alpha beta"), '<w:bookmarkEnd w:id="50"/>', r(" gamma.")),
    # content controls: edit beside one, edit inside one
    p(r("The "), '<w:sdt><w:sdtPr><w:alias w:val="Party"/></w:sdtPr><w:sdtContent>', r("Buyer"),
      "</w:sdtContent></w:sdt>", r(" agrees to pay.")),
    p(r("The "), '<w:sdt><w:sdtPr><w:alias w:val="Party"/></w:sdtPr><w:sdtContent>', r("Seller"),
      "</w:sdtContent></w:sdt>", r(" must deliver.")),
    # tabs inside the text
    p('<w:r><w:t>Fee:</w:t><w:tab/><w:t xml:space="preserve">USD 100 per hour.</w:t></w:r>'),
    # comments: on a quote spanning runs, on a whole paragraph, on a rewrite
    p(r("Liability is "), r("capped at", '<w:u w:val="single"/>'), r(" the fees paid.")),
    p(r("This whole clause needs review.")),
    p(r("Termination requires ninety days notice.")),
    # a repeated phrase, picked by Occurrence
    p(r("the fee and the fee again.")),
    # a footnote reference inside the rewritten sentence, and a smart tag
    p(r("Fees are payable"), '<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="1"/></w:r>',
      r(" monthly in arrears.")),
    p(r("Courts of "), '<w:smartTag w:uri="urn:schemas-microsoft-com:office:smarttags" w:element="place">',
      r("London"), "</w:smartTag>", r(" decide.")),
    # a block-level content control holding a paragraph
    '<w:sdt><w:sdtPr><w:alias w:val="Boilerplate"/></w:sdtPr><w:sdtContent>'
    + p(r("Boilerplate inside a control.")) + "</w:sdtContent></w:sdt>",
])
FOOTNOTES = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:footnotes {NS_DECL}>'
             '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
             '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p>'
             '</w:footnote><w:footnote w:id="1"><w:p><w:r><w:t>Net of VAT.</w:t></w:r></w:p></w:footnote></w:footnotes>')
FOOTNOTE_PART = {"word/footnotes.xml": (
    FOOTNOTES, "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes")}

EDITS = [
    ("Hello world", "REWRITE_PARAGRAPH", {"NewText": "Help world, the Customer pays."}),
    ("The Supplier shall", "REPLACE_TEXT", {"Quote": "Supplier shall pay", "Replacement": "Customer must pay"}),
    ("Visit", "REWRITE_PARAGRAPH", {"NewText": "Visit our website tomorrow for the terms."}),
    ("Subject to", "REWRITE_PARAGRAPH", {"NewText": "Subject to Section 8.2, the charges apply."}),
    ("See Section", "REPLACE_TEXT", {"Quote": "4.1", "Replacement": "5.1"}),
    ("Clause", "REWRITE_PARAGRAPH", {"NewText": "Clause 9.9 governs."}),
    ("Alpha", "REWRITE_PARAGRAPH", {"NewText": "Alpha beta delta."}),
    ("The Buyer", "REWRITE_PARAGRAPH", {"NewText": "The Buyer fully agrees to pay."}),
    ("The Seller", "REPLACE_TEXT", {"Quote": "Seller", "Replacement": "Vendor"}),
    ("Fee:", "REPLACE_TEXT", {"Quote": "USD 100", "Replacement": "USD 150"}),
    ("Liability", "COMMENT", {"Quote": "is capped at the", "Comment": "Cap is low."}),
    ("This whole", "COMMENT", {"Comment": "Whole-paragraph note.\nSecond line."}),
    ("Termination", "REWRITE_PARAGRAPH", {"NewText": "Termination requires thirty days notice.",
                                          "Comment": "Shorter notice."}),
    ("the fee and", "REPLACE_TEXT", {"Quote": "the fee", "Replacement": "the charge", "Occurrence": 2}),
    ("Fees are payable", "REWRITE_PARAGRAPH", {"NewText": "Fees are due monthly in advance."}),
    ("Courts of", "REPLACE_TEXT", {"Quote": "London", "Replacement": "Paris"}),
    ("Boilerplate", "REWRITE_PARAGRAPH", {"NewText": "Standard boilerplate inside a control."}),
    ("Boilerplate", "INSERT", {"Position": "after", "Text": "More boilerplate."}),
]
INTENDED = [
    "Help world, the Customer pays.",
    "The Customer must pay the fee.",
    "Visit our website tomorrow for the terms.",
    "Subject to Section 8.2, the charges apply.",
    "See Section 5.1 below.",
    "Clause 9.9 governs.",
    "Alpha beta delta.",
    "The Buyer fully agrees to pay.",
    "The Vendor must deliver.",
    "Fee:\tUSD 150 per hour.",
    "Liability is capped at the fees paid.",
    "This whole clause needs review.",
    "Termination requires thirty days notice.",
    "the fee and the charge again.",
    "Fees are due monthly in advance.",
    "Courts of Paris decide.",
    "Standard boilerplate inside a control.",
    "More boilerplate.",
]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    docx, paragraphs = anchored(BODY, extra_parts=FOOTNOTE_PART)
    docx = _with_hyperlink_rel(docx)
    ops = [{"Id": anchor(paragraphs, start), "Type": kind, **fields} for start, kind, fields in EDITS]
    out = redline(docx, ops)
    path = tmp_path_factory.mktemp("edits") / "edits.docx"
    path.write_bytes(out.docx)
    return out, paragraphs, ops, path


def _with_hyperlink_rel(docx: bytes) -> bytes:
    from redline.ooxml.package import Package

    pkg = Package.open(docx)
    rels = pkg.xml(Package.rels_name(pkg.main_part))
    etree.SubElement(rels, qn("pr:Relationship"), Id="rIdLink", Type=LINK_REL[0], Target=LINK_REL[1],
                     TargetMode="External")
    return pkg.save()


def test_every_edit_applies_and_the_readers_see_exactly_the_intended_and_original_text(written):
    out, paragraphs, _ops, path = written
    assert statuses(out) == ["applied"] * len(EDITS)
    judge(path, INTENDED, [x.text for x in paragraphs])


def test_revision_and_comment_counts(written):
    out, _paragraphs, _ops, path = written
    stats = oracles.stats(path)
    made = sum(x.revisions for x in out.results)
    assert stats["ins"] + stats["del"] + stats["para_mark_changes"] == made
    assert stats["authors"] == {"Redline AI": made}
    assert stats["comments"] == stats["commentsExtended"] == stats["commentsIds"] == 3
    assert stats["document"]["ins_para_mark"] == 1  # the paragraph added in the content control
    assert stats["comment_anchors"] == stats["comment_references"] == 3
    assert stats["people"] == 1


def _xml(written, start: str) -> etree._Element:
    out, paragraphs, _ops, _path = written
    return paragraph_xml(out.docx, anchor(paragraphs, start))


def _kinds(el: etree._Element) -> list[str]:
    return [etree.QName(c).localname for c in el if c.tag not in (qn("w:bookmarkStart"), qn("w:bookmarkEnd"))]


def test_deleted_text_keeps_its_formatting_and_insertions_take_the_replaced_formatting(written):
    x = _xml(written, "Hello world")
    dels = x.findall(qn("w:del"))
    first_del_runs = dels[0].findall(qn("w:r"))
    assert [rr.findtext(qn("w:delText")) for rr in first_del_runs] == ["Hel", "lo"]
    assert first_del_runs[0].find(qn("w:rPr")) is None and first_del_runs[1].find(f"{qn('w:rPr')}/{qn('w:b')}") is not None
    ins = x.findall(qn("w:ins"))
    assert [i.findtext(f"{qn('w:r')}/{qn('w:t')}") for i in ins] == ["Help", "Customer"]
    assert ins[0].find(f"{qn('w:r')}/{qn('w:rPr')}") is None  # formatting of "Hel", the text it replaces
    assert ins[1].find(f"{qn('w:r')}/{qn('w:rPr')}/{qn('w:b')}") is not None  # "Supplier" was bold


def test_a_quote_across_runs_splits_them_and_only_the_quote_changes(written):
    x = _xml(written, "The Supplier shall")
    (d,) = x.findall(qn("w:del"))
    assert [rr.findtext(qn("w:delText")) for rr in d] == ["Sup", "plier shall"]
    assert d[1].find(f"{qn('w:rPr')}/{qn('w:i')}") is not None
    assert x.findall(f"{qn('w:r')}/{qn('w:t')}")[0].text == "The "


def test_hyperlinks_and_fields_beside_the_edit_are_untouched(written):
    link = _xml(written, "Visit").find(qn("w:hyperlink"))
    assert link.get(qn("r:id")) == "rIdLink"
    assert [c.tag for c in link] == [qn("w:r")] and link.findtext(f"{qn('w:r')}/{qn('w:t')}") == "our website"
    kept = _xml(written, "Subject to")
    assert kept.find(f".//{qn('w:delInstrText')}") is None
    assert [el.findtext(qn("w:instrText")) for el in kept.iter(qn("w:r")) if el.find(qn("w:instrText")) is not None] == [
        " REF _Ref1 \\h "]


def test_an_edited_field_is_replaced_whole(written):
    x = _xml(written, "See Section")
    (d,) = x.findall(qn("w:del"))
    assert d.findtext(f".//{qn('w:delInstrText')}") == " REF _Ref2 \\h "
    assert [fc.get(qn("w:fldCharType")) for fc in d.iter(qn("w:fldChar"))] == ["begin", "separate", "end"]
    assert x.find(f"{qn('w:ins')}/{qn('w:r')}/{qn('w:t')}").text == "5.1"
    simple = _xml(written, "Clause")
    assert simple.find(qn("w:fldSimple")) is None
    assert simple.find(f".//{qn('w:delInstrText')}").text.strip() == "REF _Ref3 \\h"


def test_other_bookmarks_stay_around_their_text(written):
    x = _xml(written, "Alpha")
    kids = list(x)
    start = next(i for i, c in enumerate(kids) if c.get(qn("w:name")) == "_Ref999")
    assert kids[start + 1].findtext(qn("w:t")) == "Alpha beta"
    assert kids[start + 2].tag == qn("w:bookmarkEnd") and kids[start + 2].get(qn("w:id")) == "50"


def test_content_controls_are_kept_and_edited_inside(written):
    beside = _xml(written, "The Buyer")
    sdt = beside.find(qn("w:sdt"))
    assert sdt.find(f".//{qn('w:ins')}") is None and sdt.findtext(f".//{qn('w:t')}") == "Buyer"
    inside = _xml(written, "The Seller").find(qn("w:sdt"))
    assert _kinds(inside.find(qn("w:sdtContent"))) == ["del", "ins"]


def test_comments_anchor_to_the_quote_or_the_whole_paragraph(written):
    x = _xml(written, "Liability")
    kids = _kinds(x)
    assert kids == ["r", "commentRangeStart", "r", "r", "r", "commentRangeEnd", "r", "r"]
    runs = [c.findtext(qn("w:t")) for c in x if c.tag == qn("w:r")]
    assert runs == ["Liability ", "is ", "capped at", " the", None, " fees paid."]  # None: the reference run
    whole = _xml(written, "This whole")
    names = [etree.QName(c).localname for c in whole]
    assert names == ["bookmarkStart", "commentRangeStart", "r", "commentRangeEnd", "r", "bookmarkEnd"]


def test_a_rewrite_with_a_comment_spans_its_changes(written):
    x = _xml(written, "Termination")
    kids = _kinds(x)
    assert kids[kids.index("commentRangeStart") + 1] == "del"
    assert kids[kids.index("commentRangeEnd") - 1] == "ins"


def test_known_entries_carry_the_seed_fields(written):
    out, paragraphs, ops, _path = written
    entries = out.comment_ids_map()["operations"]
    assert len(entries) == len(ops)
    rewrite = entries[0]
    assert rewrite["operation_type"] == "REWRITE" and rewrite["bookmark_id"] == ops[0]["Id"]
    assert rewrite["original_text"] == paragraphs[0].text and rewrite["new_text"] == INTENDED[0]
    comment = entries[10]
    assert comment["operation_type"] == "COMMENT" and comment["comment_text"] == "Cap is low."
    assert comment["original_text"] == "is capped at the"
    assert len(comment["durable_id"]) == 8 and int(comment["durable_id"], 16) < 0x7FFFFFFF
    replace = entries[13]
    assert replace["operation_type"] == "REPLACE_TEXT" and replace["new_text"] == INTENDED[13]
    assert len({e["id"] for e in entries}) == len(entries)


def test_a_footnote_reference_in_a_rewritten_sentence_is_kept(written):
    x = _xml(written, "Fees are payable")
    (ref,) = list(x.iter(qn("w:footnoteReference")))
    assert not any(a.tag in (qn("w:del"), qn("w:ins")) for a in ref.iterancestors())
    tag = _xml(written, "Courts of").find(qn("w:smartTag"))
    assert [etree.QName(c).localname for c in tag] == ["del", "ins"]


def test_a_paragraph_added_after_the_last_one_in_a_block_content_control_stays_inside_it(written):
    out, _paragraphs, _ops, _path = written
    new = paragraph_xml(out.docx, out.results[-1].new_anchors[0])
    assert new.getparent().tag == qn("w:sdtContent")
    assert _xml(written, "Boilerplate").find(f"{qn('w:pPr')}/{qn('w:rPr')}/{qn('w:ins')}") is not None
