"""The paragraph model: order, styles, headings, tables, content controls, Markdown, sidecar."""

from __future__ import annotations

from redline.ooxml.markdown import numbered, to_markdown, to_sidecar
from redline.ooxml.paragraphs import TablePosition, read_document
from tests.ooxml.read_helpers import read, styles
from tests.support.docx_builder import NS_DECL, build_docx, para


def cell(*paras: str) -> str:
    return "<w:tc><w:tcPr/>" + "".join(paras) + "</w:tc>"


def table(*rows: list[str]) -> str:
    return "<w:tbl><w:tblPr/><w:tblGrid/>" + "".join("<w:tr>" + "".join(r) + "</w:tr>" for r in rows) + "</w:tbl>"


def sdt(content: str) -> str:
    return f'<w:sdt><w:sdtPr><w:alias w:val="Clause"/></w:sdtPr><w:sdtContent>{content}</w:sdtContent></w:sdt>'


def test_styles_and_heading_levels():
    custom = ('<w:style w:type="paragraph" w:styleId="ClauseHeading"><w:name w:val="Clause Heading"/>'
              '<w:basedOn w:val="Heading2"/></w:style>'
              '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>'
              '<w:style w:type="paragraph" w:styleId="Outline3"><w:name w:val="Outline Three"/>'
              '<w:pPr><w:outlineLvl w:val="2"/></w:pPr></w:style>')
    body = (para("AGREEMENT", "Title") + para("Definitions", "Heading1") + para("Fees", "ClauseHeading")
            + para("Deep", "Outline3") + '<w:p><w:pPr><w:outlineLvl w:val="3"/></w:pPr><w:r><w:t>Direct</w:t></w:r></w:p>'
            + '<w:p><w:pPr><w:pStyle w:val="Heading1"/><w:outlineLvl w:val="9"/></w:pPr><w:r><w:t>Body</w:t></w:r></w:p>'
            + para("Plain") + para("Unknown style", "NoSuchStyle"))
    got = [(p.style_id, p.style_name, p.heading_level) for p in read(body, styles=styles(custom))]
    assert got == [
        ("Title", "Title", 1), ("Heading1", "Heading 1", 1), ("ClauseHeading", "Clause Heading", 2),
        ("Outline3", "Outline Three", 3), ("Normal", "Normal", 4), ("Heading1", "Heading 1", None),
        ("Normal", "Normal", None), ("Normal", "Normal", None),
    ]


def test_document_without_styles_part():
    [p] = read(para("Hello"), styles=None)
    assert (p.style_id, p.style_name, p.heading_level, p.text) == (None, None, None, "Hello")


def test_tables_nested_tables_and_content_controls_in_document_order():
    inner = table([cell(para("n00")), cell(para("n01"))])
    body = (para("before")
            + table([cell(para("a"), para("b")), cell(para("c"))], [cell(para("d")), cell(para("e"), inner, para("f"))])
            + sdt(para("in control") + table([cell(para("cc cell"))]))
            + "<w:tbl><w:tblPr/><w:sdt><w:sdtPr/><w:sdtContent><w:tr>" + cell(para("row in control"))
            + "</w:tr></w:sdtContent></w:sdt></w:tbl>"
            + para("after"))
    paras = read(body)
    assert [p.text for p in paras] == ["before", "a", "b", "c", "d", "e", "n00", "n01", "f", "in control", "cc cell",
                                       "row in control", "after"]
    assert [p.index for p in paras] == list(range(13))
    by = {p.text: p for p in paras}
    assert by["before"].table is None
    assert by["b"].table == TablePosition(0, 0, 0)
    assert by["e"].table == TablePosition(0, 1, 1)
    assert by["n01"].table == TablePosition(1, 0, 1, parent=TablePosition(0, 1, 1))
    assert by["f"].table == TablePosition(0, 1, 1)
    assert by["cc cell"].table == TablePosition(2, 0, 0) and by["cc cell"].in_content_control
    assert by["in control"].in_content_control and by["in control"].table is None
    assert by["row in control"].in_content_control and by["row in control"].table == TablePosition(3, 0, 0)
    assert not by["after"].in_content_control


def test_revised_and_original_text_of_tracked_changes_by_another_author():
    body = ('<w:p><w:r><w:t xml:space="preserve">The fee is </w:t></w:r>'
            '<w:del w:id="1" w:author="Opposing Counsel" w:date="2024-02-01T10:00:00Z"><w:r><w:delText>ten</w:delText></w:r></w:del>'
            '<w:ins w:id="2" w:author="Opposing Counsel" w:date="2024-02-01T10:00:00Z"><w:r><w:t>twelve</w:t></w:r></w:ins>'
            '<w:r><w:t xml:space="preserve"> dollars.</w:t></w:r></w:p>' + para("Untouched."))
    changed, untouched = read(body)
    assert (changed.text, changed.original_text, changed.has_revisions) == (
        "The fee is twelve dollars.", "The fee is ten dollars.", True)
    assert (untouched.text, untouched.original_text, untouched.has_revisions) == ("Untouched.", "Untouched.", False)


def test_document_with_existing_comments_reads_without_comment_text():
    comments = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:comments {NS_DECL}>'
                '<w:comment w:id="0" w:author="Reviewer" w:date="2024-01-01T00:00:00Z" w:initials="R">'
                '<w:p><w:r><w:t>Why so long?</w:t></w:r></w:p></w:comment></w:comments>')
    body = ('<w:p><w:commentRangeStart w:id="0"/><w:r><w:t>Term is ten years.</w:t></w:r><w:commentRangeEnd w:id="0"/>'
            '<w:r><w:commentReference w:id="0"/></w:r></w:p>')
    result = read_document(build_docx(body, comments=comments))
    assert [p.text for p in result.paragraphs] == ["Term is ten years."]
    assert result.paragraphs[0].anchor is not None


def test_sections_count_section_breaks():
    body = ('<w:p><w:pPr><w:sectPr/></w:pPr><w:r><w:t>end of first</w:t></w:r></w:p>' + para("second"))
    assert [p.section for p in read(body)] == [0, 1]


def test_empty_paragraphs_are_in_the_model_but_not_numbered():
    result = read_document(build_docx(para("one") + "<w:p/>" + para("  ") + para("two")))
    paras = result.paragraphs
    assert [p.is_empty for p in paras] == [False, True, True, False]
    assert [p.anchor is None for p in paras] == [False, True, True, False]
    assert [(n, p.text) for n, p in numbered(paras)] == [(1, "one"), (2, "two")]


def test_markdown_headings_labels_numbers_and_tables():
    from tests.ooxml.read_helpers import abstract, lvl, np, num, numbering

    nxml = numbering(abstract(1, lvl(0, "decimal", "%1."), lvl(1, "lowerLetter", "(%2)")), num(1, 1))
    body = (para("Payment", "Heading1") + np("Fees are due.", 1, 0) + np("in cash | cheque", 1, 1)
            + table([cell(para("Item")), cell(para("Price"))], [cell(para("Support")), cell(para("10"), para("per hour"))])
            + "<w:p/>" + para("End"))
    md = to_markdown(read(body, numbering=nxml))
    assert md == (
        "# [1] Payment\n\n"
        "[2] 1. Fees are due.\n\n"
        "[3] (a) in cash | cheque\n\n"
        "| [4] Item | [5] Price |\n"
        "|---|---|\n"
        "| [6] Support | [7] 10<br>[8] per hour |\n\n"
        "[9] End\n"
    )


def test_sidecar_is_keyed_by_anchor_in_the_seed_format():
    body = para("Payment", "Heading2") + para("Pay on time.") + table([cell(para("Cell text"))])
    paras = read_document(build_docx(body)).paragraphs
    side = to_sidecar(paras)
    assert list(side) == [p.anchor for p in paras]
    h, p, c = (side[a.anchor] for a in paras)
    assert h == {"text": "Payment", "type": "heading", "level": 2, "location": {"section": 0, "paragraph": 1},
                 "list_label": None, "table": None}
    assert p == {"text": "Pay on time.", "type": "paragraph", "location": {"section": 0, "paragraph": 2},
                 "list_label": None, "table": None}
    assert c["table"] == {"table": 0, "row": 0, "cell": 0}


def test_generated_contract_model(small_contract):
    paras = read_document(small_contract.read_bytes()).paragraphs
    assert paras[0].style_name == "Title" and paras[0].heading_level == 1
    articles = [p for p in paras if p.style_name == "Heading 1"]
    sections = [p for p in paras if p.style_name == "Heading 2"]
    assert articles and all(p.heading_level == 1 for p in articles)
    assert sections and all(p.heading_level == 2 for p in sections)
    assert any(p.text.startswith("ARTICLE 1") for p in articles)
    # Its clause labels are literal text ("(a) ..."), so no computed labels appear.
    assert all(p.list_label is None for p in paras)
    assert any(p.text.startswith("(a) ") for p in paras if p.style_name == "List Paragraph")
    in_tables = [p for p in paras if p.table is not None]
    assert in_tables and {p.table.row for p in in_tables} >= {0, 1}
    assert all(p.anchor for p in paras if not p.is_empty)
    # REF fields read as their cached result ("Section 8.2"), never as instructions.
    assert not any("REF _Ref" in p.text for p in paras)
