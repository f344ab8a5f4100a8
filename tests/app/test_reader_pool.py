"""Uploads are read in child processes: lower priority, a memory ceiling and a deadline, typed errors.

These start real reader processes (``python -m redline.ooxml.scanner``) and break them.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.models import Document, DocumentVersion
from redline.ooxml.errors import DocxError
from redline.server import reader_pool
from redline.services.files import docx_read
from tests.ooxml.conftest import make_contract
from tests.support.docx_builder import build_docx, para


@pytest.fixture(autouse=True)
def fresh_readers():
    reader_pool.shutdown()  # children start with each test's settings
    yield
    reader_pool.shutdown()


@pytest.fixture(scope="module")
def contract(tmp_path_factory) -> bytes:
    return make_contract(tmp_path_factory.mktemp("reader") / "c.docx", 2).read_bytes()


@pytest.fixture(scope="module")
def long_contract() -> bytes:
    return build_docx("".join(para(f"{i}. The Supplier shall deliver the Goods on time.") for i in range(30_000)))


def limits(pid: int) -> tuple[int, str]:
    """(nice value, "Max address space" soft limit) of a process, from /proc."""
    proc = Path(f"/proc/{pid}")
    nice = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[16])
    address = next(line.split()[3] for line in (proc / "limits").read_text().splitlines()
                   if line.startswith("Max address space"))
    return nice, address


def test_a_child_reads_the_file_as_the_engine_does_at_lower_priority_within_a_memory_ceiling(contract, settings):
    settings.REDLINE_READER_NICE, settings.REDLINE_READER_MEMORY_MB = 7, 512
    scan = reader_pool.scan_in_child(contract)
    read = docx_read(contract)
    assert scan.doc_id == read.doc_id
    assert list(scan.anchors) == [p.anchor for p in read.paragraphs if p.anchor] and len(scan.anchors) > 20
    [pid] = reader_pool.reader_pids()
    assert pid != os.getpid()
    assert limits(pid) == (os.nice(0) + 7, str(512 * 1024 * 1024))
    reader_pool.scan_in_child(contract)
    assert reader_pool.reader_pids() == [pid]  # kept for the next file


def test_a_refused_file_gets_the_engines_typed_error_and_the_child_is_kept(contract):
    reader_pool.scan_in_child(contract)
    [pid] = reader_pool.reader_pids()
    with pytest.raises(DocxError) as refused:
        reader_pool.scan_in_child(b"PK\x03\x04 not really a zip")
    assert refused.value.code == "not_a_zip" and refused.value.message
    assert reader_pool.reader_pids() == [pid]


def test_a_child_that_died_between_files_is_replaced_without_refusing_the_next(contract):
    first = reader_pool.scan_in_child(contract)
    [pid] = reader_pool.reader_pids()
    os.kill(pid, signal.SIGKILL)
    assert reader_pool.scan_in_child(contract) == first
    assert reader_pool.reader_pids() not in ([], [pid])


def test_a_file_over_the_memory_ceiling_is_refused_and_the_next_file_is_read(contract, long_contract, settings):
    settings.REDLINE_READER_MEMORY_MB = 96  # the child starts in ~30 MiB; this file needs more than 96
    with pytest.raises(DocxError) as refused:
        reader_pool.scan_in_child(long_contract)
    # Which allocation fails first varies: a MemoryError, or a library's own error (hashlib's ValueError).
    assert refused.value.code in ("too_complex", "unreadable")
    assert reader_pool.scan_in_child(contract).anchors


def test_a_file_past_the_deadline_is_refused_its_child_killed_and_the_next_file_is_read(
        contract, long_contract, settings):
    reader_pool.scan_in_child(contract)
    [pid] = reader_pool.reader_pids()
    settings.REDLINE_READER_TIMEOUT = 0.05
    with pytest.raises(DocxError) as refused:
        reader_pool.scan_in_child(long_contract)
    assert refused.value.code == "too_complex" and refused.value.detail == {"seconds": 0.05}
    assert not Path(f"/proc/{pid}").exists()  # killed and reaped
    settings.REDLINE_READER_TIMEOUT = 60
    assert reader_pool.scan_in_child(contract).anchors


@pytest.mark.django_db
def test_an_upload_its_reader_cannot_finish_is_refused_with_422_and_nothing_is_stored(
        alice, long_contract, settings):
    settings.REDLINE_READER_TIMEOUT = 0.05  # the deadline counts from the file being sent, not the start-up
    resp = alice.api().post("/api/documents", {"file": SimpleUploadedFile("long.docx", long_contract)})
    assert resp.status_code == 422
    assert resp.json()["code"] == "too_complex" and resp.json()["message"]
    assert not Document.objects.exists() and not DocumentVersion.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("interpreter", ["/bin/false", "/nonexistent/python"], ids=["exits", "missing"])
def test_when_no_reader_can_start_an_upload_gets_503_and_nothing_is_stored(alice, contract, monkeypatch,
                                                                           interpreter):
    monkeypatch.setattr(sys, "executable", interpreter)  # a broken installation: the server's fault, not the file's
    resp = alice.api().post("/api/documents", {"file": SimpleUploadedFile("c.docx", contract)})
    assert resp.status_code == 503 and resp.json()["code"] == "reader_unavailable"
    assert not DocumentVersion.objects.exists()
    monkeypatch.undo()
    assert alice.api().post("/api/documents", {"file": SimpleUploadedFile("c.docx", contract)}).status_code == 201
