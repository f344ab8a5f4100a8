"""The run page's honest summary: the service's words, with each rule line linked where a reviewer looks next."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from redline.analysis.review.status import STATUSES
from redline.models import AnalysisRun
from redline.services.run_summary import STATUS_LABELS, RuleLine, RunSummary, run_summary


@dataclass(frozen=True, slots=True)
class LinkedRule:
    line: RuleLine
    href: str


@dataclass(frozen=True, slots=True)
class RunPageSummary:
    summary: RunSummary
    rules: list[LinkedRule]

    @property
    def counts(self) -> list[tuple[str, int]]:
        """(status label, rules with it), worst first, statuses no rule has left out."""
        n = {status: sum(1 for r in self.rules if r.line.status == status) for status in STATUSES}
        return [(STATUS_LABELS[s], n[s]) for s in STATUSES if n[s]]


def run_page_summary(*, run: AnalysisRun) -> RunPageSummary | None:
    """The summary of a finished run, each rule linked to its suggestions (when it has new ones), else to the
    paragraph it read, else to the clause map (a clause not found) or the playbook (a rule not checked)."""
    summary = run_summary(run=run)
    if summary is None:
        return None
    run_url = reverse("dashboard:run_detail", kwargs={"run_id": run.pk})
    text_url = reverse("dashboard:document_detail", kwargs={"document_id": run.document_version.document_id})
    text_url += f"?version={run.document_version_id}"
    playbook_url = reverse("dashboard:playbook_version", kwargs={
        "playbook_id": run.playbook_version.playbook_id, "number": run.playbook_version.number})

    def href(line: RuleLine) -> str:
        if line.suggestions:
            return f"{run_url}?rule={line.key}#run-results"
        if line.status == "not_checked":
            return playbook_url
        if line.anchor:
            return f"{text_url}#p-{line.anchor}"
        return "#clauses"

    return RunPageSummary(summary, [LinkedRule(line, href(line)) for line in summary.rules])
