from __future__ import annotations

from ninja import Field, Schema

ANCHOR_PATTERN = r"^_RL_[0-9a-f]{12}$"


class ParagraphIn(Schema):
    anchor: str = Field(pattern=ANCHOR_PATTERN)
    text: str = Field(max_length=100_000)
    style: str | None = None
    list_label: str | None = None
    heading_level: int | None = Field(default=None, ge=0, le=9)
    in_table: bool = False


class ParagraphsIn(Schema):
    """The add-in's live document: paragraphs in order, each with its ``_RL_`` anchor."""

    title: str = ""
    doc_id: str | None = Field(default=None, pattern=r"^[0-9A-Fa-f]{16}$")
    document_id: int | None = Field(default=None, ge=1, le=2**63 - 1)  # add a version to this document
    paragraphs: list[ParagraphIn] = Field(min_length=1, max_length=50_000)
