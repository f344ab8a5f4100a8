from __future__ import annotations

from datetime import datetime
from typing import Literal

from ninja import Schema


class PreferencesOut(Schema):
    version: int  # 0 when nothing was ever saved
    text: str
    author_kind: str
    author: str | None
    reason: str
    created_at: datetime | None


class LineSourceOut(Schema):
    """One decision a learned line came from: the suggestion, what the lawyer did, and when."""

    suggestion_id: str | None  # the stable suggestion id (null if its run was deleted)
    suggestion_pk: int | None
    entry_id: str
    document_id: int
    run_id: int | None
    outcome: str
    recorded_at: datetime  # when the suggestion was written into the document
    outcome_at: datetime | None  # when the outcome was read from the returned document
    reason: str


class LearnedLineOut(Schema):
    line: str
    version: int  # the preferences version that added it
    accepted: int
    rejected: int
    sources: list[LineSourceOut]


class CurrentPreferencesOut(PreferencesOut):
    learned: list[LearnedLineOut]  # the learned lines still in the text, with their provenance


class PreferencesIn(Schema):
    """Either the whole ``text``, or ``action`` with ``lines`` (the seed's update_preferences)."""

    text: str | None = None
    action: Literal["append", "replace"] | None = None
    lines: list[str] | None = None
    reason: str = ""
    base_version: int | None = None  # the version the change was made against: 409 if another was saved since
