"""The add-in's API additions: reporting applied patches (the learning loop's input) and rule guidance."""

from __future__ import annotations

import json

import pytest

from redline.jobs.worker import in_process_worker
from redline.models import AnalysisRun, KnownEntry, Outcome, Suggestion
from redline.services.playbooks import playbook_default_install

PARAGRAPHS = [
    {"anchor": "_RL_000000000001", "text": "1. Payment", "style": "Heading 1"},
    {"anchor": "_RL_000000000002", "text": "Payment is due within 90 days of invoice."},
    {"anchor": "_RL_000000000003", "text": "The Supplier's liability shall be unlimited for all claims."},
]


@pytest.fixture
def reviewed(alice, transactional_db) -> AnalysisRun:
    playbook_default_install(workspace=alice.workspace)
    up = alice.api().post("/api/documents", json.dumps({"title": "MSA", "paragraphs": PARAGRAPHS}),
                          content_type="application/json").json()
    run = alice.api().post(f"/api/documents/{up['document']['id']}/runs", {}, content_type="application/json").json()
    assert in_process_worker().wait_idle(60)
    run = AnalysisRun.objects.get(pk=run["id"])
    assert run.status == "done" and run.suggestions.filter(patch_status="ok").count() >= 2
    return run


def post_applied(member, run_id: int, pks: list[int]):
    return member.api().post(f"/api/runs/{run_id}/applied", {"suggestions": pks}, content_type="application/json")


@pytest.mark.django_db(transaction=True)
def test_applied_patches_become_known_entries_once(alice, reviewed):
    with_patch = list(reviewed.suggestions.filter(patch_status="ok").order_by("position")[:2])
    pks = [s.pk for s in with_patch]
    response = post_applied(alice, reviewed.pk, [*pks, pks[0]])
    assert response.status_code == 200 and response.json() == {"recorded": pks}
    entries = KnownEntry.objects.filter(run=reviewed)
    assert {e.suggestion_id for e in entries} == set(pks)
    assert {e.entry_id for e in entries} == {s.entry["id"] for s in with_patch}
    assert set(entries.values_list("outcome", flat=True)) == {Outcome.PENDING}
    assert post_applied(alice, reviewed.pk, pks).status_code == 200  # a retried report changes nothing
    assert KnownEntry.objects.filter(run=reviewed).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_report_with_a_stranger_or_a_patchless_suggestion_records_nothing(alice, reviewed):
    good = reviewed.suggestions.filter(patch_status="ok").first()
    unknown = post_applied(alice, reviewed.pk, [good.pk, 999_999])
    assert unknown.status_code == 422 and unknown.json()["code"] == "unknown_suggestion"
    assert unknown.json()["detail"] == {"unknown": [999_999]}
    Suggestion.objects.filter(pk=good.pk).update(entry=None, patch="", patch_status="no_anchor")
    patchless = post_applied(alice, reviewed.pk, [good.pk])
    assert patchless.status_code == 422 and patchless.json()["code"] == "not_applicable"
    assert post_applied(alice, reviewed.pk, []).status_code == 422
    assert not KnownEntry.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_another_workspace_cannot_report_or_read_rules(alice, bob, reviewed):
    pk = reviewed.suggestions.first().pk
    assert post_applied(bob, reviewed.pk, [pk]).status_code == 404
    assert bob.api().get(f"/api/runs/{reviewed.pk}/rules").status_code == 404
    assert not KnownEntry.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_rules_carry_the_playbook_guidance(alice, reviewed):
    rules = alice.api().get(f"/api/runs/{reviewed.pk}/rules").json()
    spec = {r.key: r.spec for r in reviewed.playbook_version.rules.all()}
    assert [r["key"] for r in rules] == list(reviewed.playbook_version.rules.order_by("position").values_list(
        "key", flat=True))
    for rule in rules:
        assert rule["guidance"] == spec[rule["key"]].get("guidance", "")
        assert rule["preferred_position"] == spec[rule["key"]].get("preferred_position", "")
    assert any(r["guidance"] for r in rules)
