"""Uploading, storing unchanged, refusing bad files with typed codes, ingesting in the background."""

from __future__ import annotations

import hashlib
import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.jobs.worker import in_process_worker
from redline.models import DocumentVersion, Job, JobStatus
from tests.support.docx_builder import build_docx, para


def upload(member, data: bytes, name: str = "contract.docx", **extra):
    return member.api().post("/api/documents", {"file": SimpleUploadedFile(name, data), **extra})


@pytest.mark.django_db
class TestUpload:
    def test_original_is_stored_byte_for_byte(self, alice, simple_docx):
        resp = upload(alice, simple_docx, title="Supply Agreement")
        assert resp.status_code == 201, resp.content
        body = resp.json()
        assert body["created"] is True
        assert body["document"]["title"] == "Supply Agreement"
        assert len(body["document"]["doc_id"]) == 16
        version = DocumentVersion.objects.get(pk=body["version"]["id"])
        assert version.sha256 == hashlib.sha256(simple_docx).hexdigest() == body["version"]["sha256"]
        with version.file.open("rb") as fh:
            assert fh.read() == simple_docx
        dl = alice.api().get(f"/api/documents/versions/{version.pk}/file")
        assert dl.status_code == 200 and b"".join(dl.streaming_content) == simple_docx

    def test_same_bytes_twice_is_one_version(self, alice, simple_docx):
        first = upload(alice, simple_docx).json()
        again = upload(alice, simple_docx)
        assert again.status_code == 200
        assert again.json()["version"]["id"] == first["version"]["id"]
        assert again.json()["created"] is False
        assert DocumentVersion.objects.count() == 1

    def test_redline_doc_id_in_the_file_links_versions(self, alice):
        props = (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Properties '
            'xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" '
            'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
            '<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="RedlineDocID">'
            "<vt:lpwstr>0123456789abcdef</vt:lpwstr></property></Properties>"
        )
        v1 = upload(alice, build_docx(para("Version one."), custom_props=props)).json()
        v2 = upload(alice, build_docx(para("Version two."), custom_props=props)).json()
        assert v1["document"]["doc_id"] == "0123456789abcdef"
        assert v2["document"]["id"] == v1["document"]["id"]
        assert len(v2["document"]["versions"]) == 2

    @pytest.mark.parametrize(
        ("data", "code"),
        [
            (b"", "not_a_zip"),
            (b"hello, I am a text file", "not_a_zip"),
            (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "legacy_doc"),
            (b"\x89PNG\r\n\x1a\n" + b"\0" * 100, "not_a_zip"),
        ],
    )
    def test_bad_files_get_a_typed_422_and_are_not_stored(self, alice, data, code):
        resp = upload(alice, data)
        assert resp.status_code == 422, resp.content
        assert resp.json()["code"] == code
        assert DocumentVersion.objects.count() == 0

    def test_zip_that_is_not_a_docx(self, alice):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            zf.writestr("hello.txt", "hi")
        resp = upload(alice, buf.getvalue())
        assert resp.status_code == 422 and resp.json()["code"] == "not_a_docx"

    def test_oversize_upload_is_refused_with_413(self, alice, simple_docx, settings):
        settings.REDLINE_MAX_UPLOAD_BYTES = 100
        resp = upload(alice, simple_docx)
        assert resp.status_code == 413 and resp.json()["code"] == "too_large"

    def test_missing_file_field_is_a_validation_error(self, alice):
        resp = alice.api().post("/api/documents", {"title": "x"})
        assert resp.status_code == 422 and resp.json()["code"] == "validation_error"


@pytest.mark.django_db(transaction=True)
def test_in_process_worker_ingests_the_upload_into_sqlite(alice, simple_docx, settings):
    assert settings.CELERY_BROKER_URL == ""
    body = upload(alice, simple_docx).json()
    assert in_process_worker().wait_idle(30)
    job = Job.objects.get(pk=body["job_id"])
    assert job.status == JobStatus.SUCCEEDED, (job.error_code, job.error_message)
    assert job.worker == "in-process"
    assert job.result["paragraphs"] == 2
    assert DocumentVersion.objects.get(pk=body["version"]["id"]).paragraph_count == 2
    events = alice.api().get(f"/api/jobs/{job.pk}/events.json").json()
    assert events[0]["kind"] == "started" and events[-1]["kind"] == "done"
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    later = alice.api().get(f"/api/jobs/{job.pk}/events.json?after={events[1]['seq']}").json()
    assert [e["seq"] for e in later] == [e["seq"] for e in events[2:]]
