"""paragraph_text: what Word shows, with changes accepted or rejected."""

from __future__ import annotations

import pytest

from redline.ooxml.text import has_revisions, paragraph_text, text_segments
from tests.ooxml.read_helpers import p_el

INS = '<w:ins w:id="{i}" w:author="Opposing Counsel" w:date="2024-01-01T00:00:00Z">{c}</w:ins>'
DEL = '<w:del w:id="{i}" w:author="Opposing Counsel" w:date="2024-01-01T00:00:00Z">{c}</w:del>'


def r(text: str, rpr: str = "") -> str:
    return f'<w:r>{"<w:rPr>" + rpr + "</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{text}</w:t></w:r>'


def dr(text: str) -> str:
    return f'<w:r><w:delText xml:space="preserve">{text}</w:delText></w:r>'


def both(inner: str) -> tuple[str, str]:
    p = p_el(inner)
    return paragraph_text(p, "accept"), paragraph_text(p, "reject")


def test_formatting_changing_mid_word_reads_as_one_word():
    assert both(r("Indem") + r("nifi", "<w:b/>") + r("cation", "<w:i/>") + r(" applies")) == (
        "Indemnification applies", "Indemnification applies")


def test_insertion_and_deletion_by_another_author():
    inner = r("pay within ") + DEL.format(i=1, c=dr("thirty (30)")) + INS.format(i=2, c=r("sixty (60)")) + r(" days")
    assert both(inner) == ("pay within sixty (60) days", "pay within thirty (30) days")
    assert has_revisions(p_el(inner))


def test_deletion_inside_insertion_is_gone_in_both_views():
    inner = r("A ") + INS.format(i=1, c=r("new ") + DEL.format(i=2, c=dr("bad "))) + r("term")
    assert both(inner) == ("A new term", "A term")


def test_moves_follow_insert_and_delete():
    inner = ('<w:moveFrom w:id="1" w:author="X">' + r("moved ") + "</w:moveFrom>" + r("text ")
             + '<w:moveTo w:id="2" w:author="X">' + r("moved") + "</w:moveTo>")
    assert both(inner) == ("text moved", "moved text ")


def test_no_revisions_and_formatting_changes_do_not_count():
    inner = ('<w:r><w:rPr><w:b/><w:rPrChange w:id="1" w:author="X"><w:rPr/></w:rPrChange></w:rPr>'
             '<w:t>bold now</w:t></w:r>')
    assert not has_revisions(p_el(inner))
    assert has_revisions(p_el('<w:pPr><w:rPr><w:ins w:id="1" w:author="X"/></w:rPr></w:pPr>' + r("x")))


def test_hyperlink_text_is_read():
    inner = r("See ") + '<w:hyperlink r:id="rId9">' + r("the website", '<w:rStyle w:val="Hyperlink"/>') + "</w:hyperlink>" + r(".")
    assert both(inner)[0] == "See the website."


def test_complex_field_shows_result_not_instruction():
    inner = (r("subject to Section ") + '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
             + '<w:r><w:instrText xml:space="preserve"> REF _Ref123 \\h </w:instrText></w:r>'
             + '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' + r("8.2")
             + '<w:r><w:fldChar w:fldCharType="end"/></w:r>' + r(" below"))
    assert both(inner)[0] == "subject to Section 8.2 below"


def test_nested_field_inside_instruction_stays_hidden():
    begin, sep, end = (f'<w:r><w:fldChar w:fldCharType="{k}"/></w:r>' for k in ("begin", "separate", "end"))
    instr = '<w:r><w:instrText xml:space="preserve"> IF </w:instrText></w:r>'
    inner = (r("x=") + begin + instr + begin + '<w:r><w:instrText> DOCPROPERTY a </w:instrText></w:r>' + sep
             + r("inner") + end + '<w:r><w:instrText> = 1 "yes" "no"</w:instrText></w:r>' + sep + r("yes") + end)
    assert both(inner)[0] == "x=yes"


def test_simple_field_shows_its_result():
    assert both(r("Page ") + '<w:fldSimple w:instr=" PAGE "><w:r><w:t>3</w:t></w:r></w:fldSimple>')[0] == "Page 3"


def test_field_begun_in_earlier_paragraph_ends_cleanly():
    # A TOC ends in its last paragraph: an unmatched end must not hide what follows.
    assert both(r("Last entry") + '<w:r><w:fldChar w:fldCharType="end"/></w:r>' + r(" after"))[0] == "Last entry after"


def test_tabs_breaks_and_hyphens():
    inner = ('<w:r><w:t>4.2</w:t><w:tab/><w:t>Fees</w:t><w:br/><w:t>line</w:t><w:cr/><w:t>two</w:t></w:r>'
             '<w:r><w:t>non</w:t><w:noBreakHyphen/><w:t>refundable</w:t><w:softHyphen/><w:t>!</w:t></w:r>')
    assert both(inner)[0] == "4.2\tFees\nline\ntwonon-refundable!"


@pytest.mark.parametrize(("font", "char", "expected"), [
    ("Symbol", "F0B3", "≥"), ("Symbol", "F0B7", "•"), ("Wingdings", "F0FC", "✓"), ("Times New Roman", "00A7", "§"),
    ("Times New Roman", "F041", "A"),
])
def test_symbols(font, char, expected):
    assert both(f'<w:r><w:sym w:font="{font}" w:char="{char}"/></w:r>')[0] == expected


def test_smart_tags_custom_xml_and_inline_content_controls_are_transparent():
    inner = ('<w:smartTag w:uri="urn:schemas-microsoft-com:office:smarttags" w:element="City">'
             '<w:smartTagPr><w:attr w:name="x" w:val="y"/></w:smartTagPr>' + r("London") + "</w:smartTag>"
             + r(", ") + '<w:sdt><w:sdtPr><w:alias w:val="Party"/><w:showingPlcHdr/></w:sdtPr><w:sdtContent>'
             + r("ACME Ltd") + "</w:sdtContent></w:sdt>" + '<w:customXml w:element="x">' + r("!") + "</w:customXml>")
    assert both(inner)[0] == "London, ACME Ltd!"


def test_drawings_instructions_and_references_carry_no_text():
    inner = ('<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"/>'
             '</w:drawing></w:r>' + r("Body") + '<w:r><w:footnoteReference w:id="1"/></w:r>'
             + '<w:r><w:instrText>PAGE</w:instrText></w:r>' + '<w:bookmarkStart w:id="1" w:name="x"/><w:bookmarkEnd w:id="1"/>'
             + '<w:commentRangeStart w:id="0"/>' + r(" text") + '<w:commentRangeEnd w:id="0"/>'
             + '<w:r><w:commentReference w:id="0"/></w:r>')
    assert both(inner) == ("Body text", "Body text")


def test_deleted_text_outside_a_deletion_is_still_only_in_the_rejected_view():
    assert both(dr("gone")) == ("", "gone")


def test_segments_join_to_the_text_and_name_their_elements():
    inner = r("Hel") + r("lo", "<w:b/>") + DEL.format(i=1, c=dr(" old")) + '<w:r><w:tab/></w:r>'
    p = p_el(inner)
    for view in ("accept", "reject"):
        segs = text_segments(p, view)
        assert "".join(s for _, s in segs) == paragraph_text(p, view)
    tags = [el.tag.split("}")[1] for el, _ in text_segments(p, "reject")]
    assert tags == ["t", "t", "delText", "tab"]
