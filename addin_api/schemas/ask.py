from __future__ import annotations

from typing import Any

from ninja import Field, Schema


class AskIn(Schema):
    question: str = Field(min_length=3, max_length=2000)
    version_id: int | None = None  # default: the document's latest version


class CitationOut(Schema):
    anchor: str
    quote: str  # verified verbatim in the paragraph with this anchor
    start: int
    end: int
    section: str | None


class ClauseAnswerOut(Schema):
    category: str  # the CUAD category the question is about
    present: bool
    probability: float  # calibrated probability that the contract has such a clause


class AskOut(Schema):
    question: str
    answer: str
    citations: list[CitationOut]
    passages: list[dict[str, Any]]  # what retrieval found, each with why it is there
    clause: ClauseAnswerOut | None = None  # set when the question was about a kind of clause
    kinds: list[ClauseAnswerOut] = []  # every kind of clause the question was routed to, best first (clause too)
