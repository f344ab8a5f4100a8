"""Reading stored document versions through the OOXML engine (the one place bytes become paragraphs)."""

from __future__ import annotations

from ..admission import document_work
from ..errors import ApplicationError
from ..models import DocumentVersion
from ..ooxml.errors import DocxError
from ..ooxml.paragraphs import ReadResult, read_document

DOCX_ERROR_STATUS = {"too_large": 413}


def docx_read(data: bytes) -> ReadResult:
    """The paragraph model with deterministic anchors (the same bytes always get the same anchors)."""
    try:
        with document_work():
            return read_document(data)
    except DocxError as exc:
        raise ApplicationError(exc.code, exc.message, status=DOCX_ERROR_STATUS.get(exc.code, 422)) from None


def document_version_read(*, version: DocumentVersion) -> bytes:
    with version.file.open("rb") as fh:
        return fh.read()
