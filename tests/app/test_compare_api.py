"""POST /api/documents/{id}/compare and its download (issue #28): the changes as data, the redline judged by
pandoc, refusals as 4xx with a code, another workspace's versions not found."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.jobs.worker import in_process_worker
from tests.support.docx_builder import build_docx, para
from tests.support.oracles import pandoc_text

LAW = "The laws of the State of {} govern this Agreement."
V1 = build_docx(para("1. Term") + para("Notice of ninety (90) days is required.") + para("2. Law")
                + para(LAW.format("Texas")))
V2 = build_docx(para("1. Term") + para("Notice of thirty (30) days is required.") + para("2. Law")
                + para(LAW.format("New York")) + para("3. Counterparts"))


def upload(member, data: bytes, name: str, document_id: int | None = None) -> dict:
    form = {"file": SimpleUploadedFile(name, data)}
    if document_id:
        form["document_id"] = str(document_id)
    resp = member.api().post("/api/documents", form)
    assert resp.status_code in (200, 201), resp.content
    return resp.json()


@pytest.fixture
def versions(alice):
    first = upload(alice, V1, "msa.docx")
    second = upload(alice, V2, "msa-v2.docx", first["document"]["id"])
    assert in_process_worker().wait_idle(60)  # (the uploads' ingest jobs end before the test's database does)
    return first["document"]["id"], first["version"]["id"], second["version"]["id"]


@pytest.mark.django_db(transaction=True)
def test_compare_lists_the_changes_and_downloads_the_redline(alice, versions, tmp_path):
    doc, v1, v2 = versions
    resp = alice.api().post(f"/api/documents/{doc}/compare", {"from_version_id": v1, "to_version_id": v2,
                                                               "author": "Opposing Counsel"},
                            content_type="application/json")
    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert body["counts"] == {"changed": 2, "inserted": 1, "deleted": 0} and body["views"] == "accepted"
    assert body["uncompared"] == [] and body["also_redlined"] == []
    assert [(c["kind"], c["before"], c["after"]) for c in body["changes"]] == [
        ("changed", "Notice of ninety (90) days is required.", "Notice of thirty (30) days is required."),
        ("changed", LAW.format("Texas"), LAW.format("New York")), ("inserted", "", "3. Counterparts")]
    assert all(c["anchor"] for c in body["changes"])
    download = alice.api().get(body["download_url"])
    assert download.status_code == 200 and download["Content-Disposition"].endswith(f'-compared-v{v1}-v{v2}.docx"')
    path = tmp_path / "cmp.docx"
    path.write_bytes(download.content)
    assert pandoc_text(path, "accept") == ["1. Term", "Notice of thirty (30) days is required.", "2. Law",
                                           LAW.format("New York"), "3. Counterparts"]
    assert pandoc_text(path, "reject") == ["1. Term", "Notice of ninety (90) days is required.", "2. Law",
                                           LAW.format("Texas")]
    again = alice.api().get(body["download_url"])
    assert again.content == download.content  # dated when the later version arrived: the same file again


@pytest.mark.django_db(transaction=True)
def test_refusals_and_isolation(alice, bob, versions):
    doc, v1, v2 = versions

    def post(member, document_id, a, b):
        return member.api().post(f"/api/documents/{document_id}/compare", {"from_version_id": a, "to_version_id": b},
                                 content_type="application/json")

    same = post(alice, doc, v1, v1)
    assert same.status_code == 422 and same.json()["code"] == "same_version"
    assert post(alice, doc, v1, 999999).status_code == 404
    other = upload(alice, build_docx(para("A different contract.")), "other.docx")  # another document's version
    assert in_process_worker().wait_idle(60)
    assert post(alice, doc, v1, other["version"]["id"]).status_code == 404
    theirs = post(bob, doc, v1, v2)
    assert theirs.status_code == 404 and theirs.json()["code"] == "not_found"
    assert bob.api().get(f"/api/documents/{doc}/compare.docx?from_version_id={v1}&to_version_id={v2}").status_code == 404
    bad = alice.api().post(f"/api/documents/{doc}/compare", {"from_version_id": 0, "to_version_id": v2},
                           content_type="application/json")
    assert bad.status_code == 422


@pytest.mark.django_db(transaction=True)
def test_by_default_the_latest_version_against_the_one_before(alice, versions):
    doc, v1, v2 = versions
    body = alice.api().post(f"/api/documents/{doc}/compare", {}, content_type="application/json").json()
    assert (body["from_version_id"], body["to_version_id"]) == (v1, v2)
    first = alice.api().post(f"/api/documents/{doc}/compare", {"to_version_id": v1}, content_type="application/json")
    assert first.status_code == 422 and first.json()["code"] == "no_earlier_version"
