from __future__ import annotations

from typing import Annotated, Any

from ninja import Schema
from pydantic import Field

# A row id as the database can hold it (BigAutoField): larger values would reach the
# database driver, which refuses them with an error instead of finding nothing.
Id = Annotated[int, Field(ge=1, le=2**63 - 1)]


class ErrorOut(Schema):
    """The one error shape of every 4xx: stable ``code``, human ``message``, optional ``detail``."""

    code: str
    message: str
    detail: dict[str, Any] = {}
