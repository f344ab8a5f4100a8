"""Analytics: rates from real outcome and vote rows, rule health and its noisy flag, filters."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from redline.models import AnalysisRun, Feedback, KnownEntry, Suggestion
from redline.services.documents import document_version_create
from redline.services.playbooks import playbook_default_install


def _seed(member, simple_docx, key: str = "k") -> AnalysisRun:
    version, *_ = document_version_create(workspace=member.workspace, data=simple_docx, filename="a.docx",
                                            uploaded_by=None)
    run = AnalysisRun.objects.create(workspace=member.workspace, document_version=version, provider="offline",
                                     playbook_version=playbook_default_install(workspace=member.workspace),
                                     request_key=key, stats={"hallucination_drops": 2})
    plan = [("late_fees", "rejected")] * 6 + [("payment_terms", "accepted")] * 3 + [("payment_terms", "pending")]
    for i, (rule, outcome) in enumerate(plan):
        s = Suggestion.objects.create(
            run=run, sid=f"s{i}", position=i, anchor=f"_RL_{i:012x}", kind="replace", rule_key=rule,
            category="payment", severity="major" if rule == "late_fees" else "minor", op={},
            data={"rule_title": rule.replace("_", " ").title(),
                  "validation": {"status": "FAIL" if i == 0 else "PASS"}},
        )
        KnownEntry.objects.create(workspace=member.workspace, document=version.document, run=run, suggestion=s,
                                  entry_id=f"{key}e{i}", operation_type="REPLACE_TEXT", rule_key=rule, outcome=outcome)
        if i < 2:
            Feedback.objects.create(suggestion=s, user=member.membership.user, thumbs_up=False,
                                    follow_up_reason="too_strict", tags=["overly_cautious", "false_positive"])
        elif rule == "payment_terms":
            Feedback.objects.create(suggestion=s, user=member.membership.user, thumbs_up=True)
    return run


@pytest.mark.django_db
def test_rates_rule_health_and_noisy_flag(alice, bob, simple_docx):
    _seed(alice, simple_docx)
    body = alice.api().get("/api/analytics?time_range=30d").json()
    totals = body["totals"]
    assert totals["suggestions"] == 10
    assert totals["outcomes"] == {"pending": 1, "accepted": 3, "rejected": 6, "modified": 0, "missing": 0}
    assert totals["rejection_rate"] == 0.6667 and totals["acceptance_rate"] == 0.3333  # of 9 decided, not 10
    assert totals["thumbs_up"] == 4 and totals["thumbs_down"] == 2
    assert totals["hallucination_drops"] == 2 and totals["validator_fail_share"] == 0.1
    assert body["thumbs"]["tags"] == {"overly_cautious": 2, "false_positive": 2}
    assert body["by"]["severity"]["major"]["suggestions"] == 6
    assert body["by"]["validator_status"]["FAIL"]["suggestions"] == 1
    health = {r["rule"]: r for r in body["rule_health"]}
    assert health["late_fees"]["noisy"] is True and health["late_fees"]["rejection_rate"] == 1.0
    assert health["payment_terms"]["noisy"] is False and health["payment_terms"]["acceptance_rate"] == 1.0
    assert body["rule_health"][0]["rule"] == "late_fees"
    # Every rule of the playbook is there; the ones that made no suggestion are flagged silent, with no rates.
    playbook_keys = set(AnalysisRun.objects.get().playbook_version.rules.values_list("key", flat=True))
    assert playbook_keys <= set(health) and len(playbook_keys) == 24
    silent = health["limitation-of-liability"]
    assert silent["silent"] is True and silent["suggestions"] == 0 and silent["acceptance_rate"] is None
    assert silent["title"] == "Limitation of liability" and silent["enabled"] is True
    assert [r["silent"] for r in body["rule_health"]][:2] == [False, False]  # silent ones last
    assert health["late_fees"]["silent"] is False
    assert sum(d["suggestions"] for d in body["daily"]) == 10
    assert bob.api().get("/api/analytics").json()["totals"]["suggestions"] == 0


@pytest.mark.django_db
def test_time_range_and_playbook_filters(alice, simple_docx):
    run = _seed(alice, simple_docx)
    Suggestion.objects.filter(run=run, position__lt=4).update(created_at=timezone.now() - timedelta(days=40))
    assert alice.api().get("/api/analytics?time_range=30d").json()["totals"]["suggestions"] == 6
    assert alice.api().get("/api/analytics?time_range=all").json()["totals"]["suggestions"] == 10
    other = alice.api().get("/api/analytics?time_range=all&playbook=999999").json()
    assert other["totals"]["suggestions"] == 0
    KnownEntry.objects.filter(rule_key="payment_terms").update(outcome="pending")  # nothing decided yet
    health = {r["rule"]: r for r in alice.api().get("/api/analytics?time_range=all").json()["rule_health"]}
    assert health["payment_terms"]["acceptance_rate"] is None and health["payment_terms"]["rejection_rate"] is None
    bad = alice.api().get("/api/analytics?time_range=1y")
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_time_range"


@pytest.mark.django_db
def test_the_summary_reads_groups_not_suggestions(alice, simple_docx):
    """Issue #30: the summary once decoded every suggestion's JSON and its run's stats once per suggestion, so it
    slowed with use. The number of queries stays the same when the suggestions, runs and votes grow, and no
    query reads the suggestion rows' JSON into Python."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _seed(alice, simple_docx)
    alice.api().get("/api/analytics?time_range=all")  # the key's first use is recorded once
    with CaptureQueriesContext(connection) as small:
        before = alice.api().get("/api/analytics?time_range=all").json()
    for n in range(4):
        _seed(alice, simple_docx, key=f"k{n}")
    with CaptureQueriesContext(connection) as large:
        after = alice.api().get("/api/analytics?time_range=all").json()
    assert len(large.captured_queries) == len(small.captured_queries)
    assert after["totals"]["suggestions"] == 5 * before["totals"]["suggestions"] == 50
    assert after["totals"]["thumbs_down"] == 5 * before["totals"]["thumbs_down"]
    assert after["totals"]["hallucination_drops"] == 5 * 2  # once per run, not once per suggestion
    reads = [q["sql"] for q in large.captured_queries if '"redline_suggestion"."data"' in q["sql"]
             and "GROUP BY" not in q["sql"].upper()]
    assert reads == []


@pytest.mark.django_db
def test_the_bench_workspace_holds_what_its_row_says(alice, simple_docx):
    """``redline bench``'s analytics row times a workspace of 100 runs and 10,000 suggestions, copied from one
    review: the copies are what the summary then counts (every run's stats once, every outcome, every vote)."""
    from redline.bench.analytics import RUNS, SUGGESTIONS, _workspace_in_use

    run = _seed(alice, simple_docx)
    _workspace_in_use(run, alice.membership.user)
    body = alice.api().get("/api/analytics?time_range=all").json()["totals"]
    per_run = SUGGESTIONS // RUNS
    assert AnalysisRun.objects.filter(workspace=alice.workspace).count() == RUNS
    assert body["suggestions"] == Suggestion.objects.filter(run__workspace=alice.workspace).count() == (
        10 + (RUNS - 1) * per_run)
    assert body["hallucination_drops"] == 2 * RUNS
    copies = (RUNS - 1) * per_run  # each copy cycles the ten seeded suggestions: 6 rejected, 3 accepted, 1 pending
    assert body["outcomes"]["rejected"] == 6 + copies * 6 // 10 and body["outcomes"]["accepted"] == 3 + copies * 3 // 10
    assert body["thumbs_up"] + body["thumbs_down"] == 6 + (RUNS - 1) * (per_run // 5)
