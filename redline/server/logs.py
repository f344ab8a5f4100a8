"""Secrets never reach the access log: a stream ticket travels in the URL (EventSource cannot send headers),
and the ASGI server logs every URL with its query string."""

from __future__ import annotations

import logging
import re

_TICKET = re.compile(r"(?<=[?&]ticket=)[^&\s\"]+")


class TicketRedactor(logging.Filter):
    """Replaces the value of every ``ticket=`` query parameter in a log record with ``[redacted]``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and any(isinstance(a, str) and "ticket=" in a for a in record.args):
            record.args = tuple(_TICKET.sub("[redacted]", a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str) and "ticket=" in record.msg:
            record.msg = _TICKET.sub("[redacted]", record.msg)
        return True


def redact_tickets(*loggers: str) -> None:
    """Install :class:`TicketRedactor` on the named loggers (uvicorn's access log, by default)."""
    for name in loggers or ("uvicorn.access",):
        logger = logging.getLogger(name)
        if not any(isinstance(f, TicketRedactor) for f in logger.filters):
            logger.addFilter(TicketRedactor())
