from __future__ import annotations

from datetime import datetime
from typing import Literal

from ninja import Schema


class FeedbackIn(Schema):
    thumbs_up: bool
    follow_up_reason: Literal["too_strict", "too_risky", "not_clear", "wrong_intent", "other"] | None = None
    additional_comments: str = ""
    user_accepted_clause: bool | None = None


class FeedbackOut(Schema):
    suggestion_pk: int
    thumbs_up: bool
    follow_up_reason: str
    tags: list[str]
    additional_comments: str
    user_accepted_clause: bool | None
    updated_at: datetime
