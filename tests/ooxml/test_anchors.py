"""Anchors: hidden _RL_ bookmarks, idempotent, deterministic, and invisible to readers."""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter

import pytest

from redline.ooxml.anchors import Anchorer, anchor_map, anchor_of, find_anchor
from redline.ooxml.oxml import parse_xml, qn
from redline.ooxml.paragraphs import read_document
from tests.support import oracles
from tests.support.docx_builder import build_docx, para

NAME = re.compile(r"^_RL_[0-9a-f]{12}$")


def document_xml(docx: bytes):
    return parse_xml(zipfile.ZipFile(io.BytesIO(docx)).read("word/document.xml"))


def bookmarks(root) -> list[tuple[str, str | None]]:
    return [(el.tag.split("}")[1], el.get(qn("w:name"))) for el in root.iter(qn("w:bookmarkStart"), qn("w:bookmarkEnd"))]


def assert_well_paired(root) -> None:
    """Every bookmark id is used by exactly one start and one end."""
    starts = Counter(el.get(qn("w:id")) for el in root.iter(qn("w:bookmarkStart")))
    ends = Counter(el.get(qn("w:id")) for el in root.iter(qn("w:bookmarkEnd")))
    assert all(n == 1 for n in starts.values()), starts
    assert starts == ends


def bm(bid: int, name: str) -> str:
    return f'<w:bookmarkStart w:id="{bid}" w:name="{name}"/>'


def be(bid: int) -> str:
    return f'<w:bookmarkEnd w:id="{bid}"/>'


def run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def test_every_non_empty_paragraph_gets_an_anchor_spanning_its_content():
    body = ('<w:p><w:pPr><w:jc w:val="both"/></w:pPr>' + run("First") + "</w:p><w:p/>" + para("Second")
            + '<w:p><w:del w:id="7" w:author="X"><w:r><w:delText>only deleted</w:delText></w:r></w:del></w:p>')
    result = read_document(build_docx(body))
    assert [p.anchor is not None for p in result.paragraphs] == [True, False, True, True]
    root = document_xml(result.docx)
    assert_well_paired(root)
    first = root.find(f".//{qn('w:p')}")
    tags = [child.tag.split("}")[1] for child in first]
    assert tags == ["pPr", "bookmarkStart", "r", "bookmarkEnd"]
    assert NAME.match(first[1].get(qn("w:name")))
    assert anchor_of(first) == result.paragraphs[0].anchor
    assert len(set(p.anchor for p in result.paragraphs if p.anchor)) == 3


def test_anchoring_is_deterministic_and_idempotent():
    data = build_docx(para("Alpha") + para("Beta") + para("Gamma"))
    once = read_document(data)
    again = read_document(data)
    twice = read_document(once.docx)
    assert once.docx == again.docx
    assert twice.docx == once.docx
    assert [p.anchor for p in twice.paragraphs] == [p.anchor for p in once.paragraphs]
    assert twice.doc_id == once.doc_id


def test_different_documents_get_different_anchor_names():
    a = read_document(build_docx(para("Alpha"))).paragraphs[0].anchor
    b = read_document(build_docx(para("Beta"))).paragraphs[0].anchor
    assert a != b


def test_other_bookmarks_are_untouched_and_new_ids_are_unique():
    body = ("<w:p>" + bm(5, "_Ref123") + run("8.2") + be(5) + run(" Fees") + "</w:p>"
            + "<w:p>" + bm(41, "Clause_A") + run("Clause") + "</w:p>" + "<w:p>" + run("more") + be(41) + "</w:p>"
            + "<w:p>" + bm(0, "_GoBack") + be(0) + "</w:p>")
    result = read_document(build_docx(body))
    root = document_xml(result.docx)
    assert_well_paired(root)
    ids = {el.get(qn("w:name")): int(el.get(qn("w:id"))) for el in root.iter(qn("w:bookmarkStart"))}
    assert (ids["_Ref123"], ids["Clause_A"], ids["_GoBack"]) == (5, 41, 0)
    ours = [i for n, i in ids.items() if n.startswith("_RL_")]
    assert len(ours) == 3 and min(ours) > 41
    # The multi-paragraph bookmark still spans from paragraph 2 to paragraph 3.
    paras = root.findall(f".//{qn('w:p')}")
    assert "Clause_A" in [el.get(qn("w:name")) for el in paras[1].iter(qn("w:bookmarkStart"))]
    assert any(e.get(qn("w:id")) == "41" for e in paras[2].iter(qn("w:bookmarkEnd")))


def test_existing_anchor_is_kept():
    body = "<w:p>" + bm(3, "_RL_0123456789ab") + run("Kept") + be(3) + "</w:p>" + para("New")
    result = read_document(build_docx(body))
    assert result.paragraphs[0].anchor == "_RL_0123456789ab"
    root = document_xml(result.docx)
    assert_well_paired(root)
    assert sum(1 for _, n in bookmarks(root) if n == "_RL_0123456789ab") == 1


def test_duplicate_anchor_name_first_keeps_it_later_is_renamed():
    body = ("<w:p>" + bm(1, "_RL_aaaaaaaaaaaa") + run("one") + be(1) + "</w:p>"
            + "<w:p>" + bm(2, "_RL_aaaaaaaaaaaa") + run("two") + be(2) + "</w:p>")
    data = build_docx(body)
    result = read_document(data)
    first, second = result.paragraphs
    assert first.anchor == "_RL_aaaaaaaaaaaa"
    assert second.anchor != first.anchor and NAME.match(second.anchor)
    assert read_document(data).paragraphs[1].anchor == second.anchor  # deterministic
    assert_well_paired(document_xml(result.docx))


def test_paragraph_with_two_anchors_keeps_the_first():
    body = "<w:p>" + bm(1, "_RL_111111111111") + bm(2, "_RL_222222222222") + run("x") + be(2) + be(1) + "</w:p>"
    result = read_document(build_docx(body))
    assert result.paragraphs[0].anchor == "_RL_111111111111"
    root = document_xml(result.docx)
    assert bookmarks(root) == [("bookmarkStart", "_RL_111111111111"), ("bookmarkEnd", None)]
    assert_well_paired(root)


def test_anchor_sharing_an_id_with_another_bookmark_moves_to_a_fresh_id():
    body = ("<w:p>" + bm(7, "_Ref9") + run("8.2") + be(7) + "</w:p>"
            + "<w:p>" + bm(7, "_RL_777777777777") + run("clause") + be(7) + "</w:p>")
    result = read_document(build_docx(body))
    root = document_xml(result.docx)
    assert_well_paired(root)
    ids = {el.get(qn("w:name")): el.get(qn("w:id")) for el in root.iter(qn("w:bookmarkStart"))}
    assert ids["_Ref9"] == "7" and ids["_RL_777777777777"] != "7"


def test_find_anchor_anchor_map_and_adding_anchors_for_inserted_paragraphs():
    result = read_document(build_docx(para("one") + para("two")))
    root = document_xml(result.docx)
    names = [p.anchor for p in result.paragraphs]
    assert find_anchor(root, names[1]) is not None
    assert anchor_of(find_anchor(root, names[1])) == names[1]
    assert find_anchor(root, "_RL_000000000000") is None
    assert list(anchor_map(root)) == names
    # The write side anchors a paragraph it inserts with the same machinery.
    anchorer = Anchorer(root, seed=b"ops")
    new_p = parse_xml(b'<w:p xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:r><w:t>new</w:t></w:r></w:p>')
    root.find(qn("w:body")).insert(1, new_p)
    name = anchorer.add(new_p)
    assert NAME.match(name) and name not in names
    assert find_anchor(root, name) is new_p
    assert_well_paired(root)


def test_anchor_placed_between_paragraphs_is_found_on_the_next_one():
    body = bm(1, "_RL_abcdefabcdef") + para("target") + be(1)
    root = document_xml(build_docx(body))
    assert find_anchor(root, "_RL_abcdefabcdef").findtext(f".//{qn('w:t')}") == "target"


RICH_BODY = (
    '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>' + run("1. Fees") + "</w:p>"
    + "<w:p>" + run("Pay within ") + '<w:del w:id="1" w:author="Opposing Counsel"><w:r><w:delText>30</w:delText></w:r></w:del>'
    + '<w:ins w:id="2" w:author="Opposing Counsel"><w:r><w:t>60</w:t></w:r></w:ins>' + run(" days of ")
    + '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> REF _Ref1 \\h </w:instrText></w:r>'
    + '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' + run("8.2") + '<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'
    + '<w:p><w:pPr><w:rPr><w:ins w:id="3" w:author="Opposing Counsel"/></w:rPr></w:pPr>'
    + '<w:ins w:id="4" w:author="Opposing Counsel"><w:r><w:t>Inserted clause.</w:t></w:r></w:ins></w:p>'
    + '<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid><w:tr><w:tc>' + para("Cell") + "</w:tc></w:tr></w:tbl>"
    + '<w:sdt><w:sdtPr/><w:sdtContent>' + para("Controlled") + "</w:sdtContent></w:sdt>"
)


@pytest.mark.parametrize("changes", ["accept", "reject", "all"])
def test_anchored_file_reads_the_same_in_pandoc(tmp_path, changes):
    original = tmp_path / "original.docx"
    original.write_bytes(build_docx(RICH_BODY))
    anchored = tmp_path / "anchored.docx"
    anchored.write_bytes(read_document(original.read_bytes()).docx)
    assert oracles.pandoc_text(anchored, changes) == oracles.pandoc_text(original, changes)


def test_anchored_contract_reads_the_same_in_pandoc(tmp_path, small_contract):
    anchored = tmp_path / "anchored.docx"
    anchored.write_bytes(read_document(small_contract.read_bytes()).docx)
    assert oracles.pandoc_text(anchored) == oracles.pandoc_text(small_contract)


@pytest.mark.slow
def test_anchored_files_open_in_libreoffice(tmp_path, small_contract):
    rich = tmp_path / "rich.docx"
    rich.write_bytes(read_document(build_docx(RICH_BODY)).docx)
    contract = tmp_path / "contract.docx"
    contract.write_bytes(read_document(small_contract.read_bytes()).docx)
    assert oracles.opens(rich)
    assert oracles.opens(contract)
    stats = oracles.stats(contract)
    assert stats  # readable by the oracle's own OOXML statistics
