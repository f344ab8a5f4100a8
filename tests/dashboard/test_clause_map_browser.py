"""The clause map of a real contract in headless Chromium (issue #30, point 5): three states, each explained,
every category in a lawyer's words, the playbook rows that CUAD does not label found; clean at 1440 and
360 px (console, axe, no sideways scroll), with screenshots ``var/screenshots/clause-map-<width>.png``."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from redline.services.documents import document_version_create
from tests.clauses.conftest import SLICE
from tests.dashboard.test_page_walk import signed_in_at_widths
from tests.support.browser import SHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_clause_map_reads_as_a_lawyer_reads_it(browser, base_url, alice):
    data = (SLICE / "dev-docx" / "c0292.docx").read_bytes()  # CUAD dev
    version, *_ = document_version_create(workspace=alice.workspace, data=data, filename="c0292.docx",
                                          uploaded_by=alice.membership.user)
    for page, width, check in signed_in_at_widths(browser, base_url, "alice"):
        page.goto(f"/documents/{version.document_id}/")
        clauses = page.locator("#clauses")
        expect(clauses.locator(".clause-legend dt")).to_have_text(["present", "absent", "not sure"])
        expect(clauses.locator(".clause-legend dd").nth(2)).to_contain_text("Neither found nor ruled out")
        states = set(clauses.locator(".clause-row .badge").all_inner_texts())
        assert states <= {"present", "absent", "not sure"}, states
        for label in ("Right of first refusal / offer / negotiation", "IP ownership assignment", "Unlimited licence"):
            expect(clauses.get_by_text(label, exact=True)).to_be_visible()
        expect(clauses.get_by_text("Rofr/Rofo/Rofn")).to_have_count(0)
        playbook = clauses.locator(".clause-group").filter(has_text="Playbook categories")
        for label in ("Termination", "Warranties", "Payment terms"):
            row = playbook.locator(".clause-row").filter(has=page.get_by_text(label, exact=True))
            expect(row.locator(".badge")).to_have_text("present")
        page.screenshot(path=str(SHOTS / f"clause-map-{width}.png"), full_page=True)
        check()
