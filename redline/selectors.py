"""Reads, always scoped to a workspace.

Every lookup by id goes through here with the caller's workspace, so an id from
another workspace behaves exactly like an id that does not exist (404, no data).
"""

from __future__ import annotations

from django.db.models import QuerySet

from .errors import NotFound
from .models import ApiKey, Document, DocumentVersion, Job, JobEvent, Membership, Workspace


def membership_for_user(*, user_id: int, workspace_id: int | None = None) -> Membership | None:
    """The user's membership in ``workspace_id`` (or their first one)."""
    qs = Membership.objects.select_related("workspace", "user").filter(user_id=user_id).order_by("id")
    if workspace_id is not None:
        qs = qs.filter(workspace_id=workspace_id)
    return qs.first()


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
