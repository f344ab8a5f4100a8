from __future__ import annotations

from ninja import Field, Schema


class CompareIn(Schema):
    # the later version (accepting every change gives it; the redline is written on it); default: the latest
    to_version_id: int | None = Field(default=None, ge=1)
    # the earlier one (rejecting every change gives it); default: the version before ``to_version_id``
    from_version_id: int | None = Field(default=None, ge=1)
    author: str = Field(default="Redline Compare", min_length=1, max_length=100)


class ChangeOut(Schema):
    kind: str  # changed (reworded), inserted (only in the later version), deleted (only in the earlier one)
    anchor: str | None  # the paragraph in the redline (for a deleted one: the paragraph it follows or precedes)
    before: str
    after: str


class CompareOut(Schema):
    document_id: int
    from_version_id: int
    to_version_id: int
    views: str  # which views were compared ("accepted": each version as it reads with its own changes accepted)
    had_revisions: bool  # a version already held tracked changes (they are not played again)
    counts: dict[str, int]  # changed, inserted, deleted paragraphs
    moved: int  # of those, paragraphs recorded as moved (one deleted and one inserted change each)
    formatting_changed: int  # paragraphs whose bold, italic or underline changed (recorded as formatting changes)
    # what else changed and is redlined besides the body's paragraphs: headers, footers, footnotes, endnotes,
    # pictures (the changes list holds the body's paragraphs only)
    also_redlined: list[str]
    # what else differs and is not in the redline: headers, footers, footnotes, endnotes, pictures,
    # "bold, italic or underline" (look there by eye)
    uncompared: list[str]
    changes: list[ChangeOut]  # in document order
    download_url: str  # the redline (.docx), same key
