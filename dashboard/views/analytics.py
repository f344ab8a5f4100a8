"""Feedback analytics: KPI cards, SVG charts, the sortable rule health table, CSV export."""

from __future__ import annotations

import csv
from typing import Any

from django.http import HttpResponse
from django.views.decorators.http import require_GET

from redline.services.analytics import OUTCOMES, analytics_summary

from ..charts import Chart, Series, bar_chart, column_chart
from ..context import DashboardRequest, member_required
from ..forms import AnalyticsFilterForm
from ..http import render_page

OUTCOME_SERIES = (
    Series("accepted", "Accepted", "s-accepted"),
    Series("modified", "Modified", "s-modified"),
    Series("rejected", "Rejected", "s-rejected"),
    Series("pending", "Pending", "s-pending"),
    Series("missing", "Missing", "s-missing"),
    Series("unsent", "Not exported yet", "s-unsent"),
)
THUMB_SERIES = (Series("up", "Thumbs up", "s-up"), Series("down", "Thumbs down", "s-down"))
COUNT_SERIES = (Series("n", "Count", "s-count"),)
VALIDATOR_SERIES = (Series("n", "Suggestions", "s-count"),)
HEALTH_COLUMNS = (("rule", "Rule"), ("suggestions", "Suggestions"), ("acceptance_rate", "Accepted"),
                  ("rejection_rate", "Rejected"), ("thumbs_down_rate", "Thumbs down"))
CSV_FIELDS = ("rule", "title", "suggestions", *OUTCOMES, "acceptance_rate", "rejection_rate", "modification_rate",
              "thumbs_up", "thumbs_down", "thumbs_up_rate", "noisy", "silent")
# A rule of the playbook that made no suggestion in the period (a "silent" row of rule health).
EMPTY_BUCKET: dict[str, Any] = {"outcomes": dict.fromkeys(OUTCOMES, 0), "modification_rate": None,
                                "thumbs_up": 0, "thumbs_down": 0, "thumbs_up_rate": None}


def _outcomes(bucket: dict[str, Any]) -> dict[str, int]:
    """Outcome counts plus the suggestions never exported into a document (no outcome possible yet)."""
    counts = dict(bucket["outcomes"])
    counts["unsent"] = bucket["suggestions"] - sum(counts.values())
    return counts


def _charts(summary: dict[str, Any]) -> list[Chart]:
    titles = {r["rule"]: r["title"] for r in summary["rule_health"]}
    by = summary["by"]
    return [
        column_chart("chart-daily", "Suggestions and outcomes over time",
                     [(d["date"], _outcomes(d)) for d in summary["daily"]], OUTCOME_SERIES),
        bar_chart("chart-rules", "Outcomes by rule",
                  [(titles.get(k, k), _outcomes(b)) for k, b in by["rule"].items()], OUTCOME_SERIES, noun="rules"),
        bar_chart("chart-categories", "Thumbs by category",
                  [(k.replace("_", " "), {"up": b["thumbs_up"], "down": b["thumbs_down"]})
                   for k, b in by["category"].items()], THUMB_SERIES, noun="categories"),
        bar_chart("chart-reasons", "Follow-up reasons",
                  [(k.replace("_", " "), {"n": n}) for k, n in summary["thumbs"]["reasons"].items()],
                  COUNT_SERIES, noun="reasons"),
        bar_chart("chart-tags", "Feedback tags",
                  [(k.replace("_", " "), {"n": n}) for k, n in summary["thumbs"]["tags"].items()],
                  COUNT_SERIES, noun="tags"),
        bar_chart("chart-validator", "Validator status",
                  [(k, {"n": b["suggestions"]}) for k, b in by["validator_status"].items()],
                  VALIDATOR_SERIES, noun="statuses"),
    ]


def _health(summary: dict[str, Any], sort: str, descending: bool) -> list[dict[str, Any]]:
    """Rule health rows with their rejection counts: noisiest first, or sorted by ``sort``
    (rows without a value, such as a rate with nothing decided, sort last either way)."""
    by_rule = summary["by"]["rule"]
    rows = [{**r, "rejected": by_rule[r["rule"]]["outcomes"]["rejected"] if r["rule"] in by_rule else 0}
            for r in summary["rule_health"]]
    if not sort:
        return rows
    present = [r for r in rows if r[sort] is not None]
    missing = [r for r in rows if r[sort] is None]
    return sorted(present, key=lambda r: r[sort], reverse=descending) + missing


@member_required
@require_GET
def analytics(request: DashboardRequest) -> HttpResponse:
    """The report for the chosen filters; sorting swaps only the rule health table."""
    workspace = request.membership.workspace
    form = AnalyticsFilterForm.from_query(request.GET, workspace=workspace)
    time_range, playbook_id = form.values()
    summary = analytics_summary(workspace=workspace, time_range=time_range, playbook_id=playbook_id)
    sort = request.GET.get("sort", "")
    if sort not in dict(HEALTH_COLUMNS):
        sort = ""
    descending = request.GET.get("dir", "desc") != "asc"
    health = _health(summary, sort, descending)
    query = request.GET.copy()
    for key in ("sort", "dir"):
        query.pop(key, None)
    partial = "health" if request.htmx.target == "rule-health" else "report"
    return render_page(request, "dashboard/analytics.html", {
        "form": form, "summary": summary, "totals": summary["totals"], "charts": _charts(summary),
        "health": health, "sort": sort, "descending": descending, "filter_query": query.urlencode(),
        "health_columns": HEALTH_COLUMNS, "section": "analytics",
    }, partial=partial)


def _csv_cell(value: object) -> object:
    """Text that a spreadsheet would run as a formula (=, +, -, @) is prefixed with a quote."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


@member_required
@require_GET
def analytics_csv(request: DashboardRequest) -> HttpResponse:
    """Per rule: suggestions, outcome counts, rates and thumbs for the chosen filters."""
    workspace = request.membership.workspace
    time_range, playbook_id = AnalyticsFilterForm.from_query(request.GET, workspace=workspace).values()
    summary = analytics_summary(workspace=workspace, time_range=time_range, playbook_id=playbook_id)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="redline-rule-health-{time_range}.csv"'
    writer = csv.writer(response)
    writer.writerow(CSV_FIELDS)
    for row in summary["rule_health"]:
        bucket = summary["by"]["rule"].get(row["rule"], EMPTY_BUCKET)
        values = {**bucket, **bucket["outcomes"], **row}
        writer.writerow([_csv_cell(values[f]) for f in CSV_FIELDS])
    return response
