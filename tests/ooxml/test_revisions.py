"""The engine's own accept/reject: every revision kind the writer relies on."""

from __future__ import annotations

from lxml import etree

from redline.ooxml.oxml import parse_xml, qn
from redline.ooxml.package import Package
from redline.ooxml.revisions import RevisionIds, Tracker, accept, reject, track_paragraph_mark
from redline.ooxml.text import paragraph_text
from tests.support import oracles
from tests.support.docx_builder import NS_DECL, build_docx

A = 'w:author="Alice" w:date="2024-01-01T00:00:00Z"'
B = 'w:author="Bob" w:date="2024-02-01T00:00:00Z"'


def body(inner: str) -> etree._Element:
    return parse_xml(f"<w:body {NS_DECL}>{inner}</w:body>".encode())


def texts(el: etree._Element, view: str = "accept") -> list[str]:
    return [paragraph_text(p, view) for p in el.iterchildren(qn("w:p"))]


def r(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def d(text: str) -> str:
    return f'<w:r><w:delText xml:space="preserve">{text}</w:delText></w:r>'


RUNS = (f'<w:p>{r("Keep ")}<w:ins w:id="1" {A}>{r("added ")}</w:ins><w:del w:id="2" {B}>{d("gone ")}</w:del>'
        f'{r("end")}</w:p>')


def test_insertions_and_deletions_accept_and_reject():
    b = body(RUNS)
    assert accept(b) == 2
    assert texts(b) == ["Keep added end"]
    assert b.find(f".//{qn('w:delText')}") is None
    b = body(RUNS)
    assert reject(b) == 2
    assert texts(b) == ["Keep gone end"]
    assert b.find(f".//{qn('w:delText')}") is None  # restored text is w:t again


def test_selection_by_author_and_by_id_leaves_the_rest_pending():
    b = body(RUNS)
    accept(b, authors=["Bob"])
    assert texts(b, "accept") == ["Keep added end"] and texts(b, "reject") == ["Keep end"]
    assert b.find(f".//{qn('w:ins')}") is not None
    b = body(RUNS)
    reject(b, ids=["1"])
    assert texts(b, "accept") == ["Keep end"] and texts(b, "reject") == ["Keep gone end"]


def test_text_inserted_by_one_author_and_deleted_by_another():
    b = body(f'<w:p>{r("A ")}<w:ins w:id="1" {A}>{r("x ")}<w:del w:id="2" {B}>{d("y ")}</w:del></w:ins>{r("B")}</w:p>')
    accept(b, authors=["Alice"])
    assert texts(b, "accept") == ["A x B"] and texts(b, "reject") == ["A x y B"]
    reject(b, authors=["Bob"])
    assert texts(b) == ["A x y B"] and b.find(f".//{qn('w:del')}") is None


def test_paragraph_marks_join_the_next_paragraph_and_keep_its_properties_and_bookmarks():
    xml = (f'<w:p><w:pPr><w:rPr><w:del w:id="1" {A}/></w:rPr></w:pPr><w:bookmarkStart w:id="7" w:name="_RL_aaaaaaaaaaaa"/>'
           f'<w:del w:id="2" {A}>{d("Gone")}</w:del><w:bookmarkEnd w:id="7"/></w:p>'
           f'<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>{r("Next")}</w:p>')
    b = body(xml)
    accept(b)
    (p,) = b.iterchildren(qn("w:p"))
    assert paragraph_text(p) == "Next"
    assert p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}").get(qn("w:val")) == "Heading1"
    assert p.find(qn("w:bookmarkStart")).get(qn("w:name")) == "_RL_aaaaaaaaaaaa"  # the anchor survives
    b = body(xml)
    reject(b)
    assert texts(b) == ["Gone", "Next"]
    ins = (f'<w:p><w:pPr><w:rPr><w:ins w:id="1" {A}/></w:rPr></w:pPr><w:ins w:id="2" {A}>{r("New")}</w:ins></w:p>'
           f'<w:p>{r("Old")}</w:p>')
    b = body(ins)
    reject(b)
    assert texts(b) == ["Old"]
    b = body(ins)
    accept(b)
    assert texts(b) == ["New", "Old"] and b.find(f".//{qn('w:ins')}") is None


def test_a_deleted_mark_with_nothing_after_it_stays():
    b = body(f'<w:p><w:pPr><w:rPr><w:del w:id="1" {A}/></w:rPr></w:pPr>{r("Last")}</w:p><w:tbl/>')
    accept(b)
    assert texts(b) == ["Last"]


def test_moves_and_their_range_markers():
    xml = (f'<w:p><w:moveFromRangeStart w:id="1" {A} w:name="m1"/><w:moveFrom w:id="2" {A}>{r("Moved")}</w:moveFrom>'
           '<w:moveFromRangeEnd w:id="1"/>' + r(" stay") + "</w:p>"
           f'<w:p>{r("Here ")}<w:moveToRangeStart w:id="3" {A} w:name="m1"/><w:moveTo w:id="4" {A}>{r("Moved")}</w:moveTo>'
           '<w:moveToRangeEnd w:id="3"/></w:p>')
    b = body(xml)
    accept(b)
    assert texts(b) == [" stay", "Here Moved"]
    assert not [el for el in b.iter() if "move" in etree.QName(el).localname]
    b = body(xml)
    reject(b)
    assert texts(b) == ["Moved stay", "Here "]
    assert not [el for el in b.iter() if "move" in etree.QName(el).localname]


def test_property_changes_restore_the_recorded_properties_on_reject():
    xml = (f'<w:p><w:pPr><w:pStyle w:val="Heading1"/><w:jc w:val="center"/><w:rPr><w:b/></w:rPr>'
           f'<w:pPrChange w:id="1" {A}><w:pPr><w:pStyle w:val="Normal"/></w:pPr></w:pPrChange></w:pPr>'
           f'<w:r><w:rPr><w:i/><w:rPrChange w:id="2" {A}><w:rPr><w:u w:val="single"/></w:rPr></w:rPrChange></w:rPr>'
           "<w:t>x</w:t></w:r></w:p>")
    b = body(xml)
    reject(b)
    ppr = b.find(f"{qn('w:p')}/{qn('w:pPr')}")
    assert [etree.QName(c).localname for c in ppr] == ["pStyle", "rPr"]
    assert ppr.find(qn("w:pStyle")).get(qn("w:val")) == "Normal"
    rpr = b.find(f".//{qn('w:r')}/{qn('w:rPr')}")
    assert [etree.QName(c).localname for c in rpr] == ["u"]
    b = body(xml)
    accept(b)
    assert [etree.QName(c).localname for c in b.find(f"{qn('w:p')}/{qn('w:pPr')}")] == ["pStyle", "jc", "rPr"]
    assert [etree.QName(c).localname for c in b.find(f".//{qn('w:r')}/{qn('w:rPr')}")] == ["i"]


def test_inserted_and_deleted_table_rows():
    xml = (f'<w:tbl><w:tr><w:trPr><w:ins w:id="1" {A}/></w:trPr><w:tc><w:p>{r("new row")}</w:p></w:tc></w:tr>'
           f'<w:tr><w:trPr><w:del w:id="2" {A}/></w:trPr><w:tc><w:p>{r("old row")}</w:p></w:tc></w:tr></w:tbl>')
    b = body(xml)
    accept(b)
    assert [paragraph_text(p) for p in b.iter(qn("w:p"))] == ["new row"]
    b = body(xml)
    reject(b)
    assert [paragraph_text(p) for p in b.iter(qn("w:p"))] == ["old row"]


def test_bookmarks_inside_removed_content_are_kept():
    b = body(f'<w:p>{r("a")}<w:ins w:id="1" {A}><w:bookmarkStart w:id="5" w:name="x"/>{r("b")}'
             '<w:bookmarkEnd w:id="5"/></w:ins></w:p>')
    reject(b)
    assert [el.get(qn("w:id")) for el in b.iter(qn("w:bookmarkStart"), qn("w:bookmarkEnd"))] == ["5", "5"]


def test_revision_ids_are_unique_across_parts_and_kinds():
    doc = body(f'<w:p><w:ins w:id="41" {A}/><w:r><w:rPr><w:rPrChange w:id="97" {A}/></w:rPr></w:r>'
               '<w:bookmarkStart w:id="500" w:name="b"/><w:commentRangeStart w:id="900"/></w:p>')
    footnotes = body(f'<w:p><w:del w:id="120" {B}/></w:p>')
    ids = RevisionIds([doc, footnotes])
    assert [ids.next(), ids.next()] == ["121", "122"]  # bookmark and comment ids are other spaces


def test_tracked_paragraph_marks_are_written_in_schema_order():
    p = body('<w:p><w:pPr><w:pStyle w:val="X"/><w:sectPr/></w:pPr></w:p>')[0]
    tracker = Tracker("Redline AI", "2025-01-01T00:00:00Z", RevisionIds([p]))
    track_paragraph_mark(p, tracker.element("w:del"))
    track_paragraph_mark(p, tracker.element("w:ins"))
    ppr = p.find(qn("w:pPr"))
    assert [etree.QName(c).localname for c in ppr] == ["pStyle", "rPr", "sectPr"]
    assert [etree.QName(c).localname for c in ppr.find(qn("w:rPr"))] == ["ins", "del"]
    assert tracker.made == {"0", "1"}
    bare = body("<w:p/>")[0]
    track_paragraph_mark(bare, tracker.element("w:ins"))
    assert bare[0].tag == qn("w:pPr") and bare[0][0][0].get(qn("w:author")) == "Redline AI"


def test_accept_and_reject_all_agree_with_pandoc(tmp_path):
    """Our accept/reject of a whole body, saved, reads as pandoc's --track-changes of the input."""
    paragraphs = (
        RUNS
        + f'<w:p><w:pPr><w:rPr><w:del w:id="10" {A}/></w:rPr></w:pPr><w:del w:id="11" {A}>{d("Merged away")}</w:del></w:p>'
        + f'<w:p>{r("Second")}<w:ins w:id="12" {B}>{r(" grows")}</w:ins></w:p>'
        + f'<w:p><w:pPr><w:rPr><w:ins w:id="13" {B}/></w:rPr></w:pPr><w:ins w:id="14" {B}>{r("Inserted para")}</w:ins></w:p>'
        + f'<w:p>{r("Tail")}</w:p>'
    )
    source = tmp_path / "in.docx"
    source.write_bytes(build_docx(paragraphs))
    for mode, resolve in (("accept", accept), ("reject", reject)):
        pkg = Package.open(source.read_bytes())
        resolve(pkg.xml(pkg.main_part))
        out = tmp_path / f"{mode}.docx"
        out.write_bytes(pkg.save())
        assert oracles.stats(out)["revisions_total"] == 0
        assert oracles.pandoc_text(out, "accept") == oracles.pandoc_text(source, mode)
