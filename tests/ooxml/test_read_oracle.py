"""Our text views against pandoc's, on the oracle's text model.

The oracle's model: body paragraphs one per line, table cells in row order,
list labels left out, whitespace collapsed, empty lines dropped; accepting a
deleted paragraph mark (or rejecting an inserted one) joins the paragraph to
the next.
"""

from __future__ import annotations

import pytest

from redline.ooxml.paragraphs import Paragraph, read_document
from tests.support import oracles
from tests.support.docx_builder import build_docx, para

AUTHOR = 'w:author="Opposing Counsel" w:date="2024-03-01T09:00:00Z"'


def oracle_lines(paragraphs: list[Paragraph], view: str) -> list[str]:
    lines: list[str] = []
    pending = ""
    joins = "deleted" if view == "accept" else "inserted"
    for p in paragraphs:
        text = pending + (p.text if view == "accept" else p.original_text)
        if p.paragraph_mark == joins:
            pending = text + " "
            continue
        pending = ""
        lines.append(text)
    if pending:
        lines.append(pending)
    return oracles.oracle.normalise(lines)


def r(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def ins(inner: str, i: int) -> str:
    return f'<w:ins w:id="{i}" {AUTHOR}>{inner}</w:ins>'


def dele(text: str, i: int) -> str:
    return f'<w:del w:id="{i}" {AUTHOR}><w:r><w:delText xml:space="preserve">{text}</w:delText></w:r></w:del>'


REVISED_BODY = (
    para("Master Agreement", "Heading1")
    + "<w:p>" + r("The Supplier shall deliver within ") + dele("thirty (30)", 1) + ins(r("sixty (60)"), 2) + r(" days.") + "</w:p>"
    + "<w:p>" + r("Price") + ins(r(" and fees"), 3) + r(" per ") + '<w:hyperlink r:id="rId99">' + r("Schedule 2") + "</w:hyperlink>"
    + r(", see Section ") + '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> REF _Ref7 \\h </w:instrText></w:r>'
    + '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' + r("4.2") + '<w:r><w:fldChar w:fldCharType="end"/></w:r>' + "</w:p>"
    # An inserted paragraph (mark and content inserted).
    + f'<w:p><w:pPr><w:rPr><w:ins w:id="4" {AUTHOR}/></w:rPr></w:pPr>' + ins(r("A new clause by the other side."), 5) + "</w:p>"
    + para("Following paragraph.")
    # A deleted paragraph (mark and content deleted).
    + f'<w:p><w:pPr><w:rPr><w:del w:id="6" {AUTHOR}/></w:rPr></w:pPr>' + dele("An old clause removed.", 7) + "</w:p>"
    + para("After the deleted one.")
    + '<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="4000"/><w:gridCol w:w="4000"/></w:tblGrid><w:tr><w:tc>' + "<w:p>" + r("Fee ") + dele("10", 8) + ins(r("12"), 9) + "</w:p>"
    + "</w:tc><w:tc>" + para("monthly") + "</w:tc></w:tr></w:tbl>"
    + '<w:sdt><w:sdtPr/><w:sdtContent><w:p>' + r("Governing law: ") + dele("New York", 10) + ins(r("England"), 11)
    + "</w:p></w:sdtContent></w:sdt>"
    + '<w:p><w:r><w:t>Tab</w:t><w:tab/><w:t>separated</w:t></w:r></w:p>'
)


@pytest.mark.parametrize("view", ["accept", "reject"])
def test_tracked_changes_by_another_author_match_pandoc(tmp_path, view):
    path = tmp_path / "revised.docx"
    path.write_bytes(build_docx(REVISED_BODY))
    ours = oracle_lines(read_document(path.read_bytes(), anchor=False).paragraphs, view)
    assert ours == oracles.pandoc_text(path, view)
    assert len(ours) >= 8


def test_generated_contract_matches_pandoc(small_contract):
    ours = oracle_lines(read_document(small_contract.read_bytes(), anchor=False).paragraphs, "accept")
    assert ours == oracles.pandoc_text(small_contract, "accept")
    assert len(ours) > 100


def test_generated_later_version_matches_pandoc(tmp_path):
    from tests.ooxml.conftest import make_contract

    v2 = make_contract(tmp_path / "v2.docx", 4, "--revise", "0.3")
    ours = oracle_lines(read_document(v2.read_bytes(), anchor=False).paragraphs, "reject")
    assert ours == oracles.pandoc_text(v2, "reject")
