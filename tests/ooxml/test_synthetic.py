"""The add-in's JSON paragraphs become a real, anchored .docx that outside readers accept."""

from __future__ import annotations

import pytest

from redline.ooxml.errors import DocxError
from redline.ooxml.paragraphs import read_document
from redline.ooxml.synthetic import PlainParagraph, docx_from_paragraphs
from tests.support import oracles

PARAS = [
    PlainParagraph("_RL_0000000000a1", "1. Payment", "Heading1"),
    PlainParagraph("_RL_0000000000a2", "Customer shall pay within ninety (90) days  of invoice."),
    PlainParagraph("_RL_0000000000a3", "Rates: “standard” — see Schedule A."),
]


def test_round_trip_keeps_text_anchors_styles_and_doc_id(tmp_path):
    data = docx_from_paragraphs(PARAS, doc_id="00112233AABBCCDD")
    read = read_document(data, anchor=False)
    assert [(p.anchor, p.text) for p in read.paragraphs] == [(p.anchor, p.text) for p in PARAS]
    assert read.paragraphs[0].heading_level == 1
    assert read.doc_id == "00112233AABBCCDD"
    path = tmp_path / "plain.docx"
    path.write_bytes(data)
    assert oracles.pandoc_text(path) == oracles.oracle.normalise([p.text for p in PARAS])
    assert oracles.stats(path)["document"]["bookmarks_hidden"] == 3
    assert oracles.opens(path)


@pytest.mark.parametrize(("paras", "code"), [([], "empty_document"), ([PlainParagraph("p1", "x")], "invalid_anchor")])
def test_refusals(paras, code):
    with pytest.raises(DocxError) as err:
        docx_from_paragraphs(paras, doc_id="00112233AABBCCDD")
    assert err.value.code == code
