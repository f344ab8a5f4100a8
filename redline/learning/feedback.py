"""Feedback in the seeds' shapes: thumbs follow-up tags and ``feedback.json``.

Both formats come from the seed plans and are exported as they are written
there, so tools built against the seeds read ours unchanged:

* ``TAG_MAPPING`` is the validator/feedback plan's ``FeedbackProcessor``
  table: a thumbs-down follow-up reason becomes structured tags server-side,
  so every client categorises the same way;
* :func:`feedback_json` is the feedback-learning plan's per-document file:
  ``document_id``, ``created_at``, ``last_updated``, ``known_entries``
  (accumulated across runs) and ``rejections`` (each a copy of its entry with
  ``reason`` and ``rejected_at``), with the keys the seed's recorder writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .outcomes import EntryLike

TAG_MAPPING: dict[str, tuple[str, ...]] = {
    "too_strict": ("overly_cautious", "false_positive"),
    "too_risky": ("missed_risk", "false_negative"),
    "not_clear": ("explanation_quality", "clarity_issue"),
    "wrong_intent": ("misunderstanding", "context_missing"),
    "other": ("needs_review",),
}
FOLLOW_UP_REASONS = tuple(TAG_MAPPING)


def feedback_tags(follow_up_reason: str | None) -> list[str]:
    """The tags for a thumbs follow-up reason; none without a reason.

    Raises ValueError for a reason outside the seed's five, so a client typo is
    refused instead of being stored untagged.
    """
    if follow_up_reason is None:
        return []
    try:
        return list(TAG_MAPPING[follow_up_reason])
    except KeyError:
        raise ValueError(f"follow_up_reason must be one of {', '.join(FOLLOW_UP_REASONS)}") from None


def iso_utc(moment: datetime | str) -> str:
    """A time as the seed writes it (``2026-01-14T10:00:00Z``); strings pass through."""
    if isinstance(moment, str):
        return moment
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.replace(microsecond=0, tzinfo=None).isoformat() + "Z"


@dataclass(frozen=True, slots=True)
class FeedbackEntry:
    """A known entry as ``feedback.json`` records it: the seed's fields, then ours.

    ``suggestion_id`` (the stable id of the suggestion that wrote it) and
    ``outcome`` come after the seed's keys, so a reader of the seed's format
    finds everything where it expects it.
    """

    id: str
    operation_type: str
    bookmark_id: str
    created_at: datetime | str
    durable_id: str = ""
    comment_text: str = ""
    document_context: str = ""
    original_text: str = ""
    new_text: str = ""
    position: str = ""
    suggestion_id: str | None = None
    outcome: str = "pending"

    @classmethod
    def from_entry(cls, entry: EntryLike, *, document_context: str, created_at: datetime | str,
                   suggestion_id: str | None = None, outcome: str = "pending") -> FeedbackEntry:
        """From a known entry plus what only the record knows."""
        return cls(id=entry.id, operation_type=entry.operation_type, bookmark_id=entry.bookmark_id,
                   created_at=created_at, durable_id=entry.durable_id, comment_text=entry.comment_text,
                   document_context=document_context, original_text=entry.original_text,
                   new_text=entry.new_text, position=entry.position, suggestion_id=suggestion_id, outcome=outcome)

    def to_json(self) -> dict[str, Any]:
        """The seed's ``known_entries`` item, keys in the seed's order."""
        return {
            "id": self.id, "operation_type": self.operation_type, "durable_id": self.durable_id,
            "comment_text": self.comment_text, "document_context": self.document_context,
            "bookmark_id": self.bookmark_id, "original_text": self.original_text, "new_text": self.new_text,
            "position": self.position, "created_at": iso_utc(self.created_at),
            "suggestion_id": self.suggestion_id, "outcome": self.outcome,
        }


@dataclass(frozen=True, slots=True)
class FeedbackRejection:
    """A rejected entry: the seed copies the entry and adds why and when."""

    entry: FeedbackEntry
    reason: str
    rejected_at: datetime | str

    def to_json(self) -> dict[str, Any]:
        """The seed's ``rejections`` item, keys in the seed's order."""
        e = self.entry
        return {
            "id": e.id, "operation_type": e.operation_type, "durable_id": e.durable_id,
            "comment_text": e.comment_text, "document_context": e.document_context, "bookmark_id": e.bookmark_id,
            "original_text": e.original_text, "new_text": e.new_text, "reason": self.reason,
            "rejected_at": iso_utc(self.rejected_at), "suggestion_id": e.suggestion_id, "outcome": e.outcome,
        }


def feedback_json(*, document_id: str, created_at: datetime | str, last_updated: datetime | str,
                  known_entries: Iterable[FeedbackEntry], rejections: Iterable[FeedbackRejection]) -> dict[str, Any]:
    """The seed's ``feedback.json`` for one document."""
    return {
        "document_id": document_id,
        "created_at": iso_utc(created_at),
        "last_updated": iso_utc(last_updated),
        "known_entries": [e.to_json() for e in known_entries],
        "rejections": [r.to_json() for r in rejections],
    }
