"""The pane's run overview in headless Chromium over the Office double: counts, then filters by clicking."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from playwright.sync_api import expect

from redline.models import AnalysisRun, KnownEntry
from redline.services.playbooks import playbook_default_install
from tests.addin.test_taskpane_browser import SEED, SIDE, review, sign_in
from tests.support.waiting import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LABELS = {"critical": "Critical", "major": "Major", "minor": "Minor"}


def test_overview_counts_the_run_and_its_filters_narrow_the_cards(alice, open_pane):
    playbook_default_install(workspace=alice.workspace)
    pane = open_pane(SEED, side=SIDE)
    page = pane.page
    sign_in(pane, alice)
    expect(page.locator("#overview")).to_be_hidden()  # nothing to sum up before a review
    review(pane)

    suggestions = list(AnalysisRun.objects.get().suggestions.all())
    severities = Counter(s.severity for s in suggestions)
    kinds = Counter(s.kind for s in suggestions)
    assert len(severities) >= 2 and len(kinds) >= 2, (severities, kinds)  # the filters have something to do
    overview = page.locator("#overview")
    expect(overview).to_be_visible()
    summary = overview.locator(".overview-summary")
    expect(summary).to_contain_text(f"{len(suggestions)} suggestion")
    for severity, n in severities.items():
        expect(summary).to_contain_text(f"{n} {severity}")

    # One severity: only its cards show, and the status says how many of all.
    severity, n = severities.most_common()[-1]
    page.get_by_label("Severity", exact=True).select_option(severity)
    expect(page.locator(".result:visible")).to_have_count(n)
    expect(overview.locator(".overview-status")).to_have_text(f"Showing {n} of {len(suggestions)}.")
    shown = page.locator(".severity:visible .badge").all_inner_texts()
    assert shown == [LABELS[severity]]  # the other severities' blocks are hidden with their cards

    # Filters combine: a kind on top of the severity.
    kind = next(s.kind for s in suggestions if s.severity == severity)
    both = sum(1 for s in suggestions if s.severity == severity and s.kind == kind)
    page.get_by_label("Kind", exact=True).select_option(kind)
    expect(page.locator(".result:visible")).to_have_count(both)

    # Nothing has been exported: every result is "not exported yet"; picking it keeps the same cards.
    page.get_by_label("Outcome", exact=True).select_option("none")
    expect(page.locator(".result:visible")).to_have_count(both)

    # Clear: everything again, focus back on the first filter.
    overview.get_by_role("button", name="Clear filters").click()
    expect(page.locator(".result:visible")).to_have_count(len(suggestions))
    expect(page.get_by_label("Check", exact=True)).to_be_focused()  # the first filter: playbook or drafting
    expect(overview.get_by_role("button", name="Clear filters")).to_be_hidden()

    # Apply all applies what the filters show, not the cards they hide.
    page.get_by_label("Severity", exact=True).select_option(severity)
    page.click("#apply-all")
    expect(page.locator("#summary")).to_have_text(re.compile("^Applied "))  # written after the report is sent
    assert wait_for(KnownEntry.objects.exists)
    applied = set(KnownEntry.objects.values_list("suggestion__severity", flat=True))
    assert applied == {severity}, applied
