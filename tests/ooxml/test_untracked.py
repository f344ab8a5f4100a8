"""Changes made without tracking (issue #28, point 3), found by comparing the file we sent with the one that
came back. The lawyer works in LibreOffice (``tests/learning/lo_lawyer.py``): accepts one of our changes,
rejects another, retypes a paragraph and removes one with tracking off; the counterparty's own tracked edit is
written into LibreOffice's file by hand. Every untracked edit is listed, and nothing tracked is."""

from __future__ import annotations

import io
import zipfile

import pytest

from redline.ooxml.ops import Op
from redline.ooxml.paragraphs import read_document
from redline.ooxml.untracked import untracked_changes
from redline.ooxml.writer import redline_document
from tests.learning.lawyer import libreoffice_lawyer
from tests.support.docx_builder import build_docx, para

CLAUSES = [
    "1. The Supplier shall deliver the Goods within ten (10) days of each order.",
    "2. The Customer shall pay each invoice within ninety (90) days of receipt.",
    "3. Either party may terminate this Agreement on thirty (30) days' notice.",
    "4. The Supplier's liability is limited to the fees paid in the preceding year.",
    "5. This Agreement is governed by the laws of England and Wales.",
    "6. Notices shall be given in writing to the addresses above.",
]


@pytest.fixture(scope="module")
def sent() -> tuple[bytes, list[str]]:
    read = read_document(build_docx("".join(para(t) for t in CLAUSES)), anchor=True)
    anchors = [p.anchor for p in read.paragraphs]
    ops = [Op(0, "REPLACE_TEXT", anchors[1], quote="ninety (90)", replacement="sixty (60)"),
           Op(1, "REPLACE_TEXT", anchors[2], quote="thirty (30)", replacement="ninety (90)"),
           Op(2, "INSERT", anchors[5], text="7. Each party shall keep the other's information confidential.")]
    out = redline_document(read.docx, ops)
    assert all(r.status == "applied" for r in out.results)
    return out.docx, anchors


def counsel_tracks(data: bytes, old: str, new: str) -> bytes:
    """The counterparty's own tracked replacement of ``old`` by ``new``, written into the XML by hand."""
    src, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            blob = src.read(item.filename)
            if item.filename == "word/document.xml":
                xml = blob.decode()
                assert xml.count(old) == 1
                mark = 'w:author="Counsel" w:date="2026-02-01T00:00:00Z"'
                xml = xml.replace(old, f'</w:t></w:r><w:del w:id="9001" {mark}><w:r><w:delText>{old}</w:delText></w:r>'
                                       f'</w:del><w:ins w:id="9002" {mark}><w:r><w:t>{new}</w:t></w:r></w:ins>'
                                       '<w:r><w:t xml:space="preserve">')
                blob = xml.encode()
            dst.writestr(item, blob)
    return out.getvalue()


def test_untracked_edits_are_listed_and_tracked_ones_are_not(sent):
    data, anchors = sent
    returned = libreoffice_lawyer(data, [
        {"do": "accept", "anchors": [anchors[1]]},  # our 60 days: accepted
        {"do": "reject", "anchors": [anchors[2]]},  # our 90 days' notice: rejected
        {"do": "retype", "anchor": anchors[3],  # tracking off
         "text": "4. The Supplier's liability is unlimited."},
        {"do": "remove_paragraph", "anchor": anchors[4]},  # tracking off
    ])
    returned = counsel_tracks(returned, "in writing", "by email")  # theirs, tracked: visible, not listed
    found = untracked_changes(data, returned)
    assert [(c.kind, c.anchor, c.before, c.after) for c in found] == [
        ("changed", anchors[3], CLAUSES[3], "4. The Supplier's liability is unlimited."),
        ("deleted", anchors[4], CLAUSES[4], ""),
    ]
    assert [c.severity for c in found] == ["critical", "major"]  # a limit of liability gone; governing law gone


def test_a_clean_copy_with_everything_decided_has_no_untracked_change(sent):
    data, _ = sent
    assert untracked_changes(data, libreoffice_lawyer(data, [{"do": "accept_all"}])) == []
    assert untracked_changes(data, libreoffice_lawyer(data, [{"do": "reject_all"}])) == []


def test_a_paragraph_added_without_tracking_is_listed(sent):
    data, _ = sent
    xml_para = para("8. The Customer waives all claims.").encode()
    src, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            blob = src.read(item.filename)
            if item.filename == "word/document.xml":
                blob = blob.replace(b"<w:sectPr", xml_para + b"<w:sectPr", 1)
            dst.writestr(item, blob)
    found = untracked_changes(data, out.getvalue())
    assert [(c.kind, c.after, c.severity) for c in found] == [("inserted", "8. The Customer waives all claims.",
                                                               "critical")]
