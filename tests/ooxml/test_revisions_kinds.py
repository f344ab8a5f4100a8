"""Accept/reject of every revision kind beyond runs and marks, stated as the XML each must give.

pandoc and LibreOffice do not implement several of these (cell insertions and
deletions, vertical merges, custom XML markup, section and grid changes), so
the expectations here come from ECMA-376 §17.13 directly.
"""

from __future__ import annotations

from lxml import etree

from redline.ooxml.oxml import NSMAP, parse_xml, qn
from redline.ooxml.revisions import accept, reject
from redline.ooxml.text import paragraph_text
from tests.support.docx_builder import NS_DECL
from tests.support.revision_docs import A, B, anchored, cell, d, dele, ins, p, r


def body(inner: str) -> etree._Element:
    return parse_xml(f"<w:body {NS_DECL}>{inner}</w:body>".encode())


def names(el: etree._Element | None) -> list[str]:
    return [] if el is None else [etree.QName(c).localname for c in el]


def texts(root: etree._Element) -> list[str]:
    return [paragraph_text(x) for x in root.iter(qn("w:p"))]


def find(root: etree._Element, path: str) -> etree._Element | None:
    return root.find(path, namespaces={"w": NSMAP["w"]})


def test_section_changes_restore_the_page_but_keep_header_references():
    xml = p(r("x"), '<w:sectPr><w:headerReference w:type="default" r:id="rId9"/><w:pgSz w:w="12240" w:h="15840"/>'
                    '<w:cols w:space="720"/>'
                    f'<w:sectPrChange w:id="1" {A}><w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr>'
                    "</w:sectPrChange></w:sectPr>")
    b = body(xml)
    reject(b)
    sect = find(b, ".//w:sectPr")
    assert names(sect) == ["headerReference", "pgSz"]
    assert sect[1].get(qn("w:w")) == "11906"
    b = body(xml)
    accept(b)
    assert names(find(b, ".//w:sectPr")) == ["headerReference", "pgSz", "cols"]


def test_table_grid_changes_follow_their_table_change_author():
    xml = ('<w:tbl><w:tblPr><w:tblW w:w="6000" w:type="dxa"/>'
           f'<w:tblPrChange w:id="1" {B}><w:tblPr/></w:tblPrChange></w:tblPr>'
           '<w:tblGrid><w:gridCol w:w="6000"/><w:tblGridChange w:id="2"><w:tblGrid><w:gridCol w:w="4000"/>'
           "</w:tblGrid></w:tblGridChange></w:tblGrid>" + "<w:tr>" + cell(p(r("x"))) + "</w:tr></w:tbl>")
    b = body(xml)
    assert reject(b, authors=["Alice"]) == 0
    assert reject(b, authors=["Bob"]) == 2
    assert names(find(b, ".//w:tblPr")) == []  # an empty original, but a table keeps its w:tblPr
    grid = find(b, ".//w:tblGrid")
    assert names(grid) == ["gridCol"] and grid[0].get(qn("w:w")) == "4000"


def test_an_empty_original_removes_the_property_element():
    xml = (p(r("bold", f'<w:b/><w:rPrChange w:id="1" {A}><w:rPr/></w:rPrChange>'),
             f'<w:jc w:val="center"/><w:pPrChange w:id="2" {A}><w:pPr/></w:pPrChange>')
           + p(r("kept mark"), f'<w:jc w:val="right"/><w:rPr><w:ins w:id="3" {A}/></w:rPr>'
                               f'<w:pPrChange w:id="4" {A}><w:pPr/></w:pPrChange>'))
    b = body(xml)
    reject(b, ids=["1", "2", "4"])
    first, second = b.iterchildren(qn("w:p"))
    assert names(first) == ["r"] and names(first[0]) == ["t"]  # no w:pPr, no w:rPr left
    assert names(second.find(qn("w:pPr"))) == ["rPr"]  # the mark's own revision is not part of the record
    assert names(second.find(f"{qn('w:pPr')}/{qn('w:rPr')}")) == ["ins"]


def test_a_row_property_change_rejected_keeps_the_rows_insertion_pending():
    xml = (f'<w:tbl><w:tblPr/><w:tblGrid/><w:tr><w:trPr><w:cantSplit/><w:ins w:id="1" {A}/>'
           f'<w:trPrChange w:id="2" {B}><w:trPr><w:jc w:val="center"/></w:trPr></w:trPrChange></w:trPr>'
           + cell(p(r("row"))) + "</w:tr></w:tbl>")
    b = body(xml)
    reject(b, ids=["2"])
    assert names(find(b, ".//w:trPr")) == ["jc", "ins"]
    reject(b)
    assert find(b, ".//w:tbl") is None  # the inserted row was the table's only row


def test_cells_inserted_and_deleted():
    xml = ('<w:tbl><w:tblPr/><w:tblGrid/><w:tr>' + cell(p(r("kept")))
           + cell(p(r("new cell")), f'<w:cellIns w:id="1" {B}/>')
           + cell(p(r("old cell")), f'<w:cellDel w:id="2" {A}/>') + "</w:tr></w:tbl>" + p(r("after")))
    b = body(xml)
    assert accept(b) == 2
    assert texts(b) == ["kept", "new cell", "after"]
    assert b.find(f".//{qn('w:cellIns')}") is None
    b = body(xml)
    reject(b)
    assert texts(b) == ["kept", "old cell", "after"]
    b = body(xml)
    accept(b, authors=["Bob"])
    assert texts(b) == ["kept", "new cell", "old cell", "after"] and b.find(f".//{qn('w:cellDel')}") is not None


def test_a_row_left_without_cells_goes_and_its_bookmark_moves_to_the_next_paragraph():
    xml = ('<w:tbl><w:tblPr/><w:tblGrid/><w:tr>'
           + cell(p('<w:bookmarkStart w:id="7" w:name="Clause"/>' + r("gone")), f'<w:cellDel w:id="1" {A}/>')
           + "</w:tr><w:tr>" + cell(p(r("stays"))) + "</w:tr></w:tbl>" + p(r("after") + '<w:bookmarkEnd w:id="7"/>'))
    b = body(xml)
    accept(b)
    assert len(b.findall(f".//{qn('w:tr')}")) == 1
    stays = next(x for x in b.iter(qn("w:p")) if paragraph_text(x) == "stays")
    assert stays[0].tag == qn("w:bookmarkStart") and stays[0].get(qn("w:name")) == "Clause"


def test_vertical_merge_changes_set_the_revised_or_original_state():
    xml = ('<w:tbl><w:tblPr/><w:tblGrid/><w:tr>'
           + cell(p(r("x")), f'<w:cellMerge w:id="1" {A} w:vMerge="cont" w:vMergeOrig="rest"/>') + "</w:tr></w:tbl>")
    b = body(xml)
    accept(b)
    merge = find(b, ".//w:tcPr/w:vMerge")
    assert merge is not None and merge.get(qn("w:val")) is None  # continue
    assert names(find(b, ".//w:tcPr")) == ["tcW", "vMerge"]
    b = body(xml)
    reject(b)
    assert find(b, ".//w:tcPr/w:vMerge").get(qn("w:val")) == "restart"
    b = body(xml.replace(' w:vMerge="cont"', ""))
    accept(b)
    assert find(b, ".//w:tcPr/w:vMerge") is None


def test_numbering_inserted_and_numbering_change_records():
    xml = p(r("item"), f'<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/>'
                       f'<w:numberingChange w:id="1" {A} w:original="%1."/><w:ins w:id="2" {A}/></w:numPr>')
    b = body(xml)
    assert accept(b) == 2
    assert names(find(b, ".//w:numPr")) == ["ilvl", "numId"]
    b = body(xml)
    reject(b)
    assert find(b, ".//w:numPr") is None


def test_custom_xml_markup_inserted_is_unwrapped_on_reject_and_kept_on_accept():
    xml = (f'<w:customXmlInsRangeStart w:id="1" {B}/><w:customXml w:element="clause"><w:customXmlPr/>'
           '<w:customXmlInsRangeEnd w:id="1"/>' + p(r("Inside")) + f'<w:customXmlInsRangeStart w:id="2" {B}/>'
           '</w:customXml><w:customXmlInsRangeEnd w:id="2"/>' + p(r("After")))
    b = body(xml)
    assert accept(b) == 2
    assert names(b) == ["customXml", "p"] and names(b[0]) == ["customXmlPr", "p"]
    b = body(xml)
    reject(b)
    assert names(b) == ["p", "p"] and texts(b) == ["Inside", "After"]
    deleted = xml.replace("customXmlIns", "customXmlDel")
    b = body(deleted)
    accept(b)
    assert names(b) == ["p", "p"]
    b = body(deleted)
    reject(b)
    assert names(b) == ["customXml", "p"]


def test_a_deleted_field_instruction_comes_back_on_reject():
    xml = p(f'<w:del w:id="1" {A}><w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            '<w:r><w:delInstrText xml:space="preserve"> QUOTE "x" </w:delInstrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' + d("x") + '<w:r><w:fldChar w:fldCharType="end"/></w:r></w:del>')
    b = body(xml)
    reject(b)
    assert find(b, ".//w:instrText").text == ' QUOTE "x" ' and find(b, ".//w:delInstrText") is None
    assert texts(b) == ["x"]


def test_one_side_of_a_move_selects_the_whole_move():
    xml = (p(f'<w:moveFromRangeStart w:id="1" w:name="m" {A}/><w:moveFrom w:id="2" {A}>{r("Moved")}</w:moveFrom>'
             '<w:moveFromRangeEnd w:id="1"/>' + r(" stays"))
           + p(r("Here ") + f'<w:moveToRangeStart w:id="3" w:name="m" {A}/><w:moveTo w:id="4" {A}>{r("Moved")}'
               '</w:moveTo><w:moveToRangeEnd w:id="3"/>')
           + p(f'<w:moveTo w:id="9" {A}>{r("Unnamed")}</w:moveTo>'))
    b = body(xml)
    assert accept(b, ids=["4"]) == 4
    assert texts(b) == [" stays", "Here Moved", "Unnamed"]
    assert [etree.QName(x).localname for x in b.iter() if "move" in etree.QName(x).localname] == ["moveTo"]


def test_selection_by_anchor_takes_the_paragraphs_revisions_and_its_rows():
    xml = (anchored(1, r("one ") + ins(1, r("a"))) + anchored(2, r("two ") + ins(2, r("b")))
           + f'<w:tbl><w:tblPr/><w:tblGrid/><w:tr><w:trPr><w:ins w:id="3" {A}/></w:trPr>'
           + cell(anchored(3, r("row"))) + "</w:tr></w:tbl>")
    b = body(xml)
    assert reject(b, anchors=["_RL_000000000002", "_RL_000000000003", "_RL_missing"]) == 2
    assert texts(b) == ["one a", "two "]
    assert find(b, ".//w:ins").get(qn("w:id")) == "1"
    b = body(xml)
    assert accept(b, anchors=["_RL_000000000001"], authors=["Bob"]) == 0  # filters combine


def test_insert_inside_delete_by_two_authors_resolves_either_way():
    # Bob deleted a span inside which Alice had inserted a word (the other nesting from Word's).
    xml = p(r("A ") + f'<w:del w:id="1" {B}>{d("old ")}{ins(2, r("new "))}</w:del>' + r("B"))
    b = body(xml)
    accept(b, authors=["Alice"])
    assert paragraph_text(b[0], "accept") == "A B" and paragraph_text(b[0], "reject") == "A old new B"
    reject(b, authors=["Bob"])
    assert texts(b) == ["A old new B"] and find(b, ".//w:del") is None
    b = body(xml)
    accept(b)
    assert texts(b) == ["A B"]
    b = body(xml)
    reject(b)
    assert texts(b) == ["A old B"]


def test_comment_references_in_removed_content_are_kept():
    xml = p(r("x") + dele(1, "gone") + f'<w:del w:id="2" {A}><w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr>'
            '<w:commentReference w:id="5"/></w:r></w:del>')
    b = body(xml)
    accept(b)
    ref = find(b, ".//w:commentReference")
    assert ref is not None and names(ref.getparent()) == ["rPr", "commentReference"]
