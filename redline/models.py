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
    """One uploaded file, stored byte for byte as received, addressed by its SHA-256.

    For the add-in's JSON paragraphs the file is a .docx built from them (so every
    engine works on the same kind of input) and ``payload`` keeps what was sent.
    """

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="versions")
    file = models.FileField(upload_to=version_upload_to, max_length=300)
    filename = models.CharField(max_length=255)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveBigIntegerField()
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    paragraph_count = models.PositiveIntegerField(null=True, blank=True)
    source = models.CharField(max_length=16, default="docx", help_text="docx (uploaded file) or paragraphs (add-in)")
    payload = models.JSONField(null=True, blank=True, help_text="the add-in's paragraphs exactly as sent")

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
    # Until when the attempt numbered ``attempts`` holds the job: its worker renews this while it works,
    # so a job ``running`` past its lease has nobody working on it (redline.jobs.leases).
    lease_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"


class WorkerHeartbeat(models.Model):
    """A Celery worker's last sign of life, written every few seconds by the worker itself
    (redline.jobs.pulse), so the health check reads liveness instead of broadcasting a ping."""

    hostname = models.CharField(max_length=200, unique=True)
    broker = models.CharField(max_length=16, help_text="fingerprint of the broker URL the worker consumes from")
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.hostname} @ {self.seen_at:%H:%M:%S}"


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


class Playbook(models.Model):
    """A named set of rules for a kind of contract; its content lives in immutable versions."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="playbooks")
    name = models.CharField(max_length=200)
    contract_type = models.CharField(max_length=100, blank=True)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["workspace", "name"], name="uniq_playbook_name")]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class PlaybookVersion(models.Model):
    """A frozen snapshot of a playbook's rules. Editing creates a new version; runs pin one."""

    playbook = models.ForeignKey(Playbook, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    note = models.CharField(max_length=300, blank=True)
    perspective = models.CharField(max_length=32, default="balanced")
    content_hash = models.CharField(max_length=64, help_text="SHA-256 of the canonical rules JSON")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["playbook", "number"], name="uniq_playbook_version")]
        ordering = ["playbook", "-number"]

    def __str__(self) -> str:
        return f"{self.playbook} v{self.number}"


class Rule(models.Model):
    """One rule of a playbook version (immutable with its version).

    ``spec`` is the rule in the documented interchange format
    (docs/playbook-format.md), the single source the engine reads; the columns
    beside it are copies for listing, filtering and ordering.
    """

    version = models.ForeignKey(PlaybookVersion, on_delete=models.CASCADE, related_name="rules")
    position = models.PositiveIntegerField()
    key = models.SlugField(max_length=80)
    title = models.CharField(max_length=200)
    category = models.CharField(max_length=64)
    severity = models.CharField(max_length=16)
    enabled = models.BooleanField(default=True)
    spec = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["version", "key"], name="uniq_rule_key")]
        ordering = ["version", "position"]

    def __str__(self) -> str:
        return f"{self.key} ({self.version})"


class RunStatus(models.TextChoices):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    ERROR = "error"
    CANCELLED = "cancelled"


def export_upload_to(instance: AnalysisRun, filename: str) -> str:
    return f"exports/{instance.workspace_id}/run-{instance.pk}.docx"


class AnalysisRun(models.Model):
    """One review of one document version with one pinned playbook version.

    ``request_key`` (document hash × playbook version × preferences version ×
    provider/model × the side acted for) makes the request idempotent: asking twice returns this run.
    """

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="runs")
    document_version = models.ForeignKey(DocumentVersion, on_delete=models.CASCADE, related_name="runs")
    playbook_version = models.ForeignKey(PlaybookVersion, on_delete=models.PROTECT, related_name="runs")
    preferences_version = models.PositiveIntegerField(null=True, blank=True)
    provider = models.CharField(max_length=32)
    model = models.CharField(max_length=100, blank=True)
    acting_for = models.CharField(max_length=120, blank=True, default="",
                                  help_text="the party the review acts for, as the contract defines it; empty: no side")
    request_key = models.CharField(max_length=64)
    job = models.OneToOneField(Job, on_delete=models.SET_NULL, null=True, blank=True, related_name="run")
    status = models.CharField(max_length=16, choices=RunStatus.choices, default=RunStatus.QUEUED)
    stats = models.JSONField(default=dict, help_text="counts, tokens, cache hits/misses, timings")
    error_message = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The redline as last downloaded (what went to the lawyer): a returned version is compared with it to find
    # the changes made without tracking.
    export_file = models.FileField(upload_to=export_upload_to, max_length=300, blank=True)
    exported_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["workspace", "request_key"], name="uniq_run_request")]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"run #{self.pk} ({self.status})"


class Suggestion(models.Model):
    """One result of a run, keyed to a paragraph anchor, with the op that writes it."""

    run = models.ForeignKey(AnalysisRun, on_delete=models.CASCADE, related_name="suggestions")
    sid = models.CharField(max_length=32, help_text="deterministic id: rule × anchor × content")
    position = models.PositiveIntegerField()
    anchor = models.CharField(max_length=20)
    kind = models.CharField(max_length=16)
    rule_key = models.CharField(max_length=80)
    category = models.CharField(max_length=64)
    severity = models.CharField(max_length=16)
    op = models.JSONField(help_text="the ops.json operation that writes this suggestion")
    data = models.JSONField(help_text="the suggestion as the engine reported it (quote, new text, risk, validation…)")
    patch = models.TextField(blank=True, help_text="flat-OPC package for Word's insertOoxml, proven by round trip")
    patch_status = models.CharField(max_length=32, default="ok", help_text="ok, or why no patch could be made")
    entry = models.JSONField(null=True, blank=True, help_text="the known entry the patch writes (when applied)")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["run", "sid"], name="uniq_suggestion_sid")]
        ordering = ["run", "position"]

    def __str__(self) -> str:
        return f"{self.kind} on {self.anchor} ({self.rule_key})"


class Outcome(models.TextChoices):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    MODIFIED = "modified"
    MISSING = "missing"


class KnownEntry(models.Model):
    """A suggestion as it was written into a document, with what is needed to find its outcome.

    ``entry_id`` is the writer's stable hash (type × anchor × content, no
    timestamp), so writing the same suggestion twice is one entry.
    """

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="known_entries")
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="known_entries")
    run = models.ForeignKey(AnalysisRun, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries")
    suggestion = models.ForeignKey(Suggestion, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="entries")
    entry_id = models.CharField(max_length=64)
    operation_type = models.CharField(max_length=32)
    rule_key = models.CharField(max_length=80, blank=True)
    durable_id = models.CharField(max_length=16, blank=True)
    comment_text = models.TextField(blank=True)
    document_context = models.TextField(blank=True)
    bookmark_id = models.CharField(max_length=40, blank=True)
    original_text = models.TextField(blank=True)
    new_text = models.TextField(blank=True)
    position = models.CharField(max_length=16, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, default=Outcome.PENDING)
    outcome_reason = models.CharField(max_length=300, blank=True)
    outcome_text = models.TextField(blank=True, help_text="what the place reads now (the lawyer's text, when modified)")
    outcome_at = models.DateTimeField(null=True, blank=True)
    outcome_version = models.ForeignKey(DocumentVersion, null=True, blank=True, on_delete=models.SET_NULL,
                                        related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["document", "entry_id"], name="uniq_known_entry")]
        ordering = ["document", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.operation_type} {self.entry_id[:8]} ({self.outcome})"


class Rejection(models.Model):
    """The seed's rejection record: what the lawyer turned down, and the text around it."""

    entry = models.OneToOneField(KnownEntry, on_delete=models.CASCADE, related_name="rejection")
    reason = models.CharField(max_length=300)
    document_context = models.TextField(blank=True)
    rejected_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"rejection of {self.entry}"


class PreferencesVersion(models.Model):
    """One version of a workspace's preferences (Markdown the model reads on re-runs)."""

    class Author(models.TextChoices):
        USER = "user"
        MODEL = "model"
        LEARNING = "learning"

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="preferences_versions")
    number = models.PositiveIntegerField()
    text = models.TextField(blank=True)
    author_kind = models.CharField(max_length=16, choices=Author.choices)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    reason = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["workspace", "number"], name="uniq_preferences_version")]
        ordering = ["workspace", "-number"]

    def __str__(self) -> str:
        return f"preferences v{self.number} ({self.workspace})"


class LearnedLine(models.Model):
    """A preferences line written by learning, with the decisions it came from (provenance).

    ``sources`` are the known entries whose outcomes taught the line; ``accepted``
    and ``rejected`` count them when the line was written.
    """

    version = models.ForeignKey(PreferencesVersion, on_delete=models.CASCADE, related_name="learned_lines")
    line = models.TextField()
    section = models.CharField(max_length=300, blank=True, help_text="the heading the line was written under")
    sources = models.ManyToManyField(KnownEntry, related_name="learned_lines")
    accepted = models.PositiveIntegerField(default=0)
    rejected = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return self.line[:60]


class Feedback(models.Model):
    """A 👍/👎 on a suggestion; one per user per suggestion (a second vote updates it)."""

    suggestion = models.ForeignKey(Suggestion, on_delete=models.CASCADE, related_name="feedback")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    thumbs_up = models.BooleanField()
    follow_up_reason = models.CharField(max_length=32, blank=True)
    tags = models.JSONField(default=list)
    additional_comments = models.TextField(blank=True)
    user_accepted_clause = models.BooleanField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["suggestion", "user"], name="uniq_feedback_vote")]

    def __str__(self) -> str:
        return f"{'up' if self.thumbs_up else 'down'} on {self.suggestion_id}"


class AuditEvent(models.Model):
    """Who changed what, and when: playbook versions, preferences and API keys. Append-only;
    ``actor`` is None for changes made by the system (learning, the built-in playbook)."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="audit_events")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="+")
    action = models.CharField(max_length=64)  # e.g. "playbook.version_create", "api_key.revoke"
    target = models.CharField(max_length=200)  # e.g. "playbook:3 v4", "api_key:12"
    detail = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["workspace", "-created_at"], name="audit_workspace_time")]

    def __str__(self) -> str:
        return f"{self.action} {self.target}"
