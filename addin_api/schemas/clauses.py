from __future__ import annotations

from typing import Literal

from ninja import Schema


class ClauseQuoteOut(Schema):
    anchor: str | None  # the cited paragraph's anchor (select it in Word)
    paragraph: int  # the paragraph's number in the version, from 0
    text: str  # a sentence-complete passage of that paragraph, verbatim
    score: float  # how strongly this passage reads as the category (0–1)


class ClauseOut(Schema):
    category: str  # CUAD's category name ("Governing Law") or a playbook category key ("governing_law")
    kind: Literal["cuad", "playbook"]
    group: str  # thematic group, for display
    present: bool
    status: Literal["present", "absent", "uncertain"]  # absent only below `confident_absence`
    probability: float  # calibrated probability that the contract has this kind of clause
    anchors: list[str]  # the cited paragraphs, best first
    quotes: list[ClauseQuoteOut]  # best first; only for present categories


class ClauseModelOut(Schema):
    data_name: str  # the training data the model was built from ("CUAD v1")
    data_version: str  # a fingerprint of that data
    feature_version: str
    attribution: str


class DocumentClausesOut(Schema):
    document_id: int
    version_id: int
    model: ClauseModelOut
    confident_absence: float  # a category not present with a probability below this is absent
    clauses: list[ClauseOut]  # CUAD's 41 categories in CUAD's order, then the playbook categories covered
