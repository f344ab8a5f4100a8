"""The dashboard's reads, always through the session's workspace.

An id from another workspace is answered exactly like an id that does not
exist (404): every lookup here filters by workspace first.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet
from django.http import Http404

from redline import selectors
from redline.analysis.playbook.model import Severity
from redline.errors import NotFound
from redline.models import (
    AnalysisRun,
    ApiKey,
    Document,
    DocumentVersion,
    KnownEntry,
    LearnedLine,
    Playbook,
    PlaybookVersion,
    PreferencesVersion,
    Rejection,
    Rule,
    Suggestion,
    Workspace,
)
from redline.services.files import document_version_read, docx_read


def playbook_get(*, workspace: Workspace, playbook_id: int) -> Playbook:
    playbook = Playbook.objects.filter(workspace=workspace, pk=playbook_id).first()
    if playbook is None:
        raise Http404("Playbook not found")
    return playbook


def playbook_version_get(*, playbook: Playbook, number: int) -> PlaybookVersion:
    version = playbook.versions.select_related("created_by").filter(number=number).first()
    if version is None:
        raise Http404("Playbook version not found")
    return version


def playbook_versions(*, playbook: Playbook) -> QuerySet[PlaybookVersion]:
    return (playbook.versions.select_related("created_by").annotate(rule_count=Count("rules"))
            .order_by("-number"))


@dataclass(frozen=True, slots=True)
class PlaybookSummary:
    """A row of the playbooks list."""

    playbook: Playbook
    latest: PlaybookVersion | None
    rules: int
    enabled: int


def playbook_summaries(*, workspace: Workspace) -> list[PlaybookSummary]:
    """Each playbook with its latest version and rule counts (for the playbooks list)."""
    out = []
    for playbook in Playbook.objects.filter(workspace=workspace).order_by("name"):
        latest = playbook.versions.order_by("-number").first()
        rules = latest.rules.aggregate(total=Count("pk"), on=Count("pk", filter=Q(enabled=True))) if latest else {}
        out.append(PlaybookSummary(playbook, latest, rules.get("total", 0), rules.get("on", 0)))
    return out


@dataclass(frozen=True, slots=True)
class RuleFilters:
    """The rules list's search and filters, as the query string spells them."""

    q: str = ""
    category: str = ""
    severity: str = ""
    state: str = ""  # "", "enabled" or "disabled"

    @property
    def active(self) -> bool:
        return bool(self.q or self.category or self.severity or self.state)


def rules_filtered(*, version: PlaybookVersion, filters: RuleFilters) -> QuerySet[Rule]:
    rules = version.rules.order_by("position")
    if filters.q:
        rules = rules.filter(Q(title__icontains=filters.q) | Q(key__icontains=filters.q))
    if filters.category:
        rules = rules.filter(category=filters.category)
    if filters.severity:
        rules = rules.filter(severity=filters.severity)
    if filters.state:
        rules = rules.filter(enabled=filters.state == "enabled")
    return rules


def rule_get(*, version: PlaybookVersion, key: str) -> Rule:
    rule = version.rules.filter(key=key).first()
    if rule is None:
        raise Http404("Rule not found")
    return rule


def documents_with_latest_run(*, workspace: Workspace, q: str = "") -> list[tuple[Document, AnalysisRun | None]]:
    """The newest documents (those whose title or id contains ``q``), each with its newest run."""
    documents = selectors.document_list(workspace=workspace)
    if q:
        documents = documents.filter(Q(title__icontains=q) | Q(doc_id__icontains=q))
    documents = list(documents[:100])
    latest: dict[int, AnalysisRun] = {}
    runs = (AnalysisRun.objects.filter(workspace=workspace, document_version__document__in=documents)
            .select_related("document_version").order_by("created_at"))
    for run in runs:
        latest[run.document_version.document_id] = run
    return [(d, latest.get(d.pk)) for d in documents]


SEVERITY_ORDER = tuple(Severity)  # most severe first: the order of every severity list and count


def severity_rank(severity: str) -> int:
    """Sort key, most severe first; an unknown severity sorts last."""
    return SEVERITY_ORDER.index(severity) if severity in SEVERITY_ORDER else len(SEVERITY_ORDER)


def open_risk(runs: list[AnalysisRun]) -> dict[int, dict[str, int]]:
    """Per run, what is still open in its contract, by severity: the run's suggestions nobody has decided yet
    (not accepted, modified or rejected), and earlier runs' suggestions still open in the document (written
    into it and neither accepted nor rejected since).

    The documents page sums it up so a lawyer sees where the critical points are before opening anything; a
    re-run that proposes nothing new must not make a contract with six undecided comments read "nothing open".
    """
    decided = KnownEntry.objects.filter(suggestion_id=OuterRef("pk"), outcome__in=("accepted", "modified", "rejected"))
    still_in = KnownEntry.objects.filter(suggestion_id=OuterRef("pk"), outcome="pending")
    counts: dict[int, dict[str, int]] = {run.pk: dict.fromkeys(SEVERITY_ORDER, 0) for run in runs}
    run_of = {run.document_version.document_id: run.pk for run in runs}
    rows = (Suggestion.objects
            .filter((Q(run__in=runs) & ~Exists(decided))
                    | (Q(run__document_version__document_id__in=run_of) & ~Q(run__in=runs) & Exists(still_in)))
            .values("run__document_version__document_id", "severity").annotate(n=Count("pk")))
    for row in rows:
        bucket = counts[run_of[row["run__document_version__document_id"]]]
        bucket[row["severity"]] = bucket.get(row["severity"], 0) + row["n"]
    return counts


def document_get(*, workspace: Workspace, document_id: int) -> Document:
    try:
        document = selectors.document_get(workspace=workspace, document_id=document_id)
    except NotFound:
        raise Http404("Document not found") from None
    runs = AnalysisRun.objects.select_related("playbook_version__playbook").order_by("-created_at")
    return (Document.objects.filter(pk=document.pk)
            .prefetch_related(Prefetch("versions", queryset=DocumentVersion.objects.prefetch_related(
                Prefetch("runs", queryset=runs)).order_by("-created_at"))).get())


def document_version_get(*, workspace: Workspace, version_id: int) -> DocumentVersion:
    try:
        return selectors.document_version_get(workspace=workspace, version_id=version_id)
    except NotFound:
        raise Http404("Document version not found") from None


def run_get(*, workspace: Workspace, run_id: int) -> AnalysisRun:
    try:
        return selectors.run_get(workspace=workspace, run_id=run_id)
    except NotFound:
        raise Http404("Run not found") from None


def suggestion_get(*, workspace: Workspace, suggestion_id: int) -> Suggestion:
    try:
        return selectors.suggestion_get(workspace=workspace, suggestion_pk=suggestion_id)
    except NotFound:
        raise Http404("Suggestion not found") from None


def paragraph_texts(*, version: DocumentVersion) -> dict[str, str]:
    """Anchor → paragraph text of a stored version, for showing suggestions in context.

    Versions are immutable and addressed by hash, so the parse is cached by hash.
    """
    key = f"dashboard:paragraphs:{version.sha256}"
    texts = cache.get(key)
    if texts is None:
        read = docx_read(document_version_read(version=version))
        texts = {p.anchor: p.text for p in read.paragraphs if p.anchor}
        cache.set(key, texts, 3600)
    return texts


def paragraph_sections(*, version: DocumentVersion) -> dict[str, str]:
    """Anchor → the nearest heading above the paragraph (the clause it belongs to), for grouping by clause.

    Cached by hash like ``paragraph_texts``: versions are immutable.
    """
    key = f"dashboard:sections:{version.sha256}"
    sections = cache.get(key)
    if sections is None:
        sections, heading = {}, ""
        for p in docx_read(document_version_read(version=version)).paragraphs:
            if p.heading_level and p.text.strip():
                heading = p.text.strip()
            if p.anchor:
                sections[p.anchor] = heading
        cache.set(key, sections, 3600)
    return sections


def rejections(*, workspace: Workspace, rule: str = "") -> QuerySet[Rejection]:
    qs = (Rejection.objects.filter(entry__workspace=workspace)
          .select_related("entry__document", "entry__suggestion", "entry__run")
          .prefetch_related("entry__learned_lines__version").order_by("-rejected_at", "-pk"))
    return qs.filter(entry__rule_key=rule) if rule else qs


def rejection_get(*, workspace: Workspace, rejection_id: int) -> Rejection:
    rejection = rejections(workspace=workspace).filter(pk=rejection_id).first()
    if rejection is None:
        raise Http404("Rejection not found")
    return rejection


def preferences_version_get(*, workspace: Workspace, number: int) -> PreferencesVersion:
    version = PreferencesVersion.objects.filter(workspace=workspace, number=number).select_related("author").first()
    if version is None:
        raise Http404("Preferences version not found")
    return version


def learned_lines(*, workspace: Workspace) -> QuerySet[LearnedLine]:
    """Learned preference lines, newest first, with the decisions (known entries) each came from."""
    return (LearnedLine.objects.filter(version__workspace=workspace).select_related("version")
            .prefetch_related(Prefetch("sources", queryset=KnownEntry.objects.select_related("document", "rejection")))
            .order_by("-version__number", "pk"))


def api_keys(*, workspace: Workspace) -> QuerySet[ApiKey]:
    return (ApiKey.objects.filter(membership__workspace=workspace).select_related("membership__user")
            .order_by(F("revoked_at").asc(nulls_first=True), "-created_at"))


def api_key_get(*, workspace: Workspace, key_id: int) -> ApiKey:
    key = api_keys(workspace=workspace).filter(pk=key_id).first()
    if key is None:
        raise Http404("API key not found")
    return key
