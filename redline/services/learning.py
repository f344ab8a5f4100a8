"""Learning from what the lawyer did: known entries, outcomes, rejections.

Every suggestion written into a document is a known entry (deduplicated by the
writer's stable id). When the document comes back, the learning engine decides
each entry's outcome; rejections are kept with their context and feed the next
run's prompt. The next run never proposes again anything written before whose
answer is known or still in the document (rejected, accepted, modified, or
pending: an open comment, a change not yet decided); only a ``missing`` entry
(its text is gone) may come back, as a new suggestion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Prefetch, QuerySet
from django.utils import timezone

from ..errors import ApplicationError
from ..learning.feedback import FeedbackEntry, FeedbackRejection, feedback_json
from ..learning.outcomes import detect_outcomes
from ..learning.preferences import learn_guidance, relearned
from ..learning.rounds import round_report
from ..learning.suppression import RejectedSuggestion, rejected_suggestion
from ..models import (
    AnalysisRun,
    Document,
    DocumentVersion,
    KnownEntry,
    LearnedLine,
    Outcome,
    PreferencesVersion,
    Rejection,
    RunStatus,
    Suggestion,
    Workspace,
)
from ..ooxml.errors import DocxError
from ..ooxml.ops import KnownEntry as OoxmlKnownEntry
from .files import document_version_read
from .preferences import preferences_current, preferences_lock, preferences_save

# The outcomes preferences learn from: what the lawyer clearly took or turned down.
_TEACHING = (Outcome.ACCEPTED, Outcome.REJECTED)
ENTRY_FIELDS = ("operation_type", "durable_id", "comment_text", "bookmark_id", "original_text", "new_text", "position")


@transaction.atomic
def known_entries_record(*, run: AnalysisRun, written: list[tuple[dict[str, Any], Suggestion]]) -> list[KnownEntry]:
    """Record what was written into the run's document (idempotent: one entry per stable id)."""
    document = run.document_version.document
    entries = []
    for entry, suggestion in written:
        fields = {"workspace": document.workspace, "run": run, "suggestion": suggestion,
                  "rule_key": suggestion.rule_key, "document_context": entry.get("original_text", ""),
                  **{f: entry.get(f) or "" for f in ENTRY_FIELDS}}
        obj, created = KnownEntry.objects.get_or_create(document=document, entry_id=entry["id"], defaults=fields)
        if not created and not obj.durable_id and entry.get("durable_id"):
            obj.durable_id = entry["durable_id"]
            obj.save(update_fields=["durable_id"])
        entries.append(obj)
    return entries


def suggestion_outcomes(*, run: AnalysisRun) -> dict[int, dict[str, Any]]:
    """What became of each of the run's suggestions that was written into a document, by suggestion pk.

    ``outcome`` (pending until a later version of the document came back),
    ``outcome_at`` (when that outcome was first seen), ``outcome_version_id`` (the
    version it was read from) and ``lawyer_text`` (what the place reads instead, for ``modified``).
    A suggestion never exported nor applied has no entry, so it is absent.
    """
    rows = KnownEntry.objects.filter(run=run, suggestion__isnull=False).values_list(
        "suggestion_id", "outcome", "outcome_at", "outcome_version_id", "outcome_text")
    return {pk: {"outcome": outcome, "outcome_at": at, "outcome_version_id": version_id,
                 "lawyer_text": text if outcome == Outcome.MODIFIED else None}
            for pk, outcome, at, version_id, text in rows}


def _engine_entry(row: KnownEntry) -> OoxmlKnownEntry:
    """The engine's view of a stored entry (its ``id`` is the stable entry id, not the row key)."""
    return OoxmlKnownEntry(id=row.entry_id, index=0, **{f: getattr(row, f) for f in ENTRY_FIELDS})


class _StoredSuggestion:
    """A stored suggestion shaped as the learning engine reads it."""

    def __init__(self, s: Suggestion) -> None:
        data = s.data or {}
        self.rule_key, self.category = s.rule_key, s.category
        self.rule_title = data.get("rule_title", s.rule_key)
        self.quote, self.new_text, self.comment = data.get("quote", ""), data.get("new_text", ""), data.get(
            "comment", "")


def rejected_records(*, document: Document) -> list[RejectedSuggestion]:
    """Every rejection on this document, as the re-run prompt needs them."""
    return _records(KnownEntry.objects.filter(document=document, outcome=Outcome.REJECTED))


def suppression_records(*, document: Document) -> list[RejectedSuggestion]:
    """Everything written into this document that a re-run must not propose again: every entry but
    the ``missing`` ones (rejections first, so a suppression names the rejection when there is one)."""
    rows = KnownEntry.objects.filter(document=document).exclude(outcome=Outcome.MISSING)
    return _records(rows.filter(outcome=Outcome.REJECTED)) + _records(rows.exclude(outcome=Outcome.REJECTED))


def earlier_outcomes(*, document: Document) -> dict[str, int]:
    """How the suggestions written into this document so far stand, by outcome (``pending``: still open in it).

    Read after the returned version's outcomes are detected, so a re-run can say "6 earlier comments are still
    open in the document" instead of calling the contract clear."""
    rows = KnownEntry.objects.filter(document=document).values("outcome").annotate(n=Count("pk"))
    return {row["outcome"]: row["n"] for row in rows}


def _records(rows: QuerySet[KnownEntry]) -> list[RejectedSuggestion]:
    rows = rows.select_related("suggestion", "rejection").order_by("pk")
    return [
        rejected_suggestion(
            _engine_entry(row),
            reason=row.rejection.reason if hasattr(row, "rejection") else f"{row.outcome}: {row.outcome_reason}",
            suggestion=_StoredSuggestion(row.suggestion) if row.suggestion else None,
            document_context=row.document_context, outcome=row.outcome,
        )
        for row in rows
    ]


@transaction.atomic
def outcomes_detect(*, version: DocumentVersion) -> dict[str, int]:
    """Decide the outcome of every earlier suggestion written into this document, from this version.

    Idempotent: an unchanged outcome is left as it was (a rejection keeps its first
    ``rejected_at``). New rejections are learned into the workspace preferences.
    Only entries recorded before this version was uploaded are judged: a file older
    than the export cannot hold the lawyer's answer to it (re-running an old version
    must not turn everything exported since into rejections).
    """
    document = version.document
    rows = list(KnownEntry.objects.select_for_update(of=("self",))
                .filter(document=document, created_at__lt=version.created_at)
                .exclude(run__document_version=version).order_by("pk"))
    if not rows:
        return {}
    data = document_version_read(version=version)
    try:
        found = detect_outcomes(data, [_engine_entry(r) for r in rows])
    except DocxError as exc:
        raise ApplicationError(exc.code, exc.message, status=422) from None
    now = timezone.now()
    counts: dict[str, int] = {}
    decided = False
    for row, outcome in zip(rows, found, strict=True):
        counts[outcome.status] = counts.get(outcome.status, 0) + 1
        if row.outcome == outcome.status and row.outcome_text == outcome.current_text:
            continue
        # Preferences learn again when a decision that teaches appears, changes or goes.
        decided = decided or (row.outcome != outcome.status and (row.outcome in _TEACHING or outcome.status in _TEACHING))
        row.outcome, row.outcome_reason, row.outcome_text = outcome.status, outcome.reason[:300], outcome.current_text
        row.outcome_at, row.outcome_version = now, version
        row.save(update_fields=["outcome", "outcome_reason", "outcome_text", "outcome_at", "outcome_version"])
        if outcome.status == Outcome.REJECTED:
            Rejection.objects.get_or_create(
                entry=row, defaults={"reason": outcome.reason[:300], "document_context": row.document_context,
                                     "rejected_at": now})
    if decided:
        preferences_learn(workspace=document.workspace)
    return counts


@transaction.atomic
def preferences_learn(*, workspace: Workspace) -> PreferencesVersion | None:
    """Relearn the workspace's guidance from every accepted and rejected suggestion, as a new version.

    Each line carries its counts (in the text) and its sources (stored); the lines
    learned before are replaced, so a position the lawyer has since contradicted
    is revised rather than kept beside its opposite. None when nothing changed.
    """
    preferences_lock(workspace=workspace)  # the text relearned from is the one replaced, whatever runs at once
    rows = KnownEntry.objects.filter(workspace=workspace, outcome__in=_TEACHING)
    rejected = _records(rows.filter(outcome=Outcome.REJECTED))
    accepted = _records(rows.filter(outcome=Outcome.ACCEPTED))
    entries = {e.entry_id: e for e in rows}  # entry ids are unique per document; lines cite across documents
    current = preferences_current(workspace=workspace)
    before = LearnedLine.objects.filter(version__workspace=workspace)
    lines = learn_guidance(rejected, accepted=accepted)
    learned_before = set(before.values_list("line", flat=True))
    text = relearned(current.text if current else "", lines, learned_before=learned_before,
                     sections_before=set(before.values_list("section", flat=True)) - {""})
    if current is not None and text == current.text:
        return None
    version = preferences_save(workspace=workspace, text=text, author_kind=PreferencesVersion.Author.LEARNING,
                               reason=f"learned from {len(accepted)} accepted and {len(rejected)} rejected suggestion(s)")
    kept = {line.strip() for line in current.text.splitlines()} & learned_before if current else set()
    for line in (x for x in lines if x.text not in kept):  # a line unchanged since it was learned keeps its record
        learned = LearnedLine.objects.create(version=version, line=line.text, section=line.section,
                                             accepted=len(line.accepted_ids), rejected=len(line.rejection_ids))
        learned.sources.set([entries[i] for i in (*line.rejection_ids, *line.accepted_ids) if i in entries])
    return version


def learned_lines_current(*, workspace: Workspace) -> list[dict[str, Any]]:
    """Each learned line still in the current preferences, with its counts and its sources
    (the suggestions whose outcomes taught it: id, outcome, when recorded and when decided)."""
    current = preferences_current(workspace=workspace)
    present = {line.strip() for line in current.text.splitlines()} if current else set()
    rows = (LearnedLine.objects.filter(version__workspace=workspace).select_related("version")
            .prefetch_related(Prefetch("sources", queryset=KnownEntry.objects.select_related("suggestion", "rejection")
                                       .order_by("created_at", "pk")))
            .order_by("-version__number", "pk"))
    out: dict[str, dict[str, Any]] = {}
    for row in rows:
        if row.line.strip() not in present or row.line in out:
            continue  # revised away, or an older copy of a line learned again
        out[row.line] = {
            "line": row.line, "version": row.version.number, "accepted": row.accepted, "rejected": row.rejected,
            "sources": [_source(e) for e in row.sources.all()],
        }
    return list(out.values())


def _source(e: KnownEntry) -> dict[str, Any]:
    return {"suggestion_id": e.suggestion.sid if e.suggestion else None, "suggestion_pk": e.suggestion_id,
            "entry_id": e.entry_id, "document_id": e.document_id, "run_id": e.run_id, "outcome": e.outcome,
            "recorded_at": e.created_at, "outcome_at": e.outcome_at,
            "reason": e.rejection.reason if hasattr(e, "rejection") else e.outcome_reason}


def document_feedback_json(*, document: Document) -> dict[str, Any]:
    """The seed's ``feedback.json`` for a document: every known entry and every rejection, each with
    the id of the suggestion that wrote it and its outcome."""
    rows = list(KnownEntry.objects.filter(document=document).select_related("rejection", "suggestion")
                .order_by("created_at", "pk"))
    entries = {row.pk: FeedbackEntry.from_entry(_engine_entry(row), document_context=row.document_context,
                                                created_at=row.created_at, outcome=row.outcome,
                                                suggestion_id=row.suggestion.sid if row.suggestion else None)
               for row in rows}
    rejections = [FeedbackRejection(entries[row.pk], row.rejection.reason, row.rejection.rejected_at)
                  for row in rows if hasattr(row, "rejection")]
    stamps = [document.created_at, *(r.created_at for r in rows), *(r.outcome_at for r in rows if r.outcome_at)]
    return feedback_json(document_id=document.doc_id, created_at=document.created_at, last_updated=max(stamps),
                         known_entries=entries.values(), rejections=rejections)


@dataclass(frozen=True, slots=True)
class _Finding:
    id: str
    rule_key: str
    anchor: str


def run_round_report(*, run: AnalysisRun) -> dict[str, Any]:
    """Per rule, how this run compares with the previous finished run on an earlier version of the document."""
    previous = (
        AnalysisRun.objects.filter(document_version__document=run.document_version.document, status=RunStatus.DONE,
                                   created_at__lt=run.created_at)
        .exclude(document_version=run.document_version)
        .order_by("-created_at")
        .first()
    )
    if previous is None:
        return {"previous_run": None, "rules": []}
    before = [_Finding(s.sid, s.rule_key, s.anchor) for s in previous.suggestions.all()]
    now = [_Finding(s.sid, s.rule_key, s.anchor) for s in run.suggestions.all()]
    outcomes = dict(KnownEntry.objects.filter(run=previous, suggestion__isnull=False)
                    .values_list("suggestion__sid", "outcome"))
    return {"previous_run": previous.pk,
            "rules": [r.to_dict() for r in round_report(before, now, previous_outcomes=outcomes)]}
