"""An inline rule edit posted after the session expired is not lost (issue #30, 7), in headless Chromium.

The session ends in two ways a browser sees: the session cookie alone goes (the
server answers the htmx post with a redirect to sign-in), or every cookie goes
(the CSRF check answers "page out of date" first). Either way, after signing in
again the editor is open with what was typed, red-line rows added on the page
included, and saving it stores it.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from redline.services.playbook_edits import playbook_latest_version
from redline.services.playbooks import playbook_default_install
from tests.dashboard.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POSITION = "Payment within thirty (30) days of a valid invoice, disputed amounts excepted."
ROW = "#edit-payment-terms-red_lines-{}-{}"


def sign_in(page: Page) -> None:
    """On the sign-in page (however it was reached): sign in as Alice."""
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()


@pytest.mark.parametrize("expiry", ["session-cookie", "all-cookies"])
def test_an_inline_edit_posted_after_the_session_expired_comes_back_after_sign_in(page: Page, alice, expiry: str):
    version = playbook_default_install(workspace=alice.workspace)
    page.goto(f"/playbooks/{version.playbook_id}/")
    sign_in(page)
    page.locator("#rule-payment-terms").get_by_role("link", name=re.compile("^Edit")).click()
    form = page.locator("#rule-payment-terms form")
    form.get_by_label("Standard position").fill(POSITION)
    page.fill(ROW.format(2, "pattern"), r"\bnet\s+90\b")  # the form's empty row
    page.fill(ROW.format(2, "message"), "Net 90 is too long.")
    form.get_by_role("button", name="Add another red line").click()  # a row the server never rendered
    expect(page.locator(ROW.format(3, "pattern"))).to_be_focused()
    page.fill(ROW.format(3, "pattern"), r"\bpay\s+when\s+paid\b")
    page.fill(ROW.format(3, "message"), "Pay-when-paid shifts the risk.")

    page.context.clear_cookies(**({"name": "sessionid"} if expiry == "session-cookie" else {}))
    form.get_by_role("button", name="Save rule").click()
    if expiry == "all-cookies":
        alert = page.locator("#rule-payment-terms").get_by_role("alert")
        expect(alert).to_contain_text("This page is out of date")
        expect(alert).to_contain_text("Your changes to this rule are kept in this browser")
        alert.get_by_role("button", name="Reload the page").click()
    sign_in(page)

    expect(page).to_have_url(re.compile(rf"/playbooks/{version.playbook_id}/$"))
    form = page.locator("#rule-payment-terms form")
    expect(form.get_by_label("Standard position")).to_have_value(POSITION)
    expect(page.locator(ROW.format(3, "message"))).to_have_value("Pay-when-paid shifts the risk.")
    expect(form.get_by_role("status")).to_contain_text("they were not saved")
    assert version.playbook.versions.count() == 1
    form.get_by_role("button", name="Save rule").click()
    expect(page.locator("#rule-payment-terms .pos-standard")).to_contain_text(POSITION)
    spec = playbook_latest_version(playbook=version.playbook).rules.get(key="payment-terms").spec
    assert spec["preferred_position"] == POSITION
    assert [f["pattern"] for f in spec["red_flags"]][-2:] == [r"\bnet\s+90\b", r"\bpay\s+when\s+paid\b"]

    drafts = "Object.keys(sessionStorage).filter(k => k.startsWith('redline.draft.'))"
    assert page.evaluate(drafts) == []  # saved: the draft is gone ...
    page.reload()
    page.wait_for_load_state("networkidle")
    expect(page.locator("#rule-payment-terms")).to_contain_text(POSITION)
    expect(page.locator("form[data-draft]")).to_have_count(0)  # ... and no editor reopens
