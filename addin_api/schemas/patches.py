from __future__ import annotations

from ninja import Field, Schema


class PatchIn(Schema):
    """The paragraph (its ``_RL_`` anchor) and every suggestion that should be in it after this
    step: those already applied there plus the new ones (stable ``id``s from the suggestions list)."""

    anchor: str = Field(min_length=1, max_length=40)  # the suggestions' own anchor, or 422 other_paragraph
    suggestions: list[str] = Field(min_length=1, max_length=500)


class PatchResultOut(Schema):
    id: str
    pk: int
    status: str  # "applied", or "skipped" with why (reason: a stable code; message: plain words)
    reason: str
    message: str


class PatchOut(Schema):
    anchor: str
    patch: str | None  # flat-OPC pkg:package for Word.Range.insertOoxml; null when none applied
    text: str  # the anchored paragraph once the changes are accepted
    before: int  # new paragraphs (insertions) in the patch before the anchored one
    after: int  # and after it: a later patch of this paragraph replaces them too
    results: list[PatchResultOut]  # one per suggestion, in the run's order
