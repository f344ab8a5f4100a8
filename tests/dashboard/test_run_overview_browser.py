"""The run overview of a real 300-page review in headless Chromium: filter by clicking, the URL follows,
back/forward and reload give the same view; clean at 1440 and 360 px, with screenshots.

The run is the offline engine's review of ``tests/support/make_contract.py``'s 300-page
contract (:func:`redline.bench.overview.reviewed_run`, the same run ``redline bench`` times),
exported, with a quarter of its outcomes each pending, accepted, rejected and modified.
Screenshots: ``var/screenshots/run-overview-300p-<width>.png`` (and ``-filtered-``).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from redline.bench.overview import reviewed_run
from redline.bench.processes import generated_contract
from tests.dashboard.test_page_walk import new_context, overflow, serious_axe_violations, sign_in
from tests.support.browser import SHOTS, axe_source

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def contract_300(tmp_path_factory) -> bytes:
    return generated_contract(tmp_path_factory.mktemp("contract"), 300).read_bytes()


def severities_shown(page: Page) -> set[str]:
    return set(page.locator("article.suggestion h4 .badge[class*=sev-]").all_inner_texts())


def check_clean(page: Page, axe: str, errors: list[str]) -> None:
    page.mouse.move(0, 0)
    problems = [*errors, *(f"axe: {v}" for v in serious_axe_violations(page, axe))]
    if page.viewport_size["width"] <= 768 and (wider := overflow(page)):
        problems.append(wider)
    assert not problems, problems


def test_a_300_page_run_filters_by_clicking_with_real_urls(browser, base_url, alice, contract_300):
    run = reviewed_run(membership=alice.membership, data=contract_300, filename="msa-300p.docx")
    total = run.suggestions.count()
    assert total > 100, total  # a long review: more than four pages of cards
    axe = axe_source()
    url = f"/runs/{run.pk}/"
    for width in (1440, 360):
        context = new_context(browser, base_url, width)
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda msg, errors=errors: msg.type == "error" and errors.append(msg.text))
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        try:
            sign_in(page, "alice")
            page.goto(url)
            expect(page.get_by_role("heading", name=f"Overview: {total} suggestions")).to_be_visible()
            expect(page.locator("article.suggestion")).to_have_count(25)  # one page, not 40,000 px of cards
            expect(page.locator(".pager")).to_contain_text(f"Page 1 of {-(-total // 25)}")

            # Choosing a severity swaps the list in place and puts the filter in the address bar.
            page.get_by_label("Severity", exact=True).select_option("major")
            expect(page).to_have_url(re.compile(r"\?severity=major$"))
            expect(page.locator(".list-status")).to_contain_text("matching suggestions")
            assert severities_shown(page) == {"major"}
            major = page.locator(".list-status").inner_text()

            # A chip adds its filter to the current one.
            page.locator(".chips", has_text="Outcome").get_by_role("link", name=re.compile("^pending")).click()
            expect(page).to_have_url(re.compile(r"\?severity=major&outcome=pending$"))
            expect(page.get_by_label("Outcome", exact=True)).to_have_value("pending")
            expect(page.locator("#chip-outcome-pending")).to_be_focused()  # a keyboard user stays where they were
            pending = page.locator(".list-status").inner_text()
            assert pending != major and severities_shown(page) <= {"major"}

            # Back: the previous view, its filter form included; forward again.
            page.go_back()
            expect(page).to_have_url(re.compile(r"\?severity=major$"))
            expect(page.locator(".list-status")).to_have_text(major)
            expect(page.get_by_label("Outcome", exact=True)).to_have_value("")
            page.go_forward()
            expect(page.locator(".list-status")).to_have_text(pending)

            # Reload (or a pasted link) renders the same view on the server, without any script.
            page.reload()
            expect(page.locator(".list-status")).to_have_text(pending)
            expect(page.get_by_label("Severity", exact=True)).to_have_value("major")

            # Grouping by clause and the next page keep the filters.
            page.get_by_label("Group by").select_option("clause")
            expect(page).to_have_url(re.compile(r"\?severity=major&outcome=pending&group=clause$"))
            page.goto(f"{url}?group=clause")
            page.get_by_role("link", name="Next").click()
            expect(page).to_have_url(re.compile(r"\?group=clause&page=2$"))
            expect(page.locator(".pager")).to_contain_text("Page 2 of")
            assert not errors, errors

            # A top risk opens the page its card is on, scrolled to the card.
            page.goto(url)
            risk = page.locator(".risks").first.get_by_role("link").first
            card = risk.get_attribute("href").split("#")[1]
            risk.click()
            expect(page.locator(f"#{card}")).to_be_in_viewport()

            # Last (axe leaves empty style attributes that a history snapshot would carry): clean, and shots.
            for name, query in (("", ""), ("-filtered", "?severity=major&outcome=pending")):
                page.goto(url + query)
                page.wait_for_load_state("networkidle")
                check_clean(page, axe, errors)
                page.screenshot(path=str(SHOTS / f"run-overview-300p{name}-{width}.png"), full_page=True)
        finally:
            context.close()
