"""Setting up a team in headless Chromium against the real server: a new workspace from the Team page, switched
to, a contract uploaded into it, the default playbook installed from the offer, then a colleague added and
made an admin. Screenshots: ``var/screenshots/team-*.png``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from redline.models import Membership, Playbook, Role, Workspace
from redline.services.accounts import user_create
from tests.dashboard.conftest import CONTRACT, PASSWORD
from tests.dashboard.test_page_walk import new_context, sign_in
from tests.support.browser import SHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def shot(page: Page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"team-{name}.png"), full_page=True)


def test_a_new_workspace_gets_a_playbook_and_a_team(browser, base_url, alice):
    user_create(username="carol", password=PASSWORD)  # has an account, in no workspace yet
    context = new_context(browser, base_url, 1280)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # A refused change is a 409 the browser logs as a failed load; that one is the point of the step.
    page.on("console", lambda msg: msg.type == "error" and "status of 409" not in msg.text and errors.append(msg.text))
    try:
        sign_in(page, "alice")
        page.get_by_role("link", name="Team").click()
        page.get_by_label("Workspace name").fill("Alice Litigation")
        page.get_by_role("button", name="Create workspace").click()
        expect(page.locator("#flash")).to_contain_text("Workspace “Alice Litigation” created, with you as its admin")
        page.wait_for_load_state("load")  # the switcher listens once the deferred script has run
        page.get_by_label("Workspace", exact=True).select_option(label="Alice Litigation")
        expect(page.get_by_text("Contracts uploaded to Alice Litigation")).to_be_visible()

        # An upload into the empty workspace: the offer is where the chooser will be.
        page.get_by_label("Contract (.docx)").set_input_files({"name": "msa.docx", "mimeType": DOCX,
                                                               "buffer": CONTRACT})
        page.get_by_role("button", name="Upload").click()
        expect(page.locator("#flash")).to_contain_text("Choose a playbook below")
        expect(page.get_by_role("heading", name="This workspace has no playbook yet")).to_be_visible()
        expect(page.get_by_role("link", name="Create a playbook")).to_be_visible()
        shot(page, "01-first-playbook-offer")
        page.get_by_role("button", name="Install the default playbook").click()
        expect(page.locator("#flash")).to_contain_text("(24 rules). Choose it to review a contract.")
        chooser = page.get_by_label("Playbook", exact=True)
        expect(chooser).to_be_visible()
        expect(chooser.locator("option")).to_have_count(1)
        expect(page.get_by_role("button", name="Review this version")).to_be_visible()
        expect(page.get_by_text("no playbook yet")).to_have_count(0)
        shot(page, "02-chooser")
        workspace = Workspace.objects.get(name="Alice Litigation")
        assert Playbook.objects.get(workspace=workspace).versions.get().rules.count() == 24

        # The team: add Carol, be told why she cannot be added twice, make her an admin.
        page.get_by_role("link", name="Team").click()
        page.evaluate("window.__noReload = true")
        add = page.get_by_role("form", name="Someone with an account")
        add.get_by_label("Username or email").fill("carol")
        add.get_by_role("button", name="Add member").click()
        expect(page.get_by_role("status")).to_have_text("carol added as a reviewer.")
        expect(page.get_by_role("status")).to_be_focused()
        row = page.locator("tr", has_text="carol")
        expect(row.get_by_label("Role of carol")).to_have_value("reviewer")

        add = page.get_by_role("form", name="Someone with an account")
        add.get_by_label("Username or email").fill("carol")
        add.get_by_role("button", name="Add member").click()
        expect(add.locator(".errorlist")).to_have_text("carol is already a member of Alice Litigation.")
        expect(add.get_by_label("Username or email")).to_be_focused()

        row.get_by_label("Role of carol").select_option("admin")
        row.get_by_role("button", name="Change role of carol").click()
        expect(page.get_by_role("status")).to_have_text("carol is now an admin.")
        expect(page.locator("tr", has_text="carol").get_by_label("Role of carol")).to_have_value("admin")
        expect(page.get_by_label("Role of alice")).to_be_visible()  # two admins: Alice's role may change now
        assert page.evaluate("window.__noReload === true")  # all of it without a page load
        shot(page, "03-team")
        assert Membership.objects.get(workspace=workspace, user__username="carol").role == Role.ADMIN
    finally:
        context.close()
    assert not errors, errors
