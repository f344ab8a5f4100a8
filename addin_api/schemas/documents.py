from __future__ import annotations

from datetime import datetime

from ninja import Schema


class DocumentVersionOut(Schema):
    id: int
    filename: str
    sha256: str
    size: int
    created_at: datetime
    paragraph_count: int | None
    source: str


class DocumentOut(Schema):
    id: int
    doc_id: str
    title: str
    created_at: datetime
    versions: list[DocumentVersionOut]


class DocumentUploadOut(Schema):
    document: DocumentOut
    version: DocumentVersionOut
    job_id: int
    created: bool
    # How the upload found its document: "document_id" (named), "doc_id" (its RedlineDocID), "anchors"
    # (it lost its RedlineDocID but carries that document's anchors), "new", or "same_file" (uploaded before).
    linked_by: str
    anchors: list[str]  # the paragraphs' anchors in document order: results are keyed to these
