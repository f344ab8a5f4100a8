"""Reading stored document versions through the OOXML engine (the one place bytes become paragraphs)."""

from __future__ import annotations

import logging

from ..errors import ApplicationError
from ..models import DocumentVersion
from ..ooxml.errors import DocxError
from ..ooxml.paragraphs import ReadResult, Scan, read_document
from ..server.admission import document_work
from ..server.reader_pool import ReaderUnavailable, scan_in_child

DOCX_ERROR_STATUS = {"too_large": 413}
logger = logging.getLogger(__name__)


def docx_read(data: bytes) -> ReadResult:
    """The paragraph model with deterministic anchors (the same bytes always get the same anchors)."""
    try:
        with document_work():
            return read_document(data)
    except DocxError as exc:
        raise _refused(exc) from None


def docx_scan(data: bytes) -> Scan:
    """Check an upload reads, and learn its doc id and anchors, in a reader child (redline.server.reader_pool).

    The anchors are those :func:`docx_read` gives the same bytes.
    """
    try:
        return scan_in_child(data)
    except DocxError as exc:
        raise _refused(exc) from None
    except ReaderUnavailable:
        logger.exception("no .docx reader process")
        raise ApplicationError("reader_unavailable", "The server cannot read documents right now; try again.",
                               status=503) from None


def _refused(exc: DocxError) -> ApplicationError:
    return ApplicationError(exc.code, exc.message, status=DOCX_ERROR_STATUS.get(exc.code, 422))


def document_version_read(*, version: DocumentVersion) -> bytes:
    with version.file.open("rb") as fh:
        return fh.read()
