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


class PreferencesIn(Schema):
    """Either the whole ``text``, or ``action`` with ``lines`` (the seed's update_preferences)."""

    text: str | None = None
    action: Literal["append", "replace"] | None = None
    lines: list[str] | None = None
    reason: str = ""
