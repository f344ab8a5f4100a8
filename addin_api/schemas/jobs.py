from __future__ import annotations

from datetime import datetime
from typing import Any

from ninja import Schema


class JobOut(Schema):
    id: int
    kind: str
    status: str
    attempts: int
    result: dict[str, Any] | None
    error_code: str
    error_message: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class JobEventOut(Schema):
    seq: int
    kind: str
    data: dict[str, Any]
    created_at: datetime


class TicketOut(Schema):
    ticket: str
    expires_in: int
