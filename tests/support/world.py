"""A workspace with one of everything, so tests that walk every endpoint have real ids.

Built through the API (upload, review run on the offline provider) and the
services (preferences, a rejection), so the rows are the ones the product makes.
Needs a transactional database: the review runs on the in-process worker thread.
"""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from redline.jobs.worker import in_process_worker
from redline.models import ApiKey, KnownEntry, Playbook, PreferencesVersion, Rejection, Suggestion
from redline.services.playbooks import playbook_default_install
from redline.services.preferences import preferences_save
from tests.support.docx_builder import build_docx, para

CONTRACT = build_docx(para("1. Term", style="Heading1")
                      + para("This Agreement continues for five years and renews automatically.")
                      + para("The Supplier shall be liable without limit for all losses."))


def populate(member: object) -> dict[str, int]:
    """Ids of the member's workspace rows, keyed by the names URL patterns give them."""
    playbook_default_install(workspace=member.workspace)
    up = member.api().post("/api/documents", {"file": SimpleUploadedFile("msa.docx", CONTRACT)}).json()
    run = member.api().post(f"/api/documents/{up['document']['id']}/runs", {}, content_type="application/json").json()
    assert in_process_worker().wait_idle(60)
    suggestion = Suggestion.objects.filter(run_id=run["id"]).order_by("position").first()
    assert suggestion is not None, "the offline review found nothing to suggest"
    preferences_save(workspace=member.workspace, text="Prefer mutual caps.",
                     author_kind=PreferencesVersion.Author.USER, author=member.membership.user, reason="test")
    entry = KnownEntry.objects.create(workspace=member.workspace, document_id=up["document"]["id"],
                                      run_id=run["id"], suggestion=suggestion, entry_id=f"e{suggestion.pk}",
                                      operation_type="COMMENT", outcome="rejected")
    rejection = Rejection.objects.create(entry=entry, reason="not for us", rejected_at=timezone.now())
    return {
        "document_id": up["document"]["id"], "version_id": up["version"]["id"], "job_id": run["job_id"],
        "run_id": run["id"], "suggestion_pk": suggestion.pk, "suggestion_id": suggestion.pk,
        "playbook_id": Playbook.objects.get(workspace=member.workspace).pk, "rejection_id": rejection.pk,
        "key_id": ApiKey.objects.filter(membership=member.membership).first().pk, "number": 1,
        "membership_id": member.membership.pk,
    }


# Columns that change on reads by design: a key's (or user's) last use, not what it may do.
VOLATILE = {"last_used_at", "last_login"}


def database_snapshot() -> dict[str, list[dict]]:
    """Every row of the product's tables (and users), for "nothing changed" assertions after refused requests."""
    from django.apps import apps

    snapshot = {}
    for model in [*apps.get_app_config("redline").get_models(), apps.get_model("auth", "User")]:
        rows = [{k: v for k, v in row.items() if k not in VOLATILE} for row in model.objects.order_by("pk").values()]
        snapshot[model._meta.label] = rows
    return snapshot


def assert_unchanged(before: dict[str, list[dict]]) -> None:
    after = database_snapshot()
    changed = [label for label in before if before[label] != after[label]]
    assert not changed, f"refused requests changed {changed}"
