"""Thumbs follow-up tags and feedback.json, exactly as the seeds write them."""

from __future__ import annotations

import ast
import json
import re
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from redline.learning.feedback import (
    FOLLOW_UP_REASONS,
    TAG_MAPPING,
    FeedbackEntry,
    FeedbackRejection,
    feedback_json,
    feedback_tags,
    iso_utc,
)
from redline.learning.outcomes import Status, detect_outcomes
from tests.learning.lawyer import EXPECTED

_SHARED_SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
# The shared seed wins when checked out beside the repository; a copy travels with the tests for CI.
SEEDS = _SHARED_SEEDS if (_SHARED_SEEDS / "validator-feedback-agents-plan.md").exists() else (
    Path(__file__).resolve().parents[1] / "support" / "seeds")

# The seed's FeedbackProcessor.TAG_MAPPING (validator-feedback-agents-plan.md, Phase 5).
SEED_TAGS = [
    ("too_strict", ["overly_cautious", "false_positive"]),
    ("too_risky", ["missed_risk", "false_negative"]),
    ("not_clear", ["explanation_quality", "clarity_issue"]),
    ("wrong_intent", ["misunderstanding", "context_missing"]),
    ("other", ["needs_review"]),
]


@pytest.mark.parametrize(("reason", "tags"), SEED_TAGS)
def test_each_follow_up_reason_maps_to_the_seeds_tags(reason, tags):
    assert feedback_tags(reason) == tags


def test_the_reasons_are_exactly_the_seeds():
    assert list(FOLLOW_UP_REASONS) == [r for r, _ in SEED_TAGS]
    assert feedback_tags(None) == []
    with pytest.raises(ValueError, match="too_strict"):
        feedback_tags("too_slow")


def test_the_table_is_the_one_in_the_seed_file():
    seed = (SEEDS / "validator-feedback-agents-plan.md").read_text(encoding="utf-8")
    literal = re.search(r"TAG_MAPPING = (\{.*?\n    \})", seed, re.S).group(1)
    assert {k: tuple(v) for k, v in ast.literal_eval(literal).items()} == TAG_MAPPING


def test_times_are_written_as_the_seed_writes_them():
    assert iso_utc(datetime(2026, 1, 14, 10, 0, 0, 123, tzinfo=UTC)) == "2026-01-14T10:00:00Z"
    assert iso_utc(datetime(2026, 1, 14, 12, 0, tzinfo=timezone(timedelta(hours=2)))) == "2026-01-14T10:00:00Z"
    assert iso_utc("2026-01-14T11:00:00Z") == "2026-01-14T11:00:00Z"


def test_feedback_json_has_the_seeds_shape(written, reviewed):
    entries = list(written.entries.values())
    created, later = datetime(2026, 1, 14, 10, tzinfo=UTC), datetime(2026, 1, 14, 11, tzinfo=UTC)
    found = detect_outcomes(reviewed, entries)
    known = [FeedbackEntry.from_entry(e, document_context=e.original_text, created_at=created,
                                      suggestion_id=f"s-{e.id}", outcome=o.status.value)
             for e, o in zip(entries, found, strict=True)]
    by_id = {k.id: k for k in known}
    rejections = [FeedbackRejection(by_id[e.id], o.reason, later)
                  for e, o in zip(entries, found, strict=True) if o.status is Status.REJECTED]
    doc = feedback_json(document_id=written.output.document_id, created_at=created, last_updated=later,
                        known_entries=known, rejections=rejections)
    assert list(doc) == ["document_id", "created_at", "last_updated", "known_entries", "rejections"]
    assert (doc["document_id"], doc["created_at"], doc["last_updated"]) == (
        written.output.document_id, "2026-01-14T10:00:00Z", "2026-01-14T11:00:00Z")
    # The seed's keys in the seed's order, then the suggestion id and the outcome.
    assert list(doc["known_entries"][0]) == ["id", "operation_type", "durable_id", "comment_text", "document_context",
                                             "bookmark_id", "original_text", "new_text", "position", "created_at",
                                             "suggestion_id", "outcome"]
    assert list(doc["rejections"][0]) == ["id", "operation_type", "durable_id", "comment_text", "document_context",
                                          "bookmark_id", "original_text", "new_text", "reason", "rejected_at",
                                          "suggestion_id", "outcome"]
    assert {e["operation_type"] for e in doc["known_entries"]} == {"COMMENT", "REWRITE", "INSERT", "DELETE",
                                                                   "REPLACE_TEXT"}
    comment = next(e for e in doc["known_entries"] if e["id"] == written.entries["comment_pending"].id)
    assert comment["durable_id"] == written.entries["comment_pending"].durable_id != ""
    # What the lawyer did, written by hand in lawyer.EXPECTED, not read back from detect_outcomes.
    name_of = {e.id: name for name, e in written.entries.items()}
    assert {name_of[e["id"]]: e["outcome"] for e in doc["known_entries"]} == EXPECTED
    assert sorted(name_of[r["id"]] for r in doc["rejections"]) == [
        "comment_deleted", "delete_rejected", "insert_rejected", "replace_rejected_anchor_lost", "rewrite_rejected"]
    assert all(r["outcome"] == "rejected" and r["suggestion_id"] == f"s-{r['id']}" for r in doc["rejections"])
    rewrite = next(r for r in doc["rejections"] if r["id"] == written.entries["rewrite_rejected"].id)
    assert rewrite["reason"].endswith("still contains the original text")
    assert rewrite["rejected_at"] == "2026-01-14T11:00:00Z"
    # No timestamps in ids: the same suggestions give the same ids on every run.
    assert all(re.fullmatch(r"[0-9a-f]{16}", e["id"]) for e in doc["known_entries"])
    assert json.loads(json.dumps(doc)) == doc
