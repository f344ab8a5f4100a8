"""Edits inside other authors' pending changes, recorded the way Word records them.

A hand-written document with five other reviewers' tracked changes: Alice's
insertions, Bob's deletions, Carol's moves (of words, and of a whole paragraph
with its mark), Dave's deleted paragraph mark and Erin's inserted paragraph. One op of each kind lands in them, and every one is
applied: text deleted from Alice's insertion or Carol's moved text becomes our
``w:del`` inside theirs; text inserted into moved text stays inside the move's
named range; a paragraph whose mark Dave deleted keeps his revision. Judged by
pandoc and LibreOffice against lines typed by hand (accept all, reject all, and
ours rejected in LibreOffice, by a reviewer who rejects every change of ours and
leaves the others' pending), by revision counts taken by hand, and by the Open
XML validator.
"""

from __future__ import annotations

import difflib

import pytest
from lxml import etree

from redline.ooxml.ops import op_from_json
from redline.ooxml.oxml import qn
from redline.ooxml.package import Package
from redline.ooxml.paragraphs import read_document
from redline.ooxml.patch import PatchBuilder
from tests.learning.lawyer import libreoffice_lawyer
from tests.ooxml.write_helpers import DATE, anchor, anchored, d, p, paragraph_xml, part, r, redline, statuses
from tests.support import oracles
from tests.support.validator import assert_no_new_findings

OURS = "Redline AI"


def reject_ours(docx: bytes) -> bytes:
    """``docx`` after a reviewer in LibreOffice rejected every change of ours, one by one (see lo_lawyer.py)."""
    return libreoffice_lawyer(docx, [{"do": "reject_author", "author": OURS}])


def _by(author: str, day: int) -> str:
    return f'w:author="{author}" w:date="2024-03-0{day}T10:00:00Z"'


ALICE, BOB, CAROL, DAVE, ERIN = (_by(a, i) for i, a in enumerate(("Alice", "Bob", "Carol", "Dave", "Erin"), 1))
BODY = "".join([
    p(r("The Supplier "), f'<w:ins w:id="1" {ALICE}>{r("shall promptly ")}</w:ins>', r("deliver the Goods.")),
    p(r("Payment is due "), f'<w:del w:id="2" {BOB}>{d("immediately ")}</w:del>', r("within 30 days.")),
    p(f'<w:moveFromRangeStart w:id="12" w:name="move2" {CAROL}/>',  # Carol moves this paragraph down
      f'<w:moveFrom w:id="13" {CAROL}>{r("Confidentiality survives termination.")}</w:moveFrom>',
      '<w:moveFromRangeEnd w:id="12"/>', ppr=f'<w:rPr><w:moveFrom w:id="14" {CAROL}/></w:rPr>'),
    p(r("Notices must be given"), f'<w:moveFromRangeStart w:id="3" w:name="move1" {CAROL}/>',
      f'<w:moveFrom w:id="4" {CAROL}>{r(" in writing")}</w:moveFrom>', '<w:moveFromRangeEnd w:id="3"/>', r(".")),
    p(r("All notices are sent"), f'<w:moveToRangeStart w:id="5" w:name="move1" {CAROL}/>',
      f'<w:moveTo w:id="6" {CAROL}>{r(" in writing")}</w:moveTo>', '<w:moveToRangeEnd w:id="5"/>',
      r(" to the address above.")),
    p(r("The Customer pays "), ppr=f'<w:rPr><w:del w:id="7" {DAVE}/></w:rPr>'),
    p(r("in arrears.")),
    p(f'<w:ins w:id="8" {ERIN}>{r("Erin adds an audit clause.")}</w:ins>', ppr=f'<w:rPr><w:ins w:id="9" {ERIN}/></w:rPr>'),
    p(r("Survival: "), f'<w:ins w:id="10" {ALICE}>{r("all clauses ")}</w:ins>',
      f'<w:del w:id="11" {BOB}>{d("some clauses ")}</w:del>', r("survive.")),
    p(f'<w:moveToRangeStart w:id="15" w:name="move2" {CAROL}/>',
      f'<w:moveTo w:id="16" {CAROL}>{r("Confidentiality survives termination.")}</w:moveTo>',
      '<w:moveToRangeEnd w:id="15"/>', ppr=f'<w:rPr><w:moveTo w:id="17" {CAROL}/></w:rPr>'),
    p(r("Last clause.")),
])
OPS = [
    ("The Supplier", "REPLACE_TEXT", {"Quote": "shall promptly", "Replacement": "must"}),
    ("Payment", "REWRITE_PARAGRAPH", {"NewText": "Payment is due within 45 days."}),
    ("All notices", "REPLACE_TEXT", {"Quote": "in writing", "Replacement": "by email"}),
    ("All notices", "COMMENT", {"Quote": "address", "Comment": "Which address?"}),
    ("The Customer", "REWRITE_PARAGRAPH", {"NewText": "The Customer pays monthly "}),
    ("Erin adds", "INSERT", {"Position": "after", "Text": "Audits happen yearly."}),
    ("Survival", "DELETE_PARAGRAPH", {}),
    ("Confidentiality", "REPLACE_TEXT", {"Quote": "survives", "Replacement": "outlives"}),
]
INTENDED = [  # everyone's changes accepted, ours included
    "The Supplier must deliver the Goods.",
    "Payment is due within 45 days.",
    "Notices must be given.",
    "All notices are sent by email to the address above.",
    "The Customer pays monthly in arrears.",  # Dave's deleted mark joins the two
    "Erin adds an audit clause.",
    "Audits happen yearly.",
    "Confidentiality outlives termination.",
    "Last clause.",
]
THEIRS_ACCEPTED = [  # the input with the others' changes accepted: what rejecting ours alone must give back
    "The Supplier shall promptly deliver the Goods.",
    "Payment is due within 30 days.",
    "Notices must be given.",
    "All notices are sent in writing to the address above.",
    "The Customer pays in arrears.",
    "Erin adds an audit clause.",
    "Survival: all clauses survive.",
    "Confidentiality survives termination.",
    "Last clause.",
]
ORIGINAL = [  # every change rejected, ours and theirs
    "The Supplier deliver the Goods.",
    "Payment is due immediately within 30 days.",
    "Confidentiality survives termination.",  # Carol's move undone
    "Notices must be given in writing.",
    "All notices are sent to the address above.",
    "The Customer pays",  # Dave's deleted mark restored
    "in arrears.",
    "Survival: some clauses survive.",
    "Last clause.",
]
# Revision elements by author in BODY, counted by hand (Carol: three moveFrom, three moveTo, marks included).
THEIRS = {"Alice": 2, "Bob": 2, "Carol": 6, "Dave": 1, "Erin": 2}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    source, paragraphs = anchored(BODY)
    out = redline(source, [{"Id": anchor(paragraphs, start), "Type": kind, **fields} for start, kind, fields in OPS])
    folder = tmp_path_factory.mktemp("pending")
    paths = {name: folder / f"{name}.docx" for name in ("in", "out", "ours_rejected")}
    paths["in"].write_bytes(source)
    paths["out"].write_bytes(out.docx)
    paths["ours_rejected"].write_bytes(reject_ours(out.docx))
    return out, paragraphs, paths


def test_every_op_is_applied(files):
    out, _paragraphs, _paths = files
    assert statuses(out) == ["applied"] * len(OPS)


def test_pandoc_sees_the_intended_text_and_rejecting_ours_gives_the_input_back(files):
    _out, _paragraphs, paths = files
    assert oracles.pandoc_text(paths["in"], "accept") == THEIRS_ACCEPTED  # the hand-written lines are the input's
    assert oracles.pandoc_text(paths["in"], "reject") == ORIGINAL
    assert oracles.pandoc_text(paths["out"], "accept") == INTENDED
    assert oracles.pandoc_text(paths["out"], "reject") == ORIGINAL
    # Ours rejected in LibreOffice: the others' changes are all still pending, their insertions too.
    assert oracles.pandoc_text(paths["ours_rejected"], "accept") == THEIRS_ACCEPTED
    assert oracles.pandoc_text(paths["ours_rejected"], "reject") == ORIGINAL


def test_libreoffice_agrees(files):
    _out, _paragraphs, paths = files
    out_accept, out_reject, rejected_accept, rejected_reject = oracles.lo_texts([
        (paths["out"], "accept"), (paths["out"], "reject"),
        (paths["ours_rejected"], "accept"), (paths["ours_rejected"], "reject")])
    assert (out_accept, out_reject) == (INTENDED, ORIGINAL)
    assert (rejected_accept, rejected_reject) == (THEIRS_ACCEPTED, ORIGINAL)


def test_exactly_our_revisions_are_added_and_the_validator_finds_nothing_new(files):
    _out, _paragraphs, paths = files
    before, after = oracles.stats(paths["in"])["authors"], oracles.stats(paths["out"])["authors"]
    assert before == THEIRS
    # Ours, counted by hand op by op: 2 (a deletion and an insertion) + 2 + 2 + 0 (a comment) + 1 + 2 (the new
    # paragraph's text and mark) + 4 (its three runs, one in Alice's insertion, and its mark) + 2.
    assert after.get(OURS) == 15
    # Theirs: as they were, but for Alice's insertion split around our "must" and Carol's moved paragraph around
    # our "outlives" (as Word splits them when one types inside).
    assert {a: n for a, n in after.items() if a != OURS} == {**THEIRS, "Alice": 3, "Carol": 7}
    assert oracles.stats(paths["ours_rejected"])["authors"] == THEIRS  # LibreOffice rejected ours: theirs remain
    assert_no_new_findings(paths["in"], paths["out"])


def _children(el: etree._Element) -> list[tuple[str, str | None]]:
    return [(etree.QName(c).localname, c.get(qn("w:author"))) for c in el if c.get(qn("w:author"))]


def test_deleting_from_alices_insertion_nests_our_deletion_in_it(files):
    out, paragraphs, _paths = files
    x = paragraph_xml(out.docx, anchor(paragraphs, "The Supplier"))
    alice = [c for c in x.iter(qn("w:ins")) if c.get(qn("w:author")) == "Alice"]
    # Her insertion is split around our new word (same author and date), the deletion inside the first half.
    assert [_children(c) for c in alice] == [[("del", OURS)], []]
    assert _children(x) == [("ins", "Alice"), ("ins", OURS), ("ins", "Alice")]
    assert "".join(t for c in alice for t in c.itertext()) == "shall promptly "


def test_edits_in_moved_text_stay_inside_the_move(files):
    out, paragraphs, _paths = files
    x = paragraph_xml(out.docx, anchor(paragraphs, "All notices"))
    kids = list(x)
    start = next(i for i, c in enumerate(kids) if c.tag == qn("w:moveToRangeStart"))
    end = next(i for i, c in enumerate(kids) if c.tag == qn("w:moveToRangeEnd"))
    inside = kids[start + 1:end]
    moved = [c for c in inside if c.tag == qn("w:moveTo")]
    assert [a for c in moved for a in _children(c)] == [("del", OURS)]  # "in writing" deleted inside Carol's move
    ours = [c for c in inside if c.tag == qn("w:ins") and c.get(qn("w:author")) == OURS]
    assert ["".join(c.itertext()) for c in ours] == ["by email"]  # and the new words inside her range
    assert not [c for c in kids[end:] if c.tag == qn("w:ins") and "email" in "".join(c.itertext())]


def test_edits_in_a_moved_paragraph_stay_in_the_move_and_keep_its_moved_mark(files):
    out, paragraphs, _paths = files
    x = paragraph_xml(out.docx, anchor(paragraphs, "Confidentiality"))
    assert _children(x.find(f"{qn('w:pPr')}/{qn('w:rPr')}")) == [("moveTo", "Carol")]
    moved = [c for c in x if c.tag == qn("w:moveTo")]
    assert [a for c in moved for a in _children(c)] == [("del", OURS)]
    kids = list(x)
    end = next(i for i, c in enumerate(kids) if c.tag == qn("w:moveToRangeEnd"))
    assert [c.get(qn("w:author")) for c in kids[:end] if c.tag == qn("w:ins")] == [OURS]


def test_a_paragraph_whose_mark_dave_deleted_keeps_his_revision(files):
    out, paragraphs, _paths = files
    x = paragraph_xml(out.docx, anchor(paragraphs, "The Customer"))
    mark = x.find(f"{qn('w:pPr')}/{qn('w:rPr')}")
    assert _children(mark) == [("del", "Dave")]
    assert [a for c in x if c.tag == qn("w:ins") for a in [c.get(qn("w:author"))]] == [OURS]


FIELD_BEGIN = '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> DATE </w:instrText></w:r>'
FIELD_END = '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' + r("1 May") + '<w:r><w:fldChar w:fldCharType="end"/></w:r>'


def test_a_refusal_names_the_element_that_caused_it():
    """What is still refused says why and where: a field that starts in one paragraph
    and ends in the next; a field begun inside a hyperlink and ended outside it."""
    source, paragraphs = anchored(
        p(r("Signed on "), FIELD_BEGIN) + p(r("the day "), FIELD_END)
        + p(r("See "), f'<w:hyperlink w:anchor="x">{FIELD_BEGIN}<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
            f'{r("1 May")}</w:hyperlink><w:r><w:fldChar w:fldCharType="end"/></w:r>', r(" now."))
        + p(r("Last clause.")))
    ops = [{"Id": anchor(paragraphs, "Signed"), "Type": "DELETE_PARAGRAPH"},
           {"Id": anchor(paragraphs, "See"), "Type": "REPLACE_TEXT", "Quote": "1 May", "Replacement": "2 May"}]
    out = redline(source, ops)
    assert statuses(out) == ["skipped:unsupported_content"] * 2
    assert [x.message for x in out.results] == [
        "A field runs across the paragraph's edges. (element: w:fldChar)",
        "The edit touches a field that cannot be replaced whole: its runs sit in different containers or "
        "revisions. (element: w:fldChar)"]


SECTION_END = '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr>'
TABLE = '<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="9000"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="9000" w:type="dxa"/></w:tcPr>' \
        + p(r("In the table.")) + "</w:tc></w:tr></w:tbl>"


def test_inserting_after_a_paragraph_that_ends_a_section_hands_the_break_on(tmp_path):
    """Word's Enter at the end of a section: the new paragraph ends the section."""
    source, paragraphs = anchored(p(r("Section one ends here."), ppr=SECTION_END) + TABLE
                                  + p(r("After the table.")))
    out = redline(source, [{"Id": anchor(paragraphs, "Section one"), "Type": "INSERT", "Position": "after",
                            "Text": "A last line of section one."}])
    assert statuses(out) == ["applied"]
    first, second = part_paragraphs(out.docx)[:2]
    assert first.find(f"{qn('w:pPr')}/{qn('w:sectPr')}") is None
    assert second.find(f"{qn('w:pPr')}/{qn('w:sectPr')}") is not None
    assert _children(first.find(f"{qn('w:pPr')}/{qn('w:rPr')}")) == [("ins", OURS)]
    (tmp_path / "in.docx").write_bytes(source)
    (tmp_path / "out.docx").write_bytes(out.docx)
    want = ["Section one ends here.", "A last line of section one.", "In the table.", "After the table."]
    assert oracles.pandoc_text(tmp_path / "out.docx", "accept") == want
    assert oracles.pandoc_text(tmp_path / "out.docx", "reject") == oracles.pandoc_text(tmp_path / "in.docx", "reject")
    assert oracles.lo_texts([(tmp_path / "out.docx", "accept")]) == [want]
    assert_no_new_findings(source, out.docx)


REF = ('<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> REF _Ref7 \\h </w:instrText>'
       '</w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>' + r("Clause 2") + '<w:r><w:fldChar w:fldCharType="end"/></w:r>')


def test_a_field_inside_someone_elses_insertion_is_replaced_inside_it(tmp_path):
    source, paragraphs = anchored(
        p('<w:bookmarkStart w:id="70" w:name="_Ref7"/>', r("Clause 2"), '<w:bookmarkEnd w:id="70"/>')
        + p(r("Subject to "), f'<w:ins w:id="1" {ALICE}>{REF}</w:ins>', r(", the Supplier pays.")))
    out = redline(source, [{"Id": anchor(paragraphs, "Subject"), "Type": "REPLACE_TEXT", "Quote": "Clause 2",
                            "Replacement": "Clause 3"}])
    assert statuses(out) == ["applied"]
    x = paragraph_xml(out.docx, anchor(paragraphs, "Subject"))
    alice = [c for c in x if c.tag == qn("w:ins") and c.get(qn("w:author")) == "Alice"]
    assert [_children(c) for c in alice] == [[("del", OURS)]]  # the whole field, instruction too, deleted in hers
    assert alice[0].find(f".//{qn('w:delInstrText')}") is not None
    assert oracles.stats(write(tmp_path, "out", out.docx))["authors"] == {"Alice": 1, OURS: 2}
    rejected = write(tmp_path, "rejected", reject_ours(out.docx))
    assert oracles.stats(rejected)["authors"] == {"Alice": 1}
    accepted, original = ["Clause 2", "Subject to Clause 3, the Supplier pays."], ["Clause 2", "Subject to , the Supplier pays."]
    assert oracles.pandoc_text(tmp_path / "out.docx", "accept") == accepted
    assert oracles.pandoc_text(tmp_path / "out.docx", "reject") == original
    assert oracles.pandoc_text(rejected, "accept") == ["Clause 2", "Subject to Clause 2, the Supplier pays."]  # Alice's
    assert oracles.pandoc_text(rejected, "reject") == original
    assert oracles.lo_texts([(tmp_path / "out.docx", "accept")]) == [accepted]
    assert_no_new_findings(source, out.docx)


def test_inserting_after_a_last_paragraph_someone_inserted_hands_their_mark_on(tmp_path):
    """As Word does on Enter at the end of Erin's inserted paragraph: the anchor's mark
    becomes ours, the new last paragraph carries Erin's inserted mark."""
    source, paragraphs = anchored(p(r("First clause.")) + p(
        f'<w:ins w:id="1" {ERIN}>{r("Erin adds a last clause.")}</w:ins>', ppr=f'<w:rPr><w:ins w:id="2" {ERIN}/></w:rPr>'))
    out = redline(source, [{"Id": anchor(paragraphs, "Erin"), "Type": "INSERT", "Position": "after",
                            "Text": "Our clause after it."}])
    assert statuses(out) == ["applied"]
    marks = [[] if m is None else _children(m)
             for m in (x.find(f"{qn('w:pPr')}/{qn('w:rPr')}") for x in part_paragraphs(out.docx))]
    assert marks == [[], [("ins", OURS)], [("ins", "Erin")]]
    assert oracles.stats(write(tmp_path, "out", out.docx))["authors"] == {"Erin": 2, OURS: 2}
    rejected = write(tmp_path, "rejected", reject_ours(out.docx))
    assert set(oracles.stats(rejected)["authors"]) == {"Erin"}  # (LibreOffice keeps no inserted last mark)
    want = ["First clause.", "Erin adds a last clause.", "Our clause after it."]
    assert oracles.pandoc_text(tmp_path / "out.docx", "accept") == want
    assert oracles.pandoc_text(tmp_path / "out.docx", "reject") == ["First clause."]
    assert oracles.pandoc_text(rejected, "accept") == ["First clause.", "Erin adds a last clause."]  # hers pending
    assert oracles.pandoc_text(rejected, "reject") == ["First clause."]
    lo_accept, lo_rejected = oracles.lo_texts([(tmp_path / "out.docx", "accept"), (rejected, "accept")])
    assert lo_accept == want and lo_rejected == ["First clause.", "Erin adds a last clause."]
    assert_no_new_findings(source, out.docx)


def part_paragraphs(docx: bytes) -> list[etree._Element]:
    return list(part(docx, "word/document.xml").find(qn("w:body")).iterchildren(qn("w:p")))


def write(folder, name: str, data: bytes):
    path = folder / f"{name}.docx"
    path.write_bytes(data)
    return path


def changed_lines(before: list[str], after: list[str]) -> list[tuple[list[str], list[str]]]:
    """Where two readings differ, as (lines before, lines after) pairs; the rest is the same."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return [(before[i:j], after[k:m]) for tag, i, j, k, m in matcher.get_opcodes() if tag != "equal"]


# The generated counterparty redline's paragraphs the ops below change, accepted before and after (typed by hand).
COUNTERPARTY_CHANGED = [
    (["The Parties shall act subject to Section 12.3 in performing this Section."],
     ["The Parties shall act subject to Section 12.3 in performing this REPLACED"]),
    (["(2) SAMPLE SERVICES INC., a Delaware corporation whose principal acting reasonably Street, Wilmington (the"
      " “Supplier”),"],
     ["(2) SAMPLE SERVICES INC., a Delaware corporation whose principal acting reasonably Street, Wilmington (the"
      " rewritten"]),
    ([], ["A new clause."]),
    (["(C) WHEREAS the Supplier's to the extent permitted by law that the Key Personnel devote sufficient time to the"
      " performance of the Services."], []),
    (["“Good Practice” means the exercise of the skill, diligence and foresight reasonably expected of a leading"
      " supplier of similar services;"],
     ["“Good Practice” means the exercise of the skill, diligence and foresight reasonably expected of a leading"
      " supplier of similar REPLACED"]),
    (["“Renewal Term” means each successive period of twelve (12) months following the Initial Term; Party Software"],
     ["“Renewal Term” means each successive period of twelve (12) months following the Initial Term; Party rewritten"]),
]


def test_every_op_lands_in_a_generated_counterparty_redline(small_contract, engine_writes, tmp_path):
    """A contract with a counterparty's mixed redline (moves, deleted marks, row and
    format changes): one op of each kind on paragraphs holding their revisions."""
    from tests.support.make_revisions import revise

    with engine_writes.paused():  # their redline is an input
        data, _total = revise(small_contract.read_bytes(), count=150, seed=5)
    read = read_document(data, anchor=True)
    revised = [x for x in read.paragraphs if x.anchor and len(x.text.split()) >= 4
               and (x.text != x.original_text or x.paragraph_mark)]
    assert len(revised) >= 10
    ops = []
    for x, kind in zip(revised[::2], ["REPLACE_TEXT", "REWRITE_PARAGRAPH", "INSERT", "DELETE_PARAGRAPH", "COMMENT",
                                      "REPLACE_TEXT", "REWRITE_PARAGRAPH", "COMMENT"], strict=False):
        word = next(w for w in reversed(x.text.split()) if x.text.count(w) == 1)
        ops.append({"Id": x.anchor, "Type": kind, **{
            "REPLACE_TEXT": {"Quote": word, "Replacement": "REPLACED"},
            "REWRITE_PARAGRAPH": {"NewText": x.text.replace(word, "rewritten")},
            "INSERT": {"Position": "after", "Text": "A new clause."},
            "DELETE_PARAGRAPH": {},
            "COMMENT": {"Quote": word, "Comment": "Why?"},
        }[kind]})
    out = redline(read.docx, ops)
    assert statuses(out) == ["applied"] * len(ops)
    source, written = write(tmp_path, "in", read.docx), write(tmp_path, "out", out.docx)
    theirs = {"Alice Smith": 43, "Bob Jones": 30, "Counterparty Counsel": 27}
    assert oracles.stats(source)["authors"] == theirs
    # Ours by hand: 2 + 2 + 2 (text and mark) + 4 (three runs, one inside theirs, and the mark) + 0 + 2 + 2 + 0;
    # theirs unchanged but for the counterparty's inserted paragraph, split where our first comment starts.
    assert oracles.stats(written)["authors"] == {**theirs, OURS: 14, "Counterparty Counsel": 28}
    # Accepted, only the ops' paragraphs change (the reject view alone could not see the others' insertions).
    accepted = oracles.pandoc_text(source, "accept")
    assert changed_lines(accepted, oracles.pandoc_text(written, "accept")) == COUNTERPARTY_CHANGED
    assert oracles.pandoc_text(written, "reject") == oracles.pandoc_text(source, "reject")
    # Ours rejected in LibreOffice: the counterparty's redline as it came, their changes accepted or rejected.
    # (Read by LibreOffice: joining a deleted mark's paragraph to the next, pandoc passes over a heading in our
    # file but not in LibreOffice's .docx export of it.)
    rejected = write(tmp_path, "rejected", reject_ours(out.docx))
    in_accept, in_reject, rejected_accept, rejected_reject = oracles.lo_texts(
        [(source, "accept"), (source, "reject"), (rejected, "accept"), (rejected, "reject")])
    assert in_accept != in_reject  # their changes show
    assert (rejected_accept, rejected_reject) == (in_accept, in_reject)
    assert_no_new_findings(read.docx, out.docx)


def test_the_add_ins_patches_for_the_same_ops_apply_and_pass_the_validator():
    source, paragraphs = anchored(BODY)
    builder = PatchBuilder(Package.open(source), date=DATE)
    for i, (start, kind, fields) in enumerate(OPS):
        patch = builder.build(op_from_json(i, {"Id": anchor(paragraphs, start), "Type": kind, **fields}))
        assert patch.result.status == "applied", (start, kind, patch.result.message)
        assert_no_new_findings(source, patch.xml)
