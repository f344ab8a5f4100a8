"""Reads, always scoped to a workspace.

Every lookup by id goes through here with the caller's workspace, so an id from
another workspace behaves exactly like an id that does not exist (404, no data).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import QuerySet

from .errors import NotFound
from .models import (
    AnalysisRun,
    ApiKey,
    Document,
    DocumentVersion,
    Job,
    JobEvent,
    KnownEntry,
    Membership,
    PlaybookVersion,
    Suggestion,
    Workspace,
)


def membership_for_user(*, user_id: int, workspace_id: int | None = None) -> Membership | None:
    """The user's membership in ``workspace_id`` (or their first one)."""
    qs = Membership.objects.select_related("workspace", "user").filter(user_id=user_id).order_by("id")
    if workspace_id is not None:
        qs = qs.filter(workspace_id=workspace_id)
    return qs.first()


def membership_list(*, workspace: Workspace) -> QuerySet[Membership]:
    """The workspace's members, admins first, then by username (the team page's order)."""
    return Membership.objects.select_related("user").filter(workspace=workspace).order_by("role", "user__username")


def api_key_by_prefix(*, prefix: str) -> ApiKey | None:
    return (
        ApiKey.objects.select_related("membership__workspace", "membership__user")
        .filter(prefix=prefix, revoked_at__isnull=True)
        .first()
    )


def document_list(*, workspace: Workspace) -> QuerySet[Document]:
    return Document.objects.filter(workspace=workspace).prefetch_related("versions")


def document_get(*, workspace: Workspace, document_id: int) -> Document:
    doc = Document.objects.filter(workspace=workspace, pk=document_id).first()
    if doc is None:
        raise NotFound("Document", document_id)
    return doc


def document_by_doc_id(*, workspace: Workspace, doc_id: str) -> Document | None:
    return Document.objects.filter(workspace=workspace, doc_id=doc_id).first()


def document_by_anchors(*, workspace: Workspace, anchors: Sequence[str]) -> tuple[Document, int] | None:
    """The document whose anchors a file carries, and how many of them: anchors are derived from the
    first upload's bytes, so ones our suggestions were keyed to belong to that document alone.
    The document holding the most wins (then the oldest)."""
    if not anchors:
        return None
    held: dict[int, set[str]] = {}
    for chunk in (anchors[i:i + 500] for i in range(0, len(anchors), 500)):
        pairs = [*KnownEntry.objects.filter(workspace=workspace, bookmark_id__in=chunk)
                 .values_list("document_id", "bookmark_id"),
                 *Suggestion.objects.filter(run__workspace=workspace, anchor__in=chunk)
                 .values_list("run__document_version__document_id", "anchor")]
        for document_id, anchor in pairs:
            held.setdefault(document_id, set()).add(anchor)
    if not held:
        return None
    best = min(held, key=lambda d: (-len(held[d]), d))
    return Document.objects.get(pk=best), len(held[best])


def document_version_get(*, workspace: Workspace, version_id: int) -> DocumentVersion:
    version = (
        DocumentVersion.objects.select_related("document")
        .filter(document__workspace=workspace, pk=version_id)
        .first()
    )
    if version is None:
        raise NotFound("Document version", version_id)
    return version


def job_get(*, workspace: Workspace, job_id: int) -> Job:
    job = Job.objects.filter(workspace=workspace, pk=job_id).first()
    if job is None:
        raise NotFound("Job", job_id)
    return job


def job_events_after(*, job: Job, after_seq: int = 0) -> QuerySet[JobEvent]:
    return JobEvent.objects.filter(job=job, seq__gt=after_seq).order_by("seq")


def run_get(*, workspace: Workspace, run_id: int) -> AnalysisRun:
    run = (
        AnalysisRun.objects.select_related("document_version__document", "playbook_version__playbook", "job")
        .filter(workspace=workspace, pk=run_id)
        .first()
    )
    if run is None:
        raise NotFound("Run", run_id)
    return run


def run_state_get(*, workspace: Workspace, run_id: int) -> AnalysisRun:
    """The run's id and status only: for the hot polling paths, which need nothing else of it."""
    run = AnalysisRun.objects.only("pk", "status").filter(workspace=workspace, pk=run_id).first()
    if run is None:
        raise NotFound("Run", run_id)
    return run


def run_last_progress(*, run: AnalysisRun) -> dict | None:
    """The latest ``progress`` event's data of the current attempt, for polling clients (a retried
    job's progress starts again from its new ``started`` event)."""
    if run.job_id is None:
        return None
    events = JobEvent.objects.filter(job_id=run.job_id)
    attempt_from = events.filter(kind="started").order_by("-seq").values_list("seq", flat=True).first() or 0
    event = events.filter(kind="progress", seq__gt=attempt_from).order_by("-seq").first()
    return event.data if event else None


def document_version_latest(*, document: Document) -> DocumentVersion:
    version = document.versions.order_by("-created_at", "-pk").first()
    if version is None:
        raise NotFound("Document version", f"of document {document.pk}")
    return version


def playbook_version_for(*, workspace: Workspace, playbook_id: int | None) -> PlaybookVersion:
    """The newest version of the given playbook, or of the workspace's first playbook."""
    qs = PlaybookVersion.objects.select_related("playbook").filter(playbook__workspace=workspace)
    if playbook_id is not None:
        qs = qs.filter(playbook_id=playbook_id)
    version = qs.order_by("playbook__name", "-number").first()
    if version is None:
        raise NotFound("Playbook", playbook_id if playbook_id is not None else "(none installed)")
    return version


def suggestion_get(*, workspace: Workspace, suggestion_pk: int) -> Suggestion:
    suggestion = Suggestion.objects.filter(run__workspace=workspace, pk=suggestion_pk).first()
    if suggestion is None:
        raise NotFound("Suggestion", suggestion_pk)
    return suggestion


def document_version_of(*, workspace: Workspace, document_id: int, version_id: int | None = None) -> DocumentVersion:
    """The requested version of one of the workspace's documents (default: its latest); 404 otherwise."""
    document = document_get(workspace=workspace, document_id=document_id)
    if version_id is None:
        return document_version_latest(document=document)
    version = document_version_get(workspace=workspace, version_id=version_id)
    if version.document_id != document.pk:
        raise NotFound("Document version", version_id)
    return version
