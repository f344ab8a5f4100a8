"""Domain records. Every row hangs off a :class:`Workspace` (the tenant)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Workspace(models.Model):
    """A tenant: an organisation or team. No request ever sees another's rows."""

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    ADMIN = "admin", "Admin"
    REVIEWER = "reviewer", "Reviewer"


class Membership(models.Model):
    """A user's role in a workspace (``admin`` edits playbooks and keys; ``reviewer`` reviews)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.REVIEWER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "workspace"], name="uniq_membership")]

    def __str__(self) -> str:
        return f"{self.user} @ {self.workspace} ({self.role})"


class ApiKey(models.Model):
    """A bearer key for the add-in API, acting as its membership.

    Only a SHA-256 of the secret is stored; the full key is shown once at creation.
    Keys are 256-bit random, so a fast hash is the right tool (no password stretching needed).
    """

    membership = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=100, default="default")
    prefix = models.CharField(max_length=16, unique=True)
    hashed_key = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name})"


class Document(models.Model):
    """A contract as the product knows it across versions (identified by ``RedlineDocID``)."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="documents")
    doc_id = models.CharField(max_length=16, help_text="RedlineDocID written into the .docx custom properties")
    title = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["workspace", "doc_id"], name="uniq_document_docid")]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.title


def version_upload_to(instance: DocumentVersion, filename: str) -> str:
    return f"documents/{instance.document.workspace_id}/{instance.sha256}.docx"


class DocumentVersion(models.Model):
    """One uploaded file, stored byte for byte as received, addressed by its SHA-256."""

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="versions")
    file = models.FileField(upload_to=version_upload_to, max_length=300)
    filename = models.CharField(max_length=255)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveBigIntegerField()
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    paragraph_count = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["document", "sha256"], name="uniq_version_sha")]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.document} @ {self.sha256[:8]}"


class JobStatus(models.TextChoices):
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


class Job(models.Model):
    """A unit of background work, run by Celery or the in-process worker.

    The job row is the source of truth (not the broker): tasks load it by id, skip it
    when it already finished (idempotency under ``acks_late`` redelivery) and record
    the outcome here.
    """

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="jobs")
    kind = models.CharField(max_length=64)
    params = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=JobStatus.choices, default=JobStatus.QUEUED)
    result = models.JSONField(null=True, blank=True)
    error_code = models.CharField(max_length=64, blank=True)
    error_message = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0)
    worker = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"


class JobEvent(models.Model):
    """A progress event, numbered per job so a stream can resume with ``Last-Event-ID``."""

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["job", "seq"], name="uniq_job_event_seq")]
        ordering = ["job", "seq"]

    def __str__(self) -> str:
        return f"{self.job_id}#{self.seq} {self.kind}"
