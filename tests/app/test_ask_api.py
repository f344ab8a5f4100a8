"""Ask the contract over the API: citations point at anchors and quote the document verbatim."""

from __future__ import annotations

import pytest

from redline.models import DocumentVersion
from redline.ooxml.paragraphs import read_document
from redline.services.documents import document_version_create
from tests.support.docx_builder import build_docx, para

CONTRACT = [
    ("1. Definitions", "Heading1"),
    ('"Cause" means a material breach of this Agreement that is not cured within thirty (30) days.', None),
    ("2. Termination", "Heading1"),
    ("2.1 Either party may terminate this Agreement for Cause on written notice.", None),
    ("2.2 Subject to Section 2.1, the Customer may terminate for convenience on ninety (90) days' notice.", None),
]


@pytest.fixture
def version(alice) -> DocumentVersion:
    data = build_docx("".join(para(t, style=s) for t, s in CONTRACT))
    return document_version_create(workspace=alice.workspace, data=data, filename="msa.docx", uploaded_by=None)[0]


@pytest.mark.django_db
def test_answer_cites_anchored_verbatim_quotes(alice, bob, version):
    url = f"/api/documents/{version.document_id}/ask"
    resp = alice.api().post(url, {"question": "How many days to cure a breach before it is Cause?"},
                            content_type="application/json")
    assert resp.status_code == 200, resp.content
    body = resp.json()
    texts = {p.anchor: p.text for p in read_document(version.file.open("rb").read()).paragraphs}
    assert body["citations"]
    for c in body["citations"]:
        assert c["quote"] in texts[c["anchor"]]
    assert any("thirty (30) days" in c["quote"] for c in body["citations"])
    assert bob.api().post(url, {"question": "anything at all"}, content_type="application/json").status_code == 404
    short = alice.api().post(url, {"question": "x"}, content_type="application/json")
    assert short.status_code == 422 and short.json()["code"] == "validation_error"
