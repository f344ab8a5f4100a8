"""Learning from what the lawyer did: known entries, outcomes, rejections.

Every suggestion written into a document is a known entry (deduplicated by the
writer's stable id). When the document comes back, the learning engine decides
each entry's outcome; rejections are kept with their context and feed the next
run, which never suggests a rejected thing again.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from ..models import AnalysisRun, KnownEntry, Suggestion

ENTRY_FIELDS = ("operation_type", "durable_id", "comment_text", "bookmark_id", "original_text", "new_text", "position")


@transaction.atomic
def known_entries_record(*, run: AnalysisRun, written: list[tuple[dict[str, Any], Suggestion]]) -> list[KnownEntry]:
    """Record what was written into the run's document (idempotent: one entry per stable id)."""
    document = run.document_version.document
    entries = []
    for entry, suggestion in written:
        obj, created = KnownEntry.objects.get_or_create(
            document=document, entry_id=entry["id"],
            defaults={
                "workspace": document.workspace, "run": run, "suggestion": suggestion,
                "rule_key": suggestion.rule_key, "document_context": entry.get("original_text", ""),
                **{f: entry.get(f) or "" for f in ENTRY_FIELDS},
            },
        )
        if not created and not obj.durable_id and entry.get("durable_id"):
            obj.durable_id = entry["durable_id"]
            obj.save(update_fields=["durable_id"])
        entries.append(obj)
    return entries
