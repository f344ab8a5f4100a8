"""GET /api/documents/{id}/clauses: the clause overview of a version, with the real clause model."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.clauses import CONFIDENT_ABSENCE
from redline.models import DocumentVersion
from redline.services.clauses import CUAD_GROUPS, document_clauses
from tests.app.test_api_contract import assert_error_shape
from tests.support.clause_contract import CONTRACT, GOVERNING_LAW
from tests.support.docx_builder import build_docx, para

pytestmark = pytest.mark.django_db


def upload(member, data: bytes = CONTRACT, name: str = "msa.docx") -> dict:
    resp = member.api().post("/api/documents", {"file": SimpleUploadedFile(name, data)})
    assert resp.status_code in (200, 201), resp.content
    return resp.json()


def by_category(body: dict, kind: str = "cuad") -> dict[str, dict]:
    return {c["category"]: c for c in body["clauses"] if c["kind"] == kind}


def test_every_cuad_category_with_governing_law_cited_at_its_paragraph(alice):
    up = upload(alice)
    resp = alice.api().get(f"/api/documents/{up['document']['id']}/clauses")
    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert body["document_id"] == up["document"]["id"] and body["version_id"] == up["version"]["id"]
    assert body["model"]["data_version"] and "Atticus" in body["model"]["attribution"]
    assert body["confident_absence"] == CONFIDENT_ABSENCE

    cuad = by_category(body)
    assert list(cuad) == list(CUAD_GROUPS)  # all 41, in CUAD's order
    assert all(c["group"] == CUAD_GROUPS[name] for name, c in cuad.items())
    anchor = up["anchors"][9]  # the governing-law paragraph (every paragraph of the contract is non-empty)
    law = cuad["Governing Law"]
    assert law["present"] and law["status"] == "present" and 0 < law["probability"] <= 1
    assert law["label"] == "Governing law" and cuad["Rofr/Rofo/Rofn"]["label"].startswith("Right of first refusal")
    assert set(body["status_meanings"]) == {"present", "absent", "not_sure"}
    assert law["anchors"][0] == anchor
    assert law["quotes"][0]["anchor"] == anchor and law["quotes"][0]["paragraph"] == 9
    assert law["quotes"][0]["text"] in GOVERNING_LAW
    assert by_category(body, "playbook")["governing_law"]["anchors"][0] == anchor

    for c in body["clauses"]:  # the three states say what the probability says
        assert c["status"] == ("present" if c["present"] else
                               "absent" if c["probability"] < CONFIDENT_ABSENCE else "not_sure"), c
        assert c["label"] and c["status_label"] == c["status"].replace("_", " ")
        assert set(c["anchors"]) <= set(up["anchors"])
        if not c["present"]:
            assert c["quotes"] == [] and c["anchors"] == []


def test_a_chosen_version_else_the_latest(alice):
    first = upload(alice)
    other = build_docx(para("This Agreement is governed by the laws of England and Wales.")
                       + para("The Supplier shall deliver the Goods."))
    # The same RedlineDocID would make it a new version of the same document; a plain second file is a new document.
    second = upload(alice, other, "other.docx")
    doc_id = first["document"]["id"]
    chosen = alice.api().get(f"/api/documents/{doc_id}/clauses", {"version_id": first["version"]["id"]})
    assert chosen.status_code == 200 and chosen.json()["version_id"] == first["version"]["id"]
    elsewhere = alice.api().get(f"/api/documents/{doc_id}/clauses", {"version_id": second["version"]["id"]})
    assert assert_error_shape(elsewhere, 404, "a version of another document")["code"] == "not_found"


def test_bad_version_ids_are_4xx_in_the_error_shape(alice):
    doc_id = upload(alice)["document"]["id"]
    for bad in ("twelve", "1.5", str(2**70), "0"):
        resp = alice.api().get(f"/api/documents/{doc_id}/clauses", {"version_id": bad})
        assert_error_shape(resp, (404, 422), f"version_id={bad}")
    assert alice.api().get(f"/api/documents/{doc_id}/clauses", {"version_id": 2_147_483_000}).status_code == 404


def test_another_workspaces_document_is_404(alice, bob):
    up = upload(alice)
    doc_id, version_id = up["document"]["id"], up["version"]["id"]
    for resp in (bob.api().get(f"/api/documents/{doc_id}/clauses"),
                 bob.api().get(f"/api/documents/{doc_id}/clauses", {"version_id": version_id})):
        assert assert_error_shape(resp, 404, "bob")["code"] == "not_found"
    mine = upload(bob)  # the same bytes in Bob's workspace are Bob's own document
    own = bob.api().get(f"/api/documents/{mine['document']['id']}/clauses", {"version_id": version_id})
    assert assert_error_shape(own, 404, "alice's version under bob's document")["code"] == "not_found"


def test_the_report_is_computed_once_per_content_then_served_from_the_cache(alice):
    up = upload(alice)
    version = DocumentVersion.objects.get(pk=up["version"]["id"])
    cache.clear()
    fresh = document_clauses(version=version)
    version.file.delete(save=False)  # from now on only the cache can answer
    cached = document_clauses(version=version)
    assert cached == fresh and cached.to_dict() == fresh.to_dict()
    resp = alice.api().get(f"/api/documents/{up['document']['id']}/clauses")
    assert resp.status_code == 200 and by_category(resp.json())["Governing Law"]["present"]
