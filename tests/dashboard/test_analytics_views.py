"""Analytics page: KPI cards, SVG charts with text alternatives, rule health (sortable, noisy), CSV, filters."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from redline.models import Suggestion
from tests.dashboard.conftest import HTMX


@pytest.mark.django_db
def test_kpis_and_charts_from_seeded_feedback(reviewer, seeded):
    page = reviewer.get("/analytics/").content.decode()
    kpis = re.findall(r'kpi-value">([^<]+)</span><span class="kpi-label">([^<(]+)', page)
    assert {label.strip(): value for value, label in kpis} == {  # rates of the 9 decided (1 is pending)
        "Suggestions": "10", "Acceptance rate": "33%", "Rejection rate": "67%", "Thumbs-up rate": "67%",
        "Hallucination drops": "2", "Validator FAIL share": "10%"}
    charts = re.findall(r'<svg viewBox="[^"]+" width="480" height="\d+" role="img" aria-labelledby="(chart-[\w]+)-t', page)
    assert charts == ["chart-daily", "chart-rules", "chart-categories", "chart-reasons", "chart-tags",
                      "chart-validator"]
    # Text alternatives: a summary in <desc> and a data table per chart.
    assert "Outcomes by rule: 2 rules, 10 in all; the largest is Late payment interest and fees (6)." in page
    assert page.count('<details class="chart-data">') == 6
    assert re.search(r'<th scope="row">Late payment interest and fees</th><td>0</td><td>0</td><td>6</td>', page)
    assert re.search(r'<rect class="s-rejected"[^>]*><title>Late payment interest and fees: 6 rejected</title>', page)
    assert "<script" not in page.split("<main", 1)[1]  # charts need no JavaScript


@pytest.mark.django_db
def test_rule_health_highlights_noisy_rules_and_links_to_their_rejections(reviewer, seeded):
    page = reviewer.get("/analytics/").content.decode()
    noisy = re.search(r'<tr class="noisy">(.*?)</tr>', page, re.S).group(1)
    assert "late-payment" in noisy and "⚠ Noisy" in noisy
    assert '<a href="/rejections/?rule=late-payment">6 rejections</a>' in noisy
    rejections = reviewer.get("/rejections/?rule=late-payment").content.decode()
    assert f'href="/rejections/{seeded.rejection.pk}/"' in rejections
    assert reviewer.get("/rejections/?rule=payment-terms").content.decode().count('<tr id="rejection-') == 0


@pytest.mark.django_db
def test_rule_health_lists_every_rule_and_flags_the_silent_ones(reviewer, seeded):
    page = reviewer.get("/analytics/").content.decode()
    health = page.split('id="rule-health"', 1)[1]
    assert health.count("<tr class=") == 24  # the whole playbook, not only the 2 rules that fired
    silent = re.search(r'<tr class="silent">\s*<th scope="row">Limitation of liability .*?</tr>', health, re.S).group(0)
    assert "Silent" in silent and "no suggestion in this period" in silent
    assert silent.count("<td>—</td>") == 3 and "0%" not in silent  # nothing decided: "—", never 0%
    assert "Late payment interest and fees" in health  # full names, from the playbook


@pytest.mark.django_db
def test_rejections_name_the_rule_and_strike_only_the_changed_words(reviewer, seeded):
    entry = seeded.rejection.entry
    entry.original_text = "The Supplier shall deliver the Goods within ten days."
    entry.new_text = "The Supplier shall deliver the Products within ten days."
    entry.save()
    for page in (reviewer.get("/rejections/").content.decode(),
                 reviewer.get(f"/rejections/{seeded.rejection.pk}/").content.decode()):
        assert "Late payment" in page  # the rule's title, not only its key
        assert "<del>Goods </del>" in page and "<ins>Products </ins>" in page
        assert "<del>The Supplier" not in page  # the unchanged words are not struck


@pytest.mark.django_db
def test_rule_health_sorting(reviewer, seeded):
    def order(**params):
        body = reviewer.get("/analytics/", params, HTTP_HX_TARGET="rule-health", **HTMX).content.decode()
        assert body.lstrip().startswith('<div id="rule-health">')
        return re.findall(r'<th scope="row">[^<]+<code class="small">([\w-]+)</code>', body), body

    rules, _ = order()
    assert rules[:2] == ["late-payment", "payment-terms"] and len(rules) == 24  # noisiest first, silent ones last
    rules, body = order(sort="acceptance_rate", dir="desc", time_range="all")
    assert rules[:2] == ["payment-terms", "late-payment"]  # rules with no rate sort last either way
    assert 'aria-sort="descending"' in body and "time_range=all&amp;sort=acceptance_rate&amp;dir=asc" in body
    rules, _ = order(sort="acceptance_rate", dir="asc")
    assert rules[:2] == ["late-payment", "payment-terms"]


@pytest.mark.django_db
def test_filters_and_csv_export(reviewer, seeded):
    Suggestion.objects.filter(run=seeded.run, position__lt=4).update(created_at=timezone.now() - timedelta(days=40))
    assert 'kpi-value">6<' in reviewer.get("/analytics/", {"time_range": "30d"}).content.decode()
    assert 'kpi-value">10<' in reviewer.get("/analytics/", {"time_range": "all"}).content.decode()
    other = reviewer.get("/analytics/", {"time_range": "all", "playbook": "999999"}).content.decode()
    assert 'kpi-value">10<' in other  # an unknown playbook is not a choice: ignored like any bad filter
    mine = reviewer.get("/analytics/", {"time_range": "all", "playbook": seeded.run.playbook_version.playbook_id})
    assert 'kpi-value">10<' in mine.content.decode() and 'selected>Default commercial' in mine.content.decode()
    resp = reviewer.get("/analytics/export.csv", {"time_range": "all"})
    assert resp["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(resp.content.decode())))
    by_rule = {r["rule"]: r for r in rows}
    assert by_rule["late-payment"]["rejected"] == "6" and by_rule["late-payment"]["noisy"] == "True"
    assert by_rule["payment-terms"]["accepted"] == "3" and by_rule["payment-terms"]["pending"] == "1"


@pytest.mark.django_db
def test_csv_cells_cannot_become_spreadsheet_formulas(reviewer, seeded):
    # A rule no playbook has any more: its title comes from the suggestions themselves.
    Suggestion.objects.filter(run=seeded.run).update(rule_key="gone", data={"rule_title": "=HYPERLINK(\"http://evil\")"})
    rows = list(csv.reader(io.StringIO(reviewer.get("/analytics/export.csv").content.decode())))
    assert all(not cell.startswith("=") for row in rows for cell in row)
    assert any(cell.startswith("'=HYPERLINK") for row in rows for cell in row)


@pytest.mark.django_db
def test_empty_workspace_has_no_charts_but_says_so(admin):
    page = admin.get("/analytics/").content.decode()
    assert "<svg" not in page and page.count("No data for this selection.") == 6
    assert "No suggestions in this period." in page
