"""The one application error: a message for humans, a code and detail for machines.

Services raise it for anything the caller did wrong or asked for that cannot be
done; interfaces map it once (HTTP 4xx with ``{"code", "message", "detail"}``,
CLI exit 2). Internal errors are never shown to users.
"""

from __future__ import annotations

from typing import Any


class ApplicationError(Exception):
    """An expected failure with a stable machine-readable ``code``."""

    status: int = 400

    def __init__(self, code: str, message: str, *, status: int | None = None, detail: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail or {}
        if status is not None:
            self.status = status


class NotFound(ApplicationError):
    """A row that does not exist, or exists in another workspace (indistinguishable by design)."""

    status = 404

    def __init__(self, what: str, ident: object):
        super().__init__("not_found", f"{what} {ident} was not found.", detail={"resource": what})
