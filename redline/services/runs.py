"""Review runs: request (idempotent), execute (as a job), export the redline.

A run pins the document version, the playbook version, the preferences version
and the provider. Asking for the same combination again returns the same run.
Execution is deterministic (suggestion ids are content hashes), so a run that
is retried after a worker crash stores each suggestion exactly once.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone

from ..analysis.clauses import clauses_from_paragraphs
from ..analysis.pipeline import ReviewError, ReviewResult, review
from ..analysis.review.parties import Party, review_cast
from ..analysis.suggestions import Suggestion as SuggestionSpec
from ..errors import ApplicationError
from ..jobs.dispatch import job_create
from ..jobs.progress import AttemptSuperseded, ProgressCallback
from ..jobs.registry import handler_register
from ..learning.preferences import update_preferences
from ..learning.suppression import Suppressor
from ..models import (
    AnalysisRun,
    DocumentVersion,
    Job,
    KnownEntry,
    PlaybookVersion,
    PreferencesVersion,
    RunStatus,
    Suggestion,
)
from ..ooxml.errors import DocxError
from ..ooxml.ops import op_from_json
from ..ooxml.package import Package
from ..ooxml.patch import PatchBuilder
from ..ooxml.writer import redline_document
from .cache import analysis_cache
from .documents import document_version_read, docx_read
from .learning import (
    earlier_outcomes,
    known_entries_record,
    outcomes_detect,
    rejected_records,
    suppression_records,
)
from .playbooks import playbook_version_spec
from .preferences import preferences_current, preferences_edit
from .providers import provider_build, provider_identity
from .retrieval import contract_graph
from .untracked import run_export_keep, untracked_since_export

RUN_JOB = "review.run"


def _request_key(version: DocumentVersion, playbook_version: PlaybookVersion, preferences_version: int | None,
                 provider: str, model: str, acting_for: str) -> str:
    parts = [version.sha256, str(playbook_version.pk), str(preferences_version or 0), provider, model]
    if acting_for:  # runs without a side keep the keys they always had
        parts.append(f"for:{acting_for}")
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def run_request(
    *,
    version: DocumentVersion,
    playbook_version: PlaybookVersion,
    provider: str,
    created_by: AbstractBaseUser | None = None,
    preferences_version: int | None = None,
    acting_for: str = "",
) -> tuple[AnalysisRun, bool]:
    """The run for this combination: existing (``created`` False) or new and queued.

    ``acting_for`` names the party the review acts for (its defined name, legal name or role, as
    :func:`version_parties` lists them); it is stored as the contract's own name for that party, and a name
    that is no party of the contract is a 422 ``unknown_party`` before anything is queued.

    A run that ended in ``error`` or ``cancelled`` is queued again rather than
    returned, so "try again" works without a new upload.
    """
    workspace = version.document.workspace
    if playbook_version.playbook.workspace_id != workspace.pk:
        raise ApplicationError("not_found", "Playbook was not found.", status=404)
    model = provider_identity(provider)
    acting_for = _side(version, acting_for)
    outcomes_detect(version=version)  # learn from the returned document before pinning preferences
    if preferences_version is None:
        current = preferences_current(workspace=workspace)
        preferences_version = current.number if current else None
    key = _request_key(version, playbook_version, preferences_version, provider, model, acting_for)
    with transaction.atomic():
        run = AnalysisRun.objects.select_for_update().filter(workspace=workspace, request_key=key).first()
        if run is not None and run.status not in (RunStatus.ERROR, RunStatus.CANCELLED):
            return run, False
        if run is None:
            try:
                with transaction.atomic():
                    run = AnalysisRun.objects.create(
                        workspace=workspace, document_version=version, playbook_version=playbook_version,
                        preferences_version=preferences_version, provider=provider, model=model,
                        acting_for=acting_for, request_key=key, created_by=created_by,
                    )
            except IntegrityError:  # a concurrent identical request won the race
                return AnalysisRun.objects.get(workspace=workspace, request_key=key), False
        run.status = RunStatus.QUEUED
        run.error_message = ""
        run.job = job_create(workspace=workspace, kind=RUN_JOB, params={"run_id": run.pk})
        run.save(update_fields=["status", "error_message", "job"])
    return run, True


def version_parties(*, version: DocumentVersion, acting_for: str = "") -> tuple[tuple[Party, ...], Party | None]:
    """The parties a review of ``version`` knows (its preamble's, else the role nouns it uses) and the one
    ``acting_for`` names."""
    read = docx_read(document_version_read(version=version))
    return review_cast(clauses_from_paragraphs(read.paragraphs), acting_for)


def document_sides(*, version: DocumentVersion) -> dict[str, Any]:
    """The parties a review of ``version`` may act for, and the side its document's last run took (the
    pre-filled choice: a lawyer acts for the same client on every round)."""
    last = (AnalysisRun.objects.filter(document_version__document_id=version.document_id).exclude(acting_for="")
            .order_by("-created_at").values_list("acting_for", flat=True).first())
    return {"version_id": version.pk, "parties": [p.to_dict() for p in version_parties(version=version)[0]],
            "last_acting_for": last or ""}


def _side(version: DocumentVersion, acting_for: str) -> str:
    """``acting_for`` as the contract names that party ("" stays ""), or 422 ``unknown_party``."""
    wanted = " ".join(acting_for.split())[:200]
    if not wanted:
        return ""
    parties, party = version_parties(version=version, acting_for=wanted)
    if party is None:
        names = ", ".join(p.name for p in parties) or "none found in its preamble"
        raise ApplicationError("unknown_party", f"{wanted[:80]!r} is not a party of this contract (its parties: {names}).",
                               status=422, detail={"parties": [p.to_dict() for p in parties]})
    return party.name


def run_execute(job: Job, progress: ProgressCallback) -> dict[str, Any]:
    """Job service: review the pinned document with the pinned playbook; store suggestions and patches.

    The run never stays ``running``: any failure marks it ``error`` (keeping the
    suggestions of the rules that finished) before the exception reaches the job layer,
    except the database going away, which the job layer retries; if it gives up, it
    ends the run with the job, so a client never sees ``error`` turn back into ``running``.
    """
    run = AnalysisRun.objects.select_related("document_version__document", "playbook_version__playbook").get(
        pk=job.params["run_id"]
    )
    run.status, run.started_at = RunStatus.RUNNING, timezone.now()
    run.save(update_fields=["status", "started_at"])
    try:
        result = _review(run, progress)
    except ReviewError as exc:
        _fail(run, exc.message)
        raise ApplicationError(exc.code, exc.message) from None
    except ApplicationError as exc:
        _fail(run, exc.message)
        raise
    except (OperationalError, AttemptSuperseded):
        raise  # the database is away (the job is retried, and ends the run itself if it gives up: tasks._finish),
        # or another attempt took the job over and ends the run
    except BaseException:
        _fail(run, "The review failed unexpectedly; it has been logged.")
        raise
    run.status, run.finished_at = RunStatus.DONE, timezone.now()
    run.save(update_fields=["status", "finished_at"])
    return {"run_id": run.pk, "suggestions": len(result.suggestions), "mode": result.mode.value}


def _review(run: AnalysisRun, progress: ProgressCallback) -> ReviewResult:
    """Read, learn from the returned document, review, and store (partial results too, on failure)."""
    read = docx_read(document_version_read(version=run.document_version))
    progress("progress", {"stage": "read", "done": 1, "total": 1, "paragraphs": len(read.paragraphs)})
    document = run.document_version.document
    outcomes = outcomes_detect(version=run.document_version)
    untracked = untracked_since_export(version=run.document_version)
    rejected = rejected_records(document=document)
    try:
        result = review(
            clauses_from_paragraphs(read.paragraphs),
            playbook_version_spec(version=run.playbook_version),
            provider_build(run.provider, workspace_id=run.workspace_id),
            rerun=KnownEntry.objects.filter(document=document).exists(),
            prior_rejections=[r.to_rejection() for r in rejected],
            preferences_text=_preferences_text(run),
            preferences_version=str(run.preferences_version or 0),
            cache=analysis_cache(),
            suppress=Suppressor(suppression_records(document=document)),
            progress=progress,
            graph=contract_graph(version=run.document_version),
            acting_for=run.acting_for,
        )
    except ReviewError as exc:
        if exc.partial is not None:
            _store(run, exc.partial, anchored=read.docx)
        raise
    _store(run, result, anchored=read.docx, extra={"outcomes": outcomes, "earlier_rejections": len(rejected),
                                                  "earlier": earlier_outcomes(document=document),
                                                  **({"untracked": untracked} if untracked else {})})
    _apply_model_preferences(run, result)
    return result


def _apply_model_preferences(run: AnalysisRun, result: ReviewResult) -> None:
    """The model's ``update_preferences`` calls on a re-run become one new version, authored by the model."""
    if not result.preference_updates:
        return
    def edit(text: str) -> str:  # applied to the current text under the lock, after any change made meanwhile
        for update in result.preference_updates:
            text = update_preferences(text, update.action, list(update.lines))
        return text

    preferences_edit(workspace=run.workspace, edit=edit, author_kind=PreferencesVersion.Author.MODEL,
                     reason=f"update_preferences during run {run.pk}")


def _preferences_text(run: AnalysisRun) -> str:
    """The text of the preferences version the run pinned (empty when none existed)."""
    if run.preferences_version is None:
        return ""
    version = PreferencesVersion.objects.filter(workspace=run.workspace, number=run.preferences_version).first()
    return version.text if version else ""


def _fail(run: AnalysisRun, message: str) -> None:
    run.status, run.error_message, run.finished_at = RunStatus.ERROR, message, timezone.now()
    run.save(update_fields=["status", "error_message", "finished_at"])


def _store(run: AnalysisRun, result: ReviewResult, *, anchored: bytes | None, extra: dict | None = None) -> None:
    """Save suggestions with their proven patches; idempotent on (run, sid)."""
    builder = PatchBuilder(Package.open(anchored)) if anchored else None
    rows = []
    for position, s in enumerate(result.suggestions):
        patch, patch_status, entry = _patch(builder, s)
        rows.append(Suggestion(
            run=run, sid=s.id, position=position, anchor=s.anchor, kind=s.kind.value, rule_key=s.rule_key,
            category=s.category, severity=s.severity, op=s.to_op(), data=s.to_dict(),
            patch=patch, patch_status=patch_status, entry=entry,
        ))
    Suggestion.objects.bulk_create(rows, ignore_conflicts=True)
    run.stats = {**result.stats.to_dict(), "mode": result.mode.value,
                 "clauses": [c.to_dict() for c in result.clauses], **(extra or {})}
    run.save(update_fields=["stats"])


def _patch(builder: PatchBuilder | None, s: SuggestionSpec) -> tuple[str, str, dict | None]:
    """The flat-OPC patch for ``insertOoxml`` (proven by the writer's round trip) and the
    known entry it writes, or the skip reason."""
    if builder is None:
        return "", "no_document", None
    patch = builder.build(op_from_json(0, s.to_op()))
    if patch.xml is None or patch.result.entry is None:
        return "", patch.result.reason or "skipped", None
    return patch.xml.decode("utf-8"), "ok", patch.result.entry.to_json()


def run_redline(*, run: AnalysisRun, suggestion_ids: list[str] | None = None, author: str = "Redline AI"
                ) -> tuple[bytes, list[dict[str, Any]]]:
    """The run's document with the chosen suggestions (default: all) as tracked changes and comments.

    Returns the .docx bytes (with ``RedlineDocID``) and one result per op. Only reads:
    a preview records nothing (see :func:`run_export`).
    """
    data, log, _ = _render(run, suggestion_ids, author)
    return data, log


def run_export(*, run: AnalysisRun, suggestion_ids: list[str] | None = None, author: str = "Redline AI"
               ) -> tuple[bytes, list[dict[str, Any]]]:
    """:func:`run_redline`, and what it wrote recorded as known entries (idempotent).

    This is the one place a downloaded redline starts the learning loop: the file
    is going to the lawyer, so its suggestions' outcomes will be read when it comes back.
    """
    data, log, written = _render(run, suggestion_ids, author)
    known_entries_record(run=run, written=written)
    run_export_keep(run=run, data=data)
    return data, log


def _render(run: AnalysisRun, suggestion_ids: list[str] | None, author: str
            ) -> tuple[bytes, list[dict[str, Any]], list[tuple[dict[str, Any], Suggestion]]]:
    qs = run.suggestions.order_by("position")
    if suggestion_ids:
        qs = qs.filter(sid__in=suggestion_ids)
        if qs.count() != len(set(suggestion_ids)):
            raise ApplicationError("unknown_suggestion", "Some suggestion ids do not belong to this run.",
                                   detail={"known": list(qs.values_list("sid", flat=True))})
    rows = list(qs)
    ops = [op_from_json(i, s.op) for i, s in enumerate(rows)]
    anchored = docx_read(document_version_read(version=run.document_version)).docx
    try:
        out = redline_document(anchored, ops, author=author)
    except DocxError as exc:
        raise ApplicationError(exc.code, exc.message, status=422) from None
    written = [(r.entry.to_json(), rows[r.op.index]) for r in out.results if r.entry]
    return out.docx, [r.to_log() for r in out.results], written


handler_register(RUN_JOB, run_execute)
