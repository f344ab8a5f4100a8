"""Another editor in the loop: our redlined file opened and saved by LibreOffice.

design.md §8 lists what LibreOffice keeps (hidden ``_RL_`` bookmarks,
``RedlineDocID``, tracked changes with their author, comment author, text and
paragraph, ``w15:done`` of resolved comments) and what it drops
(``commentsIds.xml`` with every durable id, paragraph ids, comment ids
renumbered). These tests prove detection works from what survives.
"""

from __future__ import annotations

import io
import zipfile

import pytest

from redline.learning.outcomes import Status, detect_outcomes
from redline.ooxml.anchors import anchor_map
from redline.ooxml.docprops import get_doc_id
from redline.ooxml.ops import op_from_json
from redline.ooxml.oxml import qn
from redline.ooxml.package import Package
from redline.ooxml.paragraphs import read_document
from redline.ooxml.revisions import accept
from redline.ooxml.writer import redline_document
from tests.learning.lawyer import AUTHOR, EXPECTED, SCENARIOS, Lawyer, libreoffice_roundtrip
from tests.support.docx_builder import build_docx, para

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def lo_written(written) -> bytes:
    """The redlined contract after LibreOffice opened and saved it."""
    return libreoffice_roundtrip(written.docx)


@pytest.fixture(scope="module")
def lo_reviewed(reviewed) -> bytes:
    """The lawyer's reviewed file after LibreOffice opened and saved it."""
    return libreoffice_roundtrip(reviewed)


def names(data: bytes) -> list[str]:
    return zipfile.ZipFile(io.BytesIO(data)).namelist()


def our_comments(data: bytes) -> list[str]:
    pkg = Package.open(data)
    return sorted("".join(c.itertext()) for c in pkg.xml("word/comments.xml").iterchildren(qn("w:comment"))
                  if c.get(qn("w:author")) == AUTHOR)


def test_anchors_doc_id_and_comments_survive(written, lo_written):
    before, after = Package.open(written.docx), Package.open(lo_written)
    kept = anchor_map(after.xml(after.main_part))
    assert set(anchor_map(before.xml(before.main_part))) <= set(kept)
    assert get_doc_id(after) == get_doc_id(before) == written.output.document_id
    assert our_comments(lo_written) == our_comments(written.docx)
    # The durable ids are gone, so comments are found by author + text + paragraph.
    assert "word/commentsIds.xml" in names(written.docx)
    assert "word/commentsIds.xml" not in names(lo_written)


def test_pending_outcomes_stay_pending_after_libreoffice(written, lo_written):
    found = detect_outcomes(lo_written, list(written.entries.values()))
    assert [o.status for o in found] == [Status.PENDING] * len(SCENARIOS)
    assert {o.located_by for o in found} == {"anchor"}


def test_the_lawyers_review_reads_the_same_after_libreoffice(written, lo_reviewed):
    found = detect_outcomes(lo_reviewed, list(written.entries.values()))
    assert dict(zip(written.entries, (o.status.value for o in found), strict=True)) == EXPECTED


def test_a_comment_deleted_after_libreoffice_is_rejected_and_its_neighbours_stay(written, lo_written):
    """No durable ids left: the deleted comment is told from the others by text and paragraph."""
    lawyer = Lawyer(lo_written)
    lawyer.delete_comment(written.entries["comment_pending"].comment_text)
    entries = [written.entries[n] for n in ("comment_pending", "comment_deleted", "comment_resolved")]
    found = detect_outcomes(lawyer.save(), entries)
    assert [o.status for o in found] == [Status.REJECTED, Status.PENDING, Status.PENDING]
    assert detect_outcomes(lawyer.save(), entries) == found


def test_moves_libreoffice_made_of_our_changes_count_as_ours():
    """Deleting a clause and inserting the same text elsewhere: LibreOffice relabels both as a move."""
    clauses = ["1. Alpha clause text here.", "2. Beta clause.", "3. Gamma clause.", "4. Delta clause."]
    anchored = read_document(build_docx("".join(para(c) for c in clauses)), anchor=True)
    a = [p.anchor for p in anchored.paragraphs]
    ops = [{"Id": a[0], "Type": "DELETE_PARAGRAPH"}, {"Id": a[2], "Type": "INSERT", "Text": clauses[0]}]
    out = redline_document(anchored.docx, [op_from_json(i, o) for i, o in enumerate(ops)], author=AUTHOR)
    entries = [r.entry for r in out.results]
    moved = libreoffice_roundtrip(out.docx)
    doc = Package.open(moved).xml("word/document.xml")
    moves = list(doc.iter(qn("w:moveFrom"), qn("w:moveTo")))
    assert moves and {m.get(qn("w:author")) for m in moves} == {AUTHOR}
    assert [o.status for o in detect_outcomes(moved, entries)] == [Status.PENDING, Status.PENDING]
    pkg = Package.open(moved)
    accept(pkg.xml(pkg.main_part), authors=[AUTHOR])
    taken = pkg.save()
    assert [o.status for o in detect_outcomes(taken, entries)] == [Status.ACCEPTED, Status.ACCEPTED]
    # Even with the deleted clause's anchor gone, the moved copy is the insertion's, not a kept original.
    lawyer = Lawyer(taken)
    lawyer.drop_anchor(entries[0].bookmark_id)
    assert [o.status for o in detect_outcomes(lawyer.save(), entries)] == [Status.ACCEPTED, Status.ACCEPTED]
