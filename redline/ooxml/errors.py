"""The one error type the OOXML engine raises for input it refuses."""

from __future__ import annotations


class DocxError(Exception):
    """A .docx that cannot be read or written safely.

    ``code`` is machine-readable and stable (``not_a_zip``, ``zip_bomb``, …);
    the message is for humans. Callers map it to HTTP 4xx or CLI exit 2.
    """

    def __init__(self, code: str, message: str, **detail: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"
