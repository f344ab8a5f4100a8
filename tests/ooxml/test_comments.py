"""Comment parts, styles and ids, for documents with and without comments or styles."""

from __future__ import annotations

import pytest
from lxml import etree

from redline.ooxml.comments import Comments
from redline.ooxml.ids import HexIds
from redline.ooxml.oxml import qn
from redline.ooxml.package import Package
from tests.ooxml.write_helpers import anchor, anchored, judge, p, part, r, redline, statuses
from tests.support import oracles
from tests.support.docx_builder import DEFAULT_STYLES

BODY = p(r("First clause about fees.")) + p(r("Second clause about term."))
COMMENT_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"


def comment_ops(paragraphs, author_note: str = "Please check.") -> list[dict]:
    return [
        {"Id": anchor(paragraphs, "First"), "Type": "COMMENT", "Comment": author_note, "Quote": "fees"},
        {"Id": anchor(paragraphs, "Second"), "Type": "COMMENT", "Comment": "Line one\nLine two"},
    ]


@pytest.fixture(scope="module")
def without_styles_part(tmp_path_factory):
    """A document with no styles.xml at all: the part is created with Word's comment styles."""
    docx, paragraphs = anchored(BODY, styles=None)
    out = redline(docx, comment_ops(paragraphs))
    path = tmp_path_factory.mktemp("comments") / "nostyles.docx"
    path.write_bytes(out.docx)
    return out, paragraphs, path


def test_a_first_comment_creates_every_part_relationship_and_content_type(without_styles_part):
    out, paragraphs, path = without_styles_part
    assert statuses(out) == ["applied", "applied"]
    judge(path, [x.text for x in paragraphs], [x.text for x in paragraphs])
    pkg = Package.open(out.docx)
    main = pkg.main_part
    for kind, name in (("comments", "word/comments.xml"), ("commentsExtended", "word/commentsExtended.xml"),
                       ("commentsIds", "word/commentsIds.xml"), ("people", "word/people.xml"),
                       ("styles", "word/styles.xml")):
        assert pkg.related_part(main, kind) == name
        assert pkg.content_type(name).endswith(f".{kind}+xml")
    stats = oracles.stats(path)
    assert (stats["comments"], stats["commentsExtended"], stats["commentsIds"], stats["people"]) == (2, 2, 2, 1)


def test_comment_paragraphs_and_extended_and_ids_agree(without_styles_part):
    out, _paragraphs, _path = without_styles_part
    comments = part(out.docx, "word/comments.xml")
    last_para_ids = [c.findall(qn("w:p"))[-1].get(qn("w14:paraId")) for c in comments]
    assert [len(c.findall(qn("w:p"))) for c in comments] == [1, 2]
    ex = [e.get(qn("w15:paraId")) for e in part(out.docx, "word/commentsExtended.xml")]
    ids = part(out.docx, "word/commentsIds.xml")
    assert ex == last_para_ids == [e.get(qn("w16cid:paraId")) for e in ids]
    for e in ids:
        durable = e.get(qn("w16cid:durableId"))
        assert len(durable) == 8 and 0 < int(durable, 16) < 0x7FFFFFFF
    for pid in last_para_ids:
        assert len(pid) == 8 and int(pid, 16) < 0x80000000
    first = comments[0]
    assert first.get(qn("w:author")) == "Redline AI" and first.get(qn("w:initials")) == "RA"
    assert first.get(qn("w:date")) == "2025-01-02T03:04:05Z"
    refs = first.findall(f".//{qn('w:annotationRef')}")
    assert len(refs) == 1
    ns = comments.nsmap
    assert {"w", "w14", "w15", "mc"} <= set(ns)


def test_comment_styles_are_added_with_word_names(without_styles_part):
    out, _paragraphs, _path = without_styles_part
    styles = part(out.docx, "word/styles.xml")
    by_id = {s.get(qn("w:styleId")): s for s in styles.iter(qn("w:style"))}
    assert by_id["CommentReference"].find(qn("w:name")).get(qn("w:val")) == "annotation reference"
    assert by_id["CommentText"].find(qn("w:name")).get(qn("w:val")) == "annotation text"
    assert by_id["CommentText"].find(qn("w:basedOn")).get(qn("w:val")) == "Normal"
    assert by_id["CommentTextChar"].find(qn("w:link")).get(qn("w:val")) == "CommentText"
    doc = part(out.docx, "word/document.xml")
    ref_runs = [rr for rr in doc.iter(qn("w:r")) if rr.find(qn("w:commentReference")) is not None]
    assert {rr.find(f"{qn('w:rPr')}/{qn('w:rStyle')}").get(qn("w:val")) for rr in ref_runs} == {"CommentReference"}


def test_localised_comment_styles_are_reused_and_missing_ones_added():
    german = (
        '<w:style w:type="character" w:styleId="Kommentarzeichen"><w:name w:val="annotation reference"/>'
        '<w:rPr><w:sz w:val="16"/></w:rPr></w:style>'
        '<w:style w:type="character" w:styleId="CommentText"><w:name w:val="Some other char style"/></w:style>'
    )
    docx, paragraphs = anchored(BODY, styles=DEFAULT_STYLES.replace("</w:styles>", german + "</w:styles>"))
    out = redline(docx, comment_ops(paragraphs))
    styles = part(out.docx, "word/styles.xml")
    ids = [s.get(qn("w:styleId")) for s in styles.iter(qn("w:style"))]
    assert "CommentReference" not in ids and ids.count("Kommentarzeichen") == 1
    assert "CommentText1" in ids  # the id CommentText was taken by an unrelated style
    doc = part(out.docx, "word/document.xml")
    assert {el.get(qn("w:val")) for el in doc.iter(qn("w:rStyle"))} == {"Kommentarzeichen"}
    comments = part(out.docx, "word/comments.xml")
    assert {el.get(qn("w:val")) for el in comments.iter(qn("w:pStyle"))} == {"CommentText1"}


def test_ids_continue_after_comments_and_dangling_references():
    docx, _paragraphs = anchored(p(r("Text"), '<w:commentReference w:id="7"/>'))
    pkg = Package.open(docx)
    comments = Comments(pkg, HexIds([], 0x80000000))
    assert [comments.next_id(), comments.next_id()] == ["8", "9"]


def test_each_author_is_listed_once_in_people():
    docx, paragraphs = anchored(BODY)
    once = redline(docx, comment_ops(paragraphs), author="Dana Reviewer")
    twice = redline(once.docx, comment_ops(paragraphs, "Again."), author="Dana Reviewer")
    people = part(twice.docx, "word/people.xml")
    assert [x.get(qn("w15:author")) for x in people] == ["Dana Reviewer"]
    comments = part(twice.docx, "word/comments.xml")
    assert [c.get(qn("w:id")) for c in comments] == ["0", "1", "2", "3"]
    assert {c.get(qn("w:initials")) for c in comments} == {"DR"}
    durable = [e.get(qn("w16cid:durableId")) for e in part(twice.docx, "word/commentsIds.xml")]
    assert len(set(durable)) == 4


def test_the_comments_part_uses_the_template_namespaces():
    docx, paragraphs = anchored(BODY)
    out = redline(docx, comment_ops(paragraphs))
    raw = Package.open(out.docx).blob("word/comments.xml")
    root = etree.fromstring(raw)
    assert root.get(qn("mc:Ignorable")) == "w14 w15 w16cid w16cex"
    assert Package.open(out.docx).content_type("word/comments.xml") == COMMENT_CT
    assert root.tag == qn("w:comments")


def test_comment_styles_are_added_to_a_styles_part_that_lacks_them(tmp_path):
    docx, paragraphs = anchored(BODY)
    before = {s.get(qn("w:styleId")) for s in part(docx, "word/styles.xml").iter(qn("w:style"))}
    assert not before & {"CommentReference", "CommentText"}
    out = redline(docx, comment_ops(paragraphs))
    after = [s.get(qn("w:styleId")) for s in part(out.docx, "word/styles.xml").iter(qn("w:style"))]
    assert after[: len(before)] == [s.get(qn("w:styleId")) for s in part(docx, "word/styles.xml").iter(qn("w:style"))]
    assert set(after) - before == {"CommentReference", "CommentText", "CommentTextChar", "CommentSubject",
                                   "CommentSubjectChar"}
    path = tmp_path / "styles.docx"
    path.write_bytes(out.docx)
    judge(path, [x.text for x in paragraphs], [x.text for x in paragraphs])
