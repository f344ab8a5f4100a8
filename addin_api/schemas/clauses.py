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
    label: str  # the category in a lawyer's words ("IP ownership assignment", "Governing law")
    kind: Literal["cuad", "playbook"]
    group: str  # thematic group, for display
    present: bool
    # present: the engine decided it is there; absent: only below `confident_absence`; else not_sure
    status: Literal["present", "absent", "not_sure"]
    status_label: str  # the status in words ("not sure")
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
    status_meanings: dict[str, str]  # status → what it means, in one line (the map's legend)
    clauses: list[ClauseOut]  # CUAD's 41 categories in CUAD's order, then the playbook categories covered
