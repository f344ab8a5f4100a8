from __future__ import annotations

from typing import Any

from ninja import Schema


class ErrorOut(Schema):
    """The one error shape of every 4xx: stable ``code``, human ``message``, optional ``detail``."""

    code: str
    message: str
    detail: dict[str, Any] = {}
