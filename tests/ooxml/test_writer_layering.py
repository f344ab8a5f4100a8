"""A document another author already redlined and commented: their revisions and
comments are preserved, ours layer on top, ids never collide."""

from __future__ import annotations

import pytest
from lxml import etree

from redline.ooxml.oxml import qn
from tests.ooxml.write_helpers import (
    COMMENT_PARTS,
    COMMENTS,
    REF_STYLE,
    anchor,
    anchored,
    d,
    judge,
    p,
    paragraph_xml,
    part,
    r,
    redline,
    statuses,
)
from tests.support import oracles

ALICE = 'w:author="Alice" w:date="2024-03-01T10:00:00Z"'
BODY = "".join([
    p(r("The "), f'<w:ins w:id="1" {ALICE}>{r("quick brown ")}</w:ins>', r("fox jumps.")),
    p(r("Payment is due "), f'<w:del w:id="2" {ALICE}>{d("promptly ")}</w:del>', r("within 30 days.")),
    p('<w:r><w:rPr><w:b/><w:rPrChange w:id="3" w:author="Alice" w:date="2024-03-01T10:00:00Z"><w:rPr/></w:rPrChange>'
      '</w:rPr><w:t>Bold clause text here.</w:t></w:r>'),
    p(r("Liability is "), '<w:commentRangeStart w:id="0"/>', r("unlimited"), '<w:commentRangeEnd w:id="0"/>',
      f'<w:r>{REF_STYLE}<w:commentReference w:id="0"/></w:r>', r(" for fraud.")),
    p(f'<w:del w:id="4" {ALICE}>{d("Whole sentence removed by Alice.")}</w:del>',
      ppr=f'<w:rPr><w:del w:id="5" {ALICE}/></w:rPr>'),
    p(r("Notice: "), f'<w:moveTo w:id="6" {ALICE}>{r("in writing")}</w:moveTo>', r(" only.")),
    p(f'<w:ins w:id="7" {ALICE}>{r("Alice added this clause.")}</w:ins>', ppr=f'<w:rPr><w:ins w:id="8" {ALICE}/></w:rPr>'),
    p('<w:commentRangeStart w:id="1"/>', r("The cap is ten dollars."), '<w:commentRangeEnd w:id="1"/>',
      f'<w:r>{REF_STYLE}<w:commentReference w:id="1"/></w:r>'),
    p(r("Closing words.")),
])

OPS = [
    ("The quick", "REPLACE_TEXT", {"Quote": "brown", "Replacement": "red"}),
    ("Payment is due", "REWRITE_PARAGRAPH", {"NewText": "Payment is due within 45 days."}),
    ("Bold clause", "REWRITE_PARAGRAPH", {"NewText": "Bold clause text there."}),
    ("Liability", "COMMENT", {"Comment": "Agree with Carol."}),
    ("Liability", "REPLACE_TEXT", {"Quote": "fraud", "Replacement": "fraud or wilful misconduct"}),
    ("Alice added", "DELETE_PARAGRAPH", {}),
    ("The cap", "REWRITE_PARAGRAPH", {"NewText": "The cap is ten million dollars.", "Comment": "Raised."}),
]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    source, paragraphs = anchored(BODY, comments=COMMENTS, extra_parts=COMMENT_PARTS)
    # Edits in moved text and in paragraphs whose mark is deleted: test_writer_pending.py.
    ops = [{"Id": anchor(paragraphs, start), "Type": kind, **fields} for start, kind, fields in OPS]
    out = redline(source, ops)
    folder = tmp_path_factory.mktemp("layering")
    (folder / "in.docx").write_bytes(source)
    (folder / "out.docx").write_bytes(out.docx)
    return out, paragraphs, folder


def test_ops_layer_on_pending_revisions(written):
    out, _paragraphs, _folder = written
    assert statuses(out) == ["applied"] * len(OPS)


def test_readers_see_the_intended_text_and_rejecting_everything_gives_the_original(written):
    _out, paragraphs, folder = written
    intended = [
        "The quick red fox jumps.",
        "Payment is due within 45 days.",
        "Bold clause text there.",
        "Liability is unlimited for fraud or wilful misconduct.",
        "Notice: in writing only.",
        "The cap is ten million dollars.",
        "Closing words.",
    ]
    judge(folder / "out.docx", intended, [x.original_text for x in paragraphs])
    assert oracles.pandoc_text(folder / "out.docx", "reject") == oracles.pandoc_text(folder / "in.docx", "reject")


def test_the_other_authors_revisions_are_all_still_there(written):
    out, _paragraphs, folder = written
    before = oracles.stats(folder / "in.docx")["authors"]["Alice"]
    after = oracles.stats(folder / "out.docx")["authors"]
    # Alice's insertion "quick brown " is split around our change (same author and date): one more record;
    # her format change on "Bold clause text here." is copied onto the runs split at "here": two more.
    assert after["Alice"] == before + 3
    assert after["Redline AI"] == sum(x.revisions for x in out.results)


def test_deleting_text_someone_inserted_nests_our_deletion_in_their_insertion(written):
    out, paragraphs, _folder = written
    x = paragraph_xml(out.docx, anchor(paragraphs, "The quick"))
    kinds = [(etree.QName(c).localname, c.get(qn("w:author"))) for c in x if c.tag in (qn("w:ins"), qn("w:del"))]
    assert kinds == [("ins", "Alice"), ("ins", "Redline AI"), ("ins", "Alice")]
    first_alice = next(c for c in x if c.tag == qn("w:ins"))
    assert first_alice.find(qn("w:del")).get(qn("w:author")) == "Redline AI"
    whole = paragraph_xml(out.docx, anchor(paragraphs, "Alice added"))
    (alice_ins,) = whole.findall(qn("w:ins"))
    assert alice_ins.find(qn("w:del")).findtext(f"{qn('w:r')}/{qn('w:delText')}") == "Alice added this clause."
    mark = whole.find(f"{qn('w:pPr')}/{qn('w:rPr')}")
    assert [(etree.QName(c).localname, c.get(qn("w:author"))) for c in mark] == [("ins", "Alice"), ("del", "Redline AI")]


def test_a_split_format_change_gets_a_fresh_id(written):
    out, paragraphs, _folder = written
    x = paragraph_xml(out.docx, anchor(paragraphs, "Bold clause"))
    changes = list(x.iter(qn("w:rPrChange")))
    assert len(changes) == 3 and len({c.get(qn("w:id")) for c in changes}) == 3
    assert {c.get(qn("w:author")) for c in changes} == {"Alice"}


def test_existing_comments_are_kept_and_new_ids_do_not_collide(written):
    out, _paragraphs, folder = written
    stats = oracles.stats(folder / "out.docx")
    assert stats["comments"] == stats["commentsExtended"] == stats["commentsIds"] == 4
    assert stats["people"] == 2
    comments = part(out.docx, "word/comments.xml")
    assert [c.get(qn("w:id")) for c in comments] == ["0", "1", "2", "3"]
    assert [c.get(qn("w:author")) for c in comments] == ["Carol", "Carol", "Redline AI", "Redline AI"]
    durable = [c.get(qn("w16cid:durableId")) for c in part(out.docx, "word/commentsIds.xml")]
    assert durable[:2] == ["11111111", "22222222"] and len(set(durable)) == 4
    ex = part(out.docx, "word/commentsExtended.xml")
    assert [e.get(qn("w15:done")) for e in ex] == ["0", "1", "0", "0"]  # Carol's resolved comment stays resolved
