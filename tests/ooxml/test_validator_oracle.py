"""The Open XML validator as a judge: what it sees that pandoc and LibreOffice do not,
how patches are judged, and that the suite-wide spy sees every file the engine writes."""

from __future__ import annotations

import pytest

from redline.ooxml.ops import op_from_json
from redline.ooxml.oxml import qn
from redline.ooxml.package import Package
from redline.ooxml.paragraphs import read_document
from redline.ooxml.patch import PatchBuilder
from redline.ooxml.resolve import resolve_docx
from tests.ooxml.write_helpers import DATE, anchor, anchored, p, r, redline
from tests.support import oracles
from tests.support.docx_builder import build_docx
from tests.support.validator import assert_no_new_findings, findings, flat_opc_to_docx, new_findings

GOOD = p(r("Alpha beta."))
RPR_LAST = '<w:p><w:r><w:t xml:space="preserve">Alpha beta.</w:t><w:rPr><w:b/></w:rPr></w:r></w:p>'


def test_it_reports_what_word_rejects_and_the_other_readers_forgive(tmp_path):
    good, bad = tmp_path / "good.docx", tmp_path / "bad.docx"
    good.write_bytes(build_docx(GOOD))
    bad.write_bytes(build_docx(RPR_LAST))
    assert oracles.pandoc_text(good) == oracles.pandoc_text(bad) == ["Alpha beta."]
    added = new_findings(good, bad)
    assert len(added) == 1 and "Unexpected element 'rPr'" in added[0] and "/r[#]" in added[0]
    with pytest.raises(AssertionError, match="rPr"):
        assert_no_new_findings(good, bad)


def test_findings_the_input_already_had_are_not_new():
    bad = build_docx(RPR_LAST)
    docx, paragraphs = anchored(RPR_LAST + p(r("Second.")))
    out = redline(docx, [{"Id": anchor(paragraphs, "Second"), "Type": "REWRITE_PARAGRAPH", "NewText": "Third."}])
    assert any("rPr" in f for f in findings(bad))
    assert new_findings(bad, out.docx) == []
    twice = build_docx(RPR_LAST + RPR_LAST)
    assert len(new_findings(bad, twice)) == 1  # a second copy of a finding is new


def test_a_patch_is_judged_as_the_docx_it_unpacks_to():
    docx, paragraphs = anchored(p(r("The Supplier shall deliver.")) + p(r("Next.")))
    op = op_from_json(0, {"Id": anchor(paragraphs, "The Supplier"), "Type": "REWRITE_PARAGRAPH",
                          "NewText": "The Supplier must deliver.", "Comment": "Stronger."})
    patch = PatchBuilder(Package.open(docx), date=DATE).build(op).xml
    assert patch is not None and patch.startswith(b"<?xml")
    unpacked = Package.open(flat_opc_to_docx(patch))
    assert {"word/document.xml", "word/comments.xml", "word/styles.xml"} <= set(unpacked.names())
    assert_no_new_findings(docx, patch)
    broken = patch.replace(b"</w:delText></w:r>", b"</w:delText><w:rPr/></w:r>", 1)
    assert broken != patch
    assert any("rPr" in f for f in new_findings(docx, broken))


def test_the_spy_pairs_every_written_file_with_its_input(written_files):
    source = build_docx(p(r("One clause.")) + p(r("Another clause.")))
    anchored_doc = read_document(source, anchor=True).docx
    paragraphs = read_document(anchored_doc, anchor=False).paragraphs
    out = redline(anchored_doc, [{"Id": paragraphs[0].anchor, "Type": "DELETE_PARAGRAPH"}])
    resolved = resolve_docx(out.docx, "reject").docx
    patch = PatchBuilder(Package.open(anchored_doc)).build(
        op_from_json(0, {"Id": paragraphs[1].anchor, "Type": "COMMENT", "Comment": "Check."})).xml
    assert written_files.pairs == [(source, anchored_doc), (anchored_doc, out.docx), (out.docx, resolved),
                                   (anchored_doc, patch)]
    assert written_files.problems() == []
    pkg = Package.open(anchored_doc)
    run = next(pkg.xml(pkg.main_part).iter(qn("w:r")))
    run.append(run.find(qn("w:rPr")) if run.find(qn("w:rPr")) is not None else run.makeelement(qn("w:rPr"), {}))
    pkg.save()
    (problem,) = written_files.problems()
    assert "Unexpected element 'rPr'" in problem
    written_files.pairs.clear()  # the deliberately broken file is this test's, not a failure

