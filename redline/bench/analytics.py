"""``redline bench``'s analytics row: the analytics page of a workspace that has used the product a while.

Issue #30's target: time to first byte ≤ 300 ms with 10,000 suggestions across 100 runs of 300 pages. A fresh
process gets a throwaway SQLite database in the bench work directory and reviews the generated 300-page contract
once with the offline engine (:func:`redline.bench.overview.reviewed_run`: exported, outcomes decided), so the
suggestions and the run's stats record are what a real 300-page review writes. It then copies that run until the
workspace holds 100 runs and 10,000 suggestions (each copy with the review's own stats, a known entry per
suggestion with its outcome, and a vote on one suggestion in five) and renders the analytics page through
Django's test client (the whole middleware stack, no network): the median of many requests, and the peak MB one
request allocates in Python.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

RUNS = 100
SUGGESTIONS = 10_000


def _workspace_in_use(run: Any, user: Any) -> None:
    """Copy ``run`` until the workspace holds :data:`RUNS` runs and :data:`SUGGESTIONS` suggestions."""
    from redline.models import AnalysisRun, Feedback, KnownEntry, Suggestion

    template = list(Suggestion.objects.filter(run=run).order_by("position"))
    outcomes = dict(KnownEntry.objects.filter(run=run).values_list("suggestion_id", "outcome"))
    per_run = SUGGESTIONS // RUNS
    Suggestion.objects.filter(run=run, position__gte=per_run).delete()  # every run alike: per_run suggestions
    KnownEntry.objects.filter(run=run, suggestion__isnull=True).delete()
    for n in range(1, RUNS):
        copy = AnalysisRun.objects.create(workspace=run.workspace, document_version=run.document_version,
                                          playbook_version=run.playbook_version, provider=run.provider,
                                          status=run.status, request_key=f"bench-{n}", stats=run.stats)
        made = Suggestion.objects.bulk_create([
            Suggestion(run=copy, sid=f"{s.sid}-{i}", position=i, anchor=s.anchor, kind=s.kind, rule_key=s.rule_key,
                       category=s.category, severity=s.severity, op=s.op, data=s.data)
            for i, s in zip(range(per_run), (template[i % len(template)] for i in range(per_run)), strict=True)])
        KnownEntry.objects.bulk_create([
            KnownEntry(workspace=run.workspace, document=run.document_version.document, run=copy, suggestion=s,
                       entry_id=f"bench-{n}-{i}", operation_type="REPLACE_TEXT", rule_key=s.rule_key,
                       outcome=outcomes.get(template[i % len(template)].pk, "pending"))
            for i, s in enumerate(made)])
        Feedback.objects.bulk_create([Feedback(suggestion=s, user=user, thumbs_up=i % 2 == 0)
                                      for i, s in enumerate(made) if i % 5 == 0])


def measure(contract: Path, repeat: int) -> dict[str, Any]:
    """In a process whose settings point at a fresh database: review, fill the workspace, time the page."""
    from .overview import _timed, reviewed_in_fresh_database

    run, user = reviewed_in_fresh_database(contract)
    from django.test import Client

    from redline.models import AnalysisRun, Suggestion

    _workspace_in_use(run, user)
    client = Client()
    client.force_login(user)
    seconds, mb = _timed(client, "/analytics/?time_range=all", repeat)
    return {"runs": AnalysisRun.objects.filter(workspace=run.workspace).count(),
            "suggestions": Suggestion.objects.filter(run__workspace=run.workspace).count(),
            "stats_bytes": len(json.dumps(run.stats)), "page_s": seconds, "page_mb": mb}


def analytics_row(pages: list[int], *, repeat: int, workdir: Path, out: TextIO) -> None:
    """The bench row for the largest contract (a fresh process and database)."""
    from .overview import in_fresh_process
    from .processes import generated_contract

    n = max(pages)
    m = in_fresh_process("redline.bench.analytics", generated_contract(workdir, n), repeat * 4, workdir=workdir,
                         name=f"analytics-{n}p")
    label = "analytics page (workspace in use)"
    out.write(f"{n:>5}  {label:<50} {m['page_s']:>8.3f} {m['page_mb']:>8.1f}  {m['suggestions']} suggestions in "
              f"{m['runs']} runs, each with a {m['stats_bytes'] // 1024} KB stats record\n")
    out.flush()

if __name__ == "__main__":
    print(json.dumps(measure(Path(sys.argv[1]), int(sys.argv[2]))))
