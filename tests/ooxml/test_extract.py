"""Tracked changes and comments as records: shape, texts by identity, ids, threads, pages."""

from __future__ import annotations

import pytest

from redline.ooxml.errors import DocxError
from redline.ooxml.extract import extract_all, extract_revisions
from redline.ooxml.oxml import qn, serialize
from redline.ooxml.package import Package
from redline.ooxml.text import paragraph_text
from tests.support.docx_builder import build_docx
from tests.support.revision_docs import A, B, anchored, dele, every_kind_docx, ins, p, r


@pytest.fixture(scope="module")
def data() -> bytes:
    return every_kind_docx()


@pytest.fixture(scope="module")
def records(data) -> dict[str, dict]:
    return {rec["para_id"]: rec for rec in extract_all(data).paragraphs}


def kinds(rec: dict) -> list[tuple[str, str, str]]:
    return [(x["type"], x["author"], x["text"]) for x in rec["revisions"]]


def test_the_page_has_exactly_the_issue_shape(data):
    page = extract_revisions(data, limit=3)
    assert list(page) == ["total", "offset", "limit", "has_more", "paragraphs"]
    assert (page["offset"], page["limit"], page["has_more"]) == (0, 3, True)
    rec = page["paragraphs"][0]
    assert list(rec) == ["para_id", "before_text", "after_text", "revisions", "comments"]
    assert rec["revisions"][0] == {"type": "INSERTION", "id": "1", "author": "Alice",
                                   "date": "2024-01-01T00:00:00Z", "text": "added "}


def test_runs_and_nested_changes_by_two_authors(records):
    runs = records["_RL_000000000001"]
    assert (runs["before_text"], runs["after_text"]) == ("Keep gone end.", "Keep added end.")
    assert kinds(runs) == [("INSERTION", "Alice", "added "), ("DELETION", "Bob", "gone ")]
    nested = records["_RL_000000000002"]
    assert (nested["before_text"], nested["after_text"]) == ("Nested tail.", "Nested x tail.")
    assert kinds(nested) == [("INSERTION", "Alice", "x "), ("DELETION", "Bob", "y ")]


def test_inserted_and_deleted_paragraphs_are_matched_by_identity_not_position(records):
    deleted = records["_RL_000000000003"]
    assert (deleted["before_text"], deleted["after_text"]) == ("A clause Alice deleted.", "")
    assert kinds(deleted) == [("DELETION", "Alice", "¶"), ("DELETION", "Alice", "A clause Alice deleted.")]
    inserted = records["_RL_000000000005"]
    assert (inserted["before_text"], inserted["after_text"]) == ("", "A clause Bob inserted.")
    # Neighbours that shift position between the views keep their own texts.
    assert "_RL_000000000004" not in records and "_RL_000000000006" not in records


def test_moves_formatting_numbering_fields_and_sections(records):
    assert kinds(records["_RL_000000000007"]) == [("MOVE_FROM", "Alice", "Moved words.")]
    assert records["_RL_000000000007"]["after_text"] == "Source stays. "
    assert kinds(records["_RL_000000000008"]) == [("MOVE_TO", "Alice", "Moved words.")]
    formatting = records["_RL_000000000009"]
    assert kinds(formatting) == [("PARAGRAPH_PROPERTY_CHANGE", "Bob", ""), ("FORMAT_CHANGE", "Bob", "Bold now"),
                                 ("FORMAT_CHANGE", "Bob", " and italic was underlined")]
    assert formatting["before_text"] == formatting["after_text"]
    assert kinds(records["_RL_00000000000a"]) == [("PARAGRAPH_PROPERTY_CHANGE", "Alice", "")]
    assert kinds(records["_RL_00000000000b"]) == [("PARAGRAPH_PROPERTY_CHANGE", "Alice", "")]
    field = records["_RL_00000000000c"]
    assert kinds(field) == [("DELETION", "Bob", "seven")]  # the field's result, not its instruction
    assert (field["before_text"], field["after_text"]) == ("See page seven of the schedule.", "See page  of the schedule.")
    assert kinds(records["_RL_00000000000d"]) == [("PARAGRAPH_PROPERTY_CHANGE", "Alice", "")]
    # The body's last section properties belong to the last paragraph.
    assert kinds(records["_RL_000000000017"]) == [("PARAGRAPH_PROPERTY_CHANGE", "Bob", "")]


def test_table_changes_belong_to_the_first_paragraph_of_their_table_row_or_cell(data, records):
    assert kinds(records["_RL_00000000000e"]) == [("TABLE_CHANGE", "Bob", ""), ("TABLE_CHANGE", "Bob", "")]
    added = records["_RL_000000000010"]
    assert kinds(added) == [("TABLE_CHANGE", "Bob", "Row Bob added\n100"), ("INSERTION", "Bob", "Row Bob added")]
    assert (added["before_text"], added["after_text"]) == ("", "Row Bob added")
    assert kinds(records["_RL_000000000012"]) == [("TABLE_CHANGE", "Alice", ""), ("TABLE_CHANGE", "Alice", "")]
    # The deleted row's paragraphs have no anchor: synthetic ids by document order.
    body = Package.open(data).xml("word/document.xml")
    order = [paragraph_text(x, "reject") for x in body.iter(qn("w:p"))]
    removed = records[f"_anon_para_{order.index('Row Alice removed')}"]
    assert kinds(removed) == [("TABLE_CHANGE", "Alice", "Row Alice removed\n200"),
                              ("DELETION", "Alice", "Row Alice removed")]
    assert (removed["before_text"], removed["after_text"]) == ("Row Alice removed", "")
    assert f"_anon_para_{order.index('200')}" in records


def test_comments_nest_replies_and_read_resolved(records):
    rec = records["_RL_000000000015"]
    assert rec["revisions"] == [] and rec["before_text"] == rec["after_text"] == "Payment is due in thirty days."
    (comment,) = rec["comments"]
    assert comment == {
        "id": "0", "author": "Alice", "date": "2024-01-01T00:00:00Z", "text": "Too short; ask for sixty.",
        "resolved": True,
        "replies": [{"id": "1", "author": "Bob", "date": "2024-02-01T00:00:00Z", "text": "Agreed, sixty",
                     "resolved": False, "replies": []}],
    }


def test_only_main_document_paragraphs_in_document_order(data, records):
    ids = [rec["para_id"] for rec in extract_all(data).paragraphs]
    assert ids == list(records)
    assert "Draft" not in str(records) and "Interest" not in str(records)  # header and footnote are other stories
    body = Package.open(data).xml("word/document.xml")
    positions = {}
    for n, x in enumerate(body.iter(qn("w:p"))):
        names = [b.get(qn("w:name")) for b in x.iter(qn("w:bookmarkStart")) if b.get(qn("w:name")).startswith("_RL_")]
        positions[names[0] if names else f"_anon_para_{n}"] = n
    assert [positions[i] for i in ids] == sorted(positions[i] for i in ids)


def test_synthetic_ids_are_deterministic_and_never_dropped():
    doc = build_docx(p(r("plain")) + p(r("one ") + ins(1, r("two"))) + p(dele(2, "three"))
                     + anchored(9, r("anchored ") + ins(3, r("four"), B)))
    first = extract_all(doc).paragraphs
    assert [x["para_id"] for x in first] == ["_anon_para_1", "_anon_para_2", "_RL_000000000009"]
    assert extract_all(doc).paragraphs == first


def test_a_joined_paragraph_reads_as_the_joined_text():
    doc = build_docx(p(r("Alpha"), f'<w:rPr><w:del w:id="1" {A}/></w:rPr>') + p(r("Beta")))
    (rec,) = extract_all(doc).paragraphs
    assert (rec["before_text"], rec["after_text"]) == ("Alpha", "AlphaBeta")


def test_an_opened_package_is_left_unchanged(data):
    pkg = Package.open(data)
    before = serialize(pkg.xml(pkg.main_part))
    assert extract_all(pkg).paragraphs == extract_all(data).paragraphs
    assert serialize(pkg.xml(pkg.main_part)) == before


def test_a_document_without_revisions_or_comments_has_no_records():
    assert extract_revisions(build_docx(p(r("clean")))) == {
        "total": 0, "offset": 0, "limit": 50, "has_more": False, "paragraphs": []}


def test_pages_are_slices_in_order(data):
    whole = extract_all(data)
    total = len(whole.paragraphs)
    assert total >= 15
    pages = [whole.page(offset, 4) for offset in range(0, total, 4)]
    assert [x for page in pages for x in page["paragraphs"]] == whole.paragraphs
    assert [page["has_more"] for page in pages] == [True] * (len(pages) - 1) + [False]
    assert whole.page(total + 10, 5)["paragraphs"] == []
    assert whole.page(0, 500)["has_more"] is False


@pytest.mark.parametrize(("offset", "limit", "code"), [
    (0, 0, "INVALID_LIMIT"), (0, 501, "INVALID_LIMIT"), (0, -5, "INVALID_LIMIT"), (0, True, "INVALID_LIMIT"),
    (0, "10", "INVALID_LIMIT"), (0, 2.0, "INVALID_LIMIT"), (-1, 10, "INVALID_OFFSET"), ("0", 10, "INVALID_OFFSET"),
    (None, 10, "INVALID_OFFSET"),
])
def test_pagination_errors(data, offset, limit, code):
    with pytest.raises(DocxError) as err:
        extract_revisions(data, offset=offset, limit=limit)
    assert err.value.code == code
    with pytest.raises(DocxError):
        extract_all(data).page(offset, limit)


def test_limit_bounds_are_inclusive(data):
    assert extract_revisions(data, limit=1)["limit"] == 1
    assert extract_revisions(data, limit=500)["limit"] == 500


def test_a_comment_range_starting_between_paragraphs_belongs_to_the_next_one():
    from tests.support.revision_docs import COMMENTS

    doc = build_docx(p(r("before")) + '<w:commentRangeStart w:id="0"/>' + p(r("commented"))
                     + p('<w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r>'), comments=COMMENTS)
    (rec,) = extract_all(doc).paragraphs
    assert rec["para_id"] == "_anon_para_1" and [c["id"] for c in rec["comments"]] == ["0"]
    assert rec["comments"][0]["replies"] == []  # no commentsExtended part: no threads, not resolved
    assert rec["comments"][0]["resolved"] is False


def test_a_text_box_stored_twice_for_compatibility_is_read_once():
    box = p(r("Box ") + ins(1, r("added"), B))
    drawing = ('<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:inline><a:graphic><a:graphicData>'
               f'<wps:wsp><wps:txbx><w:txbxContent>{box}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData>'
               "</a:graphic></wp:inline></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox>"
               f"<w:txbxContent>{box}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>"
               "</mc:AlternateContent></w:r>")
    ns = ('xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
          'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
          'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:v="urn:schemas-microsoft-com:vml"')
    doc = build_docx(f'<w:p {ns}>{r("Outer")}{drawing}</w:p>')
    (rec,) = extract_all(doc).paragraphs
    assert rec["para_id"] == "_anon_para_1"
    assert (rec["before_text"], rec["after_text"]) == ("Box ", "Box added")
    assert [x["text"] for x in rec["revisions"]] == ["added"]
