"""The dashboard in a real browser: headless Debian Chromium driven by Playwright, against a real uvicorn.

Each test signs in like a person, works through one flow with mouse and keyboard,
and checks what is on screen (and where keyboard focus went) after htmx swaps.
Screenshots of every page go to ``var/screenshots/`` for people to look at.
"""

from __future__ import annotations

import re
from pathlib import Path
from unittest import mock

import pytest
from playwright.sync_api import Browser, Page, expect

from redline.jobs.worker import in_process_worker
from redline.models import ApiKey, Feedback, Role
from redline.services.accounts import api_key_issue, membership_create, user_create
from redline.services.documents import document_version_create
from redline.services.playbooks import playbook_default_install
from redline.services.preferences import preferences_current
from redline.services.runs import run_request
from tests.dashboard.conftest import CONTRACT, PASSWORD, seed_run
from tests.support.browser import SHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_in(page: Page, username: str = "alice") -> None:
    page.goto("/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Documents")).to_be_visible()


def shot(page: Page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def mark_page(page: Page) -> None:
    """A flag that survives htmx swaps but not a page load: proves "without reload"."""
    page.evaluate("window.__noReload = true")


def not_reloaded(page: Page) -> bool:
    return page.evaluate("window.__noReload === true")


def focused(page: Page) -> str:
    return page.evaluate("(() => { const e = document.activeElement;"
                         " return (e.id || '') + '|' + (e.getAttribute('aria-label') || e.textContent.trim()); })()")


def test_sign_in_and_create_a_rule_inline(page: Page, alice):
    version = playbook_default_install(workspace=alice.workspace)
    sign_in(page)
    shot(page, "01-documents-empty")
    page.get_by_role("link", name="Playbooks").click()
    shot(page, "02-playbooks")
    page.get_by_role("link", name=version.playbook.name).click()
    expect(page.locator("#rules tbody tr")).to_have_count(24)
    mark_page(page)

    page.get_by_role("link", name="Add a rule").click()
    form = page.get_by_role("form", name="Add a rule")
    title = form.get_by_label("Title:")
    expect(title).to_be_focused()  # focus moves into the form that appeared, on the lawyer's first field
    title.fill("Source code escrow")
    form.get_by_label("Key:").fill("escrow")
    form.get_by_label("Category:").select_option("intellectual_property")
    form.get_by_label("Severity:").select_option("minor")
    form.get_by_label("Keywords:").fill("escrow")
    form.get_by_role("button", name="Add rule").click()

    row = page.locator("#rule-escrow")
    expect(row).to_contain_text("Source code escrow")
    expect(row).to_be_focused()
    expect(page.get_by_role("status")).to_contain_text("saved as version 2")
    assert not_reloaded(page)
    shot(page, "03-playbook-rule-added")

    # Keyboard: toggle the new rule off with Space; focus stays on the switch after the swap.
    switch = row.get_by_role("switch")
    switch.focus()
    page.keyboard.press("Space")
    expect(page.locator("#rule-escrow").get_by_role("switch")).to_have_attribute("aria-checked", "false")
    expect(page.locator("#rule-escrow").get_by_role("switch")).to_be_focused()
    # …and move it up with Enter; focus stays on the same button.
    page.locator("#rule-escrow").get_by_role("button", name="Move “Source code escrow” up").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#rules tbody tr").nth(23)).to_have_id("rule-escrow")
    expect(page.get_by_role("button", name="Move “Source code escrow” up")).to_be_focused()
    assert not_reloaded(page)
    assert [v.number for v in version.playbook.versions.all()] == [4, 3, 2, 1]


def test_a_playbook_leads_with_each_rules_positions_and_can_be_created(page: Page, alice):
    sign_in(page)
    page.get_by_role("link", name="Playbooks").click()
    expect(page.get_by_text("redline demo")).to_have_count(0)
    page.get_by_label("Name").fill("SaaS – customer side")
    page.get_by_label("A copy of the built-in commercial playbook").check()
    page.get_by_role("button", name="Create playbook").click()
    expect(page.get_by_role("heading", name="SaaS – customer side")).to_be_visible()
    expect(page.locator("#flash")).to_contain_text("created with 24 rules")
    liability = page.locator("#rule-limitation-of-liability")
    expect(liability.locator(".pos-standard")).to_contain_text("Mutual cap at 100% of the Charges")  # no Edit needed
    expect(liability.locator(".pos-fallbacks li")).to_have_count(3)
    expect(liability.locator(".pos-red")).to_contain_text("Liability is expressly unlimited.")
    expect(liability.locator(".pos-red")).to_contain_text("Liability cap percent of fees: at least 100%.")
    shot(page, "20-playbook-positions")


def test_edit_with_a_validation_error_then_fix_it(page: Page, alice):
    version = playbook_default_install(workspace=alice.workspace)
    sign_in(page)
    page.goto(f"/playbooks/{version.playbook_id}/")
    mark_page(page)
    page.locator("#rule-payment-terms").get_by_role("link", name=re.compile("^Edit")).click()
    form = page.locator("#rule-payment-terms form")
    expect(form.get_by_label("Title:")).to_be_focused()
    expect(form.get_by_label("Key:")).to_be_disabled()  # fixed once the rule exists
    expect(form.get_by_label("Standard position")).to_have_value(re.compile("sixty \\(60\\) days"))
    form.get_by_label("Title:").fill("")
    form.get_by_role("button", name="Save rule").click()

    title = page.locator("#edit-payment-terms-title")
    expect(page.locator("#edit-payment-terms-title_error")).to_contain_text("This field is required")
    expect(title).to_be_focused()
    expect(title).to_have_attribute("aria-invalid", "true")
    shot(page, "04-rule-edit-validation-error")

    title.fill("Payment period")
    page.locator("#edit-payment-terms-severity").select_option("critical")
    page.get_by_role("button", name="Save rule").click()
    row = page.locator("#rule-payment-terms")
    expect(row).to_contain_text("Payment period")
    expect(row.locator(".badge.sev-critical")).to_have_text("critical")
    expect(row).to_be_focused()
    assert not_reloaded(page)
    rule = version.playbook.versions.order_by("-number").first().rules.get(key="payment-terms")
    assert (rule.title, rule.severity) == ("Payment period", "critical") and rule.spec["thresholds"]


def test_try_a_rule_live(page: Page, alice):
    version = playbook_default_install(workspace=alice.workspace)
    sign_in(page)
    page.goto(f"/playbooks/{version.playbook_id}/")
    page.locator("#rule-payment-terms").get_by_role("link", name=re.compile("^Try")).click()
    box = page.get_by_label("Clause text")
    box.type("The Customer shall pay each undisputed invoice within ninety (90) days of receipt.", delay=2)
    results = page.locator("#try-results")
    expect(results).to_contain_text("Which party do you act for?")  # no side yet: a question, no edit
    page.get_by_label("Acting for").type("Supplier", delay=2)  # the party paid: ninety days is its finding
    expect(results).to_contain_text("sixty (60) days")  # no button pressed: debounced htmx
    expect(results).to_contain_text("1 suggestion")
    shot(page, "05-try-rule")
    box.fill("The Customer shall pay within thirty (30) days.")
    expect(results).to_contain_text("this text passes the rule")


def test_analytics_charts_after_seeded_feedback(page: Page, alice, simple_docx):
    seeded = seed_run(alice, simple_docx, playbook_default_install(workspace=alice.workspace))
    sign_in(page)
    page.get_by_role("link", name="Analytics").click()
    expect(page.locator("svg[role=img]")).to_have_count(6)
    expect(page.locator(".kpi").first).to_contain_text("10")
    noisy = page.locator("tr.noisy")
    expect(noisy).to_contain_text("late-payment")
    shot(page, "06-analytics")
    mark_page(page)
    page.get_by_role("link", name=re.compile("^Accepted")).click()
    expect(page.locator("th[aria-sort]")).to_have_attribute("aria-sort", "descending")
    expect(page.locator("#rule-health tbody tr").first).to_contain_text("payment-terms")
    assert not_reloaded(page) and "sort=acceptance_rate" in page.url
    page.get_by_label("Time range").select_option("all")
    expect(page).to_have_url(re.compile(r"time_range=all"))
    expect(page.locator("#report .kpi").first).to_contain_text("10")
    noisy.get_by_role("link", name="6 rejections").click()
    expect(page.get_by_role("heading", name=re.compile("Rejected suggestions"))).to_be_visible()
    expect(page.locator(f"#rejection-{seeded.rejection.pk}")).to_be_visible()
    shot(page, "07-rejections")
    page.get_by_role("link", name=f"#{seeded.rejection.pk}", exact=True).click()
    expect(page.get_by_text("Keep late fees as drafted.")).to_be_visible()  # the line learned from it
    shot(page, "07b-rejection")
    page.goto(f"/runs/{seeded.run.pk}/")
    shot(page, "08-run-seeded")


def test_pages_read_without_javascript(browser: Browser, base_url: str, alice, simple_docx):
    seeded = seed_run(alice, simple_docx, playbook_default_install(workspace=alice.workspace))
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    try:
        page = context.new_page()
        sign_in(page)
        page.goto("/analytics/")
        expect(page.locator("svg[role=img]")).to_have_count(6)
        page.goto(f"/playbooks/{seeded.run.playbook_version.playbook_id}/?q=payment")
        expect(page.locator("#rules tbody tr")).to_have_count(2)
        page.goto(f"/runs/{seeded.run.pk}/")
        expect(page.locator("article.suggestion")).to_have_count(10)
        page.goto("/preferences/")
        expect(page.locator("#preview h1")).to_have_text("Review Preferences")
    finally:
        context.close()


def test_edit_and_restore_preferences(page: Page, alice, simple_docx):
    seed_run(alice, simple_docx, playbook_default_install(workspace=alice.workspace))
    sign_in(page)
    page.get_by_role("link", name="Preferences").click()
    editor = page.get_by_label("Preferences (Markdown)")
    editor.fill("# Our positions\n\n- **Liability**: mutual caps only.")
    preview = page.locator("#preview")
    expect(preview.locator("h1")).to_have_text("Our positions")  # live preview while typing
    expect(preview.locator("strong")).to_have_text("Liability")
    page.get_by_label("Reason for this change").fill("Rewrite for the 2026 policy")
    shot(page, "09-preferences-editing")
    page.get_by_role("button", name="Save as a new version").click()
    expect(page.get_by_text("Preferences saved as version 2.")).to_be_visible()
    assert preferences_current(workspace=alice.workspace).text.startswith("# Our positions")
    expect(page.get_by_role("link", name=re.compile("rejection #"))).to_be_visible()  # learned line provenance

    page.get_by_role("link", name="Diff of v1").click()
    expect(page.locator(".d-add").first).to_be_visible()
    shot(page, "10-preferences-version")
    page.get_by_role("button", name="Restore v1").click()
    expect(page.get_by_text("Version 1 restored as version 3.")).to_be_visible()
    current = preferences_current(workspace=alice.workspace)
    assert current.number == 3 and "Keep late fees as drafted." in current.text
    expect(page.locator("#preview")).to_contain_text("Keep late fees as drafted.")


def test_watch_a_run_reach_done(page: Page, alice):
    playbook = playbook_default_install(workspace=alice.workspace)
    version, *_ = document_version_create(workspace=alice.workspace, data=CONTRACT, filename="msa.docx",
                                            uploaded_by=None)
    assert in_process_worker().wait_idle(60)
    # Hold the job back until the page is open, so the page really watches it go from queued to done.
    with mock.patch("redline.jobs.dispatch.job_dispatch") as dispatch:
        run, _ = run_request(version=version, playbook_version=playbook, provider="offline", acting_for="Supplier")
    job_id = dispatch.call_args.kwargs["job_id"]
    sign_in(page)
    shot(page, "11-documents")
    page.get_by_role("link", name="msa").click()
    shot(page, "11b-document")
    page.get_by_role("link", name=f"Run #{run.pk}").click()
    live = page.locator("#run-live")
    expect(live.locator("progress")).to_be_visible()
    expect(live.get_by_role("status")).to_contain_text("Queued")
    mark_page(page)
    in_process_worker().submit(job_id)
    expect(live.get_by_role("status")).to_contain_text("Done", timeout=30_000)
    expect(live.locator("progress")).to_have_count(0)
    expect(live.locator("article.suggestion").first).to_be_visible()
    expect(live).to_contain_text("sixty (60) days")
    assert not_reloaded(page)
    shot(page, "12-run-done")

    # Feedback: a thumbs-down asks an optional reason; focus goes to it.
    first = live.locator("article.suggestion").first
    first.get_by_role("button", name=re.compile("No")).click()
    reason = first.get_by_label("What was wrong? (optional)")
    expect(reason).to_be_focused()
    reason.select_option("too_strict")
    first.get_by_role("button", name="Send").click()
    expect(first).to_contain_text("Your reason: too strict")
    votes = Feedback.objects.filter(suggestion__run=run)
    assert [(v.thumbs_up, v.tags) for v in votes] == [(False, ["overly_cautious", "false_positive"])]


def test_reviewer_gets_a_403_page(page: Page, alice):
    user = user_create(username="carol", password=PASSWORD)
    membership_create(user=user, workspace=alice.workspace, role=Role.REVIEWER)
    sign_in(page, "carol")
    expect(page.get_by_role("link", name="API keys")).to_have_count(0)
    response = page.goto("/keys/")
    assert response is not None and response.status == 403
    expect(page.get_by_role("heading", name="You can't do that here")).to_be_visible()
    shot(page, "13-forbidden")


def test_create_and_revoke_an_api_key(page: Page, alice):
    old = api_key_issue(membership=alice.membership, name="Old laptop")
    sign_in(page)
    page.get_by_role("link", name="API keys").click()
    page.get_by_label("Name:").fill("Word add-in")
    page.get_by_role("button", name="Create key").click()
    secret = page.get_by_label("New API key")
    expect(secret).to_have_value(re.compile(r"^rl_[0-9a-f]{12}_"))
    expect(page.get_by_role("heading", name="New key created")).to_be_focused()
    page.get_by_role("button", name="Copy").click()
    expect(page.locator("[data-copy-status]")).not_to_be_empty()
    shot(page, "14-api-key-created")
    assert ApiKey.objects.filter(name="Word add-in", revoked_at__isnull=True).exists()

    page.on("dialog", lambda dialog: dialog.accept())
    row = page.locator(f"#key-{old.api_key.pk}")
    row.get_by_role("button", name=re.compile("^Revoke")).click()
    expect(page.locator(f"#key-{old.api_key.pk}")).to_contain_text("Revoked")
    expect(page.locator(f"#key-{old.api_key.pk} .badge")).to_be_focused()
    shot(page, "15-api-key-revoked")
    old.api_key.refresh_from_db()
    assert old.api_key.revoked_at is not None


def test_history_and_import_preview(page: Page, alice):
    version = playbook_default_install(workspace=alice.workspace)
    sign_in(page)
    page.goto(f"/playbooks/{version.playbook_id}/")
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#rule-indemnity").get_by_role("button", name=re.compile("^Delete")).click()
    expect(page.locator("#rule-indemnity")).to_have_count(0)
    page.get_by_role("link", name="Version history").click()
    shot(page, "16-playbook-history")
    page.get_by_role("link", name="What changed in v2").click()
    expect(page.get_by_text("1 removed")).to_be_visible()
    shot(page, "17-playbook-diff")
    page.goto(f"/playbooks/{version.playbook_id}/versions/1/")
    page.get_by_role("button", name="Restore v1").click()
    expect(page.get_by_text("Version 1 restored as version 3.")).to_be_visible()
    expect(page.locator("#rule-indemnity")).to_be_visible()

    page.get_by_role("link", name="Import…").click()
    source = (Path(__file__).resolve().parents[2] / "redline/analysis/playbook/default.yaml").read_text()
    page.get_by_label("…or paste it").fill(source.replace("title: Indemnities", "title: Indemnities and defence", 1))
    page.get_by_role("button", name="Preview changes").click()
    expect(page.get_by_role("heading", name=re.compile("^Preview"))).to_be_focused()
    shot(page, "18-import-preview")
    expect(page.get_by_text("1 changed; 23 unchanged")).to_be_visible()
    page.get_by_role("button", name="Apply these changes").click()
    expect(page.locator("#flash")).to_contain_text("as version 4")
    expect(page.locator("#rule-indemnity")).to_contain_text("Indemnities and defence")


def test_a_stale_page_says_so_next_to_the_action_and_offers_a_reload(page: Page, alice):
    version = playbook_default_install(workspace=alice.workspace)
    sign_in(page)
    page.goto(f"/playbooks/{version.playbook_id}/")
    other = page.context.new_page()  # another tab: sign out and in again, which gives the session a new CSRF token
    other.goto("/")
    other.get_by_role("button", name="Log out").click()
    sign_in(other)
    other.close()

    switch = page.locator("#rule-payment-terms").get_by_role("switch")
    switch.click()
    alert = page.locator("#rule-payment-terms").get_by_role("alert")
    expect(alert).to_contain_text("This page is out of date: you signed in or out since it was loaded")
    expect(alert).not_to_contain_text("permission")
    expect(page.locator("#flash")).to_be_empty()  # not at the top of the page, out of sight
    shot(page, "19-stale-page")
    assert version.playbook.versions.count() == 1  # nothing was saved
    alert.get_by_role("button", name="Reload the page").click()
    page.locator("#rule-payment-terms").get_by_role("switch").click()
    expect(page.locator("#rule-payment-terms").get_by_role("switch")).to_have_attribute("aria-checked", "false")
    assert version.playbook.versions.count() == 2
