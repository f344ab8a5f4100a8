"""Tracked changes over the API: pages of records, accept/reject into a new version."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.models import DocumentVersion
from redline.ooxml.extract import extract_all
from redline.ooxml.paragraphs import read_document
from redline.services import revisions as revisions_service
from tests.support.revision_docs import every_kind_docx


def upload(member, data: bytes) -> dict:
    resp = member.api().post("/api/documents", {"file": SimpleUploadedFile("deal.docx", data)})
    assert resp.status_code == 201, resp.content
    return resp.json()


@pytest.fixture
def uploaded(alice) -> dict:
    cache.clear()
    data = every_kind_docx()
    return {**upload(alice, data), "bytes": data}


def download(member, url: str) -> bytes:
    resp = member.api().get(url)
    assert resp.status_code == 200
    return b"".join(resp.streaming_content)


def texts(data: bytes) -> list[str]:
    return [p.text for p in read_document(data, anchor=False).paragraphs if p.text]


@pytest.mark.django_db
class TestRevisionsPage:
    def test_first_page_has_the_records_keyed_to_the_upload_anchors(self, alice, uploaded):
        doc_id = uploaded["document"]["id"]
        resp = alice.api().get(f"/api/documents/{doc_id}/revisions?limit=5")
        assert resp.status_code == 200, resp.content
        page = resp.json()
        assert page["version_id"] == uploaded["version"]["id"]
        assert page["offset"] == 0 and page["limit"] == 5 and page["has_more"] is True
        assert page["total"] > 5 and len(page["paragraphs"]) == 5
        first = page["paragraphs"][0]
        assert first["para_id"] in uploaded["anchors"]  # the same anchors the upload reported
        assert (first["before_text"], first["after_text"]) == ("Keep gone end.", "Keep added end.")
        assert [(r["type"], r["author"]) for r in first["revisions"]] == [("INSERTION", "Alice"), ("DELETION", "Bob")]

    def test_pages_are_slices_of_one_cached_extraction(self, alice, uploaded, monkeypatch):
        calls = []

        def counting(data):
            calls.append(1)
            return extract_all(data)

        monkeypatch.setattr(revisions_service, "extract_all", counting)
        doc_id = uploaded["document"]["id"]
        pages = [alice.api().get(f"/api/documents/{doc_id}/revisions?offset={o}&limit=4").json() for o in (0, 4, 8)]
        assert len(calls) == 1
        whole = alice.api().get(f"/api/documents/{doc_id}/revisions?limit=500").json()
        assert [p for page in pages for p in page["paragraphs"]] == whole["paragraphs"][:12]
        assert whole["has_more"] is False and len(whole["paragraphs"]) == whole["total"]

    @pytest.mark.parametrize(
        ("query", "code"),
        [("limit=0", "INVALID_LIMIT"), ("limit=501", "INVALID_LIMIT"), ("limit=ten", "INVALID_LIMIT"),
         ("offset=-1", "INVALID_OFFSET"), ("offset=1.5", "INVALID_OFFSET")],
    )
    def test_pagination_errors_are_422_with_their_code(self, alice, uploaded, query, code):
        resp = alice.api().get(f"/api/documents/{uploaded['document']['id']}/revisions?{query}")
        assert resp.status_code == 422, resp.content
        assert resp.json()["code"] == code

    def test_another_workspace_gets_404(self, bob, uploaded):
        doc_id = uploaded["document"]["id"]
        assert bob.api().get(f"/api/documents/{doc_id}/revisions").status_code == 404
        resp = bob.api().post(f"/api/documents/{doc_id}/accept", {}, content_type="application/json")
        assert resp.status_code == 404 and resp.json()["code"] == "not_found"

    def test_a_version_of_another_document_is_404(self, alice, uploaded):
        other = upload(alice, every_kind_docx({"only": "<w:p><w:r><w:t>Other</w:t></w:r></w:p>"}))
        url = f"/api/documents/{uploaded['document']['id']}/revisions?version_id={other['version']['id']}"
        assert alice.api().get(url).status_code == 404


@pytest.mark.django_db
class TestAcceptReject:
    def test_accept_all_makes_a_new_clean_version_and_keeps_the_original(self, alice, uploaded):
        doc_id = uploaded["document"]["id"]
        resp = alice.api().generic("POST", f"/api/documents/{doc_id}/accept")  # no body: everything
        assert resp.status_code == 201, resp.content
        body = resp.json()
        assert body["source_version_id"] == uploaded["version"]["id"]
        new_id = body["version"]["id"]
        assert new_id != uploaded["version"]["id"]
        assert body["download_url"] == f"/api/documents/versions/{new_id}/file"
        data = download(alice, body["download_url"])
        assert "Keep added end." in texts(data) and "A clause Alice deleted." not in texts(data)
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            for part in ("word/document.xml", "word/header1.xml", "word/footnotes.xml", "word/comments.xml"):
                xml = zf.read(part)
                assert b"<w:ins " not in xml and b"<w:del " not in xml, part
        # Same document, original kept byte for byte; the new version is the latest one.
        assert DocumentVersion.objects.filter(document_id=doc_id).count() == 2
        assert download(alice, f"/api/documents/versions/{uploaded['version']['id']}/file") == uploaded["bytes"]
        page = alice.api().get(f"/api/documents/{doc_id}/revisions").json()
        assert page["version_id"] == new_id
        assert all(not p["revisions"] for p in page["paragraphs"])  # only the commented paragraph is left
        assert [p["comments"][0]["id"] for p in page["paragraphs"]] == ["0"]

    def test_reject_by_author_leaves_the_other_authors_changes_pending(self, alice, uploaded):
        doc_id = uploaded["document"]["id"]
        resp = alice.api().post(f"/api/documents/{doc_id}/reject", {"authors": ["Bob"]},
                                content_type="application/json")
        assert resp.status_code == 201, resp.content
        page = alice.api().get(f"/api/documents/{doc_id}/revisions?limit=500").json()
        authors = {r["author"] for p in page["paragraphs"] for r in p["revisions"]}
        assert authors == {"Alice"}
        first = page["paragraphs"][0]
        # Bob's deletion of "gone " is rejected for good; Alice's insertion is still pending.
        assert (first["before_text"], first["after_text"]) == ("Keep gone end.", "Keep added gone end.")

    def test_accept_by_anchor_and_by_revision_id(self, alice, uploaded):
        doc_id = uploaded["document"]["id"]
        records = alice.api().get(f"/api/documents/{doc_id}/revisions?limit=500").json()["paragraphs"]
        target = next(p for p in records if p["before_text"] == "Keep gone end.")
        resp = alice.api().post(f"/api/documents/{doc_id}/accept", {"anchors": [target["para_id"]]},
                                content_type="application/json")
        assert resp.status_code == 201, resp.content
        after = alice.api().get(f"/api/documents/{doc_id}/revisions?limit=500").json()["paragraphs"]
        assert target["para_id"] not in [p["para_id"] for p in after]
        assert len(after) == len(records) - 1
        ident = after[0]["revisions"][0]["id"]
        resp = alice.api().post(f"/api/documents/{doc_id}/reject", {"revision_ids": [ident]},
                                content_type="application/json")
        assert resp.status_code == 201
        again = alice.api().get(f"/api/documents/{doc_id}/revisions?limit=500").json()["paragraphs"]
        assert ident not in {r["id"] for p in again for r in p["revisions"]}

    def test_a_selection_that_matches_nothing_is_refused(self, alice, uploaded):
        resp = alice.api().post(f"/api/documents/{uploaded['document']['id']}/accept", {"authors": ["Nobody"]},
                                content_type="application/json")
        assert resp.status_code == 422 and resp.json()["code"] == "no_matching_revisions"
        assert DocumentVersion.objects.count() == 1
