"""List labels computed from numbering.xml as Word shows them."""

from __future__ import annotations

import pytest

from redline.ooxml.numbering import format_number
from tests.ooxml.read_helpers import abstract, lvl, np, num, numbering, read, start_override, styles

LEGAL = abstract(1, lvl(0, "decimal", "%1."), lvl(1, "decimal", "%1.%2"), lvl(2, "lowerLetter", "%1.%2(%3)"))


def labels(body: str, numbering_xml: str, **kw) -> list[str | None]:
    return [p.list_label for p in read(body, numbering=numbering_xml, **kw)]


def test_multilevel_legal_clause_numbers():
    seq = [(0,), (0,), (0,), (0,), (1,), (1,), (2,), (2,), (1,), (0,), (2,)]
    body = "".join(np(f"clause {i}", 1, level) for i, (level,) in enumerate(seq))
    assert labels(body, numbering(LEGAL, num(1, 1))) == [
        "1.", "2.", "3.", "4.", "4.1", "4.2", "4.2(a)", "4.2(b)", "4.3", "5.",
        "5.0(a)",  # a skipped level shows start - 1, as Word does
    ]


def test_num_level_is_reported():
    paras = read(np("a", 1, 0) + np("b", 1, 2), numbering=numbering(LEGAL, num(1, 1)))
    assert [p.num_level for p in paras] == [0, 2]


def test_article_upper_roman_with_legal_sub_numbers():
    art = abstract(2, lvl(0, "upperRoman", "Article %1"), lvl(1, "decimal", "Section %1.%2", extra="<w:isLgl/>"))
    body = np("a", 4, 0) + np("b", 4, 0) + np("c", 4, 0) + np("d", 4, 1) + np("e", 4, 1)
    assert labels(body, numbering(art, num(4, 2))) == [
        "Article I", "Article II", "Article III", "Section 3.1", "Section 3.2"]


def test_roman_in_parentheses_and_start_value():
    ab = abstract(3, lvl(0, "lowerRoman", "(%1)", start=3))
    assert labels(np("a", 1) + np("b", 1), numbering(ab, num(1, 3))) == ["(iii)", "(iv)"]


def test_nums_sharing_an_abstract_list_continue_and_start_override_restarts():
    nxml = numbering(LEGAL, num(1, 1), num(2, 1, start_override(0, 1)), num(3, 1))
    body = np("a", 1) + np("b", 1) + np("c", 2) + np("d", 1) + np("e", 2) + np("f", 3)
    # num 2 restarts at its first use, then all three share the counter of abstract 1.
    assert labels(body, nxml) == ["1.", "2.", "1.", "2.", "3.", "4."]


def test_start_override_also_sets_the_start_value():
    nxml = numbering(LEGAL, num(1, 1), num(2, 1, start_override(0, 7)))
    assert labels(np("a", 1) + np("b", 2) + np("c", 2), nxml) == ["1.", "7.", "8."]


def test_lvl_restart_zero_keeps_counting_across_parents():
    ab = abstract(5, lvl(0, "decimal", "%1."), lvl(1, "decimal", "Note %2", extra='<w:lvlRestart w:val="0"/>'))
    body = np("a", 1, 0) + np("n", 1, 1) + np("b", 1, 0) + np("n", 1, 1)
    assert labels(body, numbering(ab, num(1, 5))) == ["1.", "Note 1", "2.", "Note 2"]


def test_lvl_override_can_redefine_a_level():
    override = '<w:lvlOverride w:ilvl="0">' + lvl(0, "upperLetter", "Schedule %1") + "</w:lvlOverride>"
    assert labels(np("a", 9) + np("b", 9), numbering(LEGAL, num(9, 1, override))) == ["Schedule A", "Schedule B"]


def test_bullets_read_as_their_glyphs():
    ab = abstract(6, lvl(0, "bullet", "\uf0b7", font="Symbol"), lvl(1, "bullet", "o", font="Courier New"),
                  lvl(2, "bullet", "\uf0a7", font="Wingdings"))
    body = np("a", 1, 0) + np("b", 1, 1) + np("c", 1, 2)
    assert labels(body, numbering(ab, num(1, 6))) == ["•", "o", "▪"]


def test_numbering_from_the_paragraph_style_and_numid_zero_switches_it_off():
    style = ('<w:style w:type="paragraph" w:styleId="ListNumber"><w:name w:val="List Number"/>'
             '<w:basedOn w:val="Normal"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>'
             '<w:style w:type="paragraph" w:styleId="ListNumber2"><w:name w:val="List Number 2"/>'
             '<w:basedOn w:val="ListNumber"/></w:style>')
    body = (np("a", None, style="ListNumber") + np("b", None, style="ListNumber2") + np("plain", 0, style="ListNumber")
            + np("c", None, style="ListNumber"))
    assert labels(body, numbering(LEGAL, num(1, 1)), styles=styles(style)) == ["1.", "2.", None, "3."]


def test_heading_numbering_linked_to_levels_by_pstyle():
    ab = abstract(7, lvl(0, "decimal", "%1", extra='<w:pStyle w:val="Heading1"/>'),
                  lvl(1, "decimal", "%1.%2", extra='<w:pStyle w:val="Heading2"/>'))
    st = styles(
        '<w:style w:type="paragraph" w:styleId="H1N"><w:name w:val="heading 1 numbered"/><w:basedOn w:val="Heading1"/></w:style>')
    heading_styles = (st.replace('<w:outlineLvl w:val="0"/></w:pPr>', '<w:outlineLvl w:val="0"/><w:numPr><w:numId w:val="3"/></w:numPr></w:pPr>')
                      .replace('<w:outlineLvl w:val="1"/></w:pPr>', '<w:outlineLvl w:val="1"/><w:numPr><w:numId w:val="3"/></w:numPr></w:pPr>'))
    body = np("Definitions", None, style="Heading1") + np("Terms", None, style="Heading2") + np("More", None, style="Heading2") \
        + np("Payment", None, style="Heading1")
    assert labels(body, numbering(ab, num(3, 7)), styles=heading_styles) == ["1", "1.1", "1.2", "2"]


def test_list_style_reached_through_num_style_link():
    definition = abstract(11, lvl(0, "decimal", "(%1)"), extra='<w:styleLink w:val="LegalList"/>')
    user = abstract(10, extra='<w:numStyleLink w:val="LegalList"/>')
    st = styles('<w:style w:type="numbering" w:styleId="LegalList"><w:name w:val="Legal List"/>'
                '<w:pPr><w:numPr><w:numId w:val="11"/></w:numPr></w:pPr></w:style>')
    nxml = numbering(definition, user, num(11, 11), num(12, 10))
    assert labels(np("a", 12) + np("b", 12), nxml, styles=st) == ["(1)", "(2)"]


def test_paragraph_deleted_when_changes_are_accepted_is_not_counted():
    gone = ('<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'
            '<w:rPr><w:del w:id="1" w:author="X"/></w:rPr></w:pPr>'
            '<w:del w:id="2" w:author="X"><w:r><w:delText>old clause</w:delText></w:r></w:del></w:p>')
    assert labels(np("a", 1) + gone + np("b", 1), numbering(LEGAL, num(1, 1))) == ["1.", None, "2."]


def test_unknown_num_and_missing_numbering_part_give_no_label():
    assert labels(np("a", 42), numbering(LEGAL, num(1, 1))) == [None]
    assert [p.list_label for p in read(np("a", 1))] == [None]


@pytest.mark.parametrize(("n", "fmt", "expected"), [
    (4, "upperRoman", "IV"), (1994, "lowerRoman", "mcmxciv"), (27, "lowerLetter", "aa"), (53, "upperLetter", "AAA"),
    (7, "decimalZero", "07"), (12, "decimalZero", "12"), (1, "ordinal", "1st"), (12, "ordinal", "12th"),
    (23, "ordinal", "23rd"), (5, "none", ""), (3, "decimalEnclosedParen", "(3)"), (7, "custom:001, 002, 003, ...", "007"),
    (8, "someFutureFormat", "8"),
])
def test_number_formats(n, fmt, expected):
    assert format_number(n, fmt) == expected
